/** The retry policy: how many retries, and how long each waits (exponential with jitter, or Retry-After). */
export interface RetryPolicy {
  /** Retries after the first attempt. */
  max: number;
  baseMs: number;
  maxMs: number;
}

export const DEFAULT_RETRIES: RetryPolicy = { max: 4, baseMs: 200, maxMs: 8_000 };

/** Delay before retry `attempt` (1-based): exponential with full jitter, or what Retry-After asks. */
export function backoffMs(attempt: number, policy: RetryPolicy, random: () => number, retryAfter?: string | null): number {
  const after = parseRetryAfter(retryAfter);
  if (after !== undefined) return Math.min(after, 60_000);
  const cap = Math.min(policy.maxMs, policy.baseMs * 2 ** (attempt - 1));
  return Math.round(cap / 2 + (random() * cap) / 2);
}

export function parseRetryAfter(v: string | null | undefined): number | undefined {
  if (!v) return undefined;
  if (/^\d+(\.\d+)?$/.test(v.trim())) return Math.round(Number(v) * 1000);
  const t = Date.parse(v);
  return Number.isNaN(t) ? undefined : Math.max(0, t - Date.now());
}
