import { describe, expect, it } from "vitest";
import { PMAP_WINDOW, pmap } from "../../src/base/promises.js";

describe("per-record reads (pmap)", () => {
  it("keeps a window of items under way, not every item at once, and returns results in the items' order", async () => {
    let active = 0;
    let peak = 0;
    const items = Array.from({ length: 5000 }, (_, i) => i);
    const out = await pmap(items, async (i) => {
      peak = Math.max(peak, ++active);
      // Later items finish first within a window: the order of results is still the items'.
      await new Promise((r) => setTimeout(r, i % 3));
      active--;
      return i * 2;
    });
    expect(out).toEqual(items.map((i) => i * 2));
    // An export of 105,950 categories once started them all at once (1.4 GB of waiting reads).
    expect(peak).toBe(PMAP_WINDOW);
  });

  it("starts every item at once when they are fewer than the window", async () => {
    const started: number[] = [];
    let release!: () => void;
    const gate = new Promise<void>((r) => (release = r));
    const done = pmap([1, 2, 3], async (i) => {
      started.push(i);
      await gate;
      return i;
    });
    await Promise.resolve();
    expect(started).toEqual([1, 2, 3]);
    release();
    expect(await done).toEqual([1, 2, 3]);
  });

  it("fails with the first failure and starts no further item", async () => {
    const started: number[] = [];
    const items = Array.from({ length: PMAP_WINDOW * 10 }, (_, i) => i);
    const run = pmap(items, async (i) => {
      started.push(i);
      await Promise.resolve();
      if (i === 10) throw new Error("read failed");
      await new Promise((r) => setTimeout(r, 5));
      return i;
    });
    await expect(run).rejects.toThrow("read failed");
    await new Promise((r) => setTimeout(r, 20));
    // The window that was under way, and not one item more.
    expect(started.length).toBe(PMAP_WINDOW);
  });
});
