import { describe, expect, it } from "vitest";
import { memoryIo } from "../../src/cli/io.js";
import { run } from "../../src/cli/run.js";

describe("pimctl demo", () => {
  it("runs the whole cycle against an embedded tenant and ends with a no-changes plan", async () => {
    const io = memoryIo({ cwd: process.cwd(), env: {} });
    const code = await run(["demo"], io);
    const out = io.out.join("");
    expect(code, io.err.join("")).toBe(0);
    for (const step of [
      "Step 1: validate",
      "Step 2: plan",
      "Step 3: apply",
      "Step 4: someone changes",
      "Step 5: plan shows the drift",
      "Step 6: apply converges",
      "Step 7: plan again",
    ]) {
      expect(out).toContain(step);
    }
    expect(out).toMatch(/Applied: \d+ done, 0 failed, 0 skipped/);
    expect(out).toMatch(/Plan: 2 to update\./);
    const final = out.slice(out.indexOf("Step 7"));
    expect(final).toContain("No changes. The tenant matches the manifests.");
    expect(out).toContain("Do the same against your tenant:");
    expect(io.err.join("")).toMatch(/apply: (\d+)\/\1: \1 done, 0 failed, 0 skipped/);
    // A demo to read, not to scroll: the 1,161-action plan is shown as counts per kind.
    expect(out.split("\n").length).toBeLessThan(100);
  });
});
