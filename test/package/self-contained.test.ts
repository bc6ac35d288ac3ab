/**
 * A clone stands alone: no file the repository holds reaches outside it. A
 * path to a folder beside the clone (../shared, the developers' machine layout)
 * works on our CI and nowhere else, so any such reference fails here, naming
 * the file and line. The vendored data it should use instead is read through
 * src/bench/taxonomy-data.ts.
 */
import { execFileSync } from "node:child_process";
import { readFileSync } from "node:fs";
import path from "node:path";
import { describe, expect, it } from "vitest";
import { readTaxonomy, taxonomyFile } from "../../src/bench/taxonomy-data.js";
import { repoRoot } from "../helpers/paths.js";

/** Ways a path can leave the repository: the folder beside it, or this machine's layout. */
const OUTSIDE = [/\.\.\/shared\b/, /\bshared\/(?:data|api)\b/, /\/work\/(?:main|shared)\b/];
const THIS_FILE = "test/package/self-contained.test.ts";

describe("a clone stands alone", () => {
  it("no tracked file points outside the repository", () => {
    const files = execFileSync("git", ["ls-files", "-z"], { cwd: repoRoot, encoding: "utf8" }).split("\0").filter(Boolean);
    expect(files.length).toBeGreaterThan(100);
    const found: string[] = [];
    for (const file of files) {
      if (file === THIS_FILE || file.endsWith(".gz") || file.endsWith(".png") || file === "package-lock.json") continue;
      const text = readFileSync(path.join(repoRoot, file), "utf8");
      text.split("\n").forEach((line, i) => {
        if (OUTSIDE.some((re) => re.test(line))) found.push(`${file}:${i + 1}: ${line.trim()}`);
      });
    }
    expect(found).toEqual([]);
  });

  it("the vendored taxonomy is in the repository, whole, with its license", () => {
    const vendored = path.join(repoRoot, "test", "data", "shopify-taxonomy", "taxonomy.json.gz");
    if (!process.env.PIMCTL_TAXONOMY) expect(taxonomyFile()).toBe(vendored);
    const doc = readTaxonomy<{ version: string; locales: string[]; attributes: unknown[]; categories: unknown[] }>(vendored);
    expect(doc.version).toBe("2025-08-unstable");
    expect(doc.locales).toEqual(["en", "fr", "de", "es"]);
    expect(doc.attributes).toHaveLength(2299);
    expect(readFileSync(path.join(repoRoot, "test/data/shopify-taxonomy/LICENSE"), "utf8")).toContain("Copyright (c) Shopify");
  });
});
