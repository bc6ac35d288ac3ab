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
  /**
   * Waiters in arrival order from `head` on. Not `shift()`: an export queues a request per
   * category and version at once (317,000 at ten times the taxonomy), and shifting an array that
   * large moves every element each time (V8 cannot trim an array in its large-object space):
   * 81 s of a 200 s export went there.
   */
  private waiting: Array<(() => void) | undefined> = [];
  private head = 0;
  constructor(private readonly limit: number) {}
  private acquire(): Promise<void> {
    if (this.active < this.limit) {
      this.active++;
      return Promise.resolve();
    }
    return new Promise<void>((r) => this.waiting.push(r));
  }
  private release(): void {
    if (this.head === this.waiting.length) {
      this.active--;
      return;
    }
    const next = this.waiting[this.head]!;
    this.waiting[this.head++] = undefined; // the closure is garbage once called
    // The served part is dropped once it is half the array: each waiter is copied at most once more.
    if (this.head === this.waiting.length) {
      this.waiting = [];
      this.head = 0;
    } else if (this.head > 1024 && this.head * 2 > this.waiting.length) {
      this.waiting = this.waiting.slice(this.head);
      this.head = 0;
    }
    next(); // the slot passes straight to the oldest waiter
  }
  get queued(): number {
    return this.waiting.length - this.head;
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
