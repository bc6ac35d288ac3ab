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
import { DASH, HASH, LineLexer, SPACE, Unsafe, flowKeys, simpleScalar, unsafe, type LineFacts } from "./entry-lex.js";

/** A stretch of whole lines of a file: offsets (end excluded, past its last line break) and 0-based line numbers. */
export interface Segment {
  start: number;
  end: number;
  line: number;
  endLine: number;
}

export interface ScannedEntry extends Segment {
  kind: Kind;
  /** The name (slug), or undefined when the text alone cannot tell it. */
  name?: string;
  /** The version names it writes, or undefined when the text alone cannot tell them. */
  versions?: string[];
  /** It says `previous_` (a rename or a move): always parsed. */
  previous: boolean;
}

export interface ScannedFile {
  text: string;
  /** The kinds the file declares (its top-level keys), with the line of each key. */
  kinds: Map<Kind, Segment>;
  entries: ScannedEntry[];
}

const KIND_SET: ReadonlySet<string> = new Set(KINDS);

/** Where in an entry a `versions:` key names language versions: `keys` are the open keys from the entry's own item ("*" an item). */
function countsVersions(kind: Kind, keys: readonly string[], depth: number): boolean {
  const n = depth - 1;
  const at = (i: number) => keys[i + 1]!;
  if (kind === "attributes") return n === 0 || (n === 2 && at(0) === "values" && at(1) === "*");
  if (kind === "brands") return n === 0 || (n === 2 && at(0) === "attributes");
  if (kind !== "categories" || n % 2 !== 0) return false;
  for (let i = 0; i < n; i++) if (at(i) !== (i % 2 === 0 ? "children" : "*")) return false;
  return true;
}

/** The facts of one entry, gathered line by line. */
class EntryFacts {
  readonly versions = new Set<string>();
  versionsSure = true;
  names = 0;
  name: string | undefined;
  nameCol = -1;
  afterPlainName = false;
  blockAbove = -1;
  readonly cols: number[] = [];
  readonly keys: string[] = [];
  readonly collects: boolean[] = [];
  depth = 0;

  constructor(
    readonly kind: Kind,
    readonly seqCol: number,
  ) {}

  line(f: LineFacts, indent: number): void {
    this.openItems(f);
    if (f.block) this.blockAbove = f.key === undefined ? (f.dashCount ? f.dashes[f.dashCount - 1]! : indent) : f.keyCol;
    if (f.key === undefined) {
      // A flow mapping on the line under an open `versions:` is its value: its keys are not read here.
      if (f.flow && (f.value().includes("versions") || (this.depth > 0 && this.collects[this.depth - 1]))) this.versionsSure = false;
      return;
    }
    while (this.depth && this.cols[this.depth - 1]! >= f.keyCol) this.depth--;
    if (f.keyUnsure) this.versionsSure = false;
    const collecting = this.depth > 0 && this.collects[this.depth - 1]!;
    if (collecting) this.versions.add(f.key);
    if (this.depth === 1 && f.key === (this.kind === "blocks" ? "slug" : "name")) this.readName(f);
    const counted = this.readVersions(f, f.key, collecting);
    if (f.empty) this.push(f.keyCol, f.key, counted);
  }

  /** Each `- ` on the line opens a list item, closing what it ends. */
  private openItems(f: LineFacts): void {
    for (let k = 0; k < f.dashCount; k++) {
      const d = f.dashes[k]!;
      while (this.depth && (this.cols[this.depth - 1]! > d || (this.cols[this.depth - 1] === d && this.keys[this.depth - 1] === "*"))) this.depth--;
      if (this.depth && this.collects[this.depth - 1]) this.versionsSure = false;
      this.push(d, "*", false);
    }
  }

  /** The entry's `name:` (`slug:` for blocks), when its value is a certain string on this line. */
  private readName(f: LineFacts): void {
    this.names++;
    // `name:` with its value on a later line (after a comment, say) is not read here: the entry is loaded.
    const v = f.empty ? "" : f.value();
    this.name = f.empty ? undefined : simpleScalar(v);
    this.nameCol = f.keyCol;
    this.afterPlainName = this.name !== undefined && v[0] !== '"' && v[0] !== "'";
  }

  /** A `versions:` whose keys are the entry's language versions: counted (its flow keys read here); true when it collects the lines below. */
  private readVersions(f: LineFacts, key: string, collecting: boolean): boolean {
    const counted = key === "versions" && !collecting && countsVersions(this.kind, this.keys, this.depth);
    if (counted && !f.empty) {
      const keys = flowKeys(f.value());
      if (keys) for (const k of keys) this.versions.add(k);
      else this.versionsSure = false;
    } else if (!counted && f.flow && f.value().includes("versions")) this.versionsSure = false;
    return counted;
  }

  private push(col: number, key: string, collects: boolean): void {
    this.cols[this.depth] = col;
    this.keys[this.depth] = key;
    this.collects[this.depth] = collects;
    this.depth++;
  }

