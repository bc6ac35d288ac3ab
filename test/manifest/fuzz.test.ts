import { describe, expect, it } from "vitest";
import { prng } from "../helpers/random.js";
import { readFileSync } from "node:fs";
import path from "node:path";
import { parseManifestText } from "../../src/manifest/index.js";
import { PimctlError } from "../../src/errors.js";
import { seeded } from "../helpers/seed.js";

const example = readFileSync(path.resolve(import.meta.dirname, "../../examples/catalogue/brands.yaml"), "utf8");
const alphabet = [
  "\n",
  " ",
  "  ",
  "-",
  ":",
  "[",
  "]",
  "{",
  "}",
  "&a",
  "*a",
  "!!str",
  "'",
  '"',
  "#",
  "${x}",
  "name",
  "attributes",
  "brands",
  "categories",
  "children",
  "values",
  "versions",
  "1",
  "true",
  "null",
  "é",
  "\t",
  "|",
  ">",
  "? ",
  ",",
  "%YAML",
  "---",
  "...",
];

describe("the loader never throws on arbitrary input", () => {
  it("random token soups, truncations and mutations of a real manifest (seeded, 3,000 documents)", () =>
    seeded(20261122, (seed) => {
      const random = prng(seed);
      let errors = 0;
      for (let i = 0; i < 3000; i++) {
        let text: string;
        const mode = i % 3;
        if (mode === 0) {
          text = Array.from({ length: Math.floor(random() * 40) }, () => alphabet[Math.floor(random() * alphabet.length)]).join("");
        } else if (mode === 1) {
          text = example.slice(0, Math.floor(random() * example.length));
        } else {
          const chars = [...example];
          for (let k = 0; k < 5; k++) chars[Math.floor(random() * chars.length)] = alphabet[Math.floor(random() * alphabet.length)]!;
          text = chars.join("");
        }
        let result: ReturnType<typeof parseManifestText> | undefined;
        expect(() => {
          result = parseManifestText(text, `fuzz-${i}.yaml`, { variables: { x: "y" } });
        }, text).not.toThrow();
        for (const e of result!.errors) {
          expect(e).toBeInstanceOf(PimctlError);
          expect(e.location?.line ?? 1).toBeGreaterThanOrEqual(1);
        }
        errors += result!.errors.length;
      }
      expect(errors).toBeGreaterThan(1000);
    }));
});
