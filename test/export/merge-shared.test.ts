/**
 * export --merge changes only the records the tenant changed, whatever YAML
 * shares between entries: an anchored scalar or map aliased by another record,
 * a map inherited through a merge key (`<<:`), an entry that is itself an
 * anchor. Each case loads the merged text the way `plan` does and compares
 * every record, not only the edited one.
 */
import { describe, expect, it } from "vitest";
import { mergeExport } from "../../src/export/merge.js";
import { KINDS, emptyCatalogue, type Catalogue } from "../../src/model/catalogue.js";
import { parseManifestText } from "../../src/manifest/index.js";
import { CatalogueBuilder } from "../../src/manifest/catalogue-builder.js";

function merge(files: Record<string, string>, tenant: Partial<Catalogue>) {
  const exported = { ...emptyCatalogue(), ...tenant, managed: [...KINDS] } as Catalogue;
  return mergeExport({ files, exported, kinds: KINDS, variables: {}, header: (kind) => `# new ${kind}\n` });
}

/** The folder as the loader reads it: kind -> identity -> the record without its source location. */
function load(files: Record<string, string>): Record<string, Record<string, unknown>> {
  const builder = new CatalogueBuilder({});
  for (const [name, text] of Object.entries(files)) {
    const { data, parsed, errors } = parseManifestText(text, name);
    expect(errors.map((e) => e.format())).toEqual([]);
    builder.add(data!, parsed);
  }
  const catalogue = builder.build();
  expect(builder.errors.map((e) => e.format())).toEqual([]);
  const out: Record<string, Record<string, unknown>> = {};
  for (const kind of KINDS) {
    out[kind] = {};
    for (const r of catalogue[kind] as Array<Record<string, unknown>>) {
      const { source: _s, ...rest } = r;
      if (Array.isArray(rest.values)) rest.values = rest.values.map(({ source: _v, ...v }: Record<string, unknown>) => v);
      out[kind]![String(kind === "categories" ? (r.path as string[]).join("/") : kind === "blocks" ? r.slug : r.name)] = rest;
    }
  }
  return out;
}

/** Every record of `after` equals `before`'s, but for the changes listed (kind -> identity -> fields). */
function onlyChanged(before: Record<string, string>, merged: Record<string, string>, changes: Record<string, Record<string, Record<string, unknown>>>) {
  const a = load(before);
  const b = load({ ...before, ...merged });
  const expected = structuredClone(a);
  for (const [kind, records] of Object.entries(changes)) for (const [id, fields] of Object.entries(records)) Object.assign(expected[kind]![id]!, fields);
  expect(b).toEqual(expected);
}

const brands = (...list: Array<Record<string, unknown>>) => ({ brands: list as Catalogue["brands"] });

