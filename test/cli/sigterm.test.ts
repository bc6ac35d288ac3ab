/**
 * SIGTERM (what CI runners send on cancel, before SIGKILL) does what Ctrl-C
 * does: stop starting actions, let in-flight ones finish, save the ledger,
 * release the lock, write the report, exit 4. A real child process.
 */
import { spawn } from "node:child_process";
import { existsSync, readFileSync } from "node:fs";
import path from "node:path";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { testProject, repoRoot, type TestProject } from "../helpers/project.js";

let p: TestProject;
beforeAll(async () => {
  p = await testProject({ emulator: { latencyMs: 40 } });
  await p.copyExamples(path.join(repoRoot, "examples/catalogue"));
});
afterAll(async () => p.close());

describe("SIGTERM during apply", () => {
  it("leaves no lock, writes the report and the ledger, exits 4", async () => {
    const child = spawn(process.execPath, [path.join(repoRoot, "dist/cli/main.js"), "apply", "--auto-approve", "--report", "report.json"], {
      cwd: p.dir,
      env: { ...process.env, ...p.env, NO_COLOR: "1" },
      stdio: ["ignore", "pipe", "pipe"],
    });
    let stderr = "";
    child.stderr.on("data", (d: Buffer) => (stderr += d.toString()));
    await new Promise<void>((resolve) => {
      const poll = setInterval(() => {
        if ((p.emulator.stats().requests.byMethod.POST ?? 0) > 40) {
          clearInterval(poll);
          resolve();
        }
      }, 20);
    });
    child.kill("SIGTERM");
    const code = await new Promise<number | null>((resolve) => child.once("exit", resolve));
    expect(stderr).toContain("Interrupted (SIGTERM): finishing the requests in flight, then stopping");
    expect(code).toBe(4);
    expect(existsSync(path.join(p.dir, ".pimctl", "demo.lock"))).toBe(false);
    expect(existsSync(path.join(p.dir, ".pimctl", "demo.json"))).toBe(true);
    const report = JSON.parse(readFileSync(path.join(p.dir, "report.json"), "utf8")) as { counts: { done: number; skipped: number }; results: Array<{ reason?: string }> };
    expect(report.counts.done).toBeGreaterThan(0);
    expect(report.counts.skipped).toBeGreaterThan(0);
    expect(report.results.some((r) => r.reason === "not started: the run was interrupted")).toBe(true);
    p.emulator.setFaults({ latencyMs: 0 });
    const again = await p.cli(["apply", "--auto-approve"]);
    expect(again.code, again.stderr).toBe(0);
  });
});
