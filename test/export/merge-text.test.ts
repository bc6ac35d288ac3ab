/**
 * mergeExport on file texts (src/export/merge.ts): each case gives a folder,
 * the tenant as export sees it, and the exact text expected, so every byte
 * merge does not mean to change is compared.
 */
import { describe, expect, it } from "vitest";
import { mergeExport, type MergeInput } from "../../src/export/merge.js";
import { KINDS, emptyCatalogue, type Catalogue } from "../../src/model/catalogue.js";

function merge(files: Record<string, string>, tenant: Partial<Catalogue>, variables: Record<string, string> = {}) {
  const exported = { ...emptyCatalogue(), ...tenant, managed: [...KINDS] } as Catalogue;
  const input: MergeInput = { files, exported, kinds: KINDS, variables, header: (kind) => `# new ${kind}\n` };
  return mergeExport(input);
}

describe("merge edits values where they are", () => {
  it("categories: a changed field in place, a new subtree under its parent, a new root at the end", () => {
    const folder = [
      "categories:",
      "  - name: Apparel   # top",
      "    attribute_sets: [Clothing]",
      "    children:",
      "      - name: Shirts",
      "        desc: Old shirts",
      "# the end",
      "",
    ].join("\n");
    const r = merge(
      { "cats.yaml": folder },
      {
        categories: [
          { name: "Apparel", path: ["Apparel"], attribute_sets: ["Clothing"] },
          { name: "Shirts", path: ["Apparel", "Shirts"], desc: "New shirts" },
          { name: "Shoes", path: ["Apparel", "Shoes"] },
          { name: "Boots", path: ["Apparel", "Shoes", "Boots"], desc: "Tall" },
          { name: "Home", path: ["Home"] },
        ] as Catalogue["categories"],
      },
    );
    expect(r.files["cats.yaml"]).toBe(
      [
        "categories:",
        "  - name: Apparel   # top",
        "    attribute_sets: [Clothing]",
        "    children:",
        "      - name: Shirts",
        "        desc: New shirts",
        "      - name: Shoes",
        "        children:",
        "          - name: Boots",
        "            desc: Tall",
        "  - name: Home",
        "# the end",
        "",
      ].join("\n"),
    );
    expect(r.updated).toEqual(['cats.yaml:6: category "Apparel/Shirts": desc']);
    expect(r.added).toEqual(['cats.yaml: category "Apparel/Shoes"', 'cats.yaml: category "Home"']);
  });

  it("two new categories under a parent that had no children: one children list (twice the key would not load)", () => {
    const r = merge(
      { "c.yaml": "categories:\n  - name: Apparel\n    desc: Clothes\n" },
      {
        categories: [
          { name: "Apparel", path: ["Apparel"], desc: "Clothes" },
          { name: "Shirts", path: ["Apparel", "Shirts"] },
          { name: "Shoes", path: ["Apparel", "Shoes"] },
        ] as Catalogue["categories"],
      },
    );
    expect(r.files["c.yaml"]).toBe("categories:\n  - name: Apparel\n    desc: Clothes\n    children:\n      - name: Shirts\n      - name: Shoes\n");
    expect(r.added).toEqual(['c.yaml: category "Apparel/Shirts"', 'c.yaml: category "Apparel/Shoes"']);
  });

  it("a new child of the last entry and a new sibling after it, inserted at one place: the child first", () => {
    const folder = "categories:\n  - name: Apparel\n    children:\n      - name: Shirts\n        children:\n          - name: Polo\n";
    const r = merge(
      { "c.yaml": folder },
      {
        categories: ["Apparel", "Apparel/Shirts", "Apparel/Shirts/Outlet", "Apparel/Shirts/Polo", "Apparel/Shirts/Polo/Pique"].map((k) => ({
          name: k.split("/").at(-1)!,
          path: k.split("/"),
        })) as Catalogue["categories"],
      },
    );
    expect(r.files["c.yaml"]).toBe(`${folder}            children:\n              - name: Pique\n          - name: Outlet\n`);
  });

  it("flow maps, block literals, quoting and a removed field", () => {
    const folder = [
      "attributes:",
      "  - name: Colour",
      "    type: selectbox",
      "    note: 'kept: quoted'",
      "    versions: { French: { name: Couleur }, German: { name: Farbe } }",
      "blocks:",
      "  - slug: footer",
      "    content: |",
      "      Hello",
      "      World",
      "  - slug: header",
      '    content: "Hi"',
      "brands:",
      "  - name: Acme",
      "    desc: gone in the tenant",
      "    previous_names: [ACME]",
      "",
    ].join("\n");
    const r = merge(
      { "all.yaml": folder },
      {
        attributes: [
          { name: "Colour", type: "selectbox", note: "kept: quoted", versions: { French: { name: "Teinte" }, German: { name: "Farbe" } } },
        ] as Catalogue["attributes"],
        blocks: [
          { slug: "footer", content: "Hello\nEveryone\n" },
          { slug: "header", content: "Hi there" },
        ] as Catalogue["blocks"],
        brands: [{ name: "Acme" }] as Catalogue["brands"],
      },
    );
    expect(r.files["all.yaml"]).toBe(
      [
        "attributes:",
        "  - name: Colour",
        "    type: selectbox",
        "    note: 'kept: quoted'",
        "    versions: { French: { name: Teinte }, German: { name: Farbe } }",
        "blocks:",
        "  - slug: footer",
        "    content: |",
        "      Hello",
        "      Everyone",
        "  - slug: header",
        '    content: "Hi there"',
        "brands:",
        "  - name: Acme",
        "    previous_names: [ACME]",
        "",
      ].join("\n"),
    );
  });

  it("variables: unchanged ${uses} stay, a changed value equal to a variable's value is text (desc is not variable-bearing), a literal ${ is escaped", () => {
    const folder = ["brands:", "  - name: Acme", "    desc: ${tagline}", "  - name: Zenith", "    desc: old", "  - name: Oldco", "    desc: x", ""].join("\n");
    const r = merge(
      { "b.yaml": folder },
      {
        brands: [
          { name: "Acme", desc: "Tools since 1950" },
          { name: "Zenith", desc: "Tools since 1950" },
          { name: "Oldco", desc: "costs ${price}" },
        ] as Catalogue["brands"],
      },
      { tagline: "Tools since 1950" },
    );
    expect(r.files["b.yaml"]).toBe(
      [
        "brands:",
        "  - name: Acme",
        "    desc: ${tagline}",
        "  - name: Zenith",
        "    desc: Tools since 1950",
        "  - name: Oldco",
        "    desc: costs $${price}",
        "",
      ].join("\n"),
    );
  });

  it("variableWriter: whole values and keys, URL variables at the start of a URL, never inside other text", async () => {
    const { variableWriter, writeVariables } = await import("../../src/export/translate.js");
    const writer = variableWriter({ region: "EU", cdn: "https://cdn.example.com", shop: "Webshop EU" });
    const write = (s: string) => writer.variable(s);
    expect(
      [
        "EU",
        "Webshop EU",
        "Made in the EU",
        "https://cdn.example.com/brands/acme.png",
        "https://cdn.example.com",
        "https://cdn.example.community/x",
        "costs ${x}",
      ].map(write),
    ).toEqual(["${region}", "${shop}", "Made in the EU", "${cdn}/brands/acme.png", "${cdn}", "https://cdn.example.community/x", "costs $${x}"]);
    // Only in variable-bearing fields (a web_ids key, an asset's image_url): text equal to a value elsewhere stays text.
    const entry = {
      name: "Webshop EU",
      desc: "EU",
      web_ids: { "Webshop EU": "EU" },
      assets: [{ image_url: "https://cdn.example.com/a.png", alttext: "https://cdn.example.com/a.png" }],
    };
    expect(writeVariables(entry, writer)).toEqual({
      name: "Webshop EU",
      desc: "EU",
      web_ids: { "${shop}": "EU" },
      assets: [{ image_url: "${cdn}/a.png", alttext: "https://cdn.example.com/a.png" }],
    });
  });

  it("a kind no file declares goes to a new <kind>.yaml; entries only the folder has are reported, kept", () => {
    const r = merge({ "a.yaml": "display_groups:\n  - name: Basics\n" }, { brands: [{ name: "Acme", desc: "Tools" }] as Catalogue["brands"] });
    expect(r.files).toEqual({ "brands.yaml": "# new brands\nbrands:\n  - name: Acme\n    desc: Tools\n" });
    expect(r.onlyInFolder).toEqual(['a.yaml:2: display group "Basics"']);
  });

  it("a field from a YAML merge key is written on the entry; the map the key points at stays as it is", () => {
    const folder = ["x-text: &text { type: text, publish: true }", "attributes:", "  - <<: *text", "    name: Care", "    sort_order: 1", ""].join("\n");
    const r = merge({ "a.yaml": folder }, { attributes: [{ name: "Care", type: "text", publish: false, sort_order: 2 }] as Catalogue["attributes"] });
    expect(r.files["a.yaml"]).toBe(folder.replace("sort_order: 1", "sort_order: 2\n    publish: false"));
    expect(r.updated).toEqual([
      'a.yaml:5: attribute "Care": sort_order',
      'a.yaml:3: attribute "Care": publish written on the entry (it came from a merge key <<, which stays as it is)',
    ]);
    expect(r.byHand).toEqual([]);
  });

  it("an empty value gets the new one after a space", () => {
    const r = merge(
      { "b.yaml": "brands:\n  - name: Acme\n    desc:\n    excluded: false\n" },
      { brands: [{ name: "Acme", desc: "Tools", excluded: false }] as Catalogue["brands"] },
    );
    expect(r.files["b.yaml"]).toBe("brands:\n  - name: Acme\n    desc: Tools\n    excluded: false\n");
  });

  it("a rename the tenant has not seen yet: the old record is neither added nor merged, and it is said", () => {
    const folder = [
      "attributes:",
      "  - name: Colour",
      "    previous_names: [Color]",
      "    type: selectbox",
      "    values:",
      "      - value: Crimson",
      "        previous_values: [Red]",
      "categories:",
      "  - name: Clothing",
      "    previous_names: [Apparel]",
      "    children:",
      "      - name: Shirts",
      "",
    ].join("\n");
    const r = merge(
      { "a.yaml": folder },
      {
        attributes: [{ name: "Color", type: "selectbox", values: [{ value: "Red" }] }] as Catalogue["attributes"],
        categories: [
          { name: "Apparel", path: ["Apparel"] },
          { name: "Shirts", path: ["Apparel", "Shirts"] },
        ] as Catalogue["categories"],
      },
    );
    expect(r.files).toEqual({});
    expect(r.pendingRenames).toEqual([
      'a.yaml:2: attribute "Colour" is "Color" in the tenant (a rename the next apply makes; the name is left as the folder has it, its other fields merged)',
      // The attribute's other fields and values are merged from the record it renames: its value rename shows too.
      'a.yaml:6: value "Crimson" of attribute "Colour" is "Red" in the tenant (a rename the next apply makes; left as the folder has it)',
      'a.yaml:9: category "Clothing" is "Apparel" in the tenant (a rename the next apply makes; left as the folder has it)',
    ]);
    expect(r.onlyInFolder).toEqual(['a.yaml:12: category "Clothing/Shirts"']);
    // Both names in the tenant: the old one is not added back (the folder would no longer load).
    const both = merge(
      { "a.yaml": folder },
      {
        attributes: [
          { name: "Colour", type: "selectbox" },
          { name: "Color", type: "selectbox" },
        ] as Catalogue["attributes"],
      },
    );
    expect(both.files).toEqual({});
    expect(both.pendingRenames).toEqual([
      'a.yaml:2: attribute "Colour" lists "Color" as a previous name, and the tenant has both: "Color" is not added (the plan deletes or keeps it as your prune policy says)',
    ]);
  });

  it("an entry the folder renames, changed in the tenant under its old name: the name stays, the other fields are merged", () => {
    const folder = "brands:\n  - name: Zenith SA # renamed here\n    previous_names: [Zenith]\n    desc: Acme Corp\n";
    const r = merge({ "a.yaml": folder }, { brands: [{ name: "Zenith", desc: "Swiss watches" }] as Catalogue["brands"] });
    expect(r.files["a.yaml"]).toBe(folder.replace("desc: Acme Corp", "desc: Swiss watches"));
    expect(r.pendingRenames).toEqual([
      'a.yaml:2: brand "Zenith SA" is "Zenith" in the tenant (a rename the next apply makes; the name is left as the folder has it, its other fields merged)',
    ]);
  });

  it("a flow-style entry that loses a field is written again whole, its previous names kept", () => {
    const folder = "brands:\n  - { name: Acme, desc: Tools, note: x, previous_names: [ACME] }   # one line\n";
    const r = merge({ "b.yaml": folder }, { brands: [{ name: "Acme", desc: "Tools!" }] as Catalogue["brands"] });
    expect(r.files["b.yaml"]).toBe("brands:\n  - { name: Acme, desc: Tools!, previous_names: [ ACME ] }   # one line\n");
  });

  it("a file without a final newline gets one before what is appended", () => {
    const r = merge({ "b.yaml": "brands:\n  - name: Acme" }, { brands: [{ name: "Acme" }, { name: "Zenith" }] as Catalogue["brands"] });
    expect(r.files["b.yaml"]).toBe("brands:\n  - name: Acme\n  - name: Zenith\n");
  });
});
