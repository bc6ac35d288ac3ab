/**
 * Edits to one YAML file's text, made at its nodes' source ranges (the yaml
 * library's parse keeps each node's [start, value end, node end]): a changed
 * scalar is spliced in its own quoting, a changed collection is written again
 * at its key's column, new keys and list items are inserted as whole lines in
 * the file's indentation. Everything not edited stays byte for byte, comments
 * included. `resolve` reads `${variables}` the way the loader does; `write`
 * puts them back into what is written (src/export/translate.ts).
 */
import { isAlias, isCollection, isMap, isScalar, isSeq, parseDocument, stringify, type Document, type Node, type Pair, type YAMLMap, type YAMLSeq } from "yaml";
import { writeVariables, type VariableWriter } from "../../export/translate.js";
import { applySplices, scalarText, type TextSplice } from "../yaml-text.js";
import { aliasSplits, aliasesResolve, detachSplits } from "./shared.js";

export interface VariableText {
  /** `${name}` -> the tenant's value, `$${` -> `${`. */
  resolve(s: string): string;
  /** The other way, for what is written: `${name}` only in variable-bearing fields (src/export/translate.ts). */
  write: VariableWriter;
}

const STRINGIFY = { lineWidth: 0, indent: 2, sortMapEntries: false, aliasDuplicateObjects: false } as const;

/** `v` as YAML text (block style unless `flow`; `padded`: `[ a ]` rather than `[a]`), with variables written back. */
export function renderYaml(v: unknown, text: VariableText, opts: { flow?: boolean; padded?: boolean } = {}): string {
  const flow = opts.flow ? { collectionStyle: "flow" as const, flowCollectionPadding: opts.padded ?? true } : {};
  return stringify(writeVariables(v, text.write), { ...STRINGIFY, ...flow });
}

/** `key: v` on one line, the value in flow style (`previous_names: [Acme]`), with variables written back. */
function flowPair(key: string, v: unknown, text: VariableText, padded = false): string {
  // As renderYaml writes `{ [key]: v }`: the key as text (merge never writes a variable-bearing field in place).
  const keyText = stringify({ [text.write.literal(key)]: 0 }, STRINGIFY)
    .trimEnd()
    .slice(0, -": 0".length);
  return `${keyText}: ${renderYaml(v, text, { flow: true, padded }).trimEnd()}`;
}

const isRecord = (v: unknown): v is Record<string, unknown> => v !== null && typeof v === "object" && !Array.isArray(v);

export class YamlFileEdit {
  private readonly edits: TextSplice[] = [];
  /** Nodes whose content the edits change: an anchored node holding one has its aliases written out (yaml-shared.ts). */
  private readonly touched: Node[] = [];
  /** Undefined when the text does not parse (or for a new file): nothing in it is edited. */
  readonly doc: Document | undefined;

  constructor(
    readonly name: string,
    readonly text: string,
    private readonly variables: VariableText,
    opts: { parse: boolean } = { parse: true },
  ) {
    // merge: as the loader reads files (src/manifest/yaml.ts), so `<<: *defaults` fields count.
    const doc = opts.parse ? parseDocument(text, { merge: true }) : undefined;
    this.doc = doc && !doc.errors.length && aliasesResolve(doc as Document) ? (doc as Document) : undefined;
  }

  // ------------------------------------------------------------ reading

