/**
 * `export --merge --tenant X` into the shared base when X has an overlay (issue 35): each changed
 * value goes to the file that declares it for X (the overlay when the overlay sets it, else the
 * base, which every tenant inherits), new records go to X's overlay, a record the overlay removes
 * but X has is reported and left, and no base entry is ever copied into the overlay. Over HTTP
 * against emulator tenants; every merge is followed by plans: X's is a no-op, the other tenant's
 * shows only what changed in the base.
 */
import { readFile } from "node:fs/promises";
import path from "node:path";
import { afterEach, describe, expect, it } from "vitest";
import { testProject, type TestProject } from "../helpers/project.js";
import { createBrand, updateBrand } from "../../src/emulator/kinds/brands.js";
import { attributeByName, setAttributeVersion } from "../../src/emulator/kinds/attributes.js";
import { createTypeValue, typeValuesOf } from "../../src/emulator/kinds/type-values.js";
import { createCategory, updateCategory } from "../../src/emulator/kinds/categories.js";

const TENANTS = ["prod-eu", "prod-us"];
let p: TestProject;
afterEach(async () => p?.close());

const config = (urls: Record<string, string>, tenants = TENANTS) =>
  [
    "dir: catalogue",
    "overlays: catalogue/overlays",
    "tenants:",
    ...tenants.flatMap((n) => [`  ${n}:`, `    base_url: ${urls[n]}`, `    token_env: PIMCTL_${n.toUpperCase()}_TOKEN`]),
    "",
  ].join("\n");

const BASE_ATTRIBUTES = [
  "display_groups:",
  "  - name: Basics",
  "attributes:",
  "  - name: Colour",
  "    type: selectbox",
  "    display_group: Basics",
  "    versions: { French: { name: Couleur } }",
  "    values:",
  "      - value: Red",
  "      - value: Blue",
  "categories:",
  "  - name: Apparel",
  "    desc: Clothes",
  "    children:",
  "      - name: Shirts",
  "",
].join("\n");
const BASE_BRANDS = [
  "# Brands every shop sells.",
  "brands:",
  "  - name: Acme",
  "    desc: Tools",
  "  - name: Globex",
  "    desc: &all Everything",
  "  - name: Hooli",
  "    # the same words as Globex",
  "    desc: *all",
  "",
].join("\n");
const US_BRANDS = [
  "brands:",
  "  - name: Acme # the US desc",
  "    desc: &us Tools (US)",
  "  - name: Globex",
  "    $remove: true",
  "  - name: Initech",
  "    desc: *us",
  "",
].join("\n");
const US_ATTRIBUTES = ["attributes:", "  - name: Colour", "    versions:", "      French: { name: Couleur (US) }", ""].join("\n");

const files = {
  "catalogue/attributes.yaml": BASE_ATTRIBUTES,
  "catalogue/brands.yaml": BASE_BRANDS,
  "catalogue/overlays/prod-us/brands.yaml": US_BRANDS,
  "catalogue/overlays/prod-us/attributes.yaml": US_ATTRIBUTES,
};

/** `tenants`, `overlays` and extra files: another layout (the overlays beside the base, a third tenant with an overlay). */
async function fleet(o: { tenants?: string[]; overlays?: string; files?: Record<string, string> } = {}): Promise<TestProject> {
  const tenants = o.tenants ?? TENANTS;
  const layout = (urls: Record<string, string>) =>
    config(urls, tenants).replace("overlays: catalogue/overlays", `overlays: ${o.overlays ?? "catalogue/overlays"}`);
  p = await testProject({ tenants, config: layout, files: o.files ?? files });
  for (const t of tenants) {
    const r = await p.cli(["apply", "--tenant", t, "--auto-approve"]);
    expect(r.code, r.stderr).toBe(0);
  }
  return p;
}

const read = (f: string) => readFile(path.join(p.dir, f), "utf8");
const merge = () => p.cli(["export", "--tenant", "prod-us", "--out", "catalogue", "--merge"]);

/** The plan of a tenant as `op address` lines. */
async function planOf(tenant: string): Promise<string[]> {
  const r = await p.cli(["plan", "--tenant", tenant, "--format", "json"]);
  expect(r.code, r.stderr).toBe(0);
  return (JSON.parse(r.stdout) as { actions: Array<{ op: string; address: string }> }).actions.map((a) => `${a.op} ${a.address}`);
}

