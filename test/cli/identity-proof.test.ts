/**
 * A remembered id is evidence, never a license (issue 37). The ledger remembers which ids pimctl
 * applied, under which name, with a fingerprint of what it wrote; a record is renamed back,
 * updated, pruned or has its sub-records read through that memory only when it still matches.
 * Every case under both id-sequence readings (one per table, one for all tables).
 */
import { afterEach, describe, expect, it } from "vitest";
import { createClient } from "../../src/api/client.js";
import { testProject, type TestProject } from "../helpers/project.js";
import type { Plan } from "../../src/plan/types.js";
import { updateBrand } from "../../src/emulator/kinds/brands.js";
import { updateCategory } from "../../src/emulator/kinds/categories.js";

const brandYaml = [
  "attributes:",
  "  - name: Colour",
  "    type: selectbox",
  "    values:",
  "      - value: Red",
  "attribute_sets:",
  "  - name: Apparel",
  "    attributes: [Colour]",
  "brands:",
  "  - name: Acme",
  "    desc: Tools",
  "    web_ids: { Webshop: acme-01 }",
  "    assets: [{ image_url: 'https://cdn.example.com/acme.png', alttext: Acme, thumbnail: true }]",
  "    attributes: { Colour: { value: Red, versions: { French: Rouge } } }",
  "    attribute_sets: [Apparel]",
  "",
].join("\n");

const config = (url: string, prune: string) =>
  ["dir: catalogue", "tenants:", "  demo:", `    base_url: ${url}`, "    token_env: PIMCTL_DEMO_TOKEN", `prune: ${prune}`, ""].join("\n");

let p: TestProject | undefined;
afterEach(async () => {
  await p?.close();
  p = undefined;
});

async function project(idSequence: "per-table" | "global", files: Record<string, string>, prune = "{}"): Promise<TestProject> {
  p = await testProject({ files, config: (u) => config(u.demo!, prune), emulator: { switches: { idSequence } } });
  return p;
}

const api = (t: TestProject) => createClient({ tenant: "demo", baseUrl: t.emulator.tenantUrl("demo"), token: t.tokens.demo! });

async function planJson(t: TestProject, ...args: string[]): Promise<Plan> {
  const r = await t.cli(["plan", "--format", "json", "--allow-delete", ...args]);
  expect(r.code, r.stderr).toBe(0);
  return JSON.parse(r.stdout) as Plan;
}
const ops = (plan: Plan) => plan.actions.map((a) => `${a.op} ${a.address}`);

