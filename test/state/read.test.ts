import { beforeAll, describe, expect, it } from "vitest";
import type { Emulator } from "../../src/emulator/index.js";
import { createClient, type PimClient } from "../../src/api/client.js";
import { fileEmulator } from "../helpers/emulator.js";
import { readState } from "../../src/state/index.js";
import { emptyCatalogue, type Catalogue } from "../../src/model/catalogue.js";
import { assignToSet, createAttributeSet } from "../../src/emulator/kinds/attribute-sets.js";
import { createAttribute } from "../../src/emulator/kinds/attributes.js";
import { createCategory } from "../../src/emulator/kinds/categories.js";

let emu: Emulator;
let api: PimClient;
const file = fileEmulator({
  hash: "demo",
  token: "t",
  others: [
    { hash: "big", token: "b" },
    { hash: "counted", token: "c" },
  ],
});
beforeAll(() => {
  emu = file.emu;
  api = file.api;
});

describe("readState", () => {
  it("reads every kind in every version into the catalogue's shape, exactly", async () => {
    const dg = await api.createDisplayGroup({ name: "Basics", sort_order: 1, in_navigation: true });
    const colour = await api.createAttribute({ name: "Colour", type: "selectbox", sort_order: 2, publish: true, display_group_id: dg.id, note: "main colour" });
    const red = await api.createTypeValue(colour.id, { value: "Red", sort_order: 1 });
    await api.updateTypeValueVersion(colour.id, red.id, 2, { value: "Rouge" });
    await api.updateTypeValueVersion(colour.id, red.id, 3, { value: "Rot" });
    await api.updateAttributeVersion(colour.id, 2, { name: "Couleur" });
    await api.updateAttributeVersion(colour.id, 3, { name: "Farbe" });
    const set = await api.createAttributeSet({ name: "Apparel", sort_order: 1 });
    await api.addAttributeToSet(set.id, colour.id);
    const block = await api.createBlock({ name: "Footer", slug: "footer", content: "Hello" });
    const brand = await api.createBrand({ name: "Acme", desc: "Tools", excluded: true });
    emu.store("demo").brands.get(brand.id)!.versions = { 2: { desc: "Outils" }, 3: { desc: "Werkzeuge" } };
    emu.store("demo").setProductCount(brand.id, 4);
    const asset = await api.createBrandAsset(brand.id, { image_url: "https://cdn.example.com/acme.png", alttext: "Acme", thumbnail: true });
    const val = await api.createBrandAttribute(brand.id, { attribute_id: colour.id, version_id: 0, values: [{ value: "Red" }] });
    const valFr = await api.createBrandAttribute(brand.id, { attribute_id: colour.id, version_id: 2, values: [{ value: "Rouge" }] });
    const root = await api.createCategory({ parent_id: 0, name: "Apparel", attribute_sets: [set.id], status: "enabled", is_visible: true });
    const child = await api.createCategory({ parent_id: root.id, name: "Shirts", desc: "All shirts" });
    emu.store("demo").categories.get(child.id)!.versions = { 2: { name: "Chemises" } };

    const desired: Catalogue = {
      ...emptyCatalogue(),
      managed: ["display_groups", "attributes", "attribute_sets", "blocks", "brands", "categories"],
      versions: ["French", "German"],
      attributes: [{ name: "Colour", type: "selectbox", note: "main colour" }],
      attribute_sets: [{ name: "Apparel", attributes: ["Colour"] }],
      brands: [{ name: "Acme", assets: [], attributes: {}, versions: { French: {} } }],
      categories: [{ path: ["Apparel", "Shirts"], name: "Shirts", versions: { French: {} } }],
    };
    const state = await readState(api, { kinds: desired.managed, desired });
    const valueId = (v: { values: Array<{ id: number; version_id: number }> }, version: number) => v.values.find((x) => x.version_id === version)!.id;
    expect(state).toEqual({
      read: ["display_groups", "attributes", "attribute_sets", "blocks", "brands", "categories"],
      channels: [
        { id: 1, channel_name: "Webshop", version_id: 0, version_name: "Master" },
        { id: 2, channel_name: "Boutique FR", version_id: 2, version_name: "French" },
        { id: 3, channel_name: "Shop DE", version_id: 3, version_name: "German" },
      ],
      version_ids: { French: 2, German: 3 },
      display_groups: [{ id: dg.id, name: "Basics", sort_order: 1, in_navigation: true }],
      attributes: [
        {
          id: colour.id,
          name: "Colour",
          type: "selectbox",
          slug: "colour",
          note: "main colour",
          length: null,
          display_group: "Basics",
          sort_order: 2,
          publish: true,
          versions: { French: { name: "Couleur", note: "main colour" }, German: { name: "Farbe", note: "main colour" } },
          values: [{ id: red.id, value: "Red", slug: "red", sort_order: 1, versions: { French: "Rouge", German: "Rot" } }],
        },
      ],
      attribute_sets: [{ id: set.id, name: "Apparel", sort_order: 1, attributes: ["Colour"], assignment_ids: { Colour: expect.any(Number) } }],
      blocks: [{ id: block.id, slug: "footer", name: "Footer", content: "Hello", asset_count: 0 }],
      brands: [
        {
          id: brand.id,
          name: "Acme",
          desc: "Tools",
          excluded: true,
          exclusion_start_date: null,
          exclusion_end_date: null,
          product_count: 4,
          versions: { French: { desc: "Outils" }, German: { desc: "Werkzeuge" } },
          assets: [{ id: asset.id, uri: asset.uri, alttext: "Acme", thumbnail: true }],
          attributes: {
            Colour: { attribute_id: colour.id, values: { "": { id: valueId(val, 0), value: "Red" }, French: { id: valueId(valFr, 2), value: "Rouge" } } },
          },
        },
      ],
      categories: [
        {
          id: root.id,
          parent_id: null,
          path: ["Apparel"],
          child_count: 1,
          name: "Apparel",
          slug: "apparel",
          status: "enabled",
          is_visible: true,
          sort_order: 0,
          attribute_sets: ["Apparel"],
        },
        {
          id: child.id,
          parent_id: root.id,
          path: ["Apparel", "Shirts"],
          child_count: 0,
          name: "Shirts",
          slug: "shirts",
          desc: "All shirts",
          status: "enabled",
          is_visible: true,
          sort_order: 0,
          attribute_sets: [],
          versions: { French: { name: "Chemises", desc: "All shirts" }, German: { name: "Shirts", desc: "All shirts" } },
        },
      ],
    });
  });

  it("issues exactly the requests the formula predicts (see src/state/README.md)", async () => {
    const store = emu.store("counted");
    const V = 2;
    const B = 1500; // 2 pages at limit 1000
    const C = 1200; // 2 pages
    store.seedBrands(B);
    const sets = [createAttributeSet(store, { name: "S1" }), createAttributeSet(store, { name: "S2" }), createAttributeSet(store, { name: "S3" })];
    const attr = createAttribute(store, { name: "A", type: "text" });
    for (const s of sets) assignToSet(store, s.id, attr.id);
    let parent: number | null = null;
    for (let i = 0; i < C; i++) parent = createCategory(store, { parent_id: i % 100 === 0 ? null : parent, name: `C${i}` }).id;
    const desired: Catalogue = {
      ...emptyCatalogue(),
      managed: ["display_groups", "attributes", "attribute_sets", "blocks", "brands", "categories"],
      versions: ["French", "German"],
      attribute_sets: sets.map((s) => ({ name: s.name, attributes: ["A"] })),
      // One brand declares assets and attributes; brand versions are declared, so versions are listed too.
      brands: [{ name: "Brand 000001", assets: [], attributes: {}, versions: { French: {} } }],
      // One category declares versions and assets.
      categories: [{ path: ["C0"], name: "C0", versions: { French: {} }, assets: [] }],
    };
    const client = createClient({ tenant: "counted", baseUrl: emu.tenantUrl("counted"), token: "c" });
    emu.resetStats();
    await readState(client, { kinds: desired.managed, desired, prune: { brands: true } });
    await client.close();
    const pages = (n: number) => Math.ceil(n / 1000);
    const expected =
      1 + // channels
      1 + // display groups
      1 + // attribute sets
      1 + // blocks
      (1 + V) + // attributes, master and per version
      sets.length + // assignments of the sets that declare attributes
      pages(B) +
      V * pages(B) + // brands, and per version
      2 + // the one brand's assets and attributes
      pages(C) + // categories
      (V + 1); // the one category's versions and assets
    expect(emu.stats().requests.byTenant.counted).toBe(expected);
  });

  it("resolves 3 brands among 20,000 by search: fewer than 10 requests for brands", async () => {
    emu.store("big").seedBrands(20_000);
    const names = ["Brand 000007", "Brand 012345", "Brand 019999"];
    const desired: Catalogue = { ...emptyCatalogue(), managed: ["brands"], brands: names.map((name) => ({ name })) };
    const client = createClient({ tenant: "big", baseUrl: emu.tenantUrl("big"), token: "b" });
    const lines: string[] = [];
    emu.resetStats();
    const state = await readState(client, { kinds: ["brands"], desired, log: (l) => lines.push(l) });
    await client.close();
    expect(state.brands.map((b) => b.name)).toEqual(names);
    const brandRequests = Object.entries(emu.stats().requests.byRoute)
      .filter(([route]) => route.includes("/brands"))
      .reduce((n, [, c]) => n + c, 0);
    expect(brandRequests).toBeLessThan(10);
    expect(lines.join("\n")).toMatch(/brands: search \(20000 in the tenant, 3 named/);
  });
});