  entry(start: number, end: number, line: number, endLine: number): ScannedEntry {
    const e: ScannedEntry = { kind: this.kind, start, end, line, endLine, previous: false };
    if (this.names === 1 && this.name !== undefined) e.name = this.name;
    if (this.versionsSure && this.cols[0] === this.seqCol) e.versions = [...this.versions];
    return e;
  }
}

/** The file's entries by line, or undefined when it must be parsed whole. */
export function scanEntries(text: string): ScannedFile | undefined {
  if (text.includes("\t") || text.includes("\r") || text.includes("\ufeff")) return undefined;
  try {
    return new FileScan(text).scan();
  } catch (e) {
    if (e instanceof Unsafe) return undefined;
    throw e;
  }
}

class FileScan {
  private readonly lexer: LineLexer;
  private readonly kinds = new Map<Kind, Segment>();
  private readonly entries: ScannedEntry[] = [];
  private lineNo = 0;
  private pos = 0;
  /** The line at `pos`: its end and its first non-space. */
  private end = 0;
  private at = 0;

  constructor(private readonly text: string) {
    this.lexer = new LineLexer(text);
    this.read();
  }

  /** Reads the line at pos (end, first non-space). */
  private read(): void {
    const nl = this.text.indexOf("\n", this.pos);
    this.end = nl === -1 ? this.text.length : nl;
    let i = this.pos;
    while (this.text.charCodeAt(i) === SPACE) i++;
    this.at = i;
  }

  private next(): void {
    this.pos = this.end + 1;
    this.lineNo++;
    this.read();
  }

  private get done(): boolean {
    return this.pos > this.text.length || (this.pos === this.text.length && this.lineNo > 0);
  }

  /** Not blank and not a comment. */
  private get significant(): boolean {
    return this.at < this.end && this.text.charCodeAt(this.at) !== HASH;
  }

  scan(): ScannedFile {
    const t = this.text;
    while (!this.done) {
      if (!this.significant) {
        this.next();
        continue;
      }
      // A top-level key: a kind, once, with a block sequence (or []) as its value.
      const top = /^([a-z_]+):(?: +(\[ *\]))?(?: +#.*)? *$/.exec(t.slice(this.pos, this.end));
      if (!top || !KIND_SET.has(top[1]!) || this.kinds.has(top[1] as Kind)) unsafe();
      const kind = top![1] as Kind;
      this.kinds.set(kind, { start: this.pos, end: Math.min(this.end + 1, t.length), line: this.lineNo, endLine: this.lineNo + 1 });
      this.next();
      if (!top![2]) this.sequence(kind);
    }
    // An entry that says previous_ anywhere (a rename, a move) is always parsed.
    let k = 0;
    for (let at = t.indexOf("previous_"); at !== -1; at = t.indexOf("previous_", at + 1)) {
      while (k < this.entries.length && this.entries[k]!.end <= at) k++;
      if (k < this.entries.length && this.entries[k]!.start <= at) this.entries[k]!.previous = true;
    }
    return { text: t, kinds: this.kinds, entries: this.entries };
  }

  private sequence(kind: Kind): void {
    const t = this.text;
    while (!this.done && !this.significant) this.next();
    const seqCol = this.at - this.pos;
    if (this.done || t.charCodeAt(this.at) !== DASH || !(this.at + 1 === this.end || t.charCodeAt(this.at + 1) === SPACE)) unsafe();
    let facts: EntryFacts | undefined;
    let start = 0;
    let line = 0;
    const close = () => {
      if (facts) this.entries.push(facts.entry(start, Math.min(this.pos, t.length), line, this.lineNo));
    };
    for (; !this.done; this.next()) {
      if (this.at === this.end) continue;
      const indent = this.at - this.pos;
      const comment = t.charCodeAt(this.at) === HASH;
      if (indent <= seqCol && !comment) {
        const item = indent === seqCol && t.charCodeAt(this.at) === DASH && (this.at + 1 === this.end || t.charCodeAt(this.at + 1) === SPACE);
        if (!item) {
          if (indent !== 0) unsafe();
          break;
        }
        close();
        facts = new EntryFacts(kind, seqCol);
        start = this.pos;
        line = this.lineNo;
      }
      this.entryLine(facts!, indent, comment);
    }
    // Blank and comment lines before the next key belong to the entry above: harmless to parse.
    close();
  }

  private entryLine(facts: EntryFacts, indent: number, comment: boolean): void {
    if (facts.blockAbove >= 0) {
      if (indent > facts.blockAbove) return;
      facts.blockAbove = -1;
    }
    // A line below a plain one-line name, indented deeper, may continue it: the name is not certain.
    if (facts.afterPlainName) {
      facts.afterPlainName = false;
      if (indent > facts.nameCol) facts.name = undefined;
    }
    if (comment) return;
    facts.line(this.lexer.lex(this.pos, this.at, this.end), indent);
  }
}
