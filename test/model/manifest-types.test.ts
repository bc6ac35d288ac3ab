/**
 * The manifest's types and its field tables say the same about language versions: the
 * fields a brand, a category and an attribute carry per version are those the tables
 * mark versioned, at run time (versionedFields: what the state reader and the
 * translations collect) and in the types (BrandTextField, CategoryTextField). Before
 * the types were plain, the types derived from the tables said a brand had no text
 * field per version (BrandTextField was never) and a category only its name.
 */
import { describe, expect, it } from "vitest";
import { ATTRIBUTE, BRAND, CATEGORY, versionedFields } from "../../src/model/schema.js";
import { compileErrors, plantedLines, srcModule } from "../helpers/tsc.js";

const BRAND_TEXTS = ["desc", "exclusion_reason", "seo_search_keywords", "seo_meta_desc", "seo_meta_keywords", "seo_title"];
const CATEGORY_TEXTS = ["name", "desc", "seo_meta_desc", "seo_meta_keywords", "seo_meta_title", "search_keywords"];
const ATTRIBUTE_TEXTS = ["name", "note"];
const union = (names: string[]) => names.map((n) => JSON.stringify(n)).join(" | ");

describe("the fields each record has per language version", () => {
  it("at run time, from the tables' marks", () => {
    expect(versionedFields(BRAND)).toEqual(BRAND_TEXTS);
    expect(versionedFields(CATEGORY)).toEqual(CATEGORY_TEXTS);
    expect(versionedFields(ATTRIBUTE)).toEqual(ATTRIBUTE_TEXTS);
  });

  it("in the types, the same fields (the compiler refuses the planted line only)", { timeout: 60_000 }, async () => {
    const program = `import type { BrandTextField, CategoryTextField } from ${srcModule("model/catalogue.ts")};
import type { AttributeVersion } from ${srcModule("model/manifest-types.ts")};
type Same<A, B> = [A] extends [B] ? ([B] extends [A] ? true : false) : false;
export const brand: Same<BrandTextField, ${union(BRAND_TEXTS)}> = true;
export const category: Same<CategoryTextField, ${union(CATEGORY_TEXTS)}> = true;
export const attribute: Same<keyof AttributeVersion, ${union(ATTRIBUTE_TEXTS)}> = true;
export const fewer: Same<BrandTextField, "desc"> = true; // planted
`;
    const { lines, output } = await compileErrors(program);
    expect(lines, output).toEqual(plantedLines(program));
  });
});
