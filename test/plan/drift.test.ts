import { beforeAll, describe, expect, it } from "vitest";
import type { PimClient } from "../../src/api/client.js";
import { fileEmulator } from "../helpers/emulator.js";
import { readState } from "../../src/state/index.js";
import { buildPlan } from "../../src/plan/planner.js";
import { applyPlan } from "../../src/apply/index.js";
import { emptyLedger, type Ledger } from "../../src/state/ledger.js";
import type { Catalogue } from "../../src/model/catalogue.js";

let api: PimClient;
let ledger: Ledger;

const desired: Catalogue = {
  managed: ["display_groups", "attributes", "attribute_sets", "blocks", "brands", "categories"],
  versions: ["French"],
  display_groups: [
    { name: "Basics", sort_order: 1, in_navigation: true },
    { name: "Other", sort_order: 2, in_navigation: false },
  ],
  attributes: [
    {
      name: "Colour",
      type: "selectbox",
      slug: "colour",
      note: "n",
      length: 20,
      display_group: "Basics",
      sort_order: 1,
      publish: true,
      versions: { French: { name: "Couleur" } },
      values: [{ value: "Red", slug: "red", sort_order: 1, versions: { French: "Rouge" } }],
    },
  ],
  attribute_sets: [{ name: "Apparel", sort_order: 1, attributes: ["Colour"] }],
  blocks: [{ slug: "footer", name: "Footer", content: "Hello" }],
  brands: [
    {
      name: "Acme",
      desc: "Tools",
      excluded: false,
      exclusion_reason: "none",
      seo_search_keywords: "k",
      seo_meta_desc: "d",
      seo_meta_keywords: "mk",
      seo_title: "t",
      assets: [{ image_url: "https://cdn.example.com/a.png", alttext: "A", thumbnail: true }],
      attributes: { Colour: { value: "Red" } },
    },
  ],
  categories: [
    {
      path: ["Apparel"],
      name: "Apparel",
      slug: "apparel",
      desc: "D",
      status: "enabled",
      is_visible: true,
      sort_order: 1,
      attribute_sets: ["Apparel"],
      seo_meta_desc: "a",
      seo_meta_keywords: "b",
      seo_meta_title: "c",
      search_keywords: "s",
    },
  ],
};

async function plan() {
  const remote = await readState(api, { kinds: desired.managed, desired });
  return buildPlan({ tenant: "t", desired, remote, ledger }).plan;
}

const file = fileEmulator();
beforeAll(async () => {
  api = file.api;
  ledger = emptyLedger("t", file.url);
  const first = await plan();
  const r = await applyPlan({ api, plan: first, allowDelete: false, dryRun: false, parallelism: 8, failFast: false, ledger });
  expect(r.counts.failed).toBe(0);
  expect((await plan()).actions).toEqual([]);
});

const ids = async () => {
  const attr = (await api.searchAttribute("Colour"))!;
  const brand = (await api.searchBrand("Acme"))!;
  const cat = (await api.listCategories())[0]!;
  return {
    attr: attr.id,
    value: attr.typeValuesArray![0]!.id,
    group: (await api.listDisplayGroups()).find((d) => d.name === "Basics")!.id,
    other: (await api.listDisplayGroups()).find((d) => d.name === "Other")!.id,
    set: (await api.searchAttributeSet("Apparel"))!.id,
    block: (await api.listBlocks())[0]!.id,
    brand: brand.id,
    asset: (await api.listBrandAssets(brand.id))[0]!.id,
    brandValue: (await api.listBrandAttributes(brand.id))[0]!.values[0]!.id,
    cat: cat.id,
  };
};

