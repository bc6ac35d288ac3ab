/**
 * Export never destroys: into a folder of hand-written manifests it refuses
 * unless told --force (overwrite) or --merge (edit in place: only the values
 * that changed, each where its entry lives; comments, ${variables},
 * previous_names, quoting and layout of everything else byte for byte).
 */
import { readFileSync, readdirSync, statSync } from "node:fs";
import path from "node:path";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { testProject, type TestProject } from "../helpers/project.js";
import { attributeByName, updateAttribute } from "../../src/emulator/kinds/attributes.js";
import { createBrand, deleteBrand, updateBrand } from "../../src/emulator/kinds/brands.js";
import { createTypeValue, typeValuesOf } from "../../src/emulator/kinds/type-values.js";

/** Every file below a folder, by relative name. */
function readTree(dir: string, base = dir): Record<string, string> {
  const out: Record<string, string> = {};
  for (const name of readdirSync(dir).sort()) {
    const p = path.join(dir, name);
    if (statSync(p).isDirectory()) Object.assign(out, readTree(p, base));
    else out[path.relative(base, p)] = readFileSync(p, "utf8");
  }
  return out;
}

/** The lines that differ between two texts of the same length in lines: [line number, before, after]. */
function changedLines(before: string, after: string): Array<[number, string, string]> {
  const a = before.split("\n");
  const b = after.split("\n");
  expect(b.length, `line count of\n${after}`).toBe(a.length);
  return a.flatMap((line, i) => (line === b[i] ? [] : [[i + 1, line, b[i]!] as [number, string, string]]));
}

const shop = [
  "# The shop's attributes, grouped by hand. Keep Colour first.",
  "display_groups:",
  "  - name: Basics",
  "    in_navigation: true # shown in the menu",
  "attributes:",
  "  - name: Colour",
  "    previous_names: [Color]   # renamed in 2024",
  "    type: selectbox",
  "    display_group: Basics",
  "    sort_order: 1",
  "    versions: { French: { name: Couleur } }",
  "    values:",
  "      - value: Red",
  "        sort_order: 1",
  "      - value: Blue",
  "        sort_order: 2",
  "  - name: 'Size'",
  "    type: text",
  "    sort_order: 2",
  "attribute_sets:",
  "  - name: Apparel",
  "    attributes: [Size, Colour]",
  "",
].join("\n");
const acme = [
  "# Brands live one per file in this team.",
  "brands:",
  "  - name: Acme",
  '    desc: "${tagline}"',
  "    web_ids:",
  "      ${shop}: acme-01",
  "",
  "  # Zenith came with the 2023 merger.",
  "  - name: Zenith",
  "    desc: Clocks and watches",
  "",
].join("\n");

let p: TestProject;
let handWritten: Record<string, string>;
const folder = () => path.join(p.dir, "catalogue");

beforeAll(async () => {
  p = await testProject({
    tenants: ["staging"],
    config: (urls) =>
      [
        "dir: catalogue",
        "tenants:",
        "  staging:",
        `    base_url: ${urls.staging}`,
        "    token_env: PIMCTL_STAGING_TOKEN",
        "    variables: { shop: Webshop, tagline: Tools since 1950 }",
        "",
      ].join("\n"),
    files: { "catalogue/shop.yaml": shop, "catalogue/brands/acme.yaml": acme },
  });
  const applied = await p.cli(["apply", "--tenant", "staging", "--auto-approve"]);
  expect(applied.code, applied.stderr).toBe(0);
  handWritten = readTree(folder());
});
afterAll(async () => p.close());

