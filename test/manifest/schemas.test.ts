import { readFileSync } from "node:fs";
import path from "node:path";
import { describe, expect, it } from "vitest";
import { schemaFiles } from "../../src/build/schema-docs.js";

describe("schemas/ is generated from the field tables and src/manifest/schema-source.ts", () => {
  for (const [name, text] of Object.entries(schemaFiles())) {
    it(`${name} is up to date (run npm run schemas)`, () => {
      expect(readFileSync(path.resolve(import.meta.dirname, "../../schemas", name), "utf8")).toBe(text);
    });
  }
});