type Ids = Awaited<ReturnType<typeof ids>>;
const cases: Array<[string, string, (i: Ids) => Promise<unknown>, (i: Ids) => Promise<unknown>]> = [
  [
    'display_group["Basics"]',
    "sort_order",
    (i) => api.updateDisplayGroup(i.group, { sort_order: 9 }),
    (i) => api.updateDisplayGroup(i.group, { sort_order: 1 }),
  ],
  [
    'display_group["Basics"]',
    "in_navigation",
    (i) => api.updateDisplayGroup(i.group, { in_navigation: false }),
    (i) => api.updateDisplayGroup(i.group, { in_navigation: true }),
  ],
  ['attribute["Colour"]', "slug", (i) => api.updateAttribute(i.attr, { slug: "x" }), (i) => api.updateAttribute(i.attr, { slug: "colour" })],
  ['attribute["Colour"]', "note", (i) => api.updateAttribute(i.attr, { note: "changed" }), (i) => api.updateAttribute(i.attr, { note: "n" })],
  ['attribute["Colour"]', "length", (i) => api.updateAttribute(i.attr, { length: 99 }), (i) => api.updateAttribute(i.attr, { length: 20 })],
  [
    'attribute["Colour"]',
    "display_group",
    (i) => api.updateAttribute(i.attr, { display_group_id: i.other }),
    (i) => api.updateAttribute(i.attr, { display_group_id: i.group }),
  ],
  ['attribute["Colour"]', "sort_order", (i) => api.updateAttribute(i.attr, { sort_order: 7 }), (i) => api.updateAttribute(i.attr, { sort_order: 1 })],
  ['attribute["Colour"]', "publish", (i) => api.updateAttribute(i.attr, { publish: false }), (i) => api.updateAttribute(i.attr, { publish: true })],
  ['attribute["Colour"]', "type", (i) => api.updateAttribute(i.attr, { type: "multiselect" }), (i) => api.updateAttribute(i.attr, { type: "selectbox" })],
  [
    'attribute["Colour"].version["French"]',
    "name",
    (i) => api.updateAttributeVersion(i.attr, 2, { name: "Teinte" }),
    (i) => api.updateAttributeVersion(i.attr, 2, { name: "Couleur" }),
  ],
  [
    'attribute["Colour"].value["Red"]',
    "slug",
    (i) => api.updateTypeValue(i.attr, i.value, { value: "Red", slug: "r" }),
    (i) => api.updateTypeValue(i.attr, i.value, { value: "Red", slug: "red" }),
  ],
  [
    'attribute["Colour"].value["Red"]',
    "sort_order",
    (i) => api.updateTypeValue(i.attr, i.value, { value: "Red", sort_order: 5 }),
    (i) => api.updateTypeValue(i.attr, i.value, { value: "Red", sort_order: 1 }),
  ],
  [
    'attribute["Colour"].value["Red"].version["French"]',
    "value",
    (i) => api.updateTypeValueVersion(i.attr, i.value, 2, { value: "Rose" }),
    (i) => api.updateTypeValueVersion(i.attr, i.value, 2, { value: "Rouge" }),
  ],
  ['attribute_set["Apparel"]', "sort_order", (i) => api.updateAttributeSet(i.set, { sort_order: 4 }), (i) => api.updateAttributeSet(i.set, { sort_order: 1 })],
  ['block["footer"]', "name", (i) => api.updateBlock(i.block, { name: "Foot" }), (i) => api.updateBlock(i.block, { name: "Footer" })],
  ['block["footer"]', "content", (i) => api.updateBlock(i.block, { content: "Bye" }), (i) => api.updateBlock(i.block, { content: "Hello" })],
  ...(["desc", "exclusion_reason", "seo_search_keywords", "seo_meta_desc", "seo_meta_keywords", "seo_title"] as const).map(
    (f): [string, string, (i: Ids) => Promise<unknown>, (i: Ids) => Promise<unknown>] => [
      'brand["Acme"]',
      f,
      (i) => api.updateBrand(i.brand, { [f]: "changed" }),
      (i) => api.updateBrand(i.brand, { [f]: desired.brands[0]![f] as string }),
    ],
  ),
  ['brand["Acme"]', "excluded", (i) => api.updateBrand(i.brand, { excluded: true }), (i) => api.updateBrand(i.brand, { excluded: false })],
  [
    'brand["Acme"].asset["https://cdn.example.com/a.png"]',
    "alttext",
    (i) => api.updateBrandAsset(i.brand, i.asset, { image_url: "https://cdn.example.com/a.png", alttext: "B" }),
    (i) => api.updateBrandAsset(i.brand, i.asset, { image_url: "https://cdn.example.com/a.png", alttext: "A" }),
  ],
  [
    'brand["Acme"].asset["https://cdn.example.com/a.png"]',
    "thumbnail",
    (i) => api.updateBrandAsset(i.brand, i.asset, { image_url: "https://cdn.example.com/a.png", thumbnail: false }),
    (i) => api.updateBrandAsset(i.brand, i.asset, { image_url: "https://cdn.example.com/a.png", thumbnail: true }),
  ],
  [
    'brand["Acme"].attribute["Colour"]',
    "value",
    (i) => api.updateBrandAttributeValue(i.brand, i.attr, i.brandValue, { attribute_id: i.attr, version_id: 0, values: [{ value: "Blue" }] }),
    (i) => api.updateBrandAttributeValue(i.brand, i.attr, i.brandValue, { attribute_id: i.attr, version_id: 0, values: [{ value: "Red" }] }),
  ],
  ...(["slug", "desc", "seo_meta_desc", "seo_meta_keywords", "seo_meta_title", "search_keywords"] as const).map(
    (f): [string, string, (i: Ids) => Promise<unknown>, (i: Ids) => Promise<unknown>] => [
      'category["Apparel"]',
      f,
      (i) => api.updateCategory(i.cat, { [f]: "changed" }),
      (i) => api.updateCategory(i.cat, { [f]: desired.categories[0]![f] as string }),
    ],
  ),
  ['category["Apparel"]', "status", (i) => api.updateCategory(i.cat, { status: "disabled" }), (i) => api.updateCategory(i.cat, { status: "enabled" })],
  ['category["Apparel"]', "is_visible", (i) => api.updateCategory(i.cat, { is_visible: false }), (i) => api.updateCategory(i.cat, { is_visible: true })],
  ['category["Apparel"]', "sort_order", (i) => api.updateCategory(i.cat, { sort_order: 3 }), (i) => api.updateCategory(i.cat, { sort_order: 1 })],
  [
    'category["Apparel"]',
    "attribute_sets",
    (i) => api.updateCategory(i.cat, { attribute_sets: [] }),
    (i) => api.updateCategory(i.cat, { attribute_sets: [i.set] }),
  ],
];

