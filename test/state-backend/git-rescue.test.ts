/**
 * The state never silently lost: the bare Git remote moved away in the middle of
 * an apply (real processes, real git). The writes finish; the ledger cannot be
 * pushed, so it goes to a rescue file whose restore command is printed; the lock
 * cannot be released, reported on its own with its unlock command; exit 4; the
 * report is still written. With the remote back: unlock, push the rescue file,
 * and a plan shows no changes.
 */
import { existsSync, readFileSync, renameSync, writeFileSync } from "node:fs";
import path from "node:path";
import { afterEach, describe, expect, it } from "vitest";
import { GitBackend } from "../../src/state/backends/index.js";
import { gitWorld, slowGitDir, type GitWorld } from "./git-helpers.js";
import { spawnPimctl, until } from "../helpers/spawn-cli.js";

let w: GitWorld | undefined;
afterEach(async () => {
  await w?.close();
  w = undefined;
});

const posts = (world: GitWorld) => world.emulator.stats().requests.byMethod.POST ?? 0;

describe("the Git remote fails after the writes", () => {
  it("the remote moved away mid-apply: exit 4, the ledger in a rescue file with its state push command, the lock failure on its own; restored after", async () => {
    w = await gitWorld({ latencyMs: 60, brands: 120 });
    const world = w;
    const a = await w.clone("a");
    const run = spawnPimctl(a, ["apply", "--auto-approve", "--report", "report.json"], w.env);
    await until(() => "refs/pimctl/lock/demo" in world.remoteRefs() && posts(world) > 5, 60_000, "the first writes");
    const lockId = JSON.parse(w.git(w.bare, "cat-file", "blob", "refs/pimctl/lock/demo:lock.json")).id as string;
    const moved = `${w.bare}.moved`;
    renameSync(w.bare, moved);
    const end = await run.exit;
    const err = run.stderr();
    expect(end.code, err).toBe(4);
    // All writes were done: nothing failed or skipped.
    expect(err).toMatch(/Apply: \d+ done, 0 failed, 0 skipped/);
    // The ledger's failure, with the reason git gave and the rescue file.
    expect(err).toContain('error: the state of tenant "demo" could not be saved: ');
    expect(err).toContain('remote "origin"');
    expect(err).toContain("remote path not found");
    expect(err).not.toContain('"origin" is not a remote');
    const rescue = /restore it with: pimctl state push (\.pimctl\/rescue\/demo-\d{8}T\d{6}Z\.json)/.exec(err)?.[1];
    expect(rescue, err).toBeDefined();
    // The lock's failure, reported separately, with the command that breaks it.
    expect(err).toContain('error: the lock of tenant "demo" could not be released: ');
    expect(err).toContain(`break it with: pimctl state unlock ${lockId}`);
    // The report file is written all the same, and says so.
    const report = JSON.parse(readFileSync(path.join(a, "report.json"), "utf8")) as {
      counts: { done: number };
      state_not_saved: { rescue_file: string };
      lock_not_released: { lock_id: string };
    };
    expect(report.counts.done).toBeGreaterThan(5);
    expect(report.state_not_saved.rescue_file).toBe(path.join(a, rescue!));
    expect(report.lock_not_released.lock_id).toBe(lockId);
    const ledger = JSON.parse(readFileSync(path.join(a, rescue!), "utf8")) as { tenant: string; web_ids: Record<string, unknown> };
    expect(ledger.tenant).toBe("demo");
    expect(Object.keys(ledger.web_ids).length).toBeGreaterThan(0);

    renameSync(moved, w.bare);
    expect(Object.keys(w.remoteRefs())).toEqual(["refs/pimctl/lock/demo"]);
    // The lock of the run that is gone comes first: state push takes the lock.
    const refused = await w.cli(a, ["state", "push", rescue!]);
    expect(refused.code).toBe(1);
    expect(refused.stderr).toContain(`pimctl state unlock ${lockId}`);
    const unlock = await w.cli(a, ["state", "unlock", lockId]);
    expect(unlock.code, unlock.stderr).toBe(0);
    const push = await w.cli(a, ["state", "push", rescue!]);
    expect(push.code, push.stderr).toBe(0);
    expect(Object.keys(w.remoteRefs())).toEqual(["refs/pimctl/state/demo"]);
    const fresh = await w.clone("fresh");
    const plan = await w.cli(fresh, ["plan", "--detailed-exitcode"]);
    expect(plan.code, plan.stdout + plan.stderr).toBe(0);
    expect(plan.stdout + plan.stderr).not.toContain("unknown");
  });

  it("when not even the rescue file can be written, the ledger is printed with how to restore it (exit 4)", async () => {
    w = await gitWorld({ latencyMs: 60, brands: 60 });
    const world = w;
    const a = await w.clone("a");
    // A file where the rescue directory would go: mkdir fails (root ignores permissions, not this).
    writeFileSync(path.join(a, ".pimctl"), "in the way\n");
    const run = spawnPimctl(a, ["apply", "--auto-approve"], w.env);
    await until(() => "refs/pimctl/lock/demo" in world.remoteRefs() && posts(world) > 5, 60_000, "the first writes");
    renameSync(w.bare, `${w.bare}.moved`);
    const end = await run.exit;
    const err = run.stderr();
    expect(end.code, err).toBe(4);
    expect(err).toContain("nor written to a rescue file: ");
    expect(err).toContain("Save the ledger below to a file and restore it with: pimctl state push FILE");
    const printed = err.slice(err.indexOf("pimctl state push FILE\n") + "pimctl state push FILE\n".length);
    const ledger = JSON.parse(printed.slice(0, printed.indexOf("\n}\n") + 2)) as { tenant: string; web_ids: Record<string, unknown> };
    expect(ledger.tenant).toBe("demo");
    expect(Object.keys(ledger.web_ids).length).toBeGreaterThan(5);
  });

  it("a SIGINT to the whole process group during the state push: the push completes, the state ref is there and the lock gone", async () => {
    w = await gitWorld({ brands: 20 });
    const world = w;
    const a = await w.clone("a");
    const mark = path.join(w.root, "state-push.pids");
    const env = {
      ...w.env,
      PATH: `${await slowGitDir(w.root)}:${w.env.PATH}`,
      PIMCTL_TEST_SLOW_PUSH: ":refs/pimctl/state/demo",
      PIMCTL_TEST_MARK: mark,
      PIMCTL_TEST_SLOW_S: "1",
    };
    // Its own process group, as a shell job or a CI step is: Ctrl-C goes to every process in it.
    const run = spawnPimctl(a, ["apply", "--auto-approve"], env, { detached: true });
    await until(() => existsSync(mark), 60_000, "the state push");
    process.kill(-run.child.pid!, "SIGINT");
    const end = await run.exit;
    expect(end.signal, run.stderr()).toBeNull();
    // Every write was done and recorded; the verification read was not made: exit 4, said as such.
    expect(end.code, run.stderr()).toBe(4);
    expect(run.stderr()).toMatch(/Apply: \d+ done, 0 failed, 0 skipped/);
    expect(run.stderr()).toContain("Stopped: interrupted (SIGINT) after every action was done; the tenant was not verified (exit 4).");
    expect(Object.keys(world.remoteRefs())).toEqual(["refs/pimctl/state/demo"]);
    const fresh = await w.clone("fresh");
    expect((await w.cli(fresh, ["plan", "--detailed-exitcode"])).code).toBe(0);
  });

  it("a SIGTERM during the lock's release push: the lock is still removed and the state kept", async () => {
    w = await gitWorld({ brands: 20 });
    const world = w;
    const a = await w.clone("a");
    const mark = path.join(w.root, "unlock-push.pids");
    // The release is the push that deletes the lock ref: its refspec starts with ":".
    const env = {
      ...w.env,
      PATH: `${await slowGitDir(w.root)}:${w.env.PATH}`,
      PIMCTL_TEST_SLOW_PUSH: " :refs/pimctl/lock/demo",
      PIMCTL_TEST_MARK: mark,
      PIMCTL_TEST_SLOW_S: "1",
    };
    const run = spawnPimctl(a, ["apply", "--auto-approve"], env, { detached: true });
    await until(() => existsSync(mark), 60_000, "the lock release push");
    process.kill(-run.child.pid!, "SIGTERM");
    const end = await run.exit;
    expect(end.signal, run.stderr()).toBeNull();
    expect(end.code, run.stderr()).toBe(0);
    expect(Object.keys(world.remoteRefs())).toEqual(["refs/pimctl/state/demo"]);
  });
});

