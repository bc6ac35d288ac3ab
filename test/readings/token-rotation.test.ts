/**
 * The tenant's token is rotated while apply runs (CI tokens expire). A 401
 * refuses every later request too: pimctl stops starting actions at once, lets
 * in-flight ones end, saves the ledger, reports done and not attempted, and
 * exits 4 with the 401 explained, having sent only a handful of refused requests.
 */
import { spawn } from "node:child_process";
import { existsSync } from "node:fs";
import { readFile } from "node:fs/promises";
import path from "node:path";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { testProject, type TestProject } from "../helpers/project.js";
import { repoRoot } from "../helpers/paths.js";

let p: TestProject;
beforeAll(async () => {
  p = await testProject({ emulator: { latencyMs: 10 } });
  await p.copyExamples(path.join(repoRoot, "examples/catalogue"));
});
afterAll(async () => p.close());

describe("a token rotated mid-apply", () => {
  it("stops at once, exits 4, explains the 401 and reports what was not attempted", { timeout: 60_000 }, async () => {
    const child = spawn(
      process.execPath,
      [path.join(repoRoot, "dist/cli/main.js"), "apply", "--auto-approve", "--parallelism", "8", "--report", "report.json"],
      {
        cwd: p.dir,
        env: { ...process.env, ...p.env, NO_COLOR: "1" },
        stdio: ["ignore", "pipe", "pipe"],
      },
    );
    let stderr = "";
    child.stderr.on("data", (d: Buffer) => (stderr += d.toString()));
    const exited = new Promise<number | null>((resolve) => child.once("exit", resolve));
    let atRotation = 0;
    await new Promise<void>((resolve) => {
      const poll = setInterval(() => {
        if ((p.emulator.stats().requests.byMethod.POST ?? 0) > 60) {
          clearInterval(poll);
          p.emulator.rotateToken("demo", "rotated-token");
          atRotation = p.emulator.stats().requests.total;
          resolve();
        }
      }, 5);
    });
    const code = await exited;
    const after = p.emulator.stats().requests.total - atRotation;
    expect(code, stderr).toBe(4);
    expect(stderr).toMatch(/refused the token \(401\)/);
    expect(stderr).toMatch(/No action was started after the 401; \d+ action\(s\) were not attempted/);
    // Only what was in flight (at most 8) and nothing more: no verification read either.
    expect(after).toBeLessThanOrEqual(8);
    const report = JSON.parse(await readFile(path.join(p.dir, "report.json"), "utf8")) as {
      counts: { done: number; failed: number; skipped: number };
      stopped_by: { code: string; not_attempted: number };
      results: Array<{ status: string; skip_cause?: string; error?: { code: string } }>;
    };
    expect(report.stopped_by.code).toBe("api_unauthorized");
    expect(report.counts.done).toBeGreaterThan(0);
    expect(report.stopped_by.not_attempted).toBeGreaterThan(500);
    expect(report.results.filter((r) => r.skip_cause === "token_refused")).toHaveLength(report.stopped_by.not_attempted);
    expect(report.results.filter((r) => r.status === "failed").every((r) => r.error?.code === "api_unauthorized")).toBe(true);
    expect(report.results.filter((r) => r.status === "failed").length).toBeLessThanOrEqual(8);
    // The ledger was saved and the lock released; with the new token a re-run finishes the job.
    expect(existsSync(path.join(p.dir, ".pimctl", "demo.json"))).toBe(true);
    expect(existsSync(path.join(p.dir, ".pimctl", "demo.lock"))).toBe(false);
    const again = await p.cli(["apply", "--auto-approve"], { env: { PIMCTL_DEMO_TOKEN: "rotated-token" } });
    expect(again.code, again.stderr).toBe(0);
    expect((await p.cli(["plan", "--detailed-exitcode"], { env: { PIMCTL_DEMO_TOKEN: "rotated-token" } })).code).toBe(0);
    console.log(`token rotation: ${after} request(s) after the rotation, ${report.counts.done} done, ${report.stopped_by.not_attempted} not attempted`);
  });
});
