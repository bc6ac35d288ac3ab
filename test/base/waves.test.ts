/** The rollout's schedule on its own: waves in order, a bounded number at once, stopping after failures or a signal. */
import { describe, expect, it } from "vitest";
import { runWaves } from "../../src/base/waves.js";

const tick = () => new Promise((r) => setTimeout(r, 5));

/** A run that records starts and ends and how many ran at once; items named "x…" fail. */
function recorder() {
  const log: string[] = [];
  let now = 0;
  let most = 0;
  const run = async (item: string) => {
    log.push(`start ${item}`);
    most = Math.max(most, ++now);
    await tick();
    now--;
    log.push(`end ${item}`);
    return !item.startsWith("x");
  };
  return { log, run, most: () => most };
}

describe("runWaves", () => {
  it("starts a wave only when the one before has ended, and never runs more than the parallelism at once", async () => {
    const r = recorder();
    const out = await runWaves([["a", "b", "c"], ["d"], ["e", "f"]], r.run, { parallelism: 2, maxFailed: 1, converged: (ok) => ok });
    expect(out.map((o) => [o.item, o.wave, o.result])).toEqual([
      ["a", 1, true],
      ["b", 1, true],
      ["c", 1, true],
      ["d", 2, true],
      ["e", 3, true],
      ["f", 3, true],
    ]);
    expect(r.most()).toBe(2);
    expect(r.log.indexOf("start d")).toBeGreaterThan(Math.max(r.log.indexOf("end a"), r.log.indexOf("end b"), r.log.indexOf("end c")));
    expect(r.log.indexOf("start e")).toBeGreaterThan(r.log.indexOf("end d"));
  });

  it("after the first failure no item starts: the ones under way finish, the rest have no result", async () => {
    const r = recorder();
    const out = await runWaves([["xa", "b", "c"], ["d"]], r.run, { parallelism: 2, maxFailed: 1, converged: (ok) => ok });
    // xa and b started together; b finishes; c and d never start.
    expect(out.map((o) => o.result)).toEqual([false, true, undefined, undefined]);
  });

  it("maxFailed 2: the wave goes on after one failure, but the next wave never starts", async () => {
    const r = recorder();
    const out = await runWaves([["xa", "b", "c"], ["d"]], r.run, { parallelism: 1, maxFailed: 2, converged: (ok) => ok });
    expect(out.map((o) => o.result)).toEqual([false, true, true, undefined]);
  });

  it("an aborted signal starts nothing more", async () => {
    const stop = new AbortController();
    const r = recorder();
    const out = await runWaves(
      [["a", "b"], ["c"]],
      async (item) => {
        const ok = await r.run(item);
        stop.abort();
        return ok;
      },
      { parallelism: 1, maxFailed: 1, converged: (ok) => ok, signal: stop.signal },
    );
    expect(out.map((o) => o.result)).toEqual([true, undefined, undefined]);
  });
});
