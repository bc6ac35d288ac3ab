/**
 * Addresses round-trip: every name in Shopify's taxonomy (four languages),
 * and fuzzed names with quotes, "].", slashes, backslashes and unicode, print
 * to one address and parse back to the same parts.
 */
import fc from "fast-check";
import { propertyParams } from "../helpers/seed.js";
import { describe, expect, it } from "vitest";
import { readTaxonomy } from "../../src/bench/taxonomy-data.js";
import { parsePathKey } from "../../src/model/catalogue.js";
import { addr, addressKind, categoryPath, isUnder, parseAddress, printAddress, rootAddress, withLastKey } from "../../src/plan/address.js";

interface Named {
  name: Record<string, string>;
}
interface TaxonomyCategory extends Named {
  children?: TaxonomyCategory[];
}
interface Taxonomy {
  locales: string[];
  attributes: Array<Named & { values?: Named[] }>;
  categories: TaxonomyCategory[];
}

const taxonomy = readTaxonomy<Taxonomy>();

describe("addresses of every name in the Shopify taxonomy", () => {
  it("category paths in every language parse back to the same path", () => {
    let n = 0;
    for (const locale of taxonomy.locales) {
      const visit = (c: TaxonomyCategory, parent: string[]): void => {
        const p = [...parent, c.name[locale] ?? c.name.en!];
        const parsed = parseAddress(addr.categoryWebId(p, "Webshop"))!;
        expect(categoryPath(parsed)).toEqual(p);
        expect(rootAddress(addr.categoryAsset(p, "https://x/y].z"))).toBe(addr.category(p));
        n++;
        for (const child of c.children ?? []) visit(child, p);
      };
      for (const root of taxonomy.categories) visit(root, []);
    }
    expect(n).toBe(10_595 * taxonomy.locales.length);
  });

  it("attribute and value names in every language round-trip, with their version", () => {
    let n = 0;
    for (const locale of taxonomy.locales) {
      for (const a of taxonomy.attributes) {
        const name = a.name[locale] ?? a.name.en!;
        for (const v of a.values ?? []) {
          const value = v.name[locale] ?? v.name.en!;
          const text = addr.typeValueVersion(name, value, locale);
          const parsed = parseAddress(text)!;
          expect(parsed.segments.map((s) => [s.type, s.key])).toEqual([
            ["attribute", name],
            ["value", value],
            ["version", locale],
          ]);
          expect(printAddress(parsed)).toBe(text);
          n++;
        }
      }
    }
    expect(n).toBeGreaterThan(20_000 * taxonomy.locales.length);
  });
});

/** Names as hostile as they come: the address syntax's own characters, escapes, unicode. */
const hostileName = fc.oneof(
  fc.string({ unit: "grapheme", maxLength: 12 }),
  fc.stringMatching(/^[\]["./\\ a-zé€🙂]{0,12}$/),
  fc.constantFrom('a"].b', "x].y[", '\\"', "/", "a/b", "\\/", "]", '"', ""),
);

describe("addresses under fuzzing", () => {
  it("print and parse round-trip for any names", () => {
    fc.assert(
      fc.property(hostileName, hostileName, hostileName, (a, b, c) => {
        for (const text of [addr.brandAsset(a, b), addr.typeValueVersion(a, b, c), addr.setAttribute(a, b), addr.brandAttributeValue(a, b, null)]) {
          const parsed = parseAddress(text);
          expect(parsed).toBeDefined();
          expect(printAddress(parsed!)).toBe(text);
        }
        const p = [a, b, c];
        expect(categoryPath(parseAddress(addr.categoryVersion(p, "French"))!)).toEqual(p);
        expect(parsePathKey(parseAddress(addr.category(p))!.segments[0].key)).toEqual(p);
        expect(rootAddress(addr.brandWebId(a, b))).toBe(addr.brand(a));
        expect(addressKind(addr.attributeVersion(a, b))).toBe("attribute");
        expect(withLastKey(addr.typeValue(a, b), c)).toBe(addr.typeValue(a, c));
        expect(isUnder(parseAddress(addr.brandAsset(a, b))!, parseAddress(addr.brand(a))!)).toBe(true);
      }),
      propertyParams({ numRuns: 2000, seed: 7 }),
    );
  });

  it("parses arbitrary text to nothing or to an address that prints back the same", () => {
    fc.assert(
      fc.property(fc.oneof(fc.string(), fc.stringMatching(/^(brand|category|attribute)\[.{0,10}\](\.[a-z_]+\[.{0,8}\])?$/)), (text) => {
        const parsed = parseAddress(text);
        if (parsed) expect(parseAddress(printAddress(parsed))).toEqual(parsed);
      }),
      propertyParams({ numRuns: 2000, seed: 11 }),
    );
  });

  it("refuses what is not an address: unknown types, bad keys, trailing text", () => {
    for (const text of ["", "brand", 'brand["a"', "brand[a]", 'shop["a"]', 'brand["a"]x', 'brand["a"].', 'value["a"]', "brand[1]"]) {
      expect(parseAddress(text), text).toBeUndefined();
    }
  });
});