  /** A node's value as the loader sees it: plain data, variables resolved (keys too). */
  js(node: unknown): unknown {
    const resolveDeep = (v: unknown): unknown => {
      if (typeof v === "string") return this.variables.resolve(v);
      if (Array.isArray(v)) return v.map(resolveDeep);
      if (isRecord(v)) return Object.fromEntries(Object.entries(v).map(([k, x]) => [this.variables.resolve(k), resolveDeep(x)]));
      return v;
    };
    return node && typeof node === "object" && "toJS" in node ? resolveDeep((node as Node).toJS(this.doc!)) : node;
  }
  keyOf(p: Pair): string {
    return this.variables.resolve(String(isScalar(p.key) ? p.key.value : p.key));
  }
  findPair(map: YAMLMap, key: string): Pair | undefined {
    return map.items.find((p) => this.keyOf(p as Pair) === key) as Pair | undefined;
  }
  /** `file:line` of an offset, for reports. */
  at(offset: number): string {
    let n = 1;
    for (let i = this.text.indexOf("\n"); i !== -1 && i < offset; i = this.text.indexOf("\n", i + 1)) n++;
    return `${this.name}:${n}`;
  }
  lineStart(offset: number): number {
    return this.text.lastIndexOf("\n", offset - 1) + 1;
  }
  column(offset: number): number {
    return offset - this.lineStart(offset);
  }
  /** Just past the line `offset` is on (or `offset` itself when it is a line start after a newline). */
  lineEnd(offset: number): number {
    if (offset > 0 && this.text[offset - 1] === "\n") return offset;
    const nl = this.text.indexOf("\n", offset);
    return nl === -1 ? this.text.length : nl + 1;
  }

  // ------------------------------------------------------------ editing

  /** Replace a range of the text (offsets of the original). */
  splice(start: number, end: number, text: string): void {
    this.edits.push({ start, end, text });
  }
  /** Insert whole lines at a line end (a file without a final newline gets one first). */
  insertLines(at: number, lines: string): void {
    const needsNewline = at === this.text.length && this.text.length > 0 && !this.text.endsWith("\n");
    this.edits.push({ start: at, end: at, text: `${needsNewline ? "\n" : ""}${lines}` });
  }

  /** Rendered lines moved right by `column` (the first one too when `first`). */
  private indented(text: string, column: number, first: boolean): string {
    const pad = " ".repeat(column);
    return text
      .replace(/\n$/, "")
      .split("\n")
      .map((l, i) => (i === 0 && !first ? l : l === "" ? l : pad + l))
      .join("\n")
      .concat("\n");
  }

  /** The scalar text for `v` where `old` stood, in its quoting; undefined when it needs a block. */
  private scalarText(v: unknown, old: Node | null, inFlow: boolean): string | undefined {
    if (typeof v !== "string") return v === null || typeof v === "object" ? undefined : String(v);
    // Merge writes no variable-bearing field in place (web ids and asset image_urls are never merged): text.
    const s = this.variables.write.literal(v);
    if (s.includes("\n")) return inFlow ? JSON.stringify(s) : undefined;
    const type = isScalar(old) ? old.type : undefined;
    if (type === "BLOCK_LITERAL" || type === "BLOCK_FOLDED") return undefined;
    return scalarText(s, { flow: inFlow, ...(type ? { like: type } : {}) });
  }

  private touch(...nodes: Array<Node | null | undefined>): void {
    for (const n of nodes) if (n && !isAlias(n)) this.touched.push(n);
  }

  /** A pair's value becomes `v`: in place for a scalar, in flow style inside flow, else the pair written again. */
  replaceValue(map: YAMLMap, pair: Pair, v: unknown): void {
    const node = pair.value as Node | null;
    const key = pair.key as Node;
    this.touch(map, node);
    const scalar = node === null || isScalar(node) ? this.scalarText(v, node, map.flow === true) : undefined;
    if (scalar !== undefined && node?.range) {
      // An empty value (`desc:`) has an empty range right after the colon: the new one needs its space.
      this.splice(node.range[0], node.range[1], node.range[0] === node.range[1] ? ` ${scalar}` : scalar);
    } else if (map.flow || (node && (isMap(node) || isSeq(node)) && node.flow)) {
      if (!node?.range) throw new Error("a flow value without a source range");
      this.splice(node.range[0], node.range[1], renderYaml(v, this.variables, { flow: true, padded: this.padded(isCollection(node) ? node : map) }).trimEnd());
    } else {
      const start = key.range![0];
      const end = this.lineEnd(node?.range ? node.range[1] : key.range![1]);
      this.splice(start, end, this.indented(renderYaml({ [this.keyOf(pair)]: v }, this.variables), this.column(start), false));
    }
  }

