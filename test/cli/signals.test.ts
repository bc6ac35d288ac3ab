/**
 * Signals from the first line, in real processes with real signals: the lock is
 * taken before the read, the saved-plan check and the backup, so a signal in any
 * of those phases must release it (on a real bare Git remote) and end non-zero,
 * saying nothing was written. A second signal ends at once, still releasing what
 * it can; after writes began, the ledger is never lost (a rescue file).
 */
import { existsSync, readFileSync, readdirSync, writeFileSync } from "node:fs";
import { chmod, writeFile } from "node:fs/promises";
import path from "node:path";
import { afterEach, describe, expect, it } from "vitest";
import { gitWorld, slowGitDir, type GitWorld } from "../state-backend/git-helpers.js";
import { spawnPimctl, until } from "../helpers/spawn-cli.js";
import { testProject, type TestProject } from "../helpers/project.js";

let w: GitWorld | undefined;
let p: TestProject | undefined;
afterEach(async () => {
  await w?.close();
  await p?.close();
  w = undefined;
  p = undefined;
});

const writes = (world: { emulator: GitWorld["emulator"] }) => {
  const m = world.emulator.stats().requests.byMethod;
  return (m.POST ?? 0) + (m.PUT ?? 0) + (m.PATCH ?? 0) + (m.DELETE ?? 0);
};

describe.each(["SIGINT", "SIGTERM", "SIGHUP"] as const)("%s once the lock is on the remote, before the first write", (signal) => {
  it("ends non-zero saying nothing was written, and the lock ref is gone", async () => {
    // Slow reads: the signal lands while the ledger and the tenant are being read under the lock.
    w = await gitWorld({ latencyMs: 1500 });
    const world = w;
    const a = await w.clone("a");
    const run = spawnPimctl(a, ["apply", "--auto-approve"], w.env);
    await until(() => "refs/pimctl/lock/demo" in world.remoteRefs(), 30_000, "the lock ref");
    run.child.kill(signal);
    const end = await run.exit;
    expect(end.signal, run.stderr()).toBeNull();
    expect(end.code, run.stderr()).toBe(1);
    expect(run.stderr()).toContain(`interrupted (${signal}) before the first write: nothing was written`);
    expect(Object.keys(w.remoteRefs())).not.toContain("refs/pimctl/lock/demo");
    expect(writes(w)).toBe(0);
  });
});

describe("the other phases under the lock", () => {
  it("a saved plan's re-plan (SIGTERM) and the backup export (SIGINT): ends non-zero, nothing written, no lock ref", async () => {
    w = await gitWorld({ brands: 5 });
    const world = w;
    const a = await w.clone("a");
    const saved = await w.cli(a, ["plan", "--out", "plan.json"]);
    expect(saved.code, saved.stderr).toBe(0);
    w.emulator.setFaults({ latencyMs: 1500 });
    for (const [signal, args] of [
      ["SIGTERM", ["apply", "plan.json"]],
      ["SIGINT", ["apply", "--auto-approve", "--backup-profile", "1"]],
    ] as const) {
      const run = spawnPimctl(a, [...args], w.env);
      await until(() => "refs/pimctl/lock/demo" in world.remoteRefs(), 30_000, "the lock ref");
      // For the backup: once the export has been asked for (the read and the plan are done).
      if ((args as readonly string[]).includes("--backup-profile"))
        await until(() => (world.emulator.stats().requests.byMethod.POST ?? 0) > 0, 30_000, "the export");
      run.child.kill(signal);
      const end = await run.exit;
      expect(end.code, run.stderr()).toBe(1);
      expect(run.stderr()).toContain(`interrupted (${signal}) before the first write: nothing was written`);
      expect(Object.keys(w.remoteRefs())).not.toContain("refs/pimctl/lock/demo");
    }
    // The export's POST is the only one: no write reached the tenant.
    expect(writes(w)).toBe(1);
  });
});

