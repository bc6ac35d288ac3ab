/**
 * A fast path for the plain YAML that manifests are made of: block mappings and
 * sequences, single-line plain and quoted scalars, and flat flow collections.
 * It returns undefined for anything else (anchors, tags, block scalars,
 * multi-line scalars, duplicate keys, tabs, directives, ...) and the caller
 * then parses with the `yaml` library, which stays the reference: a
 * differential property test (test/manifest/fast-yaml-differential.test.ts)
 * checks that both agree on data and positions for every input it generates.
 *
 * White space: YAML 1.2 separates with space and tab only. Every other
 * white-space character (NBSP, U+2000-200A, U+3000, VT, FF, NEL, U+2028, ...)
 * is content, kept around and inside scalars and keys, as the `yaml` library
 * keeps it. So this fast path never uses String#trim (which strips all of them):
 * only spaces are trimmed (fast-yaml-scalars.ts). Tabs and U+FEFF send the file to the library.
 *
 * Why: the `yaml` library builds a full document model and reads about
 * 1.5 MB/s here; large catalogues are megabytes of the simplest YAML.
 *
 * Positions: the first parse records only where each sequence item starts
 * (every manifest entry cites its line); the first position of a key or value
 * asked for, which only messages need, parses the text again with every
 * position on (the same text gives the same tree). Recording all of them up
 * front was 40% of the parse and most of what a loaded catalogue held.
 */

import {
  bail,
  doubleQuoted,
  NotInSubset,
  plainScalar,
  quoteEnd,
  SPACE,
  singleQuoted,
  stripComment,
  trimSpaces,
  trimSpacesEnd,
  trimSpacesStart,
} from "./fast-yaml-scalars.js";

/** Offsets of a container's keys and values (maps) or items (sequences). */
export interface Positions {
  keys?: Map<string, { key: number; value: number }>;
  items?: number[];
}

export interface FastResult {
  data: unknown;
  /** Offset of the value at a JSON pointer, or of its key with `#key`; undefined when unknown. */
  offset(pointer: string): number | undefined;
  /** The same for a path of keys and indexes (no pointer to build and split). */
  offsetOf(path: ReadonlyArray<string | number>, key?: boolean): number | undefined;
}

interface Line {
  indent: number;
  /** Offset of the first content character. */
  start: number;
  /** Content without indentation and without a trailing comment or spaces. */
  text: string;
}

/**
 * `substitute` replaces ${variables}; `quiet` is its twin for the second parse
 * that only looks up positions, so a problem it reports is not reported twice.
 */
export function parseFastYaml(
  text: string,
  substitute: (value: string, offset: number) => string,
  quiet: (value: string, offset: number) => string = substitute,
): FastResult | undefined {
  let data: unknown;
  const parser = new FastParser(text, substitute, false);
  try {
    data = parser.parse();
  } catch (e) {
    if (e instanceof NotInSubset) return undefined;
    throw e;
  }
  let located: FastParser | undefined;
  const offsetOf = (path: ReadonlyArray<string | number>, key: boolean): number | undefined => {
    const item = key ? undefined : parser.itemOffset(path);
    if (item !== undefined) return item;
    if (!located) {
      located = new FastParser(text, quiet, true);
      located.parse();
    }
    return located.offsetOf(path, key);
  };
  return {
    data,
    offset: (p) => {
      const wantKey = p.endsWith("#key");
      const ptr = wantKey ? p.slice(0, -4) : p;
      const segments =
        ptr === ""
          ? []
          : ptr
              .slice(1)
              .split("/")
              .map((x) => x.replace(/~1/g, "/").replace(/~0/g, "~"));
      return offsetOf(segments, wantKey);
    },
    offsetOf: (path, key = false) => offsetOf(path, key),
  };
}

class FastParser {
  private readonly lines: Line[] = [];
  private i = 0;
  /** Sequence items always; keys and values only when tracking (the second parse). */
  private readonly positions = new WeakMap<object, Positions>();
  private data: unknown = null;
  private rootOffset = 0;

  constructor(
    private readonly source: string,
    private readonly substitute: (value: string, offset: number) => string,
    private readonly track: boolean,
  ) {}

  parse(): unknown {
    this.split();
    if (this.lines.length) {
      const first = this.lines[0]!;
      if (first.indent !== 0) bail();
      this.rootOffset = first.start;
      this.data = this.block(0);
      if (this.i < this.lines.length) bail();
    }
    return this.data;
  }

