/**
 * The lexing of single manifest lines for the entry scan (entry-scan.ts):
 * plain `key: value` lines are read in place by character code (LineLexer),
 * anything else (quotes, flow collections, block scalars, comments) by a
 * careful lexer of the line (lexLine) that gives up (Unsafe) wherever one
 * line cannot be read on its own: the file is then parsed whole.
 */

export class Unsafe extends Error {}
export const unsafe = (): never => {
  throw new Unsafe();
};

/** Characters that start a node the scan does not follow (anchor, alias, tag, reserved, directive). */
const UNFOLLOWED = new Set(["&", "*", "!", "@", "`", "%"]);

export interface Lexed {
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

/** A line whose key or item starts with a quote (at column col, after the dashes). */
function lexQuoted(s: string, dashes: number[], col: number): Lexed {
  const ch = s[0];
  const end = quoteEnd(s, 0);
  if (end === -1) unsafe();
  let j = end;
  while (s[j] === " ") j++;
  if (s[j] === ":" && (s[j + 1] === " " || j + 1 === s.length)) {
    const raw = s.slice(0, end);
    const key = ch === "'" ? raw.slice(1, -1).replace(/''/g, "'") : raw.slice(1, -1);
    let k = j + 1;
    while (s[k] === " ") k++;
    return { dashes, key, keyCol: col, keyUnsure: (ch === '"' && key.includes("\\")) || key.includes("${"), ...lexValue(s.slice(k)) };
  }
  if (!restIsComment(s, end)) unsafe();
  return { dashes, keyCol: col, keyUnsure: false, value: s.slice(0, end), block: false };
}

/** Where a plain key ends: the first `: ` (or `:` at the end); -1 when a ` #` comment starts first, or there is none. */
function plainKeyEnd(s: string): number {
  for (let j = 0; j < s.length; j++) {
    if (s[j] === "#" && s[j - 1] === " ") return -1;
    if (s[j] === ":" && (s[j + 1] === " " || j + 1 === s.length)) return j;
  }
  return -1;
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
  if (ch === '"' || ch === "'") return lexQuoted(s, dashes, i);
  if (ch === undefined || ch === "#" || ch === "[" || ch === "{" || ch === "|" || ch === ">" || UNFOLLOWED.has(ch) || ch === "?")
    return { dashes, keyCol: i, keyUnsure: false, ...lexValue(s) };
  const colon = plainKeyEnd(s);
  if (colon === -1) return { dashes, keyCol: i, keyUnsure: false, value: plainText(s), block: false };
  const key = s.slice(0, colon).replace(/ +$/, "");
  if (key === "<<") unsafe();
  let k = colon + 1;
  while (s[k] === " ") k++;
  return { dashes, key, keyCol: i, keyUnsure: key.includes("${"), ...lexValue(s.slice(k)) };
}

/** Plain scalars YAML 1.2 (or 1.1) reads as a number, a boolean or null; wider than either, to be safe. */
const NOT_A_STRING_WORD = /^(~|null|true|false|yes|no|on|off|y|n)$/i;
const NOT_A_STRING_NUMBER = /^[-+]?(0x[0-9a-f_]+|0o[0-7_]+|0b[01_]+|[0-9][0-9_:]*(\.[0-9_]*)?(e[-+]?[0-9]+)?|\.[0-9_]+(e[-+]?[0-9]+)?|\.inf|\.nan)$/i;

/** A scalar's text as YAML reads it when that is certain and a string; undefined otherwise. */
export function simpleScalar(value: string): string | undefined {
  if (value === "" || value.includes("${")) return undefined;
  const q = value[0];
  if (q === '"') return value.includes("\\") ? undefined : value.slice(1, -1);
  if (q === "'") return value.slice(1, -1).replace(/''/g, "'");
  if (q === "[" || q === "{" || q === "|" || q === ">") return undefined;
  // Plain text YAML may read as something other than a string (a number, true, null, a date): left to the parser.
  if (NOT_A_STRING_WORD.test(value) || NOT_A_STRING_NUMBER.test(value) || /^\d{4}-\d/.test(value)) return undefined;
  return value;
}

/** The first-level keys of a one-line flow mapping (already checked to close on its line), or undefined when one is not certain. */
export function flowKeys(flow: string): string[] | undefined {
  if (flow[0] !== "{" || flow.includes("${") || flow.includes("\\")) return undefined;
  const scan: FlowScan = { keys: [], depth: 0, start: 1 };
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
    if (!flowStep(flow, i, scan)) return undefined;
    if (ch !== " ") scalarStart = ch === "[" || ch === "{" || ch === "," || ch === ":";
  }
  return scan.keys;
}

/** flowKeys' state: the keys so far, the nesting depth, and where the current first-level key starts (-1 once its `:` was seen). */
interface FlowScan {
  keys: string[];
  depth: number;
  start: number;
}

/** One character outside quotes: nesting, a first-level key's `:`, a `,`; false when a key is not certain. */
function flowStep(flow: string, i: number, scan: FlowScan): boolean {
  const ch = flow[i]!;
  if (ch === "{" || ch === "[") scan.depth++;
  else if (ch === "}" || ch === "]") {
    if (scan.depth === 1 && scan.start >= 0 && flow.slice(scan.start, i).trim() !== "") return false;
    scan.depth--;
  } else if (scan.depth === 1 && ch === ":" && scan.start >= 0 && /[ ,{[}\]]/.test(flow[i + 1] ?? " ")) {
    const key = simpleKey(flow.slice(scan.start, i).trim());
    if (key === undefined) return false;
    scan.keys.push(key);
    scan.start = -1;
  } else if (scan.depth === 1 && ch === ",") {
    if (scan.start >= 0 && flow.slice(scan.start, i).trim() !== "") return false;
    scan.start = i + 1;
  }
  return true;
}

