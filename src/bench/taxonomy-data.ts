/**
 * The one reader of the vendored Shopify taxonomy (test/data/shopify-taxonomy,
 * gzip; see its README for origin, release and license). Tests, examples and
 * benchmarks read it through here, so a clone needs nothing beside it.
 * $PIMCTL_TAXONOMY points at another copy (plain JSON or .gz).
 */
import { readFileSync } from "node:fs";
import { gunzipSync } from "node:zlib";
import { packagePath } from "../package.js";

/** Where the taxonomy is read from: $PIMCTL_TAXONOMY, or the copy in the repository. */
export function taxonomyFile(): string {
  return process.env.PIMCTL_TAXONOMY ?? packagePath("test", "data", "shopify-taxonomy", "taxonomy.json.gz");
}

const parsed = new Map<string, unknown>();

/**
 * The taxonomy's JSON, parsed once per file and process (the same object on
 * every call: callers read it, never change it). A missing file says where it
 * was looked for.
 */
export function readTaxonomy<T = unknown>(file: string = taxonomyFile()): T {
  let doc = parsed.get(file);
  if (doc === undefined) {
    let bytes: Buffer;
    try {
      bytes = readFileSync(file);
    } catch (err) {
      throw new Error(
        `the Shopify taxonomy is not at ${file} (${(err as NodeJS.ErrnoException).code ?? String(err)}): it is part of the repository; set ` +
          `PIMCTL_TAXONOMY to use another copy`,
      );
    }
    // gzip's magic bytes, so that $PIMCTL_TAXONOMY may name either form.
    const text = (bytes[0] === 0x1f && bytes[1] === 0x8b ? gunzipSync(bytes) : bytes).toString("utf8");
    doc = JSON.parse(text) as unknown;
    parsed.set(file, doc);
  }
  return doc as T;
}
