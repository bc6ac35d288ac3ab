import { describe, expect, it } from "vitest";
import { attributes } from "../../../src/plan/kinds/attributes.js";
import { brands } from "../../../src/plan/kinds/brands.js";
import { planKinds } from "../../helpers/plan-kind.js";

const ledger = {
  web_ids: { "brand:1": { Webshop: "acme-01" } },
  assets: { "brand:1": { "9": { image_url: "https://cdn/a.png" } } },
  brand_attribute_sets: { "1": [] },
};

describe("brands kind", () => {
  it("writes fields, attribute values per version, web ids and assets against the ledger", () => {
    const { actions, errors } = planKinds(
      [attributes, brands],
      {
        attributes: [{ name: "Colour", type: "text" }],
        brands: [
          {
            name: "Acme",
            desc: "New",
            web_ids: { Webshop: "acme-02" },
            assets: [{ image_url: "https://cdn/a.png", alttext: "Acme" }],
            attributes: { Colour: { value: "Red", versions: { French: "Rouge" } } },
            versions: { French: { desc: "Nouveau" } },
          },
        ],
      },
      {
        channels: [{ id: 3, channel_name: "Webshop", version_id: 0, version_name: "Master" }],
        attributes: [{ id: 10, name: "Colour", type: "text", values: [] }],
        brands: [
          {
            id: 1,
            name: "Acme",
            desc: "Old",
            product_count: 0,
            assets: [{ id: 9, uri: "https://tenant/9.png", alttext: "Acme" }],
            attributes: { Colour: { attribute_id: 10, values: { "": { id: 70, value: "Red" } } } },
            versions: {},
          },
        ],
      },
      { ledger },
    );
    expect(errors).toEqual([]);
    expect([...actions.values()].map((a) => `${a.op} ${a.address}`)).toEqual([
      'update brand["Acme"]',
      'unsupported brand["Acme"].version["French"]',
      'update brand["Acme"].web_id["Webshop"]',
      'create brand["Acme"].attribute["Colour"].version["French"]',
    ]);
    expect(actions.get('brand["Acme"].web_id["Webshop"]')!.changes).toEqual([{ field: "web_id", before: "acme-01", after: "acme-02" }]);
  });

  it("without a ledger, write-only values are unknown and written once; a pruned brand with products is destructive", () => {
    const { actions } = planKinds(
      [brands],
      { brands: [{ name: "Acme", web_ids: { Webshop: "acme-01" } }] },
      {
        channels: [{ id: 3, channel_name: "Webshop", version_id: 0, version_name: "Master" }],
        brands: [
          { id: 1, name: "Acme", product_count: 0, versions: {} },
          { id: 2, name: "Gone", product_count: 4, versions: {} },
        ],
      },
      { prune: { brands: true } },
    );
    expect(actions.get('brand["Acme"].web_id["Webshop"]')!.changes).toEqual([{ field: "web_id", before_unknown: true, after: "acme-01" }]);
    const gone = actions.get('brand["Gone"]')!;
    expect([gone.op, gone.flags.destructive, gone.notes]).toEqual(["delete", true, ["4 products carry this brand and lose it"]]);
  });
});