describe("git's errors say what happened", () => {
  it("a remote whose repository is gone: remote path not found, with the remote named", async () => {
    w = await gitWorld();
    const a = await w.clone("a");
    w.git(a, "remote", "set-url", "origin", path.join(w.root, "nowhere.git"));
    const err = await new GitBackend(a, "origin", "demo", w.env).read().catch((e: Error) => e);
    expect(String((err as Error).message)).toContain(
      `cannot fetch refs/pimctl/state/demo from remote "origin" (${path.join(w.root, "nowhere.git")}): remote path not found`,
    );
    const lock = await new GitBackend(a, "origin", "demo", w.env)
      .lock({ id: "x", who: "t", where: "t", since: new Date().toISOString(), why: "t", host: "h", pid: 1 }, { staleMs: 1000 })
      .catch((e: Error) => e);
    expect(String((lock as Error).message)).toContain('cannot push refs/pimctl/lock/demo to remote "origin"');
    expect(String((lock as Error).message)).toContain("remote path not found");
    expect(String((lock as Error).message)).not.toContain("write access");
    // A remote name that is not configured is still told apart.
    const unknown = await new GitBackend(a, "upstream", "demo", w.env).read().catch((e: Error) => e);
    expect(String((unknown as Error).message)).toContain('state.remote "upstream" is not a remote of the repository');
  });

  it("a push killed by a signal says push interrupted, not that the job needs write access", async () => {
    w = await gitWorld();
    const a = await w.clone("a");
    const mark = path.join(w.root, "lock-push.pids");
    const env = {
      ...w.env,
      PATH: `${await slowGitDir(w.root)}:${w.env.PATH}`,
      PIMCTL_TEST_SLOW_PUSH: ":refs/pimctl/lock/demo",
      PIMCTL_TEST_MARK: mark,
      PIMCTL_TEST_SLOW_S: "2",
    };
    const locking = new GitBackend(a, "origin", "demo", env)
      .lock({ id: "x", who: "t", where: "t", since: new Date().toISOString(), why: "t", host: "h", pid: 1 }, { staleMs: 1000 })
      .catch((e: Error) => e);
    await until(() => existsSync(mark), 30_000, "the lock push");
    // The wrapper execs git under the same pid: this kills the git push itself.
    process.kill(Number(readFileSync(mark, "utf8").trim().split("\n")[0]), "SIGTERM");
    const err = (await locking) as Error;
    expect(err.message).toContain("cannot push refs/pimctl/lock/demo to origin: push interrupted (git ended by SIGTERM)");
    expect(String((err as { details?: string[] }).details)).not.toContain("write access");
  });
});