for (const idSequence of ["per-table", "global"] as const) {
  describe(`ids read ${idSequence}`, () => {
    it("a brand renamed by hand keeps its sub-records: the full and the targeted plan rename it back, and nothing else", async () => {
      const t = await project(idSequence, { "catalogue/a.yaml": brandYaml }, "{ brands: owned }");
      expect((await t.cli(["apply", "--auto-approve"])).code).toBe(0);
      const store = t.emulator.store("demo");
      const acme = store.brandByName.get("Acme")!;
      updateBrand(store, acme, { name: "ACME Corp" });

      const full = await planJson(t);
      expect(ops(full)).toEqual(['rename brand["Acme"]']);
      expect(full.actions[0]).toMatchObject({ refs: { self: { id: acme } }, previous: { via: "ledger" } });
      const targeted = await planJson(t, "--target", 'brand["Acme"]');
      expect(ops(targeted)).toEqual(['rename brand["Acme"]']);
      const diff = await t.cli(["diff", "--from", "catalogue", "--to", "demo", "--format", "json", "--target", 'brand["Acme"]']);
      expect(ops(JSON.parse(diff.stdout) as Plan)).toEqual(['rename brand["Acme"]']);

      const applied = await t.cli(["apply", "--auto-approve", "--target", 'brand["Acme"]']);
      expect(applied.code, applied.stderr + applied.stdout).toBe(0);
      expect([...store.brands.values()].map((b) => [b.id, b.name])).toEqual([[acme, "Acme"]]);
      expect(store.brandAssets.size).toBe(1);

      // Renamed by hand again, the full apply: no duplicate asset, no 422, and the next plan is empty.
      updateBrand(store, acme, { name: "ACME Corp" });
      const again = await t.cli(["apply", "--auto-approve"]);
      expect(again.code, again.stderr + again.stdout).toBe(0);
      expect(store.brandAssets.size).toBe(1);
      expect((await t.cli(["plan", "--detailed-exitcode"])).code).toBe(0);
    }, 30_000);

    it("a restore that reused ids: the record under the remembered id is another record, never renamed, updated or pruned", async () => {
      const t = await project(idSequence, { "catalogue/a.yaml": "brands:\n  - name: Acme\n    desc: Tools\n" }, "{ brands: owned }");
      expect((await t.cli(["apply", "--auto-approve"])).code).toBe(0);
      const remembered = t.emulator.store("demo").brandByName.get("Acme")!;
      // The tenant is restored from a backup made before Acme existed; someone makes "Hand", which gets Acme's old id.
      t.emulator.resetTenant("demo");
      const client = api(t);
      const hand = await client.createBrand({ name: "Hand", desc: "Made by hand" });
      await client.close();
      expect(hand.id).toBe(remembered);

      const plan = await planJson(t);
      expect(ops(plan)).toEqual(['create brand["Acme"]']);
      expect(plan.unmanaged.map((u) => u.address)).toEqual(['brand["Hand"]']);
      expect(plan.warnings.filter((w) => w.includes('"Hand"'))).toEqual([
        `brands: "Hand" (id ${remembered}) holds the id the ledger remembers for "Acme", but it is another record (desc differs from what pimctl wrote): not renamed, updated or pruned through that memory`,
      ]);
      // Applied: "Acme" gets a new id; "Hand", under an id pimctl once owned, is still not pruned.
      const applied = await t.cli(["apply", "--auto-approve", "--allow-delete"]);
      expect(applied.code, applied.stderr).toBe(0);
      const next = await planJson(t);
      expect(ops(next)).toEqual([]);
      expect(next.unmanaged.map((u) => u.address)).toEqual(['brand["Hand"]']);
      expect(t.emulator.store("demo").brands.get(remembered)?.name).toBe("Hand");
    }, 30_000);

    it("a category renamed by hand is renamed back on its id, with pruning on or off", async () => {
      const manifest = "categories:\n  - name: Apparel\n    desc: Clothes\n    children:\n      - name: Shirts\n      - name: Shoes\n        desc: Feet\n";
      for (const prune of ["{ categories: true }", "{ categories: owned }", "{}"]) {
        const t = await project(idSequence, { "catalogue/a.yaml": manifest }, prune);
        expect((await t.cli(["apply", "--auto-approve"])).code).toBe(0);
        const store = t.emulator.store("demo");
        const id = (name: string) => [...store.categories.values()].find((c) => c.name === name)!.id;
        const [shirts, shoes, apparel] = [id("Shirts"), id("Shoes"), id("Apparel")];
        updateCategory(store, shirts, { name: "Tees" });
        updateCategory(store, apparel, { name: "Clothing" });
        const plan = await planJson(t);
        expect(ops(plan), prune).toEqual(['rename category["Apparel"]', 'rename category["Apparel/Shirts"]']);
        expect(plan.actions.map((a) => [a.refs.self, a.previous])).toEqual([
          [{ id: apparel }, { address: 'category["Clothing"]', via: "ledger" }],
          [{ id: shirts }, { address: 'category["Clothing/Tees"]', via: "ledger" }],
        ]);
        expect((await t.cli(["apply", "--auto-approve", "--allow-delete"])).code).toBe(0);
        expect([apparel, shirts, shoes].map((c) => store.categories.get(c)?.name)).toEqual(["Apparel", "Shirts", "Shoes"]);
        expect((await t.cli(["plan", "--detailed-exitcode"])).code).toBe(0);
        await t.close();
        p = undefined;
      }
    }, 60_000);
  });
}

describe("ownership is kept where the id is unique (ids read per table)", () => {
  it("a category asset made by hand with the id of a brand asset pimctl made is not pimctl's to prune", async () => {
    const files = {
      "catalogue/a.yaml": [
        "brands:",
        "  - name: Acme",
        "    assets: [{ image_url: 'https://cdn.example.com/acme.png', alttext: Acme }]",
        "categories:",
        "  - name: Apparel",
        "    assets: []",
        "",
      ].join("\n"),
    };
    const t = await project("per-table", files, "{ assets: owned }");
    expect((await t.cli(["apply", "--auto-approve"])).code).toBe(0);
    const store = t.emulator.store("demo");
    const brandAsset = [...store.brandAssets.keys()][0]!;
    const client = api(t);
    const apparel = [...store.categories.values()].find((c) => c.name === "Apparel")!.id;
    const byHand = await client.createCategoryAsset(apparel, { alttext: "By hand", image_url: "https://cdn.example.com/hand.png" });
    await client.close();
    expect(byHand.id).toBe(brandAsset);
    const plan = await planJson(t);
    expect(ops(plan)).toEqual([]);
    expect(plan.unmanaged.map((u) => u.address)).toEqual([`category["Apparel"].asset["${store.categoryAssets.get(byHand.id)!.uri}"]`]);
  }, 30_000);
});
