/**
 * Items run in waves, as a rollout runs tenants: the items of a wave run together (a bounded
 * number at once), and a wave starts only when every item of the one before converged. After
 * `maxFailed` items did not converge, or once `signal` aborts, no item starts; the ones under
 * way finish. Knows nothing of tenants or plans.
 */

export interface WaveOptions<R> {
  /** How many items of a wave run at once. */
  parallelism: number;
  /** Whether an item's result converged: a wave that has one that did not is the last to run. */
  converged: (result: R) => boolean;
  /** Stop starting items once this many did not converge (at least 1). */
  maxFailed: number;
  /** Once aborted, no item starts; the ones under way finish (they are given the signal themselves). */
  signal?: AbortSignal;
  /** Called as each item starts (in start order). */
  onStart?: (item: string, wave: number) => void;
  /** Called as each item ends (in end order). */
  onEnd?: (item: string, wave: number, result: R) => void;
}

/** An item in its wave (numbered from 1), with its result; none: it was not started. */
export interface WaveItem<R> {
  item: string;
  wave: number;
  result?: R;
}

/** Run every wave's items with `run`, which must not reject (its failures are results); items in wave order. */
export async function runWaves<R>(
  waves: readonly (readonly string[])[],
  run: (item: string, wave: number) => Promise<R>,
  opts: WaveOptions<R>,
): Promise<WaveItem<R>[]> {
  const out: WaveItem<R>[] = waves.flatMap((items, i) => items.map((item) => ({ item, wave: i + 1 })));
  let failed = 0;
  const stopped = () => failed >= Math.max(1, opts.maxFailed) || opts.signal?.aborted === true;
  for (let w = 0; w < waves.length && !stopped(); w++) {
    const entries = out.filter((e) => e.wave === w + 1);
    let next = 0;
    const worker = async (): Promise<void> => {
      while (next < entries.length && !stopped()) {
        const entry = entries[next++]!;
        opts.onStart?.(entry.item, entry.wave);
        const result = await run(entry.item, entry.wave);
        entry.result = result;
        if (!opts.converged(result)) failed++;
        opts.onEnd?.(entry.item, entry.wave, result);
      }
    };
    await Promise.all(Array.from({ length: Math.max(1, Math.min(opts.parallelism, entries.length)) }, worker));
    // The next wave waits for this one to converge whole.
    if (entries.some((e) => e.result === undefined || !opts.converged(e.result))) break;
  }
  return out;
}
