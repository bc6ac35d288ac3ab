/**
 * Ctrl-C in a rollout, in a real process with real signals: the first SIGINT starts no more
 * tenants, the tenant in flight ends as apply ends on a signal (no action started after it, its
 * ledger saved, its lock released), the rest are "not started", and the one table and the resume
 * command are printed (exit 4). A second signal quits at once and still says what the rollout left.
 */
import { existsSync, readFileSync } from "node:fs";
import path from "node:path";
import { afterEach, describe, expect, it } from "vitest";
import { testProject, type TestProject } from "../helpers/project.js";
import { spawnPimctl, until } from "../helpers/spawn-cli.js";

const TENANTS = ["prod-eu", "prod-us", "staging"];
const BRANDS = `brands:\n${Array.from({ length: 12 }, (_, i) => `  - name: Brand ${i}\n    desc: Made ${i}\n`).join("")}`;

let p: TestProject | undefined;
afterEach(async () => {
  await p?.close();
  p = undefined;
});

const writesTo = (project: TestProject, tenant: string) => [...project.emulator.store(tenant).brands.values()].length;

async function slowFleet(latencyMs: number): Promise<TestProject> {
  p = await testProject({ tenants: TENANTS, files: { "catalogue/brands.yaml": BRANDS }, emulator: { latencyMs } });
  return p;
}

/** One tenant at a time, one request at a time: the first tenant is mid-apply for seconds. */
const ARGS = ["apply", "--tenant", "*", "--auto-approve", "--tenant-parallelism", "1", "--parallelism", "1"];

describe("signals in a rollout", () => {
  it("the first SIGINT: the tenant in flight stops as apply does, no other tenant starts, one table and the resume command (exit 4)", async () => {
    const project = await slowFleet(150);
    const run = spawnPimctl(project.dir, ARGS, { ...project.env });
    await until(() => writesTo(project, "prod-eu") >= 2, 60_000, "prod-eu's first writes");
    run.child.kill("SIGINT");
    const end = await run.exit;
    const err = run.stderr();
    expect(end.code, err).toBe(4);
    expect(err).toMatch(/Interrupted \(SIGINT\): finishing the requests in flight, then stopping \(again to quit at once\)/);
    expect(err).toMatch(/\n {2}1 {5}prod-eu {2}interrupted {2}4 {5}interrupted \(SIGINT\) after \d+ of 12 actions done; not verified\n/);
    expect(err).toContain("  1     prod-us  not started  4     the rollout was interrupted before it started\n");
    expect(err).toContain("  1     staging  not started  4     the rollout was interrupted before it started\n");
    expect(err).toContain("Resume with: pimctl apply --tenant '*' --auto-approve --tenant-parallelism 1 --parallelism 1\n");
    // The tenant's own lines point at the rollout's next step: a bare `pimctl apply` names no tenant, and no saved plan went stale.
    expect(err).toContain("The rollout's next step, below its table, finishes it.");
    expect(err).not.toContain("Run `pimctl apply` again");
    expect(err).not.toContain("the saved plan is now stale");
    const written = writesTo(project, "prod-eu");
    expect(written).toBeGreaterThanOrEqual(2);
    expect(written).toBeLessThan(12);
    expect(writesTo(project, "prod-us") + writesTo(project, "staging")).toBe(0);
    // prod-eu's ledger holds what was written, and its lock is gone.
    expect(existsSync(path.join(project.dir, ".pimctl", "prod-eu.lock"))).toBe(false);
    expect(readFileSync(path.join(project.dir, ".pimctl", "prod-eu.json"), "utf8")).toContain("Brand 0");

    // The resume command finishes the job.
    project.emulator.setFaults({ latencyMs: 0 });
    const again = await project.cli(["apply", "--tenant", "*", "--auto-approve", "--tenant-parallelism", "1", "--parallelism", "1"]);
    expect(again.code, again.stderr).toBe(0);
    for (const t of TENANTS) expect(writesTo(project, t)).toBe(12);
  });

  it("a second signal quits at once: the ledger goes to a rescue file, and the rollout says what it left (exit 4)", async () => {
    const project = await slowFleet(100);
    const run = spawnPimctl(project.dir, ARGS, { ...project.env });
    await until(() => writesTo(project, "prod-eu") >= 1, 60_000, "prod-eu's first write");
    // From here each request takes seconds: the second signal lands while prod-eu's write is in flight.
    project.emulator.setFaults({ latencyMs: 3000 });
    run.child.kill("SIGINT");
    await until(() => run.stderr().includes("again to quit at once"), 30_000, "the first signal's message");
    run.child.kill("SIGINT");
    const end = await run.exit;
    const err = run.stderr();
    expect(end.code, err).toBe(4);
    expect(err).toContain("Interrupted again (SIGINT): quitting now");
    expect(err).toMatch(/The state of tenant "prod-eu" \(what this run wrote\) is in .*; restore it with: pimctl state push .* --tenant prod-eu/);
    expect(err).toContain("The rollout was stopped (stopped in flight: prod-eu; not started: prod-us, staging). Resume with: pimctl apply --tenant '*'");
    expect(writesTo(project, "prod-us") + writesTo(project, "staging")).toBe(0);
  });
});