  private split(): void {
    const src = this.source;
    if (src.includes("\t")) bail();
    // CRLF line ends (a Windows checkout) are read as LF; a CR anywhere else is content the library reads its own way.
    const crlf = src.includes("\r");
    if (crlf && /\r(?!\n)/.test(src)) bail();
    // A byte order mark: the library reads one at the start its own way ("\ufeff- a" is an error, "\ufeff a: 1" a
    // mapping), and one inside as content. The loader strips the one at the start of a file before parsing.
    if (src.includes("\ufeff")) bail();
    // Walks the text by offsets: no array of every line, no copy of blank or comment lines.
    for (let lineStart = 0; lineStart <= src.length;) {
      let end = src.indexOf("\n", lineStart);
      if (end === -1) end = src.length;
      const stop = crlf && src.charCodeAt(end - 1) === 13 ? end - 1 : end;
      let at = lineStart;
      while (at < stop && src.charCodeAt(at) === SPACE) at++;
      const first = src.charCodeAt(at);
      if (at < stop && first !== 35) {
        if (first === 37 || ((first === 45 || first === 46) && /^(---|\.\.\.)(\s|$)/.test(src.slice(at, at + 4)))) bail();
        this.lines.push({ indent: at - lineStart, start: at, text: stripComment(src.slice(at, stop)) });
      }
      lineStart = end + 1;
    }
  }

  private isSeqLine(l: Line): boolean {
    return l.text === "-" || l.text.startsWith("- ");
  }

  /** A block node whose first line is lines[i], at `indent`. */
  private block(indent: number): unknown {
    const l = this.lines[this.i]!;
    if (l.indent !== indent) bail();
    if (this.isSeqLine(l)) return this.seq(indent);
    if (this.keyEnd(l.text) !== undefined) return this.map(indent);
    bail();
  }

  /** Index just after a mapping key's ":" (the key is l.text[0..end-1]), or undefined. */
  private keyEnd(s: string): number | undefined {
    if (s[0] === '"' || s[0] === "'") {
      const end = quoteEnd(s, 0);
      return s[end] === ":" && (end + 1 === s.length || s[end + 1] === " ") ? end + 1 : undefined;
    }
    if (s[0] === "[" || s[0] === "{") return undefined;
    const m = s.search(/:( |$)/);
    return m === -1 ? undefined : m + 1;
  }

  private keyOf(raw: string, offset: number): string {
    let key: string;
    if (raw.startsWith('"')) key = doubleQuoted(raw);
    else if (raw.startsWith("'")) key = singleQuoted(raw);
    else {
      const v = plainScalar(raw, false);
      if (typeof v !== "string") bail();
      key = v as string;
    }
    return key.includes("${") ? this.substitute(key, offset) : key;
  }

  private map(indent: number): Record<string, unknown> {
    const out: Record<string, unknown> = {};
    const keys = this.track ? new Map<string, { key: number; value: number }>() : undefined;
    if (keys) this.positions.set(out, { keys });
    while (this.i < this.lines.length) {
      const l = this.lines[this.i]!;
      if (l.indent < indent) break;
      if (l.indent > indent || this.isSeqLine(l)) bail();
      const end = this.keyEnd(l.text);
      if (end === undefined) bail();
      const key = this.keyOf(trimSpacesEnd(l.text.slice(0, end! - 1)), l.start);
      if (Object.hasOwn(out, key) || key === "__proto__") bail();
      let rest = l.text.slice(end!);
      const lead = rest.length - trimSpacesStart(rest).length;
      rest = rest.slice(lead);
      this.i++;
      if (rest === "") {
        const next = this.lines[this.i];
        if (next && next.indent > indent) {
          keys?.set(key, { key: l.start, value: next.start });
          out[key] = this.block(next.indent);
        } else if (next && next.indent === indent && this.isSeqLine(next)) {
          keys?.set(key, { key: l.start, value: next.start });
          out[key] = this.seq(indent);
        } else {
          keys?.set(key, { key: l.start, value: l.start });
          out[key] = null;
        }
      } else {
        const valueOffset = l.start + end! + lead;
        keys?.set(key, { key: l.start, value: valueOffset });
        out[key] = this.inline(rest, valueOffset);
        this.noContinuation(indent);
      }
    }
    return out;
  }

  private seq(indent: number): unknown[] {
    const out: unknown[] = [];
    const items: number[] = [];
    this.positions.set(out, { items });
    while (this.i < this.lines.length) {
      const l = this.lines[this.i]!;
      if (l.indent < indent || (l.indent === indent && !this.isSeqLine(l))) break;
      if (l.indent > indent) bail();
      const rest = l.text.slice(1);
      const content = trimSpacesStart(rest);
      if (content === "") {
        this.i++;
        const next = this.lines[this.i];
        if (next && next.indent > indent) {
          items.push(next.start);
          out.push(this.block(next.indent));
        } else {
          items.push(l.start);
          out.push(null);
        }
        continue;
      }
      const column = l.indent + 1 + (rest.length - content.length);
      const offset = l.start + 1 + (rest.length - content.length);
      if (this.isSeqLine({ indent: column, start: offset, text: content }) || this.keyEnd(content) !== undefined) {
        // The item is a block node starting mid-line: treat the rest of the line as its first line.
        this.lines[this.i] = { indent: column, start: offset, text: content };
        items.push(offset);
        out.push(this.block(column));
      } else {
        this.i++;
        items.push(offset);
        out.push(this.inline(content, offset));
        this.noContinuation(indent);
      }
    }
    return out;
  }