function simpleKey(text: string): string | undefined {
  if (text === "") return undefined;
  if (text[0] === '"') return text.endsWith('"') && text.length > 1 ? text.slice(1, -1) : undefined;
  if (text[0] === "'") return text.endsWith("'") && text.length > 1 ? text.slice(1, -1).replace(/''/g, "'") : undefined;
  return text;
}

export const SPACE = 32;
export const DASH = 45;
export const HASH = 35;
const COLON = 58;
/** First characters of a key or value the fast path leaves to lexLine: quotes, flows, block scalars, anchors, tags, ... */
const SLOW_START = new Uint8Array(128);
for (const ch of "\"'[]{},|>&*!@`%?-#") SLOW_START[ch.charCodeAt(0)] = 1;

/** One line, as the entry scan needs it. Reused from line to line (the scan makes no object per line). */
export interface LineFacts {
  /** Columns of the `- ` indicators: the first `dashCount`. */
  dashes: Int32Array;
  dashCount: number;
  key: string | undefined;
  keyCol: number;
  keyUnsure: boolean;
  /** Nothing after the key (or the dashes) but a comment: a nested block follows. */
  empty: boolean;
  /** The value is a flow collection. */
  flow: boolean;
  block: boolean;
  /** The value's text (comment and trailing spaces removed). */
  value: () => string;
}

/** Lexes lines of one text into LineFacts: plain lines without a copy of the line, the rest through lexLine. */
export class LineLexer {
  private readonly facts: LineFacts = {
    dashes: new Int32Array(64),
    dashCount: 0,
    key: undefined,
    keyCol: 0,
    keyUnsure: false,
    empty: false,
    flow: false,
    block: false,
    value: () => "",
  };
  private valueStart = 0;
  private lineEnd = 0;
  private slowValue: string | undefined;

  constructor(private readonly text: string) {
    // A plain value's text is found only when asked for (a name): most values are never looked at.
    this.facts.value = () => {
      if (this.slowValue !== undefined) return this.slowValue;
      const t = this.text;
      let e = Math.min(this.nextComment(this.valueStart), this.lineEnd);
      while (e > this.valueStart && t.charCodeAt(e - 1) === SPACE) e--;
      return t.slice(this.valueStart, e);
    };
  }

  /** Where ` #` next occurs at or after `from` (the text's length if nowhere): searched once for all the lines before it. */
  private nextComment(from: number): number {
    if (this.commentAt >= from && this.commentFrom <= from) return this.commentAt;
    const at = this.text.indexOf(" #", from);
    this.commentAt = at === -1 ? this.text.length : at;
    this.commentFrom = from;
    return this.commentAt;
  }
  private commentAt = -1;
  private commentFrom = 0;

  /** The line from `start` (its first non-space at `at`) to `end`. */
  lex(start: number, at: number, end: number): LineFacts {
    const t = this.text;
    const f = this.facts;
    f.dashCount = 0;
    let i = at;
    while (t.charCodeAt(i) === DASH && (i + 1 === end || t.charCodeAt(i + 1) === SPACE)) {
      if (f.dashCount === f.dashes.length) unsafe();
      f.dashes[f.dashCount++] = i - start;
      i++;
      while (t.charCodeAt(i) === SPACE) i++;
    }
    f.key = undefined;
    f.keyUnsure = f.empty = f.flow = f.block = false;
    f.keyCol = i - start;
    this.slowValue = undefined;
    this.valueStart = i;
    this.lineEnd = end;
    if (i === end) {
      f.empty = true;
      return f;
    }
    if (SLOW_START[t.charCodeAt(i)]) return this.lexSlow(start, at, end);
    // A plain key ends at the first `: ` (or `:` at the end); a ` #` before it starts a comment.
    let colon = i;
    for (; colon < end; colon++) if (t.charCodeAt(colon) === COLON && (colon + 1 === end || t.charCodeAt(colon + 1) === SPACE)) break;
    if (colon === end || this.nextComment(i) < colon) return f;
    let keyEnd = colon;
    while (t.charCodeAt(keyEnd - 1) === SPACE) keyEnd--;
    f.key = t.slice(i, keyEnd);
    if (f.key === "<<") unsafe();
    f.keyUnsure = f.key.includes("${");
    let v = colon + 1;
    while (t.charCodeAt(v) === SPACE) v++;
    if (v === end || t.charCodeAt(v) === HASH) {
      f.empty = true;
      return f;
    }
    if (SLOW_START[t.charCodeAt(v)]) return this.lexSlow(start, at, end);
    this.valueStart = v;
    return f;
  }

  private lexSlow(start: number, at: number, end: number): LineFacts {
    const lexed = lexLine(this.text.slice(start, end), at - start);
    const f = this.facts;
    f.dashCount = 0;
    for (const d of lexed.dashes) f.dashes[f.dashCount++] = d;
    f.key = lexed.key;
    f.keyCol = lexed.keyCol;
    f.keyUnsure = lexed.keyUnsure;
    f.empty = lexed.value === "" && !lexed.block;
    f.flow = lexed.value[0] === "{" || lexed.value[0] === "[";
    f.block = lexed.block;
    this.slowValue = lexed.value;
    return f;
  }
}
