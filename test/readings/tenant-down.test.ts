/**
 * The tenant stops answering mid-apply (the server goes away, or answers 500 to
 * everything). Every further action would fail one by one, each after its
 * retries: the circuit breaker stops starting actions after BREAKER_THRESHOLD
 * outage failures in a row, reports what is left per kind, and exits 4; the
 * progress line and the result line count the same done, failed and skipped.
 */
import { spawn } from "node:child_process";
import { readFile } from "node:fs/promises";
import path from "node:path";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { testProject, type TestProject } from "../helpers/project.js";
import { repoRoot } from "../helpers/paths.js";
import { BREAKER_THRESHOLD } from "../../src/apply/index.js";

interface Report {
  counts: { done: number; failed: number; skipped: number; unsupported: number };
  stopped_by?: { code: string; message: string; not_attempted: number };
  results: Array<{ status: string; skip_cause?: string; error?: { code: string } }>;
}

/** Counts of the last progress line and of the result line must agree: "done" means done. */
function expectProgressAgrees(stderr: string): void {
  const progress = [...stderr.matchAll(/^apply: (\d+)\/(\d+): (\d+) done, (\d+) failed, (\d+) skipped/gm)].at(-1);
  const result = /^Apply: (\d+) done, (\d+) failed, (\d+) skipped/m.exec(stderr);
  expect(progress, stderr).toBeDefined();
  expect(result, stderr).not.toBeNull();
  expect([progress![3], progress![4], progress![5]]).toEqual([result![1], result![2], result![3]]);
}

describe("the tenant goes down mid-apply (a real process, the server closed)", () => {
  let p: TestProject;
  beforeAll(async () => {
    p = await testProject({ emulator: { latencyMs: 10 } });
    await p.copyExamples(path.join(repoRoot, "examples/catalogue"));
  });
  afterAll(async () => p.close());

  it("stops after a few failures in a row instead of failing every action one by one, exits 4", { timeout: 60_000 }, async () => {
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
    let stdout = "";
    child.stderr.on("data", (d: Buffer) => (stderr += d.toString()));
    child.stdout.on("data", (d: Buffer) => (stdout += d.toString()));
    const exited = new Promise<number | null>((resolve) => child.once("exit", resolve));
    await new Promise<void>((resolve) => {
      const poll = setInterval(() => {
        if ((p.emulator.stats().requests.byMethod.POST ?? 0) > 60) {
          clearInterval(poll);
          resolve();
        }
      }, 5);
    });
    const downAt = Date.now();
    await p.emulator.close(); // connection refused from now on
    const code = await exited;
    const seconds = (Date.now() - downAt) / 1000;
    expect(code, stderr).toBe(4);
    expect(stderr).toContain(`Stopped: the tenant stopped answering: ${BREAKER_THRESHOLD} actions in a row failed`);
    // The last failure's first line, read as text: no escaped line break in a log.
    expect(stderr).not.toContain("\\n");
    expect(stderr).toMatch(/connection to 127\.0\.0\.1:\d+ failed/);
    expect(stderr).toMatch(/^\d+ actions not attempted: the tenant stopped answering \((\w+ \d+(, )?)+\)$/m);
    expect(stderr).toContain("Wait until it answers again (pimctl ping).\nRun `pimctl apply` again to finish");
    // Counts, never one line per action left.
    expect(stderr).not.toMatch(/^skipped: /m);
    expect(stdout).toBe("");
    const report = JSON.parse(await readFile(path.join(p.dir, "report.json"), "utf8")) as Report;
    expect(report.stopped_by?.code).toBe("tenant_unreachable");
    expect(report.stopped_by!.not_attempted).toBeGreaterThan(500);
    expect(report.results.filter((r) => r.skip_cause === "tenant_unreachable")).toHaveLength(report.stopped_by!.not_attempted);
    // Only what was in flight and the few that tripped the breaker failed.
    expect(report.counts.failed).toBeGreaterThanOrEqual(BREAKER_THRESHOLD);
    expect(report.counts.failed).toBeLessThanOrEqual(8 + BREAKER_THRESHOLD);
    expectProgressAgrees(stderr);
    console.log(
      `tenant down: stopped ${seconds.toFixed(1)} s after the server closed; ${report.counts.done} done, ${report.counts.failed} failed, ${report.stopped_by!.not_attempted} not attempted`,
    );
    // A few rounds of the client's retries (a lost create looks itself up, with retries of its own): about 13 s here, not minutes of one failure per action left.
    expect(seconds).toBeLessThan(30);
  });
});

describe("the tenant answers 500 to everything (failure injection)", () => {
  let p: TestProject;
  beforeAll(async () => {
    p = await testProject();
    await p.copyExamples(path.join(repoRoot, "examples/catalogue"));
  });
  afterAll(async () => p.close());

  it("opens the breaker on a 5xx storm; a re-run once the tenant is back finishes the job", { timeout: 60_000 }, async () => {
    let injected = false;
    const poll = setInterval(() => {
      if (!injected && (p.emulator.stats().requests.byMethod.POST ?? 0) > 40) {
        injected = true;
        p.emulator.setFaults({ failRate: 1, faultModes: ["error500"] });
      }
    }, 2);
    const r = await p.cli(["apply", "--auto-approve", "--report", "report.json"]);
    clearInterval(poll);
    p.emulator.setFaults({ failRate: 0 });
    expect(injected).toBe(true);
    expect(r.code, r.stderr).toBe(4);
    expect(r.stderr).toMatch(
      /Stopped: the tenant stopped answering: 5 actions in a row failed on the connection or with a server error \(the last: \w+ \S+ \(500\)/,
    );
    const report = JSON.parse(await readFile(path.join(p.dir, "report.json"), "utf8")) as Report;
    expect(report.stopped_by?.code).toBe("tenant_unreachable");
    expect(report.results.filter((x) => x.status === "failed").every((x) => x.error?.code === "api_server")).toBe(true);
    expectProgressAgrees(r.stderr);
    const again = await p.cli(["apply", "--auto-approve"]);
    expect(again.code, again.stderr).toBe(0);
    expect((await p.cli(["plan", "--detailed-exitcode"])).code).toBe(0);
  });
});