  /** Whether a flow collection is written `[ a ]` (padded) rather than `[a]`: as it was, so a rewrite keeps the file's style. */
  private padded(node: Node): boolean {
    return /^[[{][ \t]/.test(this.text.slice(node.range![0], node.range![0] + 2));
  }

  /** A flow collection written again whole. */
  rewriteFlow(node: YAMLMap | YAMLSeq, v: unknown): void {
    this.touch(node);
    this.splice(node.range![0], node.range![1], renderYaml(v, this.variables, { flow: true, padded: this.padded(node) }).trimEnd());
  }

  /**
   * A new key in a block map, in its column: after the last key whose value is not a block list or map
   * (a nested entry's own new keys go inside that value, never at the same offset), else after the last.
   */
  addKey(map: YAMLMap, key: string, v: unknown, opts: { flow?: boolean } = {}): void {
    const first = map.items[0]?.key as Node | undefined;
    if (!first?.range || !map.range) throw new Error("a map without a source range");
    this.touch(map);
    if (map.flow) {
      // `, key: value` after the last pair, in the map's own flow style.
      const last = map.items.at(-1) as Pair;
      const end = (last.value as Node | null)?.range?.[1] ?? (last.key as Node).range![1];
      this.splice(end, end, `, ${flowPair(key, v, this.variables, this.padded(map))}`);
      return;
    }
    const flat = map.items.filter((p) => !(isCollection(p.value) && !p.value.flow)).at(-1) as Pair | undefined;
    const after = flat ? ((flat.value as Node | null)?.range?.[1] ?? (flat.key as Node).range![1]) : map.range[1];
    const text = opts.flow ? `${flowPair(key, v, this.variables)}\n` : renderYaml({ [key]: v }, this.variables);
    this.insertLines(this.lineEnd(after), this.indented(text, this.column(first.range[0]), true));
  }

  /** Removes a pair's lines; false when its key starts a list item's line (`- name: x`), which stays. */
  removePair(map: YAMLMap, pair: Pair): boolean {
    const key = pair.key as Node;
    const value = pair.value as Node | null;
    if (/^\s*-\s/.test(this.text.slice(this.lineStart(key.range![0]), key.range![0] + 1))) return false;
    this.touch(map);
    this.splice(this.lineStart(key.range![0]), this.lineEnd(value?.range ? value.range[1] : key.range![1]), "");
    return true;
  }

  /** Aliases that cross a node's bounds written out, so its text can move elsewhere in the file and mean the same. */
  detach(node: Node): void {
    if (this.doc) this.edits.push(...detachSplits(this.doc, node));
  }

  /** Appends items to a block sequence; false when it is not one (the caller writes the value again). */
  appendItems(seq: YAMLSeq, items: unknown[]): boolean {
    if (seq.flow || !seq.items.length || !seq.range) return false;
    this.touch(seq);
    this.insertLines(this.lineEnd(seq.range[1]), this.indented(renderYaml(items, this.variables), this.column(seq.range[0]), true));
    return true;
  }

  /** The edited text; aliases of an anchored node the edits change are written out first, so they keep its old value. */
  result(): string {
    const splits = this.doc ? aliasSplits(this.doc, this.touched, this.edits) : [];
    return applySplices(this.text, [...inStructureOrder(this.edits), ...splits]);
  }
}

/** The columns of blank a text starts with (after a line break it may start with). */
const indentOf = (text: string): number => /^\n?( *)/.exec(text)![1]!.length;

/**
 * Lines inserted at one offset, deeper ones first: a new key of the last entry of a list and a
 * new item of that list both go where the entry ends, and the entry's key must come before the
 * item that closes it (applySplices keeps the order of splices at one offset).
 */
function inStructureOrder(edits: readonly TextSplice[]): TextSplice[] {
  return edits
    .map((e, i) => ({ e, i }))
    .sort((a, b) => a.e.start - b.e.start || (a.e.start === a.e.end && b.e.start === b.e.end ? indentOf(b.e.text) - indentOf(a.e.text) : 0) || a.i - b.i)
    .map(({ e }) => e);
}