describe("export --merge and what YAML shares", () => {
  it("an anchored scalar another brand aliases: the other brand keeps its text", () => {
    const folder = [
      "brands:",
      "  - name: Alpine",
      "    desc: &shared Made in the mountains",
      "  - name: Beta",
      "    desc: *shared",
      "  - name: Gamma",
      "    desc: *shared # same again",
      "",
    ].join("\n");
    const r = merge(
      { "b.yaml": folder },
      brands({ name: "Alpine", desc: "Made in the Alps" }, { name: "Beta", desc: "Made in the mountains" }, { name: "Gamma", desc: "Made in the mountains" }),
    );
    onlyChanged({ "b.yaml": folder }, r.files, { brands: { Alpine: { desc: "Made in the Alps" } } });
    expect(r.updated).toEqual(['b.yaml:3: brand "Alpine": desc']);
  });

  it("the aliasing brand changed: only it gets its own text; the anchor's owner keeps its own", () => {
    const folder = ["brands:", "  - name: Alpine", "    desc: &shared Made in the mountains", "  - name: Beta", "    desc: *shared", ""].join("\n");
    const r = merge({ "b.yaml": folder }, brands({ name: "Alpine", desc: "Made in the mountains" }, { name: "Beta", desc: "Made by the sea" }));
    onlyChanged({ "b.yaml": folder }, r.files, { brands: { Beta: { desc: "Made by the sea" } } });
  });

  it("both changed, to different texts", () => {
    const folder = ["brands:", "  - name: Alpine", "    desc: &shared Made in the mountains", "  - name: Beta", "    desc: *shared", ""].join("\n");
    const r = merge({ "b.yaml": folder }, brands({ name: "Alpine", desc: "Made in the Alps" }, { name: "Beta", desc: "Made by the sea" }));
    onlyChanged({ "b.yaml": folder }, r.files, { brands: { Alpine: { desc: "Made in the Alps" }, Beta: { desc: "Made by the sea" } } });
  });

  it("an anchored versions map another attribute aliases: an edit inside it stays with its owner", () => {
    const folder = [
      "attributes:",
      "  - name: Colour",
      "    type: text",
      "    versions: &v",
      "      French: { name: Couleur }",
      "      German: { name: Farbe }",
      "  - name: Shade",
      "    type: text",
      "    versions: *v",
      "",
    ].join("\n");
    const r = merge(
      { "a.yaml": folder },
      {
        attributes: [
          { name: "Colour", type: "text", versions: { French: { name: "Teinte" }, German: { name: "Farbe" } } },
          { name: "Shade", type: "text", versions: { French: { name: "Couleur" }, German: { name: "Farbe" } } },
        ] as Catalogue["attributes"],
      },
    );
    onlyChanged({ "a.yaml": folder }, r.files, { attributes: { Colour: { versions: { French: { name: "Teinte" }, German: { name: "Farbe" } } } } });
  });

  it("a value inherited through a merge key: written on the inheritor, the defaults and the other inheritors untouched", () => {
    const folder = [
      "x-defaults: &defaults",
      "  desc: A house brand",
      "  excluded: false",
      "brands:",
      "  - <<: *defaults",
      "    name: Alpine",
      "  - <<: *defaults",
      "    name: Beta",
      "",
    ].join("\n");
    const r = merge(
      { "b.yaml": folder },
      brands({ name: "Alpine", desc: "A mountain brand", excluded: false }, { name: "Beta", desc: "A house brand", excluded: false }),
    );
    onlyChanged({ "b.yaml": folder }, r.files, { brands: { Alpine: { desc: "A mountain brand" } } });
    expect(r.byHand).toEqual([]);
  });

  it("an entry that is itself an anchor, merged into another: an edit of the first leaves the second as it was", () => {
    const folder = ["brands:", "  - &alpine { name: Alpine, desc: Mountains, excluded: false }", "  - <<: *alpine", "    name: Beta", ""].join("\n");
    const r = merge({ "b.yaml": folder }, brands({ name: "Alpine", desc: "Alps", excluded: false }, { name: "Beta", desc: "Mountains", excluded: false }));
    onlyChanged({ "b.yaml": folder }, r.files, { brands: { Alpine: { desc: "Alps" } } });
  });

  it("an entry written again whole that holds an anchor: the brands aliasing it keep their text", () => {
    const folder = ["brands:", "  - { name: Alpine, desc: &d Mountains, seo_title: old }", "  - name: Beta", "    desc: *d", ""].join("\n");
    const r = merge({ "b.yaml": folder }, brands({ name: "Alpine", desc: "Mountains" }, { name: "Beta", desc: "Mountains" }));
    onlyChanged({ "b.yaml": folder }, r.files, { brands: { Alpine: { seo_title: undefined } } });
  });

  it("a category's anchored text aliased by its child and by another root: only the owner changes", () => {
    const folder = [
      "categories:",
      "  - name: Apparel",
      "    desc: &d Clothes",
      "    children:",
      "      - name: Shirts",
      "        desc: *d",
      "  - name: Outlet",
      "    desc: *d",
      "",
    ].join("\n");
    const r = merge(
      { "c.yaml": folder },
      {
        categories: [
          { name: "Apparel", path: ["Apparel"], desc: "All clothes" },
          { name: "Shirts", path: ["Apparel", "Shirts"], desc: "Clothes" },
          { name: "Outlet", path: ["Outlet"], desc: "Clothes" },
        ] as Catalogue["categories"],
      },
    );
    onlyChanged({ "c.yaml": folder }, r.files, { categories: { Apparel: { desc: "All clothes" } } });
  });
});

describe("export --merge keeps what API v1 cannot write", () => {
  it("brand and category version texts the tenant lacks stay in the folder (the translators' work)", () => {
    const folder = [
      "brands:",
      "  - name: Alpine",
      "    desc: Mountains",
      "    versions:",
      "      French: { desc: Montagnes }",
      "categories:",
      "  - name: Apparel",
      "    versions: { German: { name: Bekleidung, desc: Kleider } }",
      "",
    ].join("\n");
    const r = merge(
      { "a.yaml": folder },
      {
        brands: [{ name: "Alpine", desc: "High mountains" }] as Catalogue["brands"],
        categories: [{ name: "Apparel", path: ["Apparel"] }] as Catalogue["categories"],
      },
    );
    expect(r.files["a.yaml"]).toBe(folder.replace("desc: Mountains", "desc: High mountains"));
    expect(r.updated).toEqual(['a.yaml:3: brand "Alpine": desc']);
  });

  it("a version text the tenant has otherwise is kept as the folder has it; one the folder lacks is taken in", () => {
    const folder = ["brands:", "  - name: Alpine", "    versions:", "      French: { desc: Montagnes }", ""].join("\n");
    const r = merge(
      { "a.yaml": folder },
      brands({ name: "Alpine", versions: { French: { desc: "Vieux texte", seo_title: "Alpes" }, German: { desc: "Berge" } } }),
    );
    onlyChanged({ "a.yaml": folder }, r.files, {
      brands: { Alpine: { versions: { French: { desc: "Montagnes", seo_title: "Alpes" }, German: { desc: "Berge" } } } },
    });
  });
});