  /** A scalar spanning lines (indented further than its parent) is left to the full parser. */
  private noContinuation(indent: number): void {
    const next = this.lines[this.i];
    if (next && next.indent > indent) bail();
  }

  private inline(s: string, offset: number): unknown {
    const c = s[0];
    if (c === "[" || c === "{") return this.flow(s, offset);
    if (c === '"' || c === "'") {
      if (quoteEnd(s, 0) !== s.length) bail();
      const v = c === '"' ? doubleQuoted(s) : singleQuoted(s);
      return v.includes("${") ? this.substitute(v, offset) : v;
    }
    if (c === "|" || c === ">" || c === "&" || c === "*" || c === "!") bail();
    const v = plainScalar(s, false);
    return typeof v === "string" && v.includes("${") ? this.substitute(v, offset) : v;
  }

  /** A flow sequence or mapping of scalars on one line. */
  private flow(s: string, offset: number): unknown {
    const open = s[0]!;
    const close = open === "[" ? "]" : "}";
    if (s[s.length - 1] !== close) bail();
    const parts: Array<{ text: string; at: number }> = [];
    let i = 1;
    let start = 1;
    while (i < s.length - 1) {
      const ch = s[i]!;
      if (ch === '"' || ch === "'") {
        i = quoteEnd(s, i);
        continue;
      }
      if (ch === "[" || ch === "]" || ch === "{" || ch === "}") bail();
      if (ch === ",") {
        parts.push({ text: s.slice(start, i), at: start });
        start = i + 1;
      }
      i++;
    }
    parts.push({ text: s.slice(start, s.length - 1), at: start });
    const items = parts
      .map((p) => ({ text: trimSpaces(p.text), at: offset + p.at + (p.text.length - trimSpacesStart(p.text).length) }))
      .filter((p, k, all) => p.text !== "" || (k !== all.length - 1 && bail()));
    const scalar = (t: string, at: number): unknown => {
      if (t[0] === '"' || t[0] === "'") {
        if (quoteEnd(t, 0) !== t.length) bail();
        const v = t[0] === '"' ? doubleQuoted(t) : singleQuoted(t);
        return v.includes("${") ? this.substitute(v, at) : v;
      }
      const v = plainScalar(t, true);
      return typeof v === "string" && v.includes("${") ? this.substitute(v, at) : v;
    };
    if (open === "[") {
      const out = items.map((p) => scalar(p.text, p.at));
      this.positions.set(out, { items: items.map((p) => p.at) });
      return out;
    }
    const out: Record<string, unknown> = {};
    const keys = this.track ? new Map<string, { key: number; value: number }>() : undefined;
    if (keys) this.positions.set(out, { keys });
    for (const p of items) {
      const end = this.keyEnd(p.text);
      if (end === undefined) bail();
      const key = this.keyOf(trimSpacesEnd(p.text.slice(0, end! - 1)), p.at);
      if (Object.hasOwn(out, key) || key === "__proto__") bail();
      const raw = p.text.slice(end!);
      const value = trimSpaces(raw);
      const valueAt = p.at + end! + (raw.length - trimSpacesStart(raw).length);
      keys?.set(key, { key: p.at, value: valueAt });
      out[key] = scalar(value, valueAt);
    }
    return out;
  }

  /**
   * Where the sequence item at the end of `path` starts, from what every parse
   * records; undefined when the path does not end on an item (ask offsetOf).
   */
  itemOffset(path: ReadonlyArray<string | number>): number | undefined {
    let node: unknown = this.data;
    let at: number | undefined;
    for (const segment of path) {
      if (node === null || typeof node !== "object") return undefined;
      if (Array.isArray(node)) {
        at = this.positions.get(node)?.items?.[Number(segment)];
        if (at === undefined) return undefined;
        node = node[Number(segment)];
      } else {
        if (!Object.hasOwn(node, segment)) return undefined;
        at = undefined;
        node = (node as Record<string, unknown>)[String(segment)];
      }
    }
    return at;
  }

  offsetOf(segments: ReadonlyArray<string | number>, wantKey: boolean): number | undefined {
    let node: unknown = this.data;
    let best: number | undefined = this.rootOffset;
    for (let k = 0; k < segments.length; k++) {
      if (node === null || typeof node !== "object") break;
      const pos = this.positions.get(node);
      const segment = segments[k]!;
      if (Array.isArray(node)) {
        const at = pos?.items?.[Number(segment)];
        if (at === undefined) break;
        best = at;
        node = node[Number(segment)];
      } else {
        const entry = pos?.keys?.get(String(segment));
        if (!entry) break;
        best = k === segments.length - 1 && wantKey ? entry.key : entry.value;
        node = (node as Record<string, unknown>)[String(segment)];
      }
    }
    return best;
  }
}
