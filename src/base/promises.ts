/**
 * Promises as pimctl's reads use them: one started before anyone awaits it, one waited on
 * without its value or its failure, and a map over many items with a bounded window.
 */

/** A read started before anyone awaits it: a rejection is kept for the awaiter, never reported as unhandled. */
export function started<T>(p: Promise<T>): Promise<T> {
  p.catch(() => undefined);
  return p;
}

/**
 * How many of one pmap's items are under way at once: several times the client's parallelism
 * (8 by default; the client bounds how many requests run), so its queue never runs dry, and few
 * enough that what waits stays small and dies young. All at once, an export of ten times the
 * taxonomy held 317,000 waiting category reads (their promises, closures and async contexts):
 * 1.4 GB live before one answered. A window of 1,024 still peaked 160 MB higher than 64: reads
 * that wait that long outlive the young generation and fill the old one with garbage.
 */
export const PMAP_WINDOW = 64;

/**
 * One read per item (every kind's per-record reads), the results in the items' order; after a failure no further item starts.
 * `window`: how many are under way at once (a fleet plans a few tenants at a time, each with its own client).
 */
export async function pmap<T, R>(items: readonly T[], fn: (t: T) => Promise<R>, window = PMAP_WINDOW): Promise<R[]> {
  const out = new Array<R>(items.length);
  let next = 0;
  let failed = false;
  const worker = async (): Promise<void> => {
    while (next < items.length && !failed) {
      const i = next++;
      try {
        out[i] = await fn(items[i]!);
      } catch (e) {
        failed = true;
        throw e;
      }
    }
  };
  await Promise.all(Array.from({ length: Math.max(1, Math.min(window, items.length)) }, worker));
  return out;
}

/** Settles (never rejects, keeps no value) when `p` does: a failed list is its reader's to report, not the one waiting on it. */
export const settled = (p: Promise<unknown>): Promise<void> =>
  p.then(
    () => undefined,
    () => undefined,
  );
