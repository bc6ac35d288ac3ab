/**
 * Entries follow records renamed or moved by hand in the tenant, where the
 * plan takes them for the same records (src/export/merge-follow.ts): given
 * the planner's decision (renamedByHand), a category is renamed in place or
 * moved, text and children with it, and keeps where it came from; a record is
 * never added a second time. The decision itself is the planner's
 * (test/export/merge-renamed.test.ts runs it end to end).
 */
import { describe, expect, it } from "vitest";
import { mergeExport, type HandRename } from "../../src/export/merge.js";
import { KINDS, emptyCatalogue, type Catalogue, type Category } from "../../src/model/catalogue.js";

function merge(files: Record<string, string>, categories: Array<Partial<Category> & { path: string[] }>, renamedByHand: HandRename[]) {
  const exported = {
    ...emptyCatalogue(),
    categories: categories.map((c) => ({ name: c.path.at(-1)!, ...c })) as Catalogue["categories"],
    managed: [...KINDS],
  } as Catalogue;
  return mergeExport({ files, exported, kinds: KINDS, variables: {}, header: (kind) => `# new ${kind}\n`, renamedByHand });
}

const tree = [
  "categories:",
  "  - name: Apparel",
  "    desc: Clothes",
  "    children:",
  "      # Shirts came first",
  "      - name: Shirts",
  "        desc: Shirts",
  "        children:",
  "          - name: Polo",
  "      - name: Trousers",
  "  - name: Sale",
  "    children:",
  "      - name: Old stock",
  "",
].join("\n");

