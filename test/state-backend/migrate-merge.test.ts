/**
 * `state migrate` and `state push` merge, never roll back (issue 37): a stale local ledger
 * migrated while a Git-backed apply runs waits for the lock, then keeps the fresh entries that
 * apply wrote (each entry carries its write time), and a ledger whose entries carry no write time
 * is refused with the list where it differs, nothing written.
 */
import { readFileSync } from "node:fs";
import { mkdir, readFile, writeFile } from "node:fs/promises";
import path from "node:path";
import { afterEach, describe, expect, it } from "vitest";
import { gitWorld, type GitWorld } from "./git-helpers.js";
import { spawnPimctl, until } from "../helpers/spawn-cli.js";

let w: GitWorld | undefined;
afterEach(async () => {
  await w?.close();
  w = undefined;
});

/** A world of 60 brands with a web id each, applied from a runner's checkout; the laptop holds a local copy of that ledger. */
async function staleLaptop(): Promise<{ world: GitWorld; runner: string; laptop: string; localConfig: string; localLedger: string }> {
  const world = (w = await gitWorld({ brands: 60, latencyMs: 40 }));
  const runner = await world.clone("runner");
  const first = await world.cli(runner, ["apply", "--auto-approve"]);
  expect(first.code, first.stderr).toBe(0);
  const laptop = await world.clone("laptop");
  const localConfig = path.join(laptop, "local.yaml");
  await writeFile(localConfig, readFileSync(path.join(laptop, "pimctl.yaml"), "utf8").replace("backend: git", "backend: local"));
  await mkdir(path.join(laptop, ".pimctl"), { recursive: true });
  const localLedger = path.join(laptop, ".pimctl", "demo.json");
  expect((await world.cli(laptop, ["state", "pull", localLedger])).code).toBe(0);
  return { world, runner, laptop, localConfig, localLedger };
}

/** The runner changes every brand's web id: the next apply writes 60 fresh entries. */
async function freshWebIds(runner: string): Promise<void> {
  const file = path.join(runner, "catalogue", "brands.yaml");
  await writeFile(file, (await readFile(file, "utf8")).replace(/brand-(\d+) }/g, "fresh-$1 }"));
}

const webIds = async (world: GitWorld) => {
  const pulled = await world.cli(await world.clone(`check-${Math.random().toString(36).slice(2)}`), ["state", "pull"]);
  return Object.values((JSON.parse(pulled.stdout) as { web_ids: Record<string, { Webshop: string }> }).web_ids).map((v) => v.Webshop);
};

describe("state migrate merges, never rolls back", () => {
  it("a stale local ledger migrated while a Git-backed apply runs waits for the lock, then keeps the 60 fresh web ids", async () => {
    const { world, runner, laptop, localConfig } = await staleLaptop();
    await freshWebIds(runner);
    const applying = spawnPimctl(runner, ["apply", "--auto-approve"], world.env);
    await until(() => "refs/pimctl/lock/demo" in world.remoteRefs(), 30_000, "the runner's lock");
    const migrated = await world.cli(laptop, ["state", "migrate", "--to", "git", "--config", localConfig, "--lock-timeout", "2m"]);
    const applied = await applying.exit;
    expect(applied.code, applying.stderr()).toBe(0);
    expect(migrated.code, migrated.stderr).toBe(0);
    expect(migrated.stderr).toContain("waiting up to 120 s");
    const ids = await webIds(world);
    expect(ids).toHaveLength(60);
    expect(ids.filter((id) => !id.startsWith("fresh-"))).toEqual([]);
    // The tenant and the ledger agree: the next plan is empty.
    const plan = await world.cli(runner, ["plan", "--detailed-exitcode"]);
    expect(plan.code, plan.stdout + plan.stderr).toBe(0);
    // 60 web ids, and the 60 brands' records: their manifest entries changed, so did the fingerprints drift compares (`applied`).
    expect(migrated.stderr).toContain("0 entries taken, 120 kept (newer where they are)");
  }, 120_000);

  it("a ledger without write times (format 1) that differs is refused with the list, nothing written; --prefer stored keeps the remote's", async () => {
    const { world, runner, laptop, localConfig, localLedger } = await staleLaptop();
    await freshWebIds(runner);
    expect((await world.cli(runner, ["apply", "--auto-approve"])).code).toBe(0);
    // The laptop's copy as an older pimctl wrote it: no write times (nor the fingerprints drift compares, which 0.1.0 did not keep).
    const stale = JSON.parse(await readFile(localLedger, "utf8")) as Record<string, unknown>;
    const v1 = { ...stale, format: 1, written: undefined, fingerprints: undefined, applied: undefined, owned: { brands: [] }, names: {} };
    await writeFile(localLedger, JSON.stringify(v1));
    const before = world.remoteRefs()["refs/pimctl/state/demo"];
    const refused = await world.cli(laptop, ["state", "migrate", "--to", "git", "--config", localConfig]);
    expect(refused.code).toBe(1);
    expect(refused.stderr).toContain("the two ledgers hold 60 entries differently, and no write time says which is newer: nothing was written");
    expect(refused.stderr).toMatch(/web_ids\/brand:\d+: origin refs\/pimctl\/state\/demo \{"Webshop":"fresh-\d+"\} \(written 20\d\d-/);
    expect(refused.stderr).toContain("... and 40 more");
    expect(world.remoteRefs()["refs/pimctl/state/demo"]).toBe(before);
    const kept = await world.cli(laptop, ["state", "migrate", "--to", "git", "--config", localConfig, "--prefer", "stored"]);
    expect(kept.code, kept.stderr).toBe(0);
    expect((await webIds(world)).every((id) => id.startsWith("fresh-"))).toBe(true);
  }, 120_000);
});

describe("state push merges, never rolls back", () => {
  it("an older copy pushed after an apply keeps the apply's entries; an entry repaired by hand in the file is taken", async () => {
    const { world, runner, laptop, localLedger } = await staleLaptop();
    await freshWebIds(runner);
    expect((await world.cli(runner, ["apply", "--auto-approve"])).code).toBe(0);
    // The old copy, with one entry repaired by hand (its write time is the stored one's: no apply wrote it since).
    const fresh = JSON.parse((await world.cli(laptop, ["state", "pull"])).stdout) as { web_ids: Record<string, unknown> };
    const old = JSON.parse(await readFile(localLedger, "utf8")) as { web_ids: Record<string, unknown> };
    const file = path.join(world.root, "old.json");
    await writeFile(file, JSON.stringify(old));
    const pushed = await world.cli(laptop, ["state", "push", file]);
    expect(pushed.code, pushed.stderr).toBe(0);
    expect((await webIds(world)).filter((id) => !id.startsWith("fresh-"))).toEqual([]);
    expect(pushed.stderr).toContain("0 entries taken, 120 kept (newer where they are)");
    const [key] = Object.keys(fresh.web_ids);
    await writeFile(file, JSON.stringify({ ...fresh, web_ids: { ...fresh.web_ids, [key!]: { Webshop: "repaired" } } }));
    const repaired = await world.cli(laptop, ["state", "push", file]);
    expect(repaired.code, repaired.stderr).toBe(0);
    expect(repaired.stderr).toContain("1 entry taken");
    expect(await webIds(world)).toContain("repaired");
  }, 120_000);
});
