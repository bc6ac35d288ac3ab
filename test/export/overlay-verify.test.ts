/**
 * The check export --merge makes before it writes into a shared base for a tenant with an overlay
 * (src/export/overlay-verify.ts): another tenant's composed catalogue may change only where the base
 * merge meant to change the base. Texts in, a refusal (or none) out: the case that no honest merge
 * produces (a base change the merge did not report, seen only through another tenant's overlay) is
 * built by hand here; test/cli/export-merge-overlay.test.ts has the refusal a real merge meets.
 */
import { describe, expect, it } from "vitest";
import { checkOverlayMerge, type OverlayCheck } from "../../src/export/overlay-verify.js";
import type { TrackedMerge } from "../../src/export/merge.js";
import { emptyCatalogue } from "../../src/model/catalogue.js";
import { PimctlError } from "../../src/errors.js";

const tracked = (changed: Record<string, string[]> = {}): TrackedMerge => ({
  report: { files: {}, updated: [], added: [], onlyInFolder: [], byHand: [], pendingRenames: [], renamed: [] },
  changed: new Map(Object.entries(changed).map(([key, fields]) => [key, new Set(fields)])),
  added: new Set(),
  keyAfter: (key) => key,
});

const BASE = "brands:\n  - name: Acme\n    desc: Tools\n  - name: Hooli\n    desc: Search\n";
// The merged tenant's overlay sets Hooli's desc: a change of the base's Hooli desc never shows in its catalogue.
const US = { "overlays/prod-us/brands.yaml": "brands:\n  - name: Hooli\n    desc: Search (US)\n" };
// prod-ca's overlay patches a record of a file the merge did not edit too: the check still sees its Hooli.
const CA = {
  "overlays/prod-ca/brands.yaml": "brands:\n  - name: Acme\n    desc: Tools (CA)\n",
  "overlays/prod-ca/attributes.yaml": "attributes:\n  - name: Colour\n    sort_order: 3\n",
};
const ATTRIBUTES = "attributes:\n  - name: Colour\n    type: text\n";

function check(after: string, base: TrackedMerge): OverlayCheck {
  return {
    tenant: "prod-us",
    variables: {},
    before: { base: { "brands.yaml": BASE, "attributes.yaml": ATTRIBUTES }, overlay: US },
    after: { base: { "brands.yaml": after, "attributes.yaml": ATTRIBUTES }, overlay: US },
    exported: emptyCatalogue(),
    base,
    overlay: tracked(),
    others: [{ tenant: "prod-ca", variables: {}, overlay: CA }],
  };
}

describe("export --merge into a shared base: the other tenants' catalogues", () => {
  it("pass when they change only where the base merge meant to change", () => {
    const after = BASE.replace("desc: Search", "desc: Search, everywhere");
    expect(() => checkOverlayMerge(check(after, tracked({ "brands\0Hooli": ["desc"] })))).not.toThrow();
  });

  it("refuse, naming the tenant and the record, a change the base merge did not mean, even one the merged tenant never sees", () => {
    const after = BASE.replace("desc: Search", "desc: Search, everywhere");
    let thrown: unknown;
    try {
      checkOverlayMerge(check(after, tracked()));
    } catch (e) {
      thrown = e;
    }
    expect(thrown).toBeInstanceOf(PimctlError);
    const e = thrown as PimctlError;
    expect(e.code).toBe("invalid_value");
    expect(e.message).toContain("nothing was written");
    expect(e.details).toContain('prod-ca: brand "Hooli" would change (desc), which merge did not mean to change');
    expect(e.details.some((d) => d.startsWith("prod-us:"))).toBe(false);
  });

  it("refuse a base that no longer loads for another tenant", () => {
    const after = `${BASE}  - name: Acme\n    desc: Twice\n`;
    expect(() => checkOverlayMerge(check(after, tracked({ "brands\0Acme": ["desc"] })))).toThrow(/nothing was written/);
  });
});