const brandOf = (tenant: string, name: string) => [...p.emulator.store(tenant).brands.values()].find((b) => b.name === name)!;

describe("export --merge into the base for a tenant with an overlay", () => {
  it("writes a value the overlay sets to the overlay, one it does not set to the base; X's plan is a no-op, the other's shows the base change", async () => {
    await fleet();
    const us = p.emulator.store("prod-us");
    updateBrand(us, brandOf("prod-us", "Acme").id, { desc: "Tools for America" });
    updateBrand(us, brandOf("prod-us", "Hooli").id, { desc: "Search, everywhere" });
    setAttributeVersion(us, attributeByName(us, "Colour")!.id, 2, { name: "Couleur US" });
    const r = await merge();
    expect(r.code, r.stderr).toBe(0);
    expect(r.stderr).toContain("written to the shared base (every tenant that inherits it reads it): 1 value");
    expect(r.stderr).toContain('updated: catalogue/brands.yaml:9: brand "Hooli": desc');
    expect(r.stderr).toContain('updated: catalogue/overlays/prod-us/brands.yaml:3: brand "Acme": desc');
    expect(r.stderr).toContain("written to catalogue/overlays/prod-us: 2 values");
    // The overlay's own values, in the overlay; its anchor split: Initech keeps what it read.
    expect(await read("catalogue/overlays/prod-us/brands.yaml")).toBe(
      US_BRANDS.replace("desc: &us Tools (US)", "desc: Tools for America").replace("desc: *us", "desc: &us Tools (US)"),
    );
    expect(await read("catalogue/overlays/prod-us/attributes.yaml")).toBe(US_ATTRIBUTES.replace("Couleur (US)", "Couleur US"));
    // Hooli's desc in the base, Globex's (which it aliased) kept; Acme's base entry untouched.
    expect(await read("catalogue/brands.yaml")).toBe(BASE_BRANDS.replace("    desc: *all", "    desc: Search, everywhere"));
    expect(await read("catalogue/attributes.yaml")).toBe(BASE_ATTRIBUTES);
    expect(await planOf("prod-us")).toEqual([]);
    expect(await planOf("prod-eu")).toEqual(['update brand["Hooli"]']);
  });

  it("adds a record only X has to X's overlay, and a changed record the overlay adds is edited there", async () => {
    await fleet();
    const us = p.emulator.store("prod-us");
    createBrand(us, { name: "Umbrella", desc: "Rain" });
    updateBrand(us, brandOf("prod-us", "Initech").id, { desc: "US only, since 2020" });
    const colour = attributeByName(us, "Colour")!.id;
    createTypeValue(us, colour, { value: "Green", sort_order: typeValuesOf(us, colour).length + 1 });
    const apparel = [...us.categories.values()].find((c) => c.name === "Apparel")!;
    createCategory(us, { parent_id: apparel.id, name: "Hats" });
    const r = await merge();
    expect(r.code, r.stderr).toBe(0);
    const overlay = await read("catalogue/overlays/prod-us/brands.yaml");
    expect(overlay).toContain("  - name: Initech\n    desc: US only, since 2020\n");
    expect(overlay).toContain("  - name: Umbrella\n    desc: Rain\n");
    // The base's entries are not copied into the overlay: the new value and category hang under entries holding only their identity.
    const attributes = await read("catalogue/overlays/prod-us/attributes.yaml");
    expect(attributes).toContain("- value: Green");
    expect(attributes).not.toContain("type: selectbox");
    const categories = await read("catalogue/overlays/prod-us/categories.yaml");
    expect(categories).toContain("- name: Apparel\n    children:\n      - name: Hats");
    expect(categories).not.toContain("Clothes");
    expect(await read("catalogue/brands.yaml")).toBe(BASE_BRANDS);
    expect(await read("catalogue/attributes.yaml")).toBe(BASE_ATTRIBUTES);
    expect(r.stderr).toContain("written to catalogue/overlays/prod-us: 1 value");
    expect(r.stderr).toContain('added: catalogue/overlays/prod-us/categories.yaml: category "Apparel/Hats"');
    expect(r.stderr).toContain('added: catalogue/overlays/prod-us/attributes.yaml: value "Green" of attribute "Colour"');
    expect(r.stderr).not.toContain('category "Apparel"\n');
    expect(await planOf("prod-us")).toEqual([]);
    expect(await planOf("prod-eu")).toEqual([]);
  });

  it("reports a record the overlay removes but X has (added back by hand) with the $remove's file:line, and adds it nowhere", async () => {
    await fleet();
    createBrand(p.emulator.store("prod-us"), { name: "Globex", desc: "Back again" });
    const r = await merge();
    expect(r.code, r.stderr).toBe(0);
    expect(r.stderr).toContain(
      'warning: catalogue/overlays/prod-us/brands.yaml:5: brand "Globex" is removed for prod-us here ($remove), but the tenant has it',
    );
    expect(await read("catalogue/brands.yaml")).toBe(BASE_BRANDS);
    expect(await read("catalogue/overlays/prod-us/brands.yaml")).toBe(US_BRANDS);
    expect(r.stderr).toContain("the manifests already match the tenant; nothing written");
  });

  it("refuses, writing nothing, when the result would not read as the tenant: a value the overlay sets, cleared in the tenant, while the base has one", async () => {
    await fleet();
    const us = p.emulator.store("prod-us");
    updateBrand(us, brandOf("prod-us", "Acme").id, { desc: "" });
    updateBrand(us, brandOf("prod-us", "Hooli").id, { desc: "Search, everywhere" });
    const r = await merge();
    expect(r.code).toBe(1);
    expect(r.stderr).toContain("export --merge refused: prod-us's catalogue (base and overlay) would not read as the tenant");
    expect(r.stderr).toContain('prod-us: brand "Acme": desc would not read as the tenant has it');
    expect(await read("catalogue/brands.yaml")).toBe(BASE_BRANDS);
    expect(await read("catalogue/overlays/prod-us/brands.yaml")).toBe(US_BRANDS);
  });

  it("leaves a record renamed by hand out of the merge, said so: not renamed in the shared base, not added to the overlay", async () => {
    await fleet();
    updateBrand(p.emulator.store("prod-us"), brandOf("prod-us", "Hooli").id, { name: "Hooli Inc" });
    const r = await merge();
    expect(r.code, r.stderr).toBe(0);
    expect(r.stderr).toContain('not merged: brand "Hooli" is "Hooli Inc" in the tenant (renamed there by hand;');
    // Said once, and true: not also "not in the tenant" (deleting it by hand would delete a record the tenant has), nor "written to".
    expect(r.stderr).toContain("Merged into catalogue: nothing written; the manifests match the tenant but for what is not merged:\n  not merged:");
    expect(r.stderr).not.toContain('Hooli"\n');
    expect(r.stderr).not.toContain("but not in the tenant");
    expect(r.stderr).not.toContain("written to");
    expect(await read("catalogue/brands.yaml")).toBe(BASE_BRANDS);
    expect(await read("catalogue/overlays/prod-us/brands.yaml")).toBe(US_BRANDS);
    expect(await planOf("prod-us")).toEqual(['rename brand["Hooli"]']);
  });

  it("says a category renamed by hand once, its subtree with it: not merged, and not listed as missing from the tenant", async () => {
    await fleet();
    const us = p.emulator.store("prod-us");
    updateCategory(us, [...us.categories.values()].find((c) => c.name === "Apparel")!.id, { name: "Clothing" });
    const r = await merge();
    expect(r.code, r.stderr).toBe(0);
    expect(r.stderr).toContain('not merged: category "Apparel" is "Clothing" in the tenant (renamed there by hand;');
    expect(r.stderr).not.toContain("but not in the tenant");
    expect(await read("catalogue/attributes.yaml")).toBe(BASE_ATTRIBUTES);
    expect(await planOf("prod-us")).toEqual(['rename category["Apparel"]']);
  });

  it("with the overlays beside the base and a third tenant's overlay setting the value: only the tenants that inherit the base value see it", async () => {
    await fleet({
      tenants: ["prod-ca", ...TENANTS],
      overlays: "overlays",
      files: {
        "catalogue/attributes.yaml": BASE_ATTRIBUTES,
        "catalogue/brands.yaml": BASE_BRANDS,
        "overlays/prod-us/brands.yaml": US_BRANDS,
        "overlays/prod-ca/brands.yaml": "brands:\n  - name: Hooli\n    desc: Recherche\n",
      },
    });
    const us = p.emulator.store("prod-us");
    updateBrand(us, brandOf("prod-us", "Acme").id, { desc: "Tools for America" });
    updateBrand(us, brandOf("prod-us", "Hooli").id, { desc: "Search, everywhere" });
    const r = await merge();
    expect(r.code, r.stderr).toBe(0);
    // Every file named relative to where pimctl runs, as the summary names them: never ../overlays.
    expect(r.stderr).toContain('updated: overlays/prod-us/brands.yaml:3: brand "Acme": desc');
    expect(r.stderr).toContain('updated: catalogue/brands.yaml:9: brand "Hooli": desc');
    expect(r.stderr).toContain("in 2 files: catalogue/brands.yaml, overlays/prod-us/brands.yaml");
    expect(r.stderr).not.toContain("../");
    expect(r.stderr).toContain("written to overlays/prod-us: 1 value");
    expect(await read("overlays/prod-us/brands.yaml")).toContain("desc: Tools for America");
    expect(await read("catalogue/brands.yaml")).toContain("desc: Search, everywhere");
    expect(await planOf("prod-us")).toEqual([]);
    expect(await planOf("prod-eu")).toEqual(['update brand["Hooli"]']);
    expect(await planOf("prod-ca")).toEqual([]);
  });

  it("edits a child category the overlay patches in the overlay's nested entry, its parent's value in the base", async () => {
    const usCategories = "categories:\n  - name: Apparel\n    children:\n      - name: Shirts\n        desc: Shirts (US)\n";
    await fleet({ files: { ...files, "catalogue/overlays/prod-us/categories.yaml": usCategories } });
    const us = p.emulator.store("prod-us");
    const category = (name: string) => [...us.categories.values()].find((c) => c.name === name)!;
    updateCategory(us, category("Shirts").id, { desc: "Shirts for America" });
    updateCategory(us, category("Apparel").id, { desc: "Clothes and more" });
    const r = await merge();
    expect(r.code, r.stderr).toBe(0);
    expect(await read("catalogue/overlays/prod-us/categories.yaml")).toBe(usCategories.replace("Shirts (US)", "Shirts for America"));
    expect(await read("catalogue/attributes.yaml")).toBe(BASE_ATTRIBUTES.replace("desc: Clothes", "desc: Clothes and more"));
    expect(await planOf("prod-us")).toEqual([]);
    expect(await planOf("prod-eu")).toEqual(['update category["Apparel"]']);
  });

  it("adds a new type value under a base attribute the overlay does not name as an identity-only entry, beside the overlay's own attributes", async () => {
    const usFit = "attributes:\n  - name: Fit\n    type: text\n    display_group: Basics\n";
    await fleet({
      files: { "catalogue/attributes.yaml": BASE_ATTRIBUTES, "catalogue/brands.yaml": BASE_BRANDS, "catalogue/overlays/prod-us/attributes.yaml": usFit },
    });
    const us = p.emulator.store("prod-us");
    const colour = attributeByName(us, "Colour")!.id;
    createTypeValue(us, colour, { value: "Green", sort_order: typeValuesOf(us, colour).length + 1 });
    const r = await merge();
    expect(r.code, r.stderr).toBe(0);
    const attributes = await read("catalogue/overlays/prod-us/attributes.yaml");
    expect(attributes).toMatch(/^ {2}- name: Colour\n {4}values:\n {6}- slug: green\n {8}value: Green\n {8}sort_order: 3\n/m);
    expect(attributes.startsWith(usFit)).toBe(true);
    expect(attributes).not.toContain("type: selectbox");
    expect(r.stderr).toContain('added: catalogue/overlays/prod-us/attributes.yaml: value "Green" of attribute "Colour"');
    expect(await read("catalogue/attributes.yaml")).toBe(BASE_ATTRIBUTES);
    expect(await planOf("prod-us")).toEqual([]);
    expect(await planOf("prod-eu")).toEqual([]);
  });
});
