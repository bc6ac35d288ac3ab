/**
 * A manifest file's entries found by line, without a YAML parse: a targeted
 * plan (src/workflows/targeted-load.ts) parses only the entries it may need.
 * An entry is the lines of one `- ` item of a top-level kind's sequence.
 *
 * For each entry the scan reads what decides whether it can be left unparsed:
 * its name (`slug:` for blocks) when written as a simple one-line scalar, the
 * language version names it writes (a plan reads every version the manifests
 * name), and whether it says `previous_` anywhere (a rename ties it to other
 * records). Whatever it cannot read for certain is left undefined, and the
 * entry is then parsed: a needless parse costs time, a missed record would be
 * a wrong plan.
 *
 * Where splitting by line is not safe the file is not split at all (undefined:
 * the caller parses it whole): tabs, carriage returns, anchors, aliases, tags,
 * merge keys, explicit keys, directives and document markers, a quoted scalar
 * or flow collection that goes on over several lines, a top-level key that is
 * not a kind (or comes twice), a kind whose value is not a block sequence.
 */
import { KINDS, type Kind } from "../model/catalogue.js";

export interface ScannedEntry {
  kind: Kind;
  /** Its lines, 0-based, end excluded. */
  start: number;
  end: number;
  /** The name (slug), or undefined when the text alone cannot tell it. */
  name?: string;
  /** The version names it writes, or undefined when the text alone cannot tell them. */
  versions?: string[];
  /** It says `previous_` (a rename or a move): always parsed. */
  previous: boolean;
}

export interface ScannedFile {
  lines: string[];
  /** The kinds the file declares (its top-level keys), with the line of each key. */
  kinds: Map<Kind, number>;
  entries: ScannedEntry[];
}

class Unsafe extends Error {}
const unsafe = (): never => {
  throw new Unsafe();
};

const KIND_SET: ReadonlySet<string> = new Set(KINDS);
/** Characters that start a node the scan does not follow (anchor, alias, tag, reserved, directive). */
const UNFOLLOWED = new Set(["&", "*", "!", "@", "`", "%"]);

interface Lexed {
  /** Columns of the `- ` indicators. */
  dashes: number[];
  /** A key and its column, or none (a scalar item, or a line that continues a plain scalar). */
  key?: string;
  keyCol: number;
  /** The key is quoted with escapes, or holds ${: its text is not certain. */
  keyUnsure: boolean;
  /** What follows the key (or the dashes), comment and trailing spaces removed. */
  value: string;
  block: boolean;
}

/** The end of a quoted scalar starting at `i` on this line (index past the closing quote), or -1. */
function quoteEnd(s: string, i: number): number {
  const q = s[i];
  for (let j = i + 1; j < s.length; j++) {
    const ch = s[j];
    if (q === '"' && ch === "\\") j++;
    else if (ch === q) {
      if (q === "'" && s[j + 1] === "'") j++;
      else return j + 1;
    }
  }
  return -1;
}

/** The end of a flow collection starting at `i`, closed on this line, or unsafe. */
function flowEnd(s: string, i: number): number {
  let depth = 0;
  let scalarStart = true;
  for (let j = i; j < s.length; j++) {
    const ch = s[j]!;
    if ((ch === '"' || ch === "'") && scalarStart) {
      const end = quoteEnd(s, j);
      if (end === -1) unsafe();
      j = end - 1;
      scalarStart = false;
      continue;
    }
    if (ch === "#" && s[j - 1] === " ") unsafe();
    if (UNFOLLOWED.has(ch) && scalarStart) unsafe();
    if (ch === "[" || ch === "{") depth++;
    else if (ch === "]" || ch === "}") {
      depth--;
      if (depth === 0) return j + 1;
    }
    if (ch === " ") continue;
    scalarStart = ch === "[" || ch === "{" || ch === "," || ch === ":";
  }
  return unsafe();
}

/** What follows a value that ends at `i`: only spaces and a comment. */
function restIsComment(s: string, i: number): boolean {
  let j = i;
  while (s[j] === " ") j++;
  return j === s.length || s[j] === "#";
}

