/**
 * export --merge on entries that take fields through a YAML merge key (`<<: *defaults`) and
 * declare some of the same fields themselves. The `yaml` library reads a merge key's key as a
 * symbol: merge must still see which fields the merge key gives, or removing the entry's own
 * value brings back the shared one, which the tenant does not have (and the next plan sets).
 */
import { describe, expect, it } from "vitest";
import { mergeExport } from "../../src/export/merge.js";
import { KINDS, emptyCatalogue, type Catalogue } from "../../src/model/catalogue.js";
import { parseManifestText } from "../../src/manifest/index.js";

function merge(folder: string, brands: Array<Record<string, unknown>>) {
  const exported = { ...emptyCatalogue(), brands, managed: [...KINDS] } as Catalogue;
  return mergeExport({ files: { "b.yaml": folder }, exported, kinds: KINDS, variables: {}, header: () => "" });
}

/** The brands of a text as the loader reads them (merge keys resolved). */
function brandsOf(text: string): Record<string, Record<string, unknown>> {
  const { data, errors } = parseManifestText(text, "b.yaml");
  expect(errors.map((e) => e.format())).toEqual([]);
  return Object.fromEntries((data as { brands: Array<Record<string, unknown>> }).brands.map((b) => [String(b.name), b]));
}

const FOLDER = ["x-house: &house", "  desc: A house brand", "  excluded: false", "brands:", "  - <<: *house", "    name: Gamma", "    desc: Own text", ""].join(
  "\n",
);

describe("export --merge and a field both declared and given by a merge key", () => {
  it("the tenant no longer has it: the entry's own value is emptied, not removed (which would bring back the merge key's)", () => {
    const r = merge(FOLDER, [{ name: "Gamma", excluded: false }]);
    const after = r.files["b.yaml"]!;
    expect(brandsOf(after).Gamma!.desc).toBe("");
    expect(after).toContain("x-house: &house\n  desc: A house brand\n");
    expect(r.updated).toEqual(['b.yaml:7: brand "Gamma": desc emptied (the tenant has none)']);
  });

  it("the tenant has another text: the entry's own value is replaced in place, the shared one stays", () => {
    const r = merge(FOLDER, [{ name: "Gamma", desc: "New text", excluded: false }]);
    expect(r.files["b.yaml"]).toBe(FOLDER.replace("desc: Own text", "desc: New text"));
  });
});