describe("export into a folder that holds manifests", () => {
  it("refuses without --force or --merge: exit 1, names the files and both ways out, writes nothing", async () => {
    const r = await p.cli(["export", "--tenant", "staging", "--out", "catalogue"]);
    expect(r.code).toBe(1);
    expect(r.stderr).toContain(
      "catalogue already holds manifests: export would overwrite hand-written files (catalogue/brands/acme.yaml, catalogue/shop.yaml); nothing was written",
    );
    expect(r.stderr).toContain("--merge: update only the values that changed");
    expect(r.stderr).toContain("--force: overwrite with freshly exported <kind>.yaml files");
    expect(readTree(folder())).toEqual(handWritten);
    const both = await p.cli(["export", "--tenant", "staging", "--out", "catalogue", "--merge", "--force"]);
    expect(both.code).toBe(1);
  });

  it("--merge with an unchanged tenant writes nothing", async () => {
    const r = await p.cli(["export", "--tenant", "staging", "--out", "catalogue", "--merge"]);
    expect(r.code, r.stderr).toBe(0);
    expect(r.stderr).toContain("Merged into catalogue: the manifests already match the tenant; nothing written.");
    expect(readTree(folder())).toEqual(handWritten);
  });

  it("--merge after two values changed in the tenant changes exactly those two lines; a re-plan shows no changes", async () => {
    const store = p.emulator.store("staging");
    const zenith = [...store.brands.values()].find((b) => b.name === "Zenith")!;
    updateBrand(store, zenith.id, { desc: "Clocks, watches and sundials" });
    updateAttribute(store, attributeByName(store, "Size")!.id, { sort_order: 5 });
    const r = await p.cli(["export", "--tenant", "staging", "--out", "catalogue", "--merge"]);
    expect(r.code, r.stderr).toBe(0);
    expect(r.stderr).toContain('updated: brands/acme.yaml:10: brand "Zenith": desc');
    expect(r.stderr).toContain('updated: shop.yaml:19: attribute "Size": sort_order');
    const now = readTree(folder());
    expect(Object.keys(now)).toEqual(Object.keys(handWritten));
    expect(changedLines(handWritten["shop.yaml"]!, now["shop.yaml"]!)).toEqual([[19, "    sort_order: 2", "    sort_order: 5"]]);
    expect(changedLines(handWritten["brands/acme.yaml"]!, now["brands/acme.yaml"]!)).toEqual([
      [10, "    desc: Clocks and watches", "    desc: Clocks, watches and sundials"],
    ]);
    const plan = await p.cli(["plan", "--tenant", "staging", "--detailed-exitcode"]);
    expect(plan.code, plan.stdout + plan.stderr).toBe(0);
    handWritten = now;
  });

  it("--merge adds new entries where their kind lives, writes ${variables} back, and reports what only the folder has", async () => {
    const store = p.emulator.store("staging");
    createBrand(store, { name: "Northwind", desc: "Tools since 1950" });
    const red = typeValuesOf(store, attributeByName(store, "Colour")!.id).length;
    createTypeValue(store, attributeByName(store, "Colour")!.id, { value: "Green", sort_order: red + 1 });
    deleteBrand(store, [...store.brands.values()].find((b) => b.name === "Zenith")!.id);
    const r = await p.cli(["export", "--tenant", "staging", "--out", "catalogue", "--merge"]);
    expect(r.code, r.stderr).toBe(0);
    expect(r.stderr).toContain('added: brands/acme.yaml: brand "Northwind"');
    expect(r.stderr).toContain('added: shop.yaml: value "Green" of attribute "Colour"');
    expect(r.stderr).toContain("In catalogue but not in the tenant (kept; remove them by hand if they are gone for good):");
    expect(r.stderr).toContain('  brands/acme.yaml:9: brand "Zenith"');
    const now = readTree(folder());
    // Appended after the last brand, as export writes a brand; nothing before it moved.
    expect(now["brands/acme.yaml"]).toBe(`${handWritten["brands/acme.yaml"]}  - name: Northwind\n    desc: Tools since 1950\n    excluded: false\n`);
    expect(now["shop.yaml"]).toBe(
      handWritten["shop.yaml"]!.replace(
        "        sort_order: 2\n  - name: 'Size'",
        "        sort_order: 2\n      - value: Green\n        slug: green\n        sort_order: 3\n  - name: 'Size'",
      ),
    );
    expect(now["shop.yaml"]).toContain("previous_names: [Color]   # renamed in 2024");
    // Zenith is still declared: the plan wants it back (nothing is removed unless asked).
    const plan = await p.cli(["plan", "--tenant", "staging", "--format", "json"]);
    expect(plan.code, plan.stderr).toBe(0);
    expect((JSON.parse(plan.stdout) as { actions: Array<{ address: string; op: string }> }).actions.map((a) => `${a.op} ${a.address}`)).toEqual([
      'create brand["Zenith"]',
    ]);
  });

  it("--force overwrites with <kind>.yaml files (today's export) and warns about the files that now clash", async () => {
    const r = await p.cli(["export", "--tenant", "staging", "--out", "catalogue", "--force"]);
    expect(r.code, r.stderr).toBe(0);
    expect(r.stderr).toContain("warning: catalogue/brands/acme.yaml declares kinds that were exported too");
    expect(r.stderr).toContain("warning: catalogue/shop.yaml declares kinds that were exported too");
    const now = readTree(folder());
    expect(Object.keys(now)).toEqual([
      "attribute_sets.yaml",
      "attributes.yaml",
      "blocks.yaml",
      "brands/acme.yaml",
      "brands.yaml",
      "categories.yaml",
      "display_groups.yaml",
      "shop.yaml",
    ]);
    // A fresh export writes variables too, in variable-bearing fields only (a desc equal to one is text).
    expect(now["brands.yaml"]).toContain("desc: Tools since 1950");
    expect(now["brands.yaml"]).toContain("${shop}: acme-01");
    expect(now["brands.yaml"]).not.toContain("Webshop");
  });
});
