import { existsSync, readFileSync } from "node:fs";
import { writeFile } from "node:fs/promises";
import path from "node:path";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { gitWorld, type GitWorld } from "./git-helpers.js";

let w: GitWorld;
let a: string;
beforeAll(async () => {
  w = await gitWorld();
  a = await w.clone("a");
  const first = await w.cli(a, ["apply", "--auto-approve"]);
  if (first.code !== 0) throw new Error(first.stderr);
});
afterAll(async () => w.close());

describe("pimctl state", () => {
  it("show: every record by address, with its ledger key and what is remembered", async () => {
    const r = await w.cli(a, ["state", "show"]);
    expect(r.code, r.stderr).toBe(0);
    expect(r.stdout).toContain(`State of tenant "demo" (origin refs/pimctl/state/demo):`);
    expect(r.stdout).toMatch(/brand\["Alpine Optics"\] \(brand:\d+\)  web_ids: /);
    expect(r.stdout).toMatch(/brand\["Alpine Optics"\] \(brand:\d+\)  assets: \d+=\{"image_url":"https:\/\/cdn.example.com\/brands\/alpine-optics.png"\}/);
    expect(r.stdout).not.toContain("Locked:");
    const offline = await w.cli(a, ["state", "show", "--offline"]);
    expect(offline.stdout).toMatch(/^ {2}brand:\d+ {2}web_ids: /m);
    const json = JSON.parse((await w.cli(a, ["state", "show", "--json"])).stdout);
    expect(json.entries.find((e: { address?: string }) => e.address === 'brand["Alpine Optics"]')).toBeDefined();
  });

  it("pull and push: out to a file, repaired, back in; the fresh clone sees it", async () => {
    const file = path.join(w.root, "ledger.json");
    expect((await w.cli(a, ["state", "pull", file])).code).toBe(0);
    const ledger = JSON.parse(readFileSync(file, "utf8"));
    expect(ledger.tenant).toBe("demo");
    const stdout = (await w.cli(a, ["state", "pull"])).stdout;
    expect(JSON.parse(stdout)).toEqual(ledger);
    const [key] = Object.keys(ledger.web_ids);
    ledger.web_ids[key!] = { Webshop: "repaired-by-hand" };
    await writeFile(file, JSON.stringify(ledger));
    const push = await w.cli(a, ["state", "push", file]);
    expect(push.code, push.stderr).toBe(0);
    const fresh = await w.clone("fresh-push");
    expect(JSON.parse((await w.cli(fresh, ["state", "pull"])).stdout).web_ids[key!]).toEqual({ Webshop: "repaired-by-hand" });
    // The manifests say otherwise, so the plan now shows that web id as a change; pushing the original back converges.
    expect((await w.cli(fresh, ["plan", "--detailed-exitcode"])).code).toBe(2);
    await writeFile(file, stdout);
    expect((await w.cli(a, ["state", "push", file])).code).toBe(0);
    expect((await w.cli(fresh, ["plan", "--detailed-exitcode"])).code).toBe(0);
    // A ledger of another tenant is refused.
    await writeFile(file, JSON.stringify({ ...ledger, base_url: "https://other.example.com/api/v1" }));
    const wrong = await w.cli(a, ["state", "push", file]);
    expect(wrong.code).toBe(1);
    expect(wrong.stderr).toContain("belongs to https://other.example.com/api/v1");
  });

  it("rm: forgets a record, so its write-only values show as unknown and are written again; then it converges", async () => {
    const r = await w.cli(a, ["state", "rm", 'brand["Alpine Optics"]']);
    expect(r.code, r.stderr).toBe(0);
    expect(r.stderr).toMatch(/Forgot brand\["Alpine Optics"\] \(\d entries\)/);
    const plan = await w.cli(a, ["plan", "--detailed-exitcode"]);
    expect(plan.code).toBe(2);
    expect(plan.stdout).toContain("Alpine Optics");
    expect((await w.cli(a, ["apply", "--auto-approve"])).code).toBe(0);
    expect((await w.cli(a, ["plan", "--detailed-exitcode"])).code).toBe(0);
    const unknown = await w.cli(a, ["state", "rm", 'brand["No Such Brand"]']);
    expect(unknown.code).toBe(1);
    expect(unknown.stderr).toContain("no such record");
    const key = /(brand:\d+)/.exec((await w.cli(a, ["state", "show", "--offline"])).stdout)![1]!;
    expect((await w.cli(a, ["state", "rm", key])).stderr).toContain(`Forgot ${key}`);
    expect((await w.cli(a, ["apply", "--auto-approve"])).code).toBe(0);
  });

  it("migrate --to git: a local ledger moves to the remote losing nothing, entries already there kept", async () => {
    // A team that applied from a laptop (local backend) before switching to git.
    const laptop = await w.clone("laptop");
    const local = path.join(laptop, "local.yaml");
    await writeFile(local, readFileSync(path.join(laptop, "pimctl.yaml"), "utf8").replace("backend: git", "backend: local"));
    expect((await w.cli(laptop, ["state", "pull", path.join(w.root, "before.json")])).code).toBe(0);
    const remoteBefore = JSON.parse(readFileSync(path.join(w.root, "before.json"), "utf8"));
    const [onlyRemote, ...rest] = Object.keys(remoteBefore.web_ids);
    // The laptop's own ledger, from before it knew write times: what only one side has is kept, nothing there differs.
    const localLedger = {
      ...remoteBefore,
      written: undefined,
      web_ids: { ...Object.fromEntries(rest.map((k) => [k, remoteBefore.web_ids[k]])), "brand:999999": { Webshop: "only-on-the-laptop" } },
    };
    const ledgerDir = path.join(laptop, ".pimctl");
    await import("node:fs/promises").then((fs) => fs.mkdir(ledgerDir, { recursive: true }));
    await writeFile(path.join(ledgerDir, "demo.json"), JSON.stringify(localLedger));
    const r = await w.cli(laptop, ["state", "migrate", "--to", "git", "--config", local]);
    expect(r.code, r.stderr).toBe(0);
    expect(r.stderr).toContain(
      `Copied ${Object.keys(localLedger.web_ids).length + Object.keys(localLedger.assets).length + Object.keys(localLedger.brand_attribute_sets).length} record(s) from ${ledgerDir}/demo.json to origin refs/pimctl/state/demo`,
    );
    expect(r.stderr).toContain("backend: git");
    const after = JSON.parse((await w.cli(await w.clone("after-migrate"), ["state", "pull"])).stdout);
    expect(after.web_ids["brand:999999"]).toEqual({ Webshop: "only-on-the-laptop" });
    expect(after.web_ids[onlyRemote!]).toEqual(remoteBefore.web_ids[onlyRemote!]);
    expect(Object.keys(after.web_ids).length).toBe(Object.keys(remoteBefore.web_ids).length + 1);
    expect(Object.keys(w.remoteRefs())).toEqual(["refs/pimctl/state/demo"]);
    expect(existsSync(path.join(ledgerDir, "demo.lock"))).toBe(false);
  });

  it("unlock without a lock says so", async () => {
    const r = await w.cli(a, ["state", "unlock", "whatever"]);
    expect(r.code).toBe(1);
    expect(r.stderr).toContain('the state of tenant "demo" is not locked (origin refs/pimctl/lock/demo)');
  });
});