describe("a second signal", () => {
  it("before the first write: ends at once, and still removes the lock ref", async () => {
    w = await gitWorld({ latencyMs: 3000 });
    const world = w;
    // The remote takes a second to delete the lock ref, so the first signal's release is still
    // running when the second arrives (otherwise a fast release may end the run before it).
    const hook = path.join(w.bare, "hooks", "pre-receive");
    await writeFile(
      hook,
      [
        "#!/bin/sh",
        "while read old new ref; do",
        '  case "$new:$ref" in 0000000000000000000000000000000000000000:refs/pimctl/lock/*) sleep 1;; esac',
        "done",
        "",
      ].join("\n"),
    );
    await chmod(hook, 0o755);
    const a = await w.clone("a");
    const run = spawnPimctl(a, ["apply", "--auto-approve"], w.env);
    await until(() => "refs/pimctl/lock/demo" in world.remoteRefs(), 30_000, "the lock ref");
    run.child.kill("SIGINT");
    await until(() => run.stderr().includes("again to quit at once"), 10_000, "the first signal's message");
    const t0 = Date.now();
    run.child.kill("SIGTERM");
    const end = await run.exit;
    // At once: not after the 3 s reads in flight (2 s is the bound of the forced release).
    expect(Date.now() - t0).toBeLessThan(2900);
    expect(end.code, run.stderr()).toBe(1);
    expect(run.stderr()).toContain("Interrupted again (SIGTERM): quitting now");
    expect(Object.keys(w.remoteRefs())).not.toContain("refs/pimctl/lock/demo");
    expect(writes(w)).toBe(0);
  });

  it("after writes began: exits 4 at once, the ledger goes to a rescue file and the lock is removed; state push restores it and apply converges", async () => {
    // Slow writes: the second signal lands while the first signal's requests in flight still run.
    p = await testProject({ emulator: { latencyMs: 1000 } });
    await p.copyExamples(path.join(import.meta.dirname, "../../examples/catalogue"));
    const project = p;
    const run = spawnPimctl(p.dir, ["apply", "--auto-approve"], { ...process.env, ...p.env, NO_COLOR: "1" });
    await until(() => writes(project) > 10, 30_000, "writes");
    run.child.kill("SIGINT");
    // Two signals sent at once may reach the process as one: the second follows the first's message.
    await until(() => run.stderr().includes("again to quit at once"), 10_000, "the first signal's message");
    run.child.kill("SIGINT");
    const end = await run.exit;
    expect(end.code, run.stderr()).toBe(4);
    const rescued = /is in (\S+\.json); restore it with: pimctl state push (\S+)/.exec(run.stderr());
    expect(rescued, run.stderr()).not.toBeNull();
    expect(rescued![2]).toMatch(/^\.pimctl\/rescue\/demo-\d{8}T\d{6}Z(-\d+)?\.json$/);
    expect(readdirSync(path.join(p.dir, ".pimctl", "rescue"))).toHaveLength(1);
    expect(existsSync(path.join(p.dir, ".pimctl", "demo.lock"))).toBe(false);
    p.emulator.setFaults({ latencyMs: 0 });
    // Let the requests the forced end abandoned land before reading the tenant again.
    await new Promise((r) => setTimeout(r, 1200));
    const push = await p.cli(["state", "push", rescued![2]!]);
    expect(push.code, push.stderr).toBe(0);
    const again = await p.cli(["apply", "--auto-approve"]);
    expect(again.code, again.stderr).toBe(0);
    expect((await p.cli(["plan", "--detailed-exitcode"])).code).toBe(0);
    const brands = [...p.emulator.store("demo").brands.values()].map((b) => b.name);
    expect(brands.length).toBe(new Set(brands).size);
  });
});

describe("waiting for another run's lock (--lock-timeout)", () => {
  it("SIGTERM while waiting: exits 1 at once, and the other run's lock is left alone", async () => {
    p = await testProject({ files: { "catalogue/brands.yaml": "brands:\n  - name: Acme\n" } });
    const lockFile = path.join(p.dir, ".pimctl", "demo.lock");
    const other = JSON.stringify({ id: "other-run", who: "bob", where: "ci", since: new Date().toISOString(), why: "apply", host: "elsewhere", pid: 1 });
    await p.write(".pimctl/demo.lock", other);
    const run = spawnPimctl(p.dir, ["apply", "--auto-approve", "--lock-timeout", "5m"], { ...process.env, ...p.env, NO_COLOR: "1" });
    await until(() => run.stderr().includes('warning: the lock of tenant "demo" is held by bob, at ci, since '), 30_000, "the wait");
    const t0 = Date.now();
    run.child.kill("SIGTERM");
    const end = await run.exit;
    expect(Date.now() - t0).toBeLessThan(3000);
    expect(end.code, run.stderr()).toBe(1);
    expect(run.stderr()).toContain('interrupted (SIGTERM) while taking the lock of tenant "demo": nothing was written');
    expect(readFileSync(lockFile, "utf8")).toBe(other);
  });
});

describe("state commands that take the lock", () => {
  /** `state push` of the pulled ledger in a new Git world, its push of `ref` slowed; SIGINT once that push is under way. */
  async function interruptedPush(ref: string, what: string) {
    w = await gitWorld({ brands: 3 });
    const world = w;
    const a = await w.clone("a");
    const pulled = await w.cli(a, ["state", "pull"]);
    expect(pulled.code, pulled.stderr).toBe(0);
    writeFileSync(path.join(a, "ledger.json"), pulled.stdout);
    const mark = path.join(w.root, "push.pids");
    const env = {
      ...w.env,
      PATH: `${await slowGitDir(w.root)}:${w.env.PATH}`,
      PIMCTL_TEST_SLOW_PUSH: `:${ref}`,
      PIMCTL_TEST_MARK: mark,
      PIMCTL_TEST_SLOW_S: "1",
    };
    const run = spawnPimctl(a, ["state", "push", "ledger.json"], env);
    await until(() => existsSync(mark), 30_000, what);
    run.child.kill("SIGINT");
    return { world, run };
  }

  it("state push interrupted (SIGINT) while it takes the lock: exits 1, nothing written, no lock left", async () => {
    const { world, run } = await interruptedPush("refs/pimctl/lock/demo", "the lock push");
    const end = await run.exit;
    expect(end.code, run.stderr()).toBe(1);
    expect(run.stderr()).toContain("interrupted (SIGINT) before state push wrote anything: nothing was written");
    expect(Object.keys(world.remoteRefs())).toEqual([]);
  });

  it("state push interrupted (SIGINT) while its one write is in flight: says the write finishes, stores it, releases the lock, exit 0", async () => {
    const { world, run } = await interruptedPush("refs/pimctl/state/demo", "the state push");
    const end = await run.exit;
    expect(end.code, run.stderr()).toBe(0);
    expect(run.stderr()).toContain("Interrupted (SIGINT): letting the write in flight finish (it is not taken back half-way), then releasing the lock");
    expect(run.stderr()).not.toContain("before the first write");
    expect(run.stderr() + run.stdout()).toContain("Merged ledger.json");
    expect(Object.keys(world.remoteRefs())).not.toContain("refs/pimctl/lock/demo");
  });
});
