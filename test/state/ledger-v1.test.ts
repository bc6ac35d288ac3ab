/**
 * A format 1 ledger read by this pimctl: ownership moves to the table where each id is unique,
 * and what format 1 cannot tell is forgotten rather than guessed (src/state/ledger-v1.ts).
 */
import { describe, expect, it } from "vitest";
import { parseLedger, serialiseLedger } from "../../src/state/ledger.js";

const url = "https://demo.example.com/api/v1";
const v1 = {
  format: 1,
  min_pimctl_version: "0.1.0",
  tenant: "demo",
  base_url: url,
  web_ids: { "brand:1": { Webshop: "acme" } },
  assets: {
    "brand:1": { "5": { image_url: "https://cdn/acme.png" } },
    "category:2": { "6": { image_url: "https://cdn/apparel.png" } },
    // Asset id 7 recorded under a brand and a category: the two tables each have a 7 (ids per table).
    "brand:3": { "7": { image_url: "https://cdn/b.png" } },
    "category:4": { "7": { image_url: "https://cdn/c.png" } },
  },
  owned: { brands: [1, 2], assets: [5, 6, 7, 8], type_values: [9], categories: [2] },
  names: { brands: { "1": "Acme" }, categories: { "2": "Apparel" } },
  // What drift compares (written by pimctl builds that kept it in format 1): per prune kind, each kind one table.
  applied: { brands: { "1": "00112233445566ff", "2": "0123456789abcdef" }, categories: { "2": "fedcba9876543210" } },
};

describe("a format 1 ledger", () => {
  const ledger = parseLedger(JSON.stringify(v1), "demo.json", "demo", url);

  it("keeps brand and category asset ids apart, by the owner its assets section records; an id it cannot place is forgotten", () => {
    expect(ledger.owned.brand_assets).toEqual([5]);
    expect(ledger.owned.category_assets).toEqual([6]);
    expect(ledger.names.brand_assets).toEqual({ "5": "brand:1" });
    expect(ledger.names.category_assets).toEqual({ "6": "category:2" });
  });

  it("keeps an owned id only where it remembers what the record was; type values had no names", () => {
    expect(ledger.owned.brands).toEqual([1]);
    expect(ledger.owned.categories).toEqual([2]);
    expect(ledger.owned.type_values).toBeUndefined();
    expect(ledger.names.brands).toEqual({ "1": "Acme" });
  });

  it("keeps the fingerprints of the manifest entries applied (drift's), by table, through a write in format 2", () => {
    expect(ledger.applied).toEqual(v1.applied);
    const again = JSON.parse(serialiseLedger(ledger)) as { applied: unknown };
    expect(again.applied).toEqual(v1.applied);
  });

  it("a format 1 file without them reads as none", () => {
    const { applied: _applied, ...older } = v1;
    expect(parseLedger(JSON.stringify(older), "demo.json", "demo", url).applied).toEqual({});
  });

  it("has no fingerprints and no write times, and is written back in format 2", () => {
    expect(ledger.fingerprints).toEqual({});
    expect(ledger.written).toEqual({});
    expect(ledger.web_ids).toEqual(v1.web_ids);
    const again = JSON.parse(serialiseLedger(ledger)) as { format: number; owned: unknown };
    expect(again.format).toBe(2);
    expect(parseLedger(serialiseLedger(ledger), "demo.json", "demo", url)).toEqual(ledger);
  });

  it("a format 1 file that breaks format 1's own schema is refused naming the field", () => {
    expect(() => parseLedger(JSON.stringify({ ...v1, owned: { brand_assets: [1] } }), "demo.json", "demo", url)).toThrow(
      /does not match the ledger schema .*at owned: key "brand_assets" is none of/,
    );
  });
});
