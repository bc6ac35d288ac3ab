/**
 * The apply lock: taken (or waited for), renewed while held (backends with a lease), released
 * by the run or by a forced end.
 */
import { PimctlError } from "../../errors.js";
import { GIVE_UP_PERIODS, LEASE_PERIODS, type LockInfo, type StateBackend } from "./types.js";
import { hold, interruptedBy } from "../../holdings.js";
import { notADuration, parseDuration } from "../../base/durations.js";
import { describeHolder, lockedError, lockInfo, unlockCommand } from "./lock-holder.js";

export const DEFAULT_STALE_MS = 6 * 3600_000;

/** How often a lock's lease is renewed (git backend), unless PIMCTL_LOCK_RENEW says otherwise. */
export const DEFAULT_RENEW_MS = 30_000;
export const RENEW_ENV = "PIMCTL_LOCK_RENEW";

/** The renewal period: PIMCTL_LOCK_RENEW (30s, 500ms, ...) or 30 s. */
export function renewPeriod(env: NodeJS.ProcessEnv): number {
  const text = env[RENEW_ENV];
  if (!text) return DEFAULT_RENEW_MS;
  const ms = parseDuration(text);
  if (ms === undefined) throw new PimctlError("usage", notADuration(text));
  if (ms < 100) throw new PimctlError("usage", `${RENEW_ENV}=${text}: the lock renewal period must be at least 100ms`);
  return ms;
}

export interface HeldLock {
  info: LockInfo;
  /** Stops renewing, then removes the lock (only if it still carries our id). Throws when the backend cannot be reached. */
  release(): Promise<void>;
}

function interruptedWaiting(signal: AbortSignal | undefined, tenant: string): PimctlError {
  return new PimctlError("interrupted", `interrupted (${interruptedBy(signal)}) while taking the lock of tenant "${tenant}": nothing was written`);
}

/** How acquireLock takes and keeps a lock. */
interface LockOptions {
  why: string;
  env: NodeJS.ProcessEnv;
  timeoutMs?: number;
  staleMs?: number;
  tenantFlag?: string;
  warn?: (line: string) => void;
  pollMs?: number;
  signal?: AbortSignal;
  onLost?: (why: string) => void;
}

/** The lease renewal of a held lock: its timer and the renewal in flight. */
class Renewal {
  timer: NodeJS.Timeout | undefined;
  renewing: Promise<unknown> | undefined;
  async stop(): Promise<void> {
    clearInterval(this.timer);
    this.timer = undefined;
    await this.renewing?.catch(() => undefined);
  }
}

/**
 * Take the lock, or fail at once naming the holder; with timeoutMs, wait for it first.
 * While held: the lease is renewed (backends that have one), and the lock is registered as
 * held by this process, so a forced end (a second Ctrl-C) still removes it. `onLost` is called
 * once when the lock cannot be kept: taken over or broken, or not renewed for
 * GIVE_UP_PERIODS periods (before the lease runs out for others); the caller stops writing.
 */
export async function acquireLock(backend: StateBackend, tenant: string, opts: LockOptions): Promise<HeldLock> {
  const renewMs = backend.renew ? renewPeriod(opts.env) : undefined;
  const info: LockInfo = { ...lockInfo(opts.why, opts.env), ...(renewMs ? { renew_ms: renewMs } : {}) };
  if (renewMs) info.renewed = info.since;
  const what = `the lock of tenant "${tenant}"`;
  const renewal = new Renewal();
  const attempts: { acquiring: Promise<unknown> } = { acquiring: Promise.resolve() };
  // Registered before the first push: a push in flight may create the lock after a forced end began.
  const released = hold({
    what,
    // The lock's id is known before its first push: whatever happens to that push, the person can break it.
    ifNotReleased: [`if it is still there, break it with: ${unlockCommand(info.id, opts.tenantFlag)}`],
    release: async () => {
      await attempts.acquiring.catch(() => undefined);
      await renewal.stop();
      try {
        const removed = await backend.unlock(info.id);
        return removed ? [`Released ${what} (${backend.lockLocation}).`] : [];
      } catch (e) {
        return [`${what} could not be released: ${(e as Error).message}`, `break it with: ${unlockCommand(info.id, opts.tenantFlag)}`];
      }
    },
  });
  try {
    await waitForLock(backend, tenant, info, opts, attempts);
  } catch (e) {
    released();
    // Interrupted while a push was in flight: it may have created the lock after all.
    if (opts.signal?.aborted) await backend.unlock(info.id).catch(() => undefined);
    throw e;
  }
  if (renewMs) keepRenewing(backend, info, renewMs, what, opts, renewal);
  return {
    info,
    release: async () => {
      await renewal.stop();
      try {
        await backend.unlock(info.id);
      } finally {
        released();
      }
    },
  };
}

