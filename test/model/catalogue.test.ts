import { describe, expect, it } from "vitest";
import { parsePathKey, pathKey } from "../../src/model/catalogue.js";
import { closeNames, levenshtein } from "../../src/errors.js";

describe("category path keys", () => {
  it("round-trips names holding slashes and backslashes", () => {
    const path = ["Home & Garden", "Tools/Hardware", "a\\b"];
    expect(pathKey(path)).toBe("Home & Garden/Tools\\/Hardware/a\\\\b");
    expect(parsePathKey(pathKey(path))).toEqual(path);
  });
});

describe("did-you-mean", () => {
  it("measures edit distance", () => {
    expect(levenshtein("colour", "color")).toBe(1);
    expect(levenshtein("", "abc")).toBe(3);
  });
  it("suggests close names, closest first", () => {
    expect(closeNames("Colr", ["Color", "Size", "Colour"])).toEqual(["Color", "Colour"]);
    expect(closeNames("Weight", ["Color", "Size"])).toEqual([]);
  });
});
