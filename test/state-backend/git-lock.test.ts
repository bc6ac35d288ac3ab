import { spawn } from "node:child_process";
import path from "node:path";
import { afterEach, describe, expect, it } from "vitest";
import { GitBackend, readLedger, saveLedger } from "../../src/state/backends/index.js";
import { gitWorld, type GitWorld } from "./git-helpers.js";
import { repoRoot } from "../helpers/paths.js";

let w: GitWorld | undefined;
afterEach(async () => {
  await w?.close();
  w = undefined;
});

const until = async (cond: () => boolean, ms = 30_000) => {
  const t0 = Date.now();
  while (!cond()) {
    if (Date.now() - t0 > ms) throw new Error("timed out waiting");
    await new Promise((r) => setTimeout(r, 25));
  }
};

const CI = { GITHUB_SERVER_URL: "https://github.com", GITHUB_REPOSITORY: "acme/catalogue", GITHUB_RUN_ID: "42", GITHUB_ACTOR: "alice" };

describe("the lock on a Git remote", () => {
  it("two concurrent applies from two clones: one runs, the other fails at once naming the holder, a third waits with --lock-timeout and succeeds", async () => {
    w = await gitWorld({ latencyMs: 25 });
    const world = w;
    const [a, b, c] = [await w.clone("a"), await w.clone("b"), await w.clone("c")];
    let firstDone = false;
    const first = w.cli(a, ["apply", "--auto-approve"], CI).finally(() => (firstDone = true));
    await until(() => "refs/pimctl/lock/demo" in world.remoteRefs());
    const lockId = JSON.parse(w.git(w.bare, "cat-file", "blob", `refs/pimctl/lock/demo:lock.json`)).id as string;
    const second = await w.cli(b, ["apply", "--auto-approve"]);
    expect(second.code).toBe(1);
    expect(second.stderr).toContain('the state of tenant "demo" is locked by another pimctl run');
    expect(second.stderr).toContain("held by alice, at https://github.com/acme/catalogue/actions/runs/42, since ");
    expect(second.stderr).toContain("for: apply");
    expect(second.stderr).toContain(`pimctl state unlock ${lockId}`);
    // At once: it did not wait for the holder to finish (a time bound would flake on a loaded machine).
    expect(firstDone).toBe(false);
    // Nothing was written by the refused run.
    expect(second.stderr).not.toContain("Apply:");
    // plan takes no lock but says who holds it.
    const plan = await w.cli(c, ["plan"]);
    expect(plan.code).toBe(0);
    expect(plan.stdout).toContain('the state of tenant "demo" is locked');
    expect(plan.stdout).toContain("alice");
    const waiter = w.cli(c, ["apply", "--auto-approve", "--lock-timeout", "2m"]);
    const firstResult = await first;
    expect(firstResult.code, firstResult.stderr).toBe(0);
    const waited = await waiter;
    expect(waited.code, waited.stderr).toBe(0);
    expect(waited.stderr).toContain("No changes");
    expect(Object.keys(w.remoteRefs())).toEqual(["refs/pimctl/state/demo"]);
    for (const d of [a, b, c]) expect(w.git(d, "status", "--porcelain")).toBe("");
  });

  it("a killed apply (SIGKILL) leaves its lock; pimctl state unlock shows the holder and breaks it; the next apply converges", async () => {
    w = await gitWorld({ latencyMs: 25 });
    const world = w;
    const a = await w.clone("a");
    const child = spawn(process.execPath, [path.join(repoRoot, "dist/cli/main.js"), "apply", "--auto-approve"], {
      cwd: a,
      env: { ...w.env, ...CI },
      stdio: "ignore",
    });
    await until(() => "refs/pimctl/lock/demo" in world.remoteRefs() && (world.emulator.stats().requests.byMethod.POST ?? 0) > 5);
    child.kill("SIGKILL");
    await new Promise((r) => child.once("exit", r));
    expect(Object.keys(w.remoteRefs())).toContain("refs/pimctl/lock/demo");

    const b = await w.clone("b");
    const show = await w.cli(b, ["state", "show", "--offline"]);
    expect(show.code, show.stderr).toBe(0);
    const id = /lock id ([0-9a-f-]{36})/.exec(show.stdout)?.[1];
    expect(id, show.stdout).toBeDefined();
    expect(show.stdout).toContain("held by alice, at https://github.com/acme/catalogue/actions/runs/42");
    const wrong = await w.cli(b, ["state", "unlock", "not-the-id"]);
    expect(wrong.code).toBe(1);
    expect(wrong.stderr).toContain(`has id ${id}, not not-the-id; nothing was changed`);
    const unlock = await w.cli(b, ["state", "unlock", id!]);
    expect(unlock.code, unlock.stderr).toBe(0);
    expect(unlock.stdout).toContain(`Broke the lock ${id}`);
    expect(unlock.stdout).toContain("held by alice");
    expect(Object.keys(w.remoteRefs())).not.toContain("refs/pimctl/lock/demo");
    const again = await w.cli(b, ["apply", "--auto-approve"]);
    expect(again.code, again.stderr).toBe(0);
    const fresh = await w.clone("fresh");
    expect((await w.cli(fresh, ["plan", "--detailed-exitcode"])).code).toBe(0);
    const brands = [...w.emulator.store("demo").brands.values()].map((x) => x.name);
    expect(brands.length).toBe(new Set(brands).size);
  });

  it("the ledger survives a lost compare-and-swap: the write is refused, re-read, merged, nothing lost", async () => {
    w = await gitWorld();
    const [a, b] = [await w.clone("a"), await w.clone("b")];
    const url = w.emulator.tenantUrl("demo");
    const mine = new GitBackend(a, "origin", "demo", w.env);
    const theirs = new GitBackend(b, "origin", "demo", w.env);
    // Both start from the same stored ledger.
    const seed = await readLedger(mine, "demo", url);
    seed.ledger.web_ids["brand:1"] = { Webshop: "one" };
    seed.ledger.web_ids["brand:9"] = { Webshop: "to-be-deleted" };
    await saveLedger(mine, seed);
    const read = await readLedger(mine, "demo", url);
    // A concurrent writer pushes the state ref between our read and our write.
    const other = await readLedger(theirs, "demo", url);
    other.ledger.web_ids["brand:2"] = { Webshop: "two" };
    other.ledger.brand_attribute_sets["2"] = ["Apparel"];
    await saveLedger(theirs, other);
    const refAfterTheirs = w.remoteRefs()["refs/pimctl/state/demo"];
    // Our run changes its own records.
    read.ledger.web_ids["brand:1"] = { Webshop: "one-changed" };
    read.ledger.web_ids["brand:3"] = { Webshop: "three" };
    delete read.ledger.web_ids["brand:9"];
    expect(await mine.write("{}", read.version)).toEqual({ ok: false });
    expect(w.remoteRefs()["refs/pimctl/state/demo"]).toBe(refAfterTheirs);
    const warnings: string[] = [];
    const { merged } = await saveLedger(mine, read, { warn: (l) => warnings.push(l) });
    expect(merged).toBe(1);
    expect(warnings[0]).toContain("changed since it was read");
    const final = (await readLedger(new GitBackend(await w.clone("c"), "origin", "demo", w.env), "demo", url)).ledger;
    expect(final.web_ids).toEqual({ "brand:1": { Webshop: "one-changed" }, "brand:2": { Webshop: "two" }, "brand:3": { Webshop: "three" } });
    expect(final.brand_attribute_sets).toEqual({ "2": ["Apparel"] });
    // History is kept: the merge is a child of the concurrent write.
    expect(w.git(w.bare, "rev-parse", "refs/pimctl/state/demo^")).toBe(refAfterTheirs);
  });

  it("the lock ref is created only when it does not exist: of two takers exactly one wins", async () => {
    w = await gitWorld();
    const [a, b] = [await w.clone("a"), await w.clone("b")];
    const info = (id: string) => ({ id, who: id, where: "test", since: new Date().toISOString(), why: "test", host: "elsewhere", pid: 1 });
    const results = await Promise.all([
      new GitBackend(a, "origin", "demo", w.env).lock(info("one"), { staleMs: 3600_000 }),
      new GitBackend(b, "origin", "demo", w.env).lock(info("two"), { staleMs: 3600_000 }),
    ]);
    expect(results.filter((r) => r.acquired)).toHaveLength(1);
    const loser = results.find((r) => !r.acquired) as { holder: { id: string } };
    const winner = results[0]!.acquired ? "one" : "two";
    expect(loser.holder.id).toBe(winner);
  });

  it("two processes taking over the same stale lock ref: exactly one wins", async () => {
    w = await gitWorld();
    const [a, b, c] = [await w.clone("a"), await w.clone("b"), await w.clone("c")];
    const old = {
      id: "stale",
      who: "gone",
      where: "a dead runner",
      since: new Date(Date.now() - 7 * 3600_000).toISOString(),
      why: "apply",
      host: "elsewhere",
      pid: 1,
    };
    expect((await new GitBackend(a, "origin", "demo", w.env).lock(old, { staleMs: 6 * 3600_000 })).acquired).toBe(true);
    const info = (id: string) => ({ ...old, id, who: id, since: new Date().toISOString() });
    const results = await Promise.all([
      new GitBackend(b, "origin", "demo", w.env).lock(info("b"), { staleMs: 6 * 3600_000 }),
      new GitBackend(c, "origin", "demo", w.env).lock(info("c"), { staleMs: 6 * 3600_000 }),
    ]);
    expect(results.filter((r) => r.acquired)).toHaveLength(1);
    expect(results.find((r) => r.acquired)).toMatchObject({ tookOver: { id: "stale" } });
  });
});
