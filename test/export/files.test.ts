import { describe, expect, it } from "vitest";
import { stringify } from "yaml";
import { catalogueToFiles, clean, exportHeader, nestCategories, remoteToCatalogue } from "../../src/export/index.js";
import { variableWriter, writeVariables } from "../../src/export/translate.js";
import { KINDS, type Catalogue } from "../../src/model/catalogue.js";
import { ledger, remote } from "../fixtures/plan/every-action.js";

describe("export: tenant state to manifests", () => {
  const files = catalogueToFiles(remoteToCatalogue(remote, ledger), { tenant: "demo" });

  it("writes one file per kind, with names instead of ids and no empty fields", () => {
    expect(Object.keys(files)).toEqual(["display_groups.yaml", "attributes.yaml", "attribute_sets.yaml", "blocks.yaml", "brands.yaml", "categories.yaml"]);
    const all = Object.values(files).join("\n");
    expect(all).not.toMatch(/\bid:|product_count|assignment_ids|child_count|parent_id/);
    expect(all).not.toMatch(/: ""|: \[\]|: \{\}|: null/);
  });

  it("nests categories as trees and restores write-only values from the ledger", () => {
    expect(files["categories.yaml"]).toContain("categories:\n  - name: Apparel\n    children:\n      - name: Tops\n        status: enabled\n");
    expect(files["brands.yaml"]).toContain("image_url: https://cdn.example.com/acme.png");
  });

  it("is byte-identical run after run", () => {
    const again = catalogueToFiles(remoteToCatalogue(structuredClone(remote), ledger), { tenant: "demo" });
    expect(again).toEqual(files);
  });

  it("writes, one entry at a time, the text the yaml library wrote for the whole document", () => {
    // Export writes each entry as a list of one, moved right under its kind (so no kind's
    // node tree is held whole): block scalars, empty lines, quoting and variables must come out as before.
    const catalogue = remoteToCatalogue(structuredClone(remote), ledger);
    const odd = "  leading spaces\n\n\nblank lines above\n  indented: not a key\n- not an item\n";
    catalogue.brands[0]!.desc = odd;
    catalogue.brands.push({ ...catalogue.brands[0]!, name: "#2 'quoted' \"brand\"", desc: "trailing spaces  \n\n", seo_title: "${shop}: EU" });
    catalogue.categories[0]!.desc = odd;
    // Categories are written one at a time, each opening its children's list: deeper levels, a
    // kept final newline (|+) right before the children, versions after a block scalar.
    const tops = catalogue.categories.find((c) => c.name === "Tops")!;
    tops.desc = "ends with empty lines\n\n\n";
    catalogue.categories.push(
      { path: ["Apparel", "Tops", "Tees"], name: "Tees", desc: odd, versions: { French: { name: "T-shirts" } } },
      { path: ["Apparel", "Tops", "Tees", "V-neck"], name: "V-neck", seo_meta_title: "${shop}" },
      { path: ["Apparel", "Tops", "Tees", "Crew"], name: "Crew", desc: "a\n  b" },
    );
    catalogue.blocks.push({ slug: "- dash", name: "true", content: "\n\nstarts with empty lines" });
    // A variable whose value is a field name: keys are written through the variables too, `children` included.
    const variables = { shop: "Webshop EU", cdn: "https://cdn.example.com", kids: "children" };
    const write = variableWriter(variables);
    const options = { lineWidth: 0, indent: 2, sortMapEntries: false, aliasDuplicateObjects: false } as const;
    const whole = (c: Catalogue, kind: (typeof KINDS)[number]) => {
      const entries = kind === "categories" ? nestCategories(c.categories) : (c[kind] as object[]).map(clean);
      return `${exportHeader(kind, undefined)}${stringify({ [kind]: writeVariables(entries, write) }, options)}`;
    };
    const files = catalogueToFiles(catalogue, { tenant: "demo", variables });
    expect(files["brands.yaml"]).toContain("desc: |2\n");
    for (const kind of KINDS) expect(files[`${kind}.yaml`], kind).toBe(whole(catalogue, kind));
    // A kind with no entries is written as the whole document wrote it too.
    const empty = { ...catalogue, blocks: [] };
    expect(catalogueToFiles(empty, { tenant: "demo" })["blocks.yaml"]).toBe(`${exportHeader("blocks", undefined)}blocks: []\n`);
  });
});
