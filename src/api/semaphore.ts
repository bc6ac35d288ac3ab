/** The concurrency limit one client's callers share (src/api/README.md, Connections and concurrency). */
import { AsyncLocalStorage } from "node:async_hooks";

/** The slot a request holds, so look-ups made while holding it (adoption) reuse it. */
const heldSlot = new AsyncLocalStorage<{ chain: Promise<unknown> }>();

/**
 * The concurrency limit. Waiters are served in arrival order: a released slot
 * is handed to the oldest waiter, never left for a newcomer to take. A request
 * made while its caller already holds a slot (the look-up after a lost create
 * answer) runs in that slot, one at a time, and never waits for a second one:
 * at parallelism 1 it would wait for itself forever.
 */
export class Semaphore {
  private active = 0;
  private readonly waiting: Array<() => void> = [];
  constructor(private readonly limit: number) {}
  private acquire(): Promise<void> {
    if (this.active < this.limit) {
      this.active++;
      return Promise.resolve();
    }
    return new Promise<void>((r) => this.waiting.push(r));
  }
  private release(): void {
    const next = this.waiting.shift();
    if (next)
      next(); // the slot passes straight to the oldest waiter
    else this.active--;
  }
  get queued(): number {
    return this.waiting.length;
  }
  async run<R>(fn: () => Promise<R>): Promise<R> {
    const held = heldSlot.getStore();
    if (held) {
      // Nested: queue behind the caller's other nested work; each step gets its own chain, so
      // a look-up inside a look-up does not wait for itself either.
      const step = held.chain.then(() => heldSlot.run({ chain: Promise.resolve() }, fn));
      held.chain = step.catch(() => undefined);
      return step;
    }
    await this.acquire();
    try {
      return await heldSlot.run({ chain: Promise.resolve() }, fn);
    } finally {
      this.release();
    }
  }
}
