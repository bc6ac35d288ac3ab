/**
 * The lock on a Git remote is a lease (real processes, a real bare remote, a short
 * period through PIMCTL_LOCK_RENEW): a live holder renews it and keeps it however
 * long it runs; a holder killed with SIGKILL stops renewing and its lock is taken
 * over with a warning once LEASE_PERIODS periods pass; a holder that cannot renew
 * stops starting actions before its lease runs out, and says so.
 */
import { readdirSync, renameSync } from "node:fs";
import path from "node:path";
import { afterEach, describe, expect, it } from "vitest";
import { LEASE_PERIODS } from "../../src/state/backends/types.js";
import { gitWorld, type GitWorld } from "./git-helpers.js";
import { spawnPimctl, until } from "../helpers/spawn-cli.js";

let w: GitWorld | undefined;
afterEach(async () => {
  await w?.close();
  w = undefined;
});

const lockOf = (world: GitWorld) =>
  JSON.parse(world.git(world.bare, "cat-file", "blob", "refs/pimctl/lock/demo:lock.json")) as { id: string; renew_ms: number; renewed: string; since: string };
const posts = (world: GitWorld) => world.emulator.stats().requests.byMethod.POST ?? 0;

describe("the lock's lease (git backend)", () => {
  it("a live holder renews its lease: after more than its lease's length another apply is still refused, and nothing is taken over", async () => {
    // A period of 1 s: a renewal is a git fetch and push, which a loaded machine can hold up for more
    // than a second; the holder writes for longer than the lease and the second run's start.
    w = await gitWorld({ latencyMs: 400, brands: 300 });
    const world = w;
    const env = { ...w.env, PIMCTL_LOCK_RENEW: "1s" };
    const [a, b] = [await w.clone("a"), await w.clone("b")];
    const holder = spawnPimctl(a, ["apply", "--auto-approve"], env);
    await until(() => "refs/pimctl/lock/demo" in world.remoteRefs(), 30_000, "the lock ref");
    const first = lockOf(w);
    expect(first.renew_ms).toBe(1000);
    // The period is recorded in the lock; the lock records no verdict-worthy host or pid for others.
    await until(() => Date.now() - Date.parse(first.since) > (LEASE_PERIODS + 1) * 1000, 30_000, "more than a lease");
    const renewed = lockOf(w);
    expect(renewed.id).toBe(first.id);
    expect(Date.parse(renewed.renewed)).toBeGreaterThan(Date.parse(first.renewed));
    const second = spawnPimctl(b, ["apply", "--auto-approve"], env);
    const refused = await second.exit;
    expect(refused.code, second.stderr()).toBe(1);
    expect(second.stderr()).toContain('the state of tenant "demo" is locked by another pimctl run');
    expect(second.stderr()).not.toContain("took over");
    const done = await holder.exit;
    expect(done.code, holder.stderr()).toBe(0);
    expect(Object.keys(w.remoteRefs())).toEqual(["refs/pimctl/state/demo"]);
  });

  it("a holder killed with SIGKILL stops renewing: once its lease ran out, the next apply takes the lock over with a warning and converges", async () => {
    w = await gitWorld({ latencyMs: 300, brands: 20 });
    const world = w;
    const env = { ...w.env, PIMCTL_LOCK_RENEW: "250ms" };
    const [a, b] = [await w.clone("a"), await w.clone("b")];
    const holder = spawnPimctl(a, ["apply", "--auto-approve"], env);
    await until(() => "refs/pimctl/lock/demo" in world.remoteRefs(), 30_000, "the lock ref");
    holder.child.kill("SIGKILL");
    await holder.exit;
    const dead = lockOf(w);
    await until(() => Date.now() - Date.parse(dead.renewed) > (LEASE_PERIODS + 1) * 250, 30_000, "the lease to run out");
    w.emulator.setFaults({ latencyMs: 0 });
    // The dead holder's period (recorded in its lock) decides; the taker renews at the default.
    const next = await w.cli(b, ["apply", "--auto-approve"]);
    expect(next.code, next.stderr).toBe(0);
    expect(next.stderr).toContain(`warning: took over a stale lock of tenant "demo" (held by`);
    expect(Object.keys(w.remoteRefs())).toEqual(["refs/pimctl/state/demo"]);
    expect((await w.cli(await w.clone("fresh"), ["plan", "--detailed-exitcode"])).code).toBe(0);
  });

  it("a holder that cannot renew (the remote gone) stops starting actions before its lease runs out, and says so", async () => {
    w = await gitWorld({ latencyMs: 150, brands: 400 });
    const world = w;
    const a = await w.clone("a");
    const holder = spawnPimctl(a, ["apply", "--auto-approve"], { ...w.env, PIMCTL_LOCK_RENEW: "300ms" });
    await until(() => "refs/pimctl/lock/demo" in world.remoteRefs() && posts(world) > 5, 30_000, "the first writes");
    renameSync(w.bare, `${w.bare}.moved`);
    const end = await holder.exit;
    const err = holder.stderr();
    expect(end.code, err).toBe(4);
    expect(err).toContain('warning: the lock of tenant "demo" could not be renewed (trying again every 0.3 s)');
    expect(err).toMatch(
      /Stopped: the lock of tenant "demo" could not be renewed for \d+ s \(its lease runs out after 1 s, then another run may take it over\)\. No action was started after it/,
    );
    expect(err).toMatch(/Apply: \d+ done, 0 failed, [1-9]\d* skipped/);
    // What was written is not lost: the ledger is in a rescue file.
    expect(readdirSync(path.join(a, ".pimctl", "rescue"))).toHaveLength(1);
  });
});
