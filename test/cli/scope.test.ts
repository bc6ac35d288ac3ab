/**
 * Scope rules in pimctl.yaml, against the emulator: ignore (never planned,
 * never deleted, said so), protect (a plan that would delete, rename or move
 * a protected record is refused, naming the rule), max_deletes (a manifest
 * file removed by mistake is refused, exit 3, nothing written).
 */
import { readFile, rm } from "node:fs/promises";
import path from "node:path";
import { afterEach, describe, expect, it } from "vitest";
import { testProject, type TestProject } from "../helpers/project.js";
import { assetsOf } from "../../src/emulator/kinds/assets.js";
import { createBrand } from "../../src/emulator/kinds/brands.js";

const brandsA = "brands:\n  - name: Acme\n  - name: Partner North\n  - name: Partner South\n";
const brandsB = "brands:\n" + Array.from({ length: 6 }, (_, i) => `  - name: Brand ${i}\n`).join("");
const categories = "categories:\n  - name: Apparel\n    children:\n      - name: Shirts\n  - name: Seasonal\n    children:\n      - name: Christmas\n";

function config(url: string, extra: string): string {
  return [
    "dir: catalogue",
    "tenants:",
    "  demo:",
    `    base_url: ${url}`,
    "    token_env: PIMCTL_DEMO_TOKEN",
    "prune: { brands: true, categories: true }",
    extra,
    "",
  ].join("\n");
}

const writes = (p: TestProject) => {
  const m = p.emulator.stats().requests.byMethod;
  return (m.POST ?? 0) + (m.PUT ?? 0) + (m.DELETE ?? 0);
};

