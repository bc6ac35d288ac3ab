/**
 * What a manifest directory manages, from the files' text alone, without a
 * YAML parse: the kinds (top-level keys) and the language version names
 * (keys under `versions:`, in the first 64 KB of each file). The tenant reads that depend only on these
 * (channels, the lists, the attribute list of each version) start while the
 * manifests are parsed. It finds the files as loadManifests does.
 *
 * Both are hints. A kind or version the scan misses only starts its reads
 * later, once the manifests are loaded. It never invents a kind (a block key
 * at column 0 is a top-level key in YAML); a version name it finds is read
 * early only when a channel publishes it, so a wrong guess costs at most one
 * list the plan then ignores.
 */
import { readFile } from "node:fs/promises";
import { manifestFiles } from "./files.js";
import { KINDS, type Kind } from "../model/catalogue.js";

const VERSIONS = /^( *)(- +)?versions:[ \t]*([^\n]*)$/gm;
const BLOCK_KEY = /^( *)("[^"\n]*"|'[^'\n]*'|[^\s#'"{[][^:#\n]*?):(?:[ \t\r]|$)/;

function unquote(key: string): string {
  const k = key.trim();
  return (k.startsWith('"') && k.endsWith('"')) || (k.startsWith("'") && k.endsWith("'")) ? k.slice(1, -1) : k;
}

/** The keys of a one-line flow mapping (`{ French: Rouge, German: { name: Rot } }`), at its first level. */
function flowKeys(text: string, out: Set<string>): void {
  let depth = 0;
  let start = 1;
  let quote = "";
  for (let i = 0; i < text.length; i++) {
    const ch = text[i]!;
    if (quote) {
      if (ch === quote) quote = "";
      continue;
    }
    if (ch === '"' || ch === "'") quote = ch;
    else if (ch === "{" || ch === "[") depth++;
    else if (ch === "}" || ch === "]") depth--;
    else if (ch === ":" && depth === 1 && start >= 0) {
      const key = unquote(text.slice(start, i));
      if (key) out.add(key);
      start = -1;
    } else if (ch === "," && depth === 1) start = i + 1;
  }
}

/** The language version names written under `versions:` keys. */
export function scanVersionNames(text: string, out = new Set<string>()): Set<string> {
  for (const m of text.matchAll(VERSIONS)) {
    const rest = m[3]!.trim();
    if (rest.startsWith("{")) {
      flowKeys(rest, out);
      continue;
    }
    if (rest !== "" && !rest.startsWith("#")) continue;
    // A block mapping: the keys at the indentation of the first line below.
    const column = m[1]!.length + (m[2]?.length ?? 0);
    let childIndent = -1;
    let at = m.index! + m[0].length + 1;
    while (at < text.length) {
      const end = text.indexOf("\n", at);
      const line = text.slice(at, end === -1 ? text.length : end);
      at = end === -1 ? text.length : end + 1;
      const trimmed = line.trimStart();
      if (trimmed === "" || trimmed.startsWith("#")) continue;
      const indent = line.length - trimmed.length;
      if (indent <= column) break;
      if (childIndent === -1) childIndent = indent;
      if (indent < childIndent) break;
      if (indent > childIndent) continue;
      const key = BLOCK_KEY.exec(line);
      if (key) out.add(unquote(key[2]!));
    }
  }
  return out;
}

export interface ManifestScan {
  /** Managed kinds, in KINDS order. */
  kinds: Kind[];
  /** Language version names the manifests write, sorted: a second pass, run when asked (after the first reads start). */
  versions: () => string[];
  /** The files' size in bytes, all together. */
  bytes: number;
}

/**
 * The kinds a file declares at column 0: a walk from line start to line start over the bytes
 * read as Latin-1 (no UTF-8 decoding of ten taxonomies' worth of text: a kind's name is ASCII,
 * and the bytes of other characters read as characters no kind contains). A regular
 * expression over every line took three times as long.
 */
function topLevelKinds(bytes: Buffer, found: Set<string>): void {
  const text = bytes.toString("latin1");
  for (let at = text.startsWith("\u00ef\u00bb\u00bf") ? 3 : 0; at < text.length;) {
    const first = text.charCodeAt(at);
    // Every kind starts with a lower-case letter: other lines are skipped at their first character.
    if (first >= 97 && first <= 122) {
      const m = TOP_LEVEL.exec(text.slice(at, at + LONGEST_KEY));
      if (m) found.add(m[1]!);
    }
    const end = text.indexOf("\n", at);
    if (end === -1) break;
    at = end + 1;
  }
}

const TOP_LEVEL = new RegExp(`^(${KINDS.join("|")})[ \\t]*:`);
/** A kind's name and the blanks before its colon: enough of a line to match TOP_LEVEL. */
const LONGEST_KEY = Math.max(...KINDS.map((k) => k.length)) + 80;

/**
 * How much of each file the version-name scan reads: names are a hint (a version the scan
 * misses is read once the manifests are loaded), and the versions a catalogue writes show in
 * its first entries; a whole scan of ten taxonomies' worth of files took 0.2 s of the load's thread.
 */
const VERSION_SCAN_BYTES = 64 * 1024;

/** The managed kinds and version names; undefined when the directory cannot be read (the full load reports why). */
export async function scanManifests(dir: string): Promise<ManifestScan | undefined> {
  try {
    const found = new Set<string>();
    const files = await Promise.all((await manifestFiles(dir)).files.map((f) => readFile(f)));
    for (const bytes of files) topLevelKinds(bytes, found);
    return {
      kinds: KINDS.filter((k) => found.has(k)),
      bytes: files.reduce((n, b) => n + b.length, 0),
      versions: () => {
        const names = new Set<string>();
        for (const bytes of files) {
          // Whole lines only: a cut in the middle of a character or a key would read as another name.
          const end = bytes.length > VERSION_SCAN_BYTES ? bytes.lastIndexOf(0x0a, VERSION_SCAN_BYTES) + 1 : bytes.length;
          const head = bytes.toString("utf8", 0, end).replace(/^\ufeff/, "");
          if (head.includes("versions:")) scanVersionNames(head, names);
        }
        return [...names].sort();
      },
    };
  } catch {
    return undefined;
  }
}