describe("each field changed out of band appears as exactly one update of that field", () => {
  for (const [address, field, change, restore] of cases) {
    it(`${address} ${field}`, async () => {
      const i = await ids();
      await change(i);
      const p = await plan();
      expect(p.actions.map((a) => ({ address: a.address, op: a.op, fields: a.changes.map((c) => c.field) }))).toEqual([
        { address, op: "update", fields: [field] },
      ]);
      await restore(i);
      expect((await plan()).actions).toEqual([]);
    });
  }

  it("a write-only change (web id) is planned from the ledger, and stays quiet once applied", async () => {
    const withWebId: Catalogue = { ...desired, brands: [{ ...desired.brands[0]!, web_ids: { Webshop: "acme-1" } }] };
    const remote = await readState(api, { kinds: withWebId.managed, desired: withWebId });
    const p1 = buildPlan({ tenant: "t", desired: withWebId, remote, ledger }).plan;
    expect(p1.actions.map((a) => `${a.op} ${a.address}`)).toEqual(['update brand["Acme"].web_id["Webshop"]']);
    await applyPlan({ api, plan: p1, allowDelete: false, dryRun: false, parallelism: 2, failFast: false, ledger });
    const p2 = buildPlan({ tenant: "t", desired: withWebId, remote: await readState(api, { kinds: withWebId.managed, desired: withWebId }), ledger }).plan;
    expect(p2.actions).toEqual([]);
    const changed: Catalogue = { ...desired, brands: [{ ...desired.brands[0]!, web_ids: { Webshop: "acme-2" } }] };
    const p3 = buildPlan({ tenant: "t", desired: changed, remote: await readState(api, { kinds: changed.managed, desired: changed }), ledger }).plan;
    expect(p3.actions.map((a) => a.changes)).toEqual([[{ field: "web_id", before: "acme-1", after: "acme-2" }]]);
  });
});