describe("scope rules in pimctl.yaml", () => {
  let p: TestProject;
  afterEach(async () => p.close());

  async function seeded(extra: string): Promise<TestProject> {
    p = await testProject({ files: { "catalogue/a.yaml": brandsA, "catalogue/b.yaml": brandsB, "catalogue/c.yaml": categories } });
    expect((await p.cli(["apply", "--auto-approve"])).code).toBe(0);
    await p.write("pimctl.yaml", config(p.emulator.tenantUrl("demo"), extra));
    return p;
  }

  it("ignore: ignored records are never planned or deleted, and the plan says how many were left out", async () => {
    await seeded(`ignore: ['category["Seasonal/**"]', 'brand["Partner *"]']`);
    await p.write("catalogue/a.yaml", "brands:\n  - name: Acme\n");
    await p.write("catalogue/c.yaml", "categories:\n  - name: Apparel\n    children:\n      - name: Shirts\n");
    const r = await p.cli(["plan", "--allow-delete", "--format", "json"]);
    expect(r.code, r.stderr).toBe(0);
    const plan = JSON.parse(r.stdout) as { actions: Array<{ address: string }>; warnings: string[] };
    expect(plan.actions.map((a) => a.address)).toEqual([]);
    expect(plan.warnings.join("\n")).toMatch(/4 records left out by the ignore rules of pimctl.yaml/);
    expect((await p.cli(["apply", "--auto-approve", "--allow-delete"])).code).toBe(0);
    expect([...p.emulator.store("demo").brands.values()].map((b) => b.name)).toContain("Partner North");
  });

  it("protect: a prune plan that would delete a protected record is refused, naming the rule; nothing is written", async () => {
    await seeded(`protect: ['category["Seasonal"]']`);
    await p.write("catalogue/c.yaml", "categories:\n  - name: Apparel\n    children:\n      - name: Shirts\n");
    p.emulator.resetStats();
    const r = await p.cli(["apply", "--auto-approve", "--allow-delete"]);
    expect(r.code).toBe(1);
    expect(r.stderr).toContain('category["Seasonal"] is protected by the rule protect: category["Seasonal"] in pimctl.yaml, but the plan would delete it');
    expect(writes(p)).toBe(0);
    // A rename of a protected record is refused too.
    await p.write(
      "catalogue/c.yaml",
      "categories:\n  - name: Apparel\n    children:\n      - name: Shirts\n  - name: Holidays\n    previous_names: [Seasonal]\n    children:\n      - name: Christmas\n",
    );
    expect((await p.cli(["plan"])).stderr).toMatch(/protected by the rule .* would rename it/);
  });

  it("protect follows the record: a protected category whose parent moved (previous_paths) stays protected; a rule that matches nothing is a warning", async () => {
    await seeded(`protect: ['category["Seasonal/Christmas"]']`);
    const moved = (christmas: boolean, previous: boolean) =>
      "categories:\n  - name: Apparel\n    children:\n      - name: Shirts\n  - name: Archive\n    children:\n      - name: Seasonal\n" +
      (previous ? "        previous_paths: [Seasonal]\n" : "") +
      (christmas ? "        children:\n          - name: Christmas\n" : "");
    // The parent moves under Archive; Christmas moves with it (allowed: the protected record is kept).
    await p.write("catalogue/c.yaml", moved(true, true));
    const r1 = await p.cli(["apply", "--auto-approve", "--allow-delete"]);
    expect(r1.code, r1.stderr).toBe(0);
    const plan = JSON.parse((await p.cli(["plan", "--format", "json"])).stdout) as { actions: unknown[]; warnings: string[] };
    expect(plan.actions).toEqual([]);
    expect(plan.warnings).toContain(
      'protect: category["Seasonal/Christmas"] in pimctl.yaml finds category["Archive/Seasonal/Christmas"] only through its former address (previous_paths or previous_names in the manifests); write category["Archive/Seasonal/Christmas"] in the rule before that entry is removed',
    );
    // A later plan that drops it is refused, naming the rule and the address it had.
    await p.write("catalogue/c.yaml", moved(false, true));
    p.emulator.resetStats();
    const r2 = await p.cli(["apply", "--auto-approve", "--allow-delete"]);
    expect(r2.code).toBe(1);
    expect(r2.stderr).toContain(
      'category["Archive/Seasonal/Christmas"] is protected by the rule protect: category["Seasonal/Christmas"] in pimctl.yaml (it was category["Seasonal/Christmas"]), but the plan would delete it',
    );
    expect(writes(p)).toBe(0);
    // Without the previous_paths entry the rule finds nothing: the plan says so.
    await p.write("catalogue/c.yaml", moved(true, false));
    const r3 = JSON.parse((await p.cli(["plan", "--format", "json"])).stdout) as { warnings: string[] };
    expect(r3.warnings).toContain(
      'protect: category["Seasonal/Christmas"] in pimctl.yaml matches nothing in the manifests or the tenant, so it protects nothing (was the record renamed or moved outside the manifests?)',
    );
  });

  it("protect follows the record into what a delete takes along: a value whose attribute's previous_names goes before the tenant has the new name, a brand's asset", async () => {
    const colour = (name: string, previous: boolean) =>
      `attributes:\n  - name: ${name}\n${previous ? "    previous_names: [Color]\n" : ""}    type: selectbox\n    values:\n      - value: Red\n      - value: Blue\n`;
    const acme = 'brands:\n  - name: Acme\n    assets: [{ image_url: "https://cdn.example.com/acme.png", alttext: Acme }]\n  - name: Keep\n';
    p = await testProject({ files: { "catalogue/a.yaml": colour("Color", false), "catalogue/b.yaml": acme } });
    expect((await p.cli(["apply", "--auto-approve"])).code).toBe(0);
    const rules = `protect: ['attribute["Color"].value["Red"]', 'brand["Acme"].asset["https://cdn.example.com/acme.png"]']`;
    await p.write(
      "pimctl.yaml",
      config(p.emulator.tenantUrl("demo"), rules).replace("{ brands: true, categories: true }", "{ brands: true, attributes: true }"),
    );
    // The rename keeps the attribute, its values and their ids: allowed.
    await p.write("catalogue/a.yaml", colour("Colour", true));
    const renamed = await p.cli(["plan", "--allow-delete", "--format", "json"]);
    expect(renamed.code, renamed.stderr).toBe(0);
    expect((JSON.parse(renamed.stdout) as { actions: Array<{ op: string }> }).actions.map((a) => a.op)).toEqual(["rename"]);
    // The previous_names entry removed before that plan is applied: the attribute would be deleted, and Red with it.
    await p.write("catalogue/a.yaml", colour("Colour", false));
    p.emulator.resetStats();
    const r = await p.cli(["apply", "--auto-approve", "--allow-delete"]);
    expect(r.code).toBe(1);
    expect(r.stderr).toContain(
      'attribute["Color"].value["Red"] is protected by the rule protect: attribute["Color"].value["Red"] in pimctl.yaml, but the plan would delete it ' +
        'with attribute["Color"]',
    );
    // A brand's asset (its image_url known from the ledger: API v1 does not return it) goes with the brand.
    await p.write("catalogue/a.yaml", colour("Color", false));
    await p.write("catalogue/b.yaml", "brands:\n  - name: Keep\n");
    const brand = await p.cli(["plan", "--allow-delete"]);
    expect(brand.code).toBe(1);
    expect(brand.stderr).toContain(
      'brand["Acme"].asset["https://cdn.example.com/acme.png"] is protected by the rule protect: brand["Acme"].asset["https://cdn.example.com/acme.png"] ' +
        'in pimctl.yaml, but the plan would delete it with brand["Acme"]',
    );
    expect(writes(p)).toBe(0);
  });

  it("max_deletes: a manifest file removed by mistake is refused (exit 3) before any write; a percentage works per kind", async () => {
    await seeded("max_deletes: 3");
    await rm(path.join(p.dir, "catalogue", "b.yaml"));
    p.emulator.resetStats();
    const r = await p.cli(["apply", "--auto-approve", "--allow-delete"]);
    expect(r.code).toBe(3);
    expect(r.stderr).toContain("the plan deletes 6 records, more than max_deletes: 3 in pimctl.yaml allows; nothing was applied");
    expect(writes(p)).toBe(0);
    await p.write("pimctl.yaml", config(p.emulator.tenantUrl("demo"), 'max_deletes: "50%"'));
    const pct = await p.cli(["plan", "--allow-delete"]);
    expect(pct.code).toBe(3);
    expect(pct.stderr).toContain("the plan deletes 6 of the tenant's 9 brands (66.7%)");
    await p.write("pimctl.yaml", config(p.emulator.tenantUrl("demo"), 'max_deletes: "70%"'));
    expect((await p.cli(["plan", "--allow-delete"])).code).toBe(0);
  });

  it("a rule that is not a selector, or a limit that is not one, is a config error naming it", async () => {
    await seeded("protect: ['categry[\"Seasonal\"]']");
    const r = await p.cli(["plan"]);
    expect(r.code).toBe(1);
    expect(r.stderr).toMatch(/pimctl.yaml: protect: .*unknown kind "categry"/);
    await p.write("pimctl.yaml", config(p.emulator.tenantUrl("demo"), "max_deletes: lots"));
    const limit = await p.cli(["plan"]);
    expect(limit.code).toBe(1);
    expect(limit.stderr).toMatch(/pimctl.yaml:\d+:\d+: "max_deletes"/);
  });
});

