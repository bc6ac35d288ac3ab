/**
 * The ledger's names (id -> the name pimctl applied) and what was applied (id -> the fingerprint of
 * the manifest entry): kept through a lost save race, forgotten with the record.
 */
import { describe, expect, it } from "vitest";
import { recordApplied } from "../../src/state/applied.js";
import { cloneLedger, emptyLedger, forgetOwned, mergeLedger, parseLedger, recordNames, serialiseLedger } from "../../src/state/ledger.js";

describe("ledger names", () => {
  it("merge: this run's changes win per record, a concurrent run's other records survive", () => {
    const base = emptyLedger("t", "http://x/api/v1");
    recordNames(base, { brands: { "1": "Acme", "2": "Zenith" } });
    const mine = cloneLedger(base);
    recordNames(mine, { brands: { "1": "Acme Tools", "3": "New" } });
    forgetOwned(mine, { brands: [2] });
    const theirs = cloneLedger(base);
    recordNames(theirs, { brands: { "4": "Theirs" }, attributes: { "9": "Colour" } });
    expect(mergeLedger(base, mine, theirs).names).toEqual({ brands: { "1": "Acme Tools", "3": "New", "4": "Theirs" }, attributes: { "9": "Colour" } });
  });
  it("a name is kept for one id: the newer id under the same name replaces the older one", () => {
    const l = emptyLedger("t", "http://x/api/v1");
    recordNames(l, { brands: { "1": "Acme", "2": "Zenith" } });
    recordNames(l, { brands: { "5": "Acme" } });
    expect(l.names).toEqual({ brands: { "2": "Zenith", "5": "Acme" } });
  });
  it("round-trips through the file, and an older file without names reads as none", () => {
    const l = emptyLedger("t", "http://x/api/v1");
    recordNames(l, { attributes: { "12": "Size" } });
    expect(parseLedger(serialiseLedger(l), "f", "t", "http://x/api/v1").names).toEqual({ attributes: { "12": "Size" } });
    expect(parseLedger('{"format":1,"tenant":"t","base_url":"http://x/api/v1","web_ids":{}}', "f", "t", "http://x/api/v1").names).toEqual({});
  });

  it("what was applied merges per record like names, goes with a deleted record, and round-trips (absent: none)", () => {
    const base = emptyLedger("t", "http://x/api/v1");
    recordApplied(base, { brands: { "1": "0000000000000001", "2": "0000000000000002" } });
    const mine = cloneLedger(base);
    recordApplied(mine, { brands: { "1": "000000000000000a" } });
    forgetOwned(mine, { brands: [2] });
    const theirs = cloneLedger(base);
    recordApplied(theirs, { brands: { "4": "0000000000000004" }, categories: { "9": "0000000000000009" } });
    const merged = mergeLedger(base, mine, theirs);
    expect(merged.applied).toEqual({ brands: { "1": "000000000000000a", "4": "0000000000000004" }, categories: { "9": "0000000000000009" } });
    expect(parseLedger(serialiseLedger(merged), "f", "t", "http://x/api/v1").applied).toEqual(merged.applied);
    expect(parseLedger('{"format":1,"tenant":"t","base_url":"http://x/api/v1"}', "f", "t", "http://x/api/v1").applied).toEqual({});
  });
});
