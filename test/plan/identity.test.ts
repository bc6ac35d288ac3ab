/** What a remembered id proves (src/plan/identity.ts), on plain data. */
import { describe, expect, it } from "vitest";
import { fingerprintOf, judgeIdentity, type RememberedIdentities } from "../../src/plan/identity.js";

const declared = { name: "Acme", desc: "Tools", excluded: true, exclusion_start_date: "2025-03-01", seo_title: "" };
const ledger: RememberedIdentities = {
  names: { brands: { "1": "Acme", "2": "Plain", "3": "Old" }, categories: { "7": "Apparel/Shirts" } },
  fingerprints: { brands: { "1": fingerprintOf("brands", declared)!, "2": "" } },
};

describe("judgeIdentity", () => {
  it("the ledger remembers nothing of the id: unknown", () => {
    expect(judgeIdentity(ledger, "brands", 9, "Anything", {})).toEqual({ is: "unknown" });
  });

  it("the same key: the same record, whatever its fields", () => {
    expect(judgeIdentity(ledger, "brands", 1, "Acme", { desc: "Changed by hand" })).toEqual({ is: "same" });
  });

  it("another name and every field pimctl wrote as it wrote it (a date in another form, null for empty text): renamed by hand", () => {
    const tenant = { name: "ACME Corp", desc: "Tools", excluded: true, exclusion_start_date: "2025-03-01T00:00:00Z", seo_title: null, seo_meta_desc: "x" };
    expect(judgeIdentity(ledger, "brands", 1, "ACME Corp", tenant)).toEqual({ is: "renamed", remembered: "Acme", proof: "fingerprint" });
  });

  it("another name and a field that differs: another record, naming the field", () => {
    const tenant = { name: "Hand", desc: "Made by hand", excluded: true, exclusion_start_date: "2025-03-02" };
    expect(judgeIdentity(ledger, "brands", 1, "Hand", tenant)).toEqual({
      is: "other",
      remembered: "Acme",
      why: "desc, exclusion_start_date differ from what pimctl wrote",
    });
  });

  it("another name where pimctl wrote nothing but the name: renamed, on the name alone", () => {
    expect(judgeIdentity(ledger, "brands", 2, "Plainer", { desc: "anything" })).toEqual({ is: "renamed", remembered: "Plain", proof: "name only" });
  });

  it("another name and no fingerprint (a ledger written before them): cannot tell, another record", () => {
    expect(judgeIdentity(ledger, "brands", 3, "New", {})).toMatchObject({ is: "other", remembered: "Old" });
    expect(judgeIdentity(ledger, "categories", 7, "Apparel/Tees", {})).toMatchObject({ is: "other" });
  });

  it("the fingerprint leaves out the name, a slug the tenant may derive from it, and what a second read gives", () => {
    expect(fingerprintOf("attributes", { name: "Colour", slug: "colour", note: "n", length: 3, type: "selectbox" })).toMatch(/^type=[0-9a-f]{8}$/);
    expect(fingerprintOf("display_groups", { name: "Basics" })).toBe("");
    expect(fingerprintOf("type_values", { value: "Red" })).toBeUndefined();
  });
});
