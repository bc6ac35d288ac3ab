import { describe, expect, it } from "vitest";
import { emptyCatalogue, type Catalogue } from "../../src/model/catalogue.js";
import { formerAddresses } from "../../src/plan/former-addresses.js";

describe("formerAddresses: where a record was before the manifests moved or renamed it or a parent", () => {
  const desired: Catalogue = {
    ...emptyCatalogue(),
    managed: ["attributes", "brands", "categories"],
    attributes: [{ name: "Colour", type: "selectbox", previous_names: ["Color"], values: [{ value: "Crimson", previous_values: ["Red"] }] }],
    brands: [{ name: "Acme Corp", previous_names: ["Acme"] }],
    categories: [
      { name: "Archive", path: ["Archive"] },
      { name: "Holidays", path: ["Archive", "Holidays"], previous_paths: [["Seasonal"]] },
      { name: "Xmas", path: ["Archive", "Holidays", "Xmas"], previous_names: ["Christmas"] },
    ],
  } as Catalogue;
  const former = formerAddresses(desired);

  it("follows a parent's move and the record's own rename, in any combination", () => {
    expect(former('category["Archive/Holidays/Xmas"]').sort()).toEqual([
      'category["Archive/Holidays/Christmas"]',
      'category["Seasonal/Christmas"]',
      'category["Seasonal/Xmas"]',
    ]);
    expect(former('category["Archive/Holidays/Xmas/Gifts"]')).toContain('category["Seasonal/Christmas/Gifts"]');
    expect(former('category["Archive"]')).toEqual([]);
  });

  it("follows renamed attributes, values and brands into the addresses below them", () => {
    expect(former('attribute["Colour"].value["Crimson"]').sort()).toEqual([
      'attribute["Color"].value["Crimson"]',
      'attribute["Color"].value["Red"]',
      'attribute["Colour"].value["Red"]',
    ]);
    expect(former('brand["Acme Corp"].asset["https://x/a.png"]')).toEqual(['brand["Acme"].asset["https://x/a.png"]']);
    expect(former('brand["Zenith"]')).toEqual([]);
    expect(former("not an address")).toEqual([]);
  });

  it("ends on previous entries that point at each other", () => {
    const loop = {
      ...emptyCatalogue(),
      categories: [
        { name: "A", path: ["A"], previous_paths: [["B"]] },
        { name: "B", path: ["B"], previous_paths: [["A"]] },
      ],
    } as Catalogue;
    expect(formerAddresses(loop)('category["A/C"]')).toEqual(['category["B/C"]']);
  });
});