/** A plain scalar's text: up to a comment, trailing spaces removed; unsafe where it would hold `: `. */
function plainText(s: string): string {
  const hash = s.indexOf(" #");
  const text = (hash === -1 ? s : s.slice(0, hash)).replace(/ +$/, "");
  if (text.includes(": ") || text.endsWith(":")) unsafe();
  return text;
}

/** One value (after a key, or an item's): its text for the scan, and whether a block scalar starts. */
function lexValue(s: string): { value: string; block: boolean } {
  const ch = s[0];
  if (ch === undefined || ch === "#") return { value: "", block: false };
  if (UNFOLLOWED.has(ch) || (ch === "?" && (s[1] === " " || s.length === 1)) || (ch === "-" && (s[1] === " " || s.length === 1))) unsafe();
  if (ch === "|" || ch === ">") {
    if (!/^[|>][-+0-9]*( +#.*)? *$/.test(s)) unsafe();
    return { value: s, block: true };
  }
  if (ch === '"' || ch === "'") {
    const end = quoteEnd(s, 0);
    if (end === -1 || !restIsComment(s, end)) unsafe();
    return { value: s.slice(0, end), block: false };
  }
  if (ch === "[" || ch === "{") {
    const end = flowEnd(s, 0);
    if (!restIsComment(s, end)) unsafe();
    return { value: s.slice(0, end), block: false };
  }
  return { value: plainText(s), block: false };
}

function lexLine(line: string, indent: number): Lexed {
  const dashes: number[] = [];
  let i = indent;
  while (line[i] === "-" && (line[i + 1] === " " || i + 1 === line.length)) {
    dashes.push(i);
    i++;
    while (line[i] === " ") i++;
  }
  const s = line.slice(i);
  const ch = s[0];
  // A quoted key, or a quoted scalar item.
  if (ch === '"' || ch === "'") {
    const end = quoteEnd(s, 0);
    if (end === -1) unsafe();
    let j = end;
    while (s[j] === " ") j++;
    if (s[j] === ":" && (s[j + 1] === " " || j + 1 === s.length)) {
      const raw = s.slice(0, end);
      const key = ch === "'" ? raw.slice(1, -1).replace(/''/g, "'") : raw.slice(1, -1);
      let k = j + 1;
      while (s[k] === " ") k++;
      return { dashes, key, keyCol: i, keyUnsure: (ch === '"' && key.includes("\\")) || key.includes("${"), ...lexValue(s.slice(k)) };
    }
    if (!restIsComment(s, end)) unsafe();
    return { dashes, keyCol: i, keyUnsure: false, value: s.slice(0, end), block: false };
  }
  if (ch === undefined || ch === "#" || ch === "[" || ch === "{" || ch === "|" || ch === ">" || UNFOLLOWED.has(ch) || ch === "?")
    return { dashes, keyCol: i, keyUnsure: false, ...lexValue(s) };
  // A plain key ends at the first `: ` (or `:` at the end); a ` #` before it starts a comment.
  let colon = -1;
  for (let j = 0; j < s.length; j++) {
    if (s[j] === "#" && s[j - 1] === " ") break;
    if (s[j] === ":" && (s[j + 1] === " " || j + 1 === s.length)) {
      colon = j;
      break;
    }
  }
  if (colon === -1) return { dashes, keyCol: i, keyUnsure: false, value: plainText(s), block: false };
  const key = s.slice(0, colon).replace(/ +$/, "");
  if (key === "<<") unsafe();
  let k = colon + 1;
  while (s[k] === " ") k++;
  return { dashes, key, keyCol: i, keyUnsure: key.includes("${"), ...lexValue(s.slice(k)) };
}

/** Plain scalars YAML 1.2 (or 1.1) reads as a number, a boolean or null; wider than either, to be safe. */
const NOT_A_STRING =
  /^(~|null|true|false|yes|no|on|off|y|n|[-+]?(0x[0-9a-f_]+|0o[0-7_]+|0b[01_]+|[0-9][0-9_:]*(\.[0-9_]*)?(e[-+]?[0-9]+)?|\.[0-9_]+(e[-+]?[0-9]+)?|\.inf|\.nan))$/i;

/** A scalar's text as YAML reads it when that is certain and a string; undefined otherwise. */
function simpleScalar(value: string): string | undefined {
  if (value === "" || value.includes("${")) return undefined;
  const q = value[0];
  if (q === '"') return value.includes("\\") ? undefined : value.slice(1, -1);
  if (q === "'") return value.slice(1, -1).replace(/''/g, "'");
  if (q === "[" || q === "{" || q === "|" || q === ">") return undefined;
  // Plain text YAML may read as something other than a string (a number, true, null, a date): left to the parser.
  if (NOT_A_STRING.test(value) || /^\d{4}-\d/.test(value)) return undefined;
  return value;
}

/** The first-level keys of a one-line flow mapping (already checked to close on its line), or undefined when one is not certain. */
function flowKeys(flow: string): string[] | undefined {
  if (flow[0] !== "{" || flow.includes("${") || flow.includes("\\")) return undefined;
  const keys: string[] = [];
  let depth = 0;
  /** Where the current first-level key starts, or -1 once its `:` was seen. */
  let start = 1;
  let scalarStart = true;
  for (let i = 0; i < flow.length; i++) {
    const ch = flow[i]!;
    if ((ch === '"' || ch === "'") && scalarStart) {
      const end = quoteEnd(flow, i);
      if (end === -1) return undefined;
      i = end - 1;
      scalarStart = false;
      continue;
    }
    if (ch === "{" || ch === "[") depth++;
    else if (ch === "}" || ch === "]") {
      if (depth === 1 && start >= 0 && flow.slice(start, i).trim() !== "") return undefined;
      depth--;
    } else if (depth === 1 && ch === ":" && start >= 0 && /[ ,{[}\]]/.test(flow[i + 1] ?? " ")) {
      const key = simpleKey(flow.slice(start, i).trim());
      if (key === undefined) return undefined;
      keys.push(key);
      start = -1;
    } else if (depth === 1 && ch === ",") {
      if (start >= 0 && flow.slice(start, i).trim() !== "") return undefined;
      start = i + 1;
    }
    if (ch !== " ") scalarStart = ch === "[" || ch === "{" || ch === "," || ch === ":";
  }
  return keys;
}

function simpleKey(text: string): string | undefined {
  if (text === "") return undefined;
  if (text[0] === '"') return text.endsWith('"') && text.length > 1 ? text.slice(1, -1) : undefined;
  if (text[0] === "'") return text.endsWith("'") && text.length > 1 ? text.slice(1, -1).replace(/''/g, "'") : undefined;
  return text;
}

/** Where in an entry a `versions:` key names language versions (keys of the entry's own mapping, "*" for an item). */
function countsVersions(kind: Kind, parents: readonly string[]): boolean {
  if (kind === "attributes") return parents.length === 0 || (parents.length === 2 && parents[0] === "values" && parents[1] === "*");
  if (kind === "brands") return parents.length === 0 || (parents.length === 2 && parents[0] === "attributes");
  if (kind === "categories") return parents.length % 2 === 0 && parents.every((p, i) => p === (i % 2 === 0 ? "children" : "*"));
  return false;
}

interface Open {
  col: number;
  /** The key, or "*" for a sequence item. */
  key: string;
  /** A `versions:` mapping whose keys are version names. */
  versions?: boolean;
}

/** The facts of one entry's lines (the first holds its `- `); lines inside a block scalar are skipped. */
function scanEntry(kind: Kind, lines: string[], start: number, end: number, seqCol: number): ScannedEntry {
  const entry: ScannedEntry = { kind, start, end, previous: false };
  const nameKey = kind === "blocks" ? "slug" : "name";
  const versions = new Set<string>();
  let versionsSure = true;
  let nameSeen = 0;
  let name: string | undefined;
  let nameCol = -1;
  let afterPlainName = false;
  const stack: Open[] = [];
  let blockAbove = -1;
  for (let n = start; n < end; n++) {
    const line = lines[n]!;
    let indent = 0;
    while (line[indent] === " ") indent++;
    if (indent === line.length) continue;
    if (blockAbove >= 0) {
      if (indent > blockAbove) continue;
      blockAbove = -1;
    }
    // A line below a plain one-line name, indented deeper, may continue it: the name is not certain.
    if (afterPlainName) {
      afterPlainName = false;
      if (indent > nameCol) name = undefined;
    }
    if (line[indent] === "#") continue;
    if (line.includes("previous_")) entry.previous = true;
    const lexed = lexLine(line, indent);
    for (const d of lexed.dashes) {
      while (stack.length && (stack.at(-1)!.col > d || (stack.at(-1)!.col === d && stack.at(-1)!.key === "*"))) stack.pop();
      if (stack.at(-1)?.versions) versionsSure = false;
      stack.push({ col: d, key: "*" });
    }
    if (lexed.block) blockAbove = lexed.key === undefined ? (lexed.dashes.at(-1) ?? indent) : lexed.keyCol;
    if (lexed.key === undefined) {
      if (lexed.value.includes("versions")) versionsSure = false;
      continue;
    }
    while (stack.length && stack.at(-1)!.col >= lexed.keyCol) stack.pop();
    if (lexed.keyUnsure) versionsSure = false;
    const parent = stack.at(-1);
    if (parent?.versions) versions.add(lexed.key);
    const parents = stack.slice(1).map((o) => o.key);
    if (parents.length === 0 && lexed.key === nameKey) {
      nameSeen++;
      name = simpleScalar(lexed.value);
      nameCol = lexed.keyCol;
      afterPlainName = name !== undefined && lexed.value[0] !== '"' && lexed.value[0] !== "'";
    }
    const counted = lexed.key === "versions" && !parent?.versions && countsVersions(kind, parents);
    if (counted && lexed.value !== "") {
      const keys = flowKeys(lexed.value);
      if (keys) for (const k of keys) versions.add(k);
      else versionsSure = false;
    } else if (!counted && lexed.value.includes("versions") && (lexed.value[0] === "{" || lexed.value[0] === "[")) versionsSure = false;
    if (lexed.value === "") stack.push({ col: lexed.keyCol, key: lexed.key, ...(counted ? { versions: true } : {}) });
  }
  if (stack[0]?.col !== seqCol) versionsSure = false;
  if (nameSeen === 1 && name !== undefined) entry.name = name;
  if (versionsSure) entry.versions = [...versions];
  return entry;
}

/** The file's entries by line, or undefined when it must be parsed whole. */
export function scanEntries(text: string): ScannedFile | undefined {
  if (text.includes("\t") || text.includes("\r") || text.includes("\ufeff")) return undefined;
  const lines = text.split("\n");
  const kinds = new Map<Kind, number>();
  const entries: ScannedEntry[] = [];
  try {
    let n = 0;
    const significant = (l: string) => !/^ *(#|$)/.test(l);
    const indentOf = (l: string) => /^ */.exec(l)![0].length;
    while (n < lines.length) {
      const line = lines[n]!;
      if (!significant(line)) {
        n++;
        continue;
      }
      // A top-level key: a kind, once, with a block sequence (or []) as its value.
      const top = /^([a-z_]+):(?: +(\[ *\]))?(?: +#.*)? *$/.exec(line);
      if (!top || !KIND_SET.has(top[1]!) || kinds.has(top[1] as Kind)) return undefined;
      const kind = top[1] as Kind;
      kinds.set(kind, n);
      n++;
      if (top[2]) continue;
      while (n < lines.length && !significant(lines[n]!)) n++;
      const first = lines[n];
      const seqCol = first === undefined ? -1 : indentOf(first);
      if (first === undefined || !/^ *-( |$)/.test(first)) return undefined;
      let entryStart = -1;
      const close = (end: number) => {
        if (entryStart >= 0) entries.push(scanEntry(kind, lines, entryStart, end, seqCol));
      };
      for (; n < lines.length; n++) {
        const l = lines[n]!;
        if (!significant(l)) continue;
        const indent = indentOf(l);
        if (indent > seqCol) continue;
        if (indent === seqCol && l[indent] === "-" && (l[indent + 1] === " " || l.length === indent + 1)) {
          close(n);
          entryStart = n;
          continue;
        }
        if (indent !== 0) return undefined;
        break;
      }
      // Blank and comment lines before the next key belong to the entry above: harmless to parse.
      close(n);
    }
  } catch (e) {
    if (e instanceof Unsafe) return undefined;
    throw e;
  }
  return { lines, kinds, entries };
}
