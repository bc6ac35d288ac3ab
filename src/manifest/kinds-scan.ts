/**
 * The kinds a manifest directory manages, from the files' top-level keys
 * alone: no YAML parse, so the tenant reads that depend only on the kinds
 * (channels, the lists) can start while the manifests are parsed. It finds
 * the files as loadManifests does. A key it misses (a flow-style top-level
 * map) only starts that kind's lists later; it never invents a kind, since a
 * block key at column 0 is a top-level key in YAML.
 */
import { readFile } from "node:fs/promises";
import { manifestFiles } from "./files.js";
import { KINDS, type Kind } from "../model/catalogue.js";

const TOP_LEVEL = new RegExp(`^(${KINDS.join("|")})\\s*:`, "gm");

/** The managed kinds in KINDS order; undefined when the directory cannot be read (the full load reports why). */
export async function scanManagedKinds(dir: string): Promise<Kind[] | undefined> {
  try {
    const found = new Set<string>();
    for (const text of await Promise.all((await manifestFiles(dir)).map((f) => readFile(f, "utf8")))) {
      for (const m of text.matchAll(TOP_LEVEL)) found.add(m[1]!);
    }
    return KINDS.filter((k) => found.has(k));
  } catch {
    return undefined;
  }
}
