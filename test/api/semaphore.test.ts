import { describe, expect, it } from "vitest";
import { Semaphore } from "../../src/api/client.js";

const tick = () => new Promise((r) => setTimeout(r, 1));

describe("the client's concurrency limit", () => {
  it("serves waiters in arrival order: a newcomer never takes a freed slot ahead of them", async () => {
    const s = new Semaphore(1);
    const order: string[] = [];
    let release!: () => void;
    const first = s.run(() => new Promise<void>((r) => (release = r)));
    const waiters = ["a", "b", "c"].map((n) => s.run(async () => void order.push(n)));
    await tick();
    release();
    // Newcomers arriving at every microtask step while the slot passes on: all queue behind a, b, c.
    const late: Array<Promise<void>> = [];
    for (let step = 0; step < 8; step++) {
      late.push(s.run(async () => void order.push(`late${step}`)));
      await Promise.resolve();
    }
    await Promise.all([first, ...waiters, ...late]);
    expect(order.slice(0, 3)).toEqual(["a", "b", "c"]);
  });

  it("a look-up made while holding the only slot runs in it instead of waiting for itself", async () => {
    const s = new Semaphore(1);
    const inner: number[] = [];
    const outer = s.run(async () => {
      // Like adoption after a lost create answer: nested requests, even nested twice, and concurrent.
      await Promise.all([1, 2, 3].map((n) => s.run(async () => s.run(async () => void inner.push(n)))));
      return "done";
    });
    const timeout = new Promise((r) => setTimeout(() => r("deadlock"), 1000));
    expect(await Promise.race([outer, timeout])).toBe("done");
    expect(inner.sort()).toEqual([1, 2, 3]);
  });

  it("never runs more than the limit at once", async () => {
    const s = new Semaphore(2);
    let active = 0;
    let peak = 0;
    await Promise.all(
      Array.from({ length: 10 }, () =>
        s.run(async () => {
          peak = Math.max(peak, ++active);
          await tick();
          active--;
        }),
      ),
    );
    expect(peak).toBe(2);
  });

  it("serves thousands of waiters in arrival order, its count of waiters right throughout", async () => {
    // More waiters than the point where the served part of the queue is dropped (1,024): order survives it.
    const s = new Semaphore(3);
    const order: number[] = [];
    const queuedSeen: number[] = [];
    const runs = Array.from({ length: 5000 }, (_, i) =>
      s.run(async () => {
        order.push(i);
        queuedSeen.push(s.queued);
        await Promise.resolve();
      }),
    );
    expect(s.queued).toBe(4997);
    await Promise.all(runs);
    expect(order).toEqual(Array.from({ length: 5000 }, (_, i) => i));
    expect(s.queued).toBe(0);
    // Each run sees the waiters behind it: never more than were queued, falling to none at the end.
    expect(Math.max(...queuedSeen)).toBeLessThanOrEqual(4997);
    expect(queuedSeen.at(-1)).toBe(0);
    // The slots are free again: the next run starts at once.
    let started = false;
    const after = s.run(async () => void (started = true));
    expect(s.queued).toBe(0);
    await after;
    expect(started).toBe(true);
  });
});
