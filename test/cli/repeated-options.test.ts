/**
 * An option that takes one value, given twice (`--config a --config b`): yargs hands the command an
 * array, and commands crashed on it or used one silently. A usage error instead, before anything runs;
 * list options (--target, --exclude) and --tenant (the comma-separated list) keep their repeats.
 */
import { describe, expect, it } from "vitest";
import { run } from "../../src/cli/run.js";
import { memoryIo } from "../../src/cli/io.js";

async function cli(argv: string[]): Promise<{ code: number; stderr: string }> {
  const io = memoryIo({ cwd: "/nonexistent-pimctl-test" });
  const code = await run(argv, io);
  return { code, stderr: io.err.join("") };
}

describe("a single-value option given twice", () => {
  for (const argv of [
    ["plan", "--config", "a.yaml", "--config", "b.yaml"],
    ["export", "--out", "a", "--out", "b"],
    ["plan", "--parallelism", "2", "--parallelism", "3"],
  ]) {
    it(`${argv.join(" ")}: a usage error naming it`, async () => {
      const r = await cli(argv);
      expect(r.code).toBe(1);
      expect(r.stderr).toContain(`error: ${argv[1]} was given 2 times; give it once`);
      expect(r.stderr).not.toContain("internal error");
    });
  }

  it("list options and --tenant keep their repeats (the command runs, and fails for want of a config)", async () => {
    for (const argv of [
      ["plan", "--target", 'brand["a"]', "--target", 'brand["b"]'],
      ["validate", "--tenant", "a", "--tenant", "b"],
    ]) {
      const r = await cli(argv);
      expect(r.stderr).not.toContain("was given 2 times");
      expect(r.stderr).toContain("no pimctl.yaml");
    }
  });
});
