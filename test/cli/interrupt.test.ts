/**
 * Ctrl-C (SIGINT), SIGTERM (what CI runners send on cancel, before SIGKILL) and
 * SIGHUP (the terminal or SSH session closed) during apply, in a real child process: stop starting actions, let in-flight
 * ones finish, save the ledger, release the lock, write the report, exit 4;
 * a re-run converges without duplicates.
 */
import { existsSync, readFileSync } from "node:fs";
import path from "node:path";
import { afterEach, beforeEach, describe, expect, it } from "vitest";
import { testProject, type TestProject } from "../helpers/project.js";
import { repoRoot } from "../helpers/paths.js";
import { spawnPimctl, until } from "../helpers/spawn-cli.js";

let p: TestProject;
beforeEach(async () => {
  p = await testProject({ emulator: { latencyMs: 40 } });
  await p.copyExamples(path.join(repoRoot, "examples/catalogue"));
});
afterEach(async () => p.close());

describe.each(["SIGINT", "SIGTERM", "SIGHUP"] as const)("%s during apply", (signal) => {
  it("finishes what is in flight, saves the ledger and the report, releases the lock, exits 4; a re-run converges", async () => {
    const run = spawnPimctl(p.dir, ["apply", "--auto-approve", "--report", "report.json"], { ...process.env, ...p.env, NO_COLOR: "1" });
    // Interrupt once the run has started writing.
    await until(() => (p.emulator.stats().requests.byMethod.POST ?? 0) > 40, 60_000, "the run's writes");
    run.child.kill(signal);
    const { code } = await run.exit;
    const stderr = run.stderr();
    expect(stderr).toContain(`Interrupted (${signal}): finishing the requests in flight, then stopping`);
    expect(code).toBe(4);
    expect(existsSync(path.join(p.dir, ".pimctl", "demo.lock"))).toBe(false);
    expect(existsSync(path.join(p.dir, ".pimctl", "demo.json"))).toBe(true);
    const report = JSON.parse(readFileSync(path.join(p.dir, "report.json"), "utf8")) as {
      counts: { done: number; skipped: number };
      results: Array<{ reason?: string }>;
    };
    expect(report.counts.done).toBeGreaterThan(0);
    expect(report.counts.skipped).toBeGreaterThan(0);
    expect(report.results.some((r) => r.reason === "not started: the run was interrupted")).toBe(true);
    p.emulator.setFaults({ latencyMs: 0 });
    const again = await p.cli(["apply", "--auto-approve"]);
    expect(again.code, again.stderr).toBe(0);
    expect((await p.cli(["plan", "--detailed-exitcode"])).code).toBe(0);
    const brands = [...p.emulator.store("demo").brands.values()].map((b) => b.name);
    expect(brands.length).toBe(new Set(brands).size);
  });
});
