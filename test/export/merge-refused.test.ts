/**
 * The safety net under export --merge (src/export/merge-verify.ts): the
 * folder is loaded before and after, every record compared; a record the
 * merge did not mean to change that changes, one that goes or appears, or a
 * folder that no longer loads refuses the merge, naming the records, and
 * nothing is returned to write.
 */
import { describe, expect, it } from "vitest";
import { mergeExport } from "../../src/export/merge.js";
import { checkMerge } from "../../src/export/merge-verify.js";
import { PimctlError } from "../../src/errors.js";
import { KINDS, emptyCatalogue, type Catalogue } from "../../src/model/catalogue.js";

const before = { "b.yaml": "brands:\n  - name: Alpine\n    desc: &d Mountains\n  - name: Beta\n    desc: *d\n" };

function refusal(run: () => unknown): PimctlError {
  try {
    run();
  } catch (e) {
    if (e instanceof PimctlError) return e;
    throw e;
  }
  throw new Error("not refused");
}

describe("export --merge refuses what it did not mean", () => {
  it("a record merge did not edit that reads differently: refused, naming it and the field", () => {
    const after = { "b.yaml": "brands:\n  - name: Alpine\n    desc: &d Alps\n  - name: Beta\n    desc: *d\n" };
    const e = refusal(() =>
      checkMerge({ before, after, variables: {}, keyAfter: (k) => k, changed: new Map([["brands\0Alpine", new Set(["desc"])]]), added: new Set() }),
    );
    expect(e.message).toContain("export --merge refused");
    expect(e.details[0]).toBe('brand "Beta" would change (desc), which merge did not mean to change');
  });

  it("a field of the edited record merge did not report, a record gone, a record from nowhere", () => {
    const after = { "b.yaml": "brands:\n  - name: Alpine\n    desc: Alps\n    excluded: true\n  - name: Gamma\n" };
    const e = refusal(() =>
      checkMerge({ before, after, variables: {}, keyAfter: (k) => k, changed: new Map([["brands\0Alpine", new Set(["desc"])]]), added: new Set() }),
    );
    expect(e.details.slice(0, 3)).toEqual([
      'brand "Alpine" would change (excluded), which merge did not mean to change',
      'brand "Beta" would be gone',
      'brand "Gamma" would appear, which merge did not add',
    ]);
  });

  it("a kind's list that is itself an alias: merge cannot edit it in place, and refuses rather than declare its entries twice", () => {
    const folder = "x-brands: &all\n  - name: Alpine\n    desc: Mountains\nbrands: *all\n";
    const exported = { ...emptyCatalogue(), managed: [...KINDS], brands: [{ name: "Alpine", desc: "Alps" }] } as Catalogue;
    const e = refusal(() => mergeExport({ files: { "b.yaml": folder }, exported, kinds: KINDS, variables: {}, header: () => "" }));
    expect(e.message).toContain("export --merge refused");
    expect(e.details.join("\n")).toContain('brand "Alpine" is declared twice');
  });
});