describe("prune: { kind: owned } deletes only what pimctl created or adopted", () => {
  let p: TestProject;
  afterEach(async () => p.close());

  it("a brand made by hand in the tenant is never pruned; one pimctl made is, once undeclared", async () => {
    p = await testProject({ files: { "catalogue/a.yaml": "brands:\n  - name: Acme\n  - name: Zenith\n" } });
    await p.write("pimctl.yaml", config(p.emulator.tenantUrl("demo"), "").replace("prune: { brands: true, categories: true }", "prune: { brands: owned }"));
    expect((await p.cli(["apply", "--auto-approve"])).code).toBe(0);
    // Someone adds a brand by hand, outside Git.
    const store = p.emulator.store("demo");
    createBrand(store, { name: "Hand Made" });
    await p.write("catalogue/a.yaml", "brands:\n  - name: Acme\n");
    const r = await p.cli(["plan", "--allow-delete", "--format", "json"]);
    expect(r.code, r.stderr).toBe(0);
    const plan = JSON.parse(r.stdout) as { actions: Array<{ op: string; address: string }>; unmanaged: Array<{ address: string }> };
    expect(plan.actions.map((a) => `${a.op} ${a.address}`)).toEqual(['delete brand["Zenith"]']);
    expect(plan.unmanaged.map((u) => u.address)).toEqual(['brand["Hand Made"]']);
    const zenith = [...store.brands.values()].find((b) => b.name === "Zenith")!.id;
    expect((await p.cli(["apply", "--auto-approve", "--allow-delete"])).code).toBe(0);
    expect([...store.brands.values()].map((b) => b.name).sort()).toEqual(["Acme", "Hand Made"]);
    // A deleted record's id is no longer pimctl's (a tenant that reuses ids must not make a hand-made record look owned).
    const ledger = JSON.parse(await readFile(path.join(p.dir, ".pimctl", "demo.json"), "utf8")) as { owned: Record<string, number[]> };
    expect(ledger.owned.brands).not.toContain(zenith);
    expect(ledger.owned.brands!.length).toBe(1);
  });

  it("a deleted brand's assets (and a deleted attribute's values) leave owned with it: no id of a record that is gone stays pimctl's", async () => {
    const brand = 'brands:\n  - name: Acme\n    assets: [{ image_url: "https://cdn.example.com/acme.png", alttext: Acme }]\n  - name: Keep\n';
    const attribute = "attributes:\n  - name: Colour\n    type: selectbox\n    values: [{ value: Red }, { value: Blue }]\n";
    p = await testProject({ files: { "catalogue/a.yaml": brand, "catalogue/b.yaml": attribute } });
    const prune = "prune: { brands: owned, assets: owned, attributes: owned, type_values: owned }";
    await p.write("pimctl.yaml", config(p.emulator.tenantUrl("demo"), "").replace("prune: { brands: true, categories: true }", prune));
    expect((await p.cli(["apply", "--auto-approve"])).code).toBe(0);
    const ledgerOwned = async () => (JSON.parse(await readFile(path.join(p.dir, ".pimctl", "demo.json"), "utf8")) as { owned: Record<string, number[]> }).owned;
    const store = p.emulator.store("demo");
    const acme = [...store.brands.values()].find((b) => b.name === "Acme")!;
    const assetIds = assetsOf(store, "brand", acme.id).map((a) => a.id);
    const colour = [...store.attributes.values()].find((a) => a.name === "Colour")!;
    const valueIds = [...store.typeValues.values()].filter((v) => v.attribute_id === colour.id).map((v) => v.id);
    expect(assetIds.length).toBe(1);
    expect(valueIds.length).toBe(2);
    const before = await ledgerOwned();
    // Kept per table: the service numbers brand and category assets apart.
    expect(before.brand_assets).toEqual(assetIds);
    expect(before.type_values).toEqual(valueIds.sort((a, b) => a - b));
    await p.write("catalogue/a.yaml", "brands:\n  - name: Keep\n");
    await p.write("catalogue/b.yaml", "attributes: []\n");
    const r = await p.cli(["apply", "--auto-approve", "--allow-delete"]);
    expect(r.code, r.stderr).toBe(0);
    expect([...store.brands.values()].map((b) => b.name)).toEqual(["Keep"]);
    const after = await ledgerOwned();
    expect(after.brands).not.toContain(acme.id);
    expect(after.brand_assets ?? []).toEqual([]);
    expect(after.attributes ?? []).toEqual([]);
    expect(after.type_values ?? []).toEqual([]);
  });

  it("an adopted record (declared, found in the tenant) becomes pimctl's: pruned once undeclared", async () => {
    p = await testProject();
    createBrand(p.emulator.store("demo"), { name: "Existing" });
    await p.write("catalogue/a.yaml", "brands:\n  - name: Existing\n");
    await p.write("pimctl.yaml", config(p.emulator.tenantUrl("demo"), "").replace("prune: { brands: true, categories: true }", "prune: { brands: owned }"));
    expect((await p.cli(["apply", "--auto-approve"])).code).toBe(0);
    await p.write("catalogue/a.yaml", "brands: []\n");
    const r = await p.cli(["plan", "--allow-delete", "--format", "json"]);
    expect((JSON.parse(r.stdout) as { actions: Array<{ address: string }> }).actions.map((a) => a.address)).toEqual(['brand["Existing"]']);
  });
});