/** Tries the lock until it is taken, the wait (timeoutMs) is over, or the signal aborts; each attempt in `attempts.acquiring`. */
async function waitForLock(backend: StateBackend, tenant: string, info: LockInfo, opts: LockOptions, attempts: { acquiring: Promise<unknown> }): Promise<void> {
  const what = `the lock of tenant "${tenant}"`;
  const started = Date.now();
  let announced = false;
  for (;;) {
    if (opts.signal?.aborted) throw interruptedWaiting(opts.signal, tenant);
    const attempt = backend.lock(info, { staleMs: opts.staleMs ?? DEFAULT_STALE_MS });
    attempts.acquiring = attempt;
    const r = await attempt;
    if (r.acquired) {
      if (r.tookOver) opts.warn?.(`took over a stale lock of tenant "${tenant}" (${describeHolder(r.tookOver)})`);
      return;
    }
    const waited = Date.now() - started;
    const timeout = opts.timeoutMs ?? 0;
    if (waited >= timeout) throw lockedError(tenant, backend, r.holder, opts.tenantFlag, timeout ? waited : undefined);
    // Once: a job that sits silent in a CI log looks hung.
    if (!announced) opts.warn?.(`${what} is ${describeHolder(r.holder)}; waiting up to ${Math.round(timeout / 1000)} s (--lock-timeout)`);
    announced = true;
    await sleep(Math.min(opts.pollMs ?? 1000, timeout - waited), opts.signal);
  }
}

/** Renews the lease every renewMs; calls onLost once when it is taken over, broken, or not renewed for GIVE_UP_PERIODS periods. */
function keepRenewing(backend: StateBackend, info: LockInfo, renewMs: number, what: string, opts: LockOptions, renewal: Renewal): void {
  let lastRenewed = Date.now();
  let lost = false;
  let failing = false;
  const lose = (why: string) => {
    if (lost) return;
    lost = true;
    clearInterval(renewal.timer);
    opts.onLost?.(why);
  };
  renewal.timer = setInterval(() => {
    const silentMs = Date.now() - lastRenewed;
    if (silentMs > GIVE_UP_PERIODS * renewMs) {
      lose(
        `${what} could not be renewed for ${Math.round(silentMs / 1000)} s (its lease runs out after ${Math.round((LEASE_PERIODS * renewMs) / 1000)} s, ` +
          `then another run may take it over)`,
      );
      return;
    }
    if (renewal.renewing) return;
    const at = new Date().toISOString();
    renewal.renewing = backend.renew!({ ...info, renewed: at })
      .then(
        (ours) => {
          if (!ours) return lose(`${what} was taken over or broken (pimctl state unlock) while this run held it`);
          info.renewed = at;
          lastRenewed = Date.parse(at);
          failing = false;
        },
        (e: unknown) => {
          // Once per run of failures: a remote that is down would repeat it every period.
          if (!failing) opts.warn?.(`${what} could not be renewed (trying again every ${renewMs / 1000} s): ${(e as Error).message}`);
          failing = true;
        },
      )
      .finally(() => (renewal.renewing = undefined));
  }, renewMs);
  renewal.timer.unref();
}

/** Wait ms, or less when the signal aborts. */
function sleep(ms: number, signal?: AbortSignal): Promise<void> {
  return new Promise((resolve) => {
    const done = () => {
      clearTimeout(t);
      signal?.removeEventListener("abort", done);
      resolve();
    };
    const t = setTimeout(done, ms);
    signal?.addEventListener("abort", done, { once: true });
  });
}