describe("export --merge follows categories renamed or moved by hand", () => {
  it("renamed within its parent: the entry takes the name, keeps the old one, and is merged; nothing is added", () => {
    const r = merge(
      { "c.yaml": tree },
      [
        { path: ["Apparel"], desc: "Clothes" },
        { path: ["Apparel", "Tops"], desc: "Tops and shirts" },
        { path: ["Apparel", "Tops", "Polo"] },
        { path: ["Apparel", "Trousers"] },
        { path: ["Sale"] },
        { path: ["Sale", "Old stock"] },
      ],
      [{ kind: "categories", from: "Apparel/Shirts", to: "Apparel/Tops" }],
    );
    expect(r.files["c.yaml"]).toBe(
      tree.replace("      - name: Shirts\n        desc: Shirts\n", "      - name: Tops\n        desc: Tops and shirts\n        previous_names: [Shirts]\n"),
    );
    expect(r.renamed).toEqual([
      'c.yaml:6: category "Apparel/Shirts" is "Apparel/Tops" in the tenant (renamed there by hand; the plan knows it by its id): ' +
        'the entry follows, "Shirts" kept in previous_names',
    ]);
    expect(r.added).toEqual([]);
    expect(r.onlyInFolder).toEqual([]);
  });

  it("moved to another parent: its text and children move there, re-indented, and it keeps its old path", () => {
    const r = merge(
      { "c.yaml": tree },
      [
        { path: ["Apparel"], desc: "Clothes" },
        { path: ["Apparel", "Trousers"] },
        { path: ["Sale"] },
        { path: ["Sale", "Old stock"] },
        { path: ["Sale", "Old stock", "Shirts"], desc: "Shirts" },
        { path: ["Sale", "Old stock", "Shirts", "Polo"] },
      ],
      [{ kind: "categories", from: "Apparel/Shirts", to: "Sale/Old stock/Shirts" }],
    );
    expect(r.files["c.yaml"]).toBe(
      [
        "categories:",
        "  - name: Apparel",
        "    desc: Clothes",
        "    children:",
        "      # Shirts came first",
        "      - name: Trousers",
        "  - name: Sale",
        "    children:",
        "      - name: Old stock",
        "        children:",
        "          - name: Shirts",
        "            desc: Shirts",
        "            previous_paths: [Apparel/Shirts]",
        "            children:",
        "              - name: Polo",
        "",
      ].join("\n"),
    );
    expect(r.renamed).toEqual([
      'c.yaml:6: category "Apparel/Shirts" is "Sale/Old stock/Shirts" in the tenant (moved there by hand; the plan knows it by its id): ' +
        'the entry moves there, "Apparel/Shirts" kept in previous_paths',
    ]);
    expect(r.added).toEqual([]);
  });

  it("an only child moved to the root: its parent's children key goes, and a rename on the way is taken too", () => {
    const folder = ["categories:", "  - name: Sale", "    children:", "      - name: Old stock", "        desc: Last season", "  - name: Apparel", ""].join(
      "\n",
    );
    const r = merge(
      { "c.yaml": folder },
      [{ path: ["Sale"] }, { path: ["Clearance"], desc: "Last season" }, { path: ["Apparel"] }],
      [{ kind: "categories", from: "Sale/Old stock", to: "Clearance" }],
    );
    expect(r.files["c.yaml"]).toBe(
      ["categories:", "  - name: Sale", "  - name: Apparel", "  - name: Clearance", "    desc: Last season", "    previous_paths: [Sale/Old stock]", ""].join(
        "\n",
      ),
    );
  });

  it("a moved category holding an anchor that a later entry aliases: the alias keeps its text", () => {
    const folder = [
      "categories:",
      "  - name: Apparel",
      "    children:",
      "      - name: Shirts",
      "        desc: &d Shirts and tops",
      "  - name: Sale",
      "    desc: *d",
      "  - name: Outlet",
      "    children:",
      "      - name: Socks",
      "",
    ].join("\n");
    const r = merge(
      { "c.yaml": folder },
      [
        { path: ["Apparel"] },
        { path: ["Sale"], desc: "Shirts and tops" },
        { path: ["Outlet"] },
        { path: ["Outlet", "Shirts"], desc: "Shirts and tops" },
        { path: ["Outlet", "Socks"] },
      ],
      [{ kind: "categories", from: "Apparel/Shirts", to: "Outlet/Shirts" }],
    );
    expect(r.files["c.yaml"]).toBe(
      [
        "categories:",
        "  - name: Apparel",
        "  - name: Sale",
        '    desc: "Shirts and tops"',
        "  - name: Outlet",
        "    children:",
        "      - name: Socks",
        "      - name: Shirts",
        "        desc: &d Shirts and tops",
        "        previous_paths: [Apparel/Shirts]",
        "",
      ].join("\n"),
    );
  });

  it("moved under a parent the folder does not have: left where it is, said, and not added a second time", () => {
    const r = merge(
      { "c.yaml": tree },
      [
        { path: ["Apparel"], desc: "Clothes" },
        { path: ["Apparel", "Trousers"] },
        { path: ["Sale"] },
        { path: ["Sale", "Old stock"] },
        { path: ["Outlet"] },
        { path: ["Outlet", "Shirts"], desc: "Cheap shirts" },
        { path: ["Outlet", "Shirts", "Polo"] },
      ],
      [{ kind: "categories", from: "Apparel/Shirts", to: "Outlet/Shirts" }],
    );
    // Outlet is new (added at the root); Shirts stays under Apparel, its fields merged from the tenant's record.
    expect(r.files["c.yaml"]).toBe(`${tree.replace("        desc: Shirts\n", "        desc: Cheap shirts\n")}  - name: Outlet\n`);
    expect(r.renamed).toEqual([
      'c.yaml:6: category "Apparel/Shirts" is "Outlet/Shirts" in the tenant (moved there by hand), but the folder has no place for it under "Outlet": ' +
        "left where it is; the next apply moves it back",
    ]);
    expect(r.added).toEqual(['c.yaml: category "Outlet"']);
    expect(r.onlyInFolder).toEqual([]);
  });
});

describe("export --merge follows named records renamed by hand", () => {
  it("a flow-style entry: the name in place and previous_names added inside its braces; its values too", () => {
    const folder = "attributes:\n  - { name: Size, type: selectbox, sort_order: 3 } # one line\n";
    const exported = {
      ...emptyCatalogue(),
      managed: [...KINDS],
      attributes: [{ name: "Fit", type: "selectbox", sort_order: 3, values: [{ value: "S" }] }],
    } as Catalogue;
    const r = mergeExport({
      files: { "a.yaml": folder },
      exported,
      kinds: KINDS,
      variables: {},
      header: () => "",
      renamedByHand: [{ kind: "attributes", from: "Size", to: "Fit" }],
    });
    expect(r.files["a.yaml"]).toBe(
      "attributes:\n  - { name: Fit, type: selectbox, sort_order: 3, previous_names: [ Size ], values: [ { value: S } ] } # one line\n",
    );
  });
});
