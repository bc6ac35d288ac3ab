/**
 * The one editor of a YAML file people wrote: `translations import` and
 * `export --merge` both edit manifests through it, each deciding what to write.
 * Edits are made at the source ranges the `yaml` library's parse keeps for
 * every node ([start, value end, node end]), as splices of the text, so
 * everything not edited (comments, order, quoting, layout, `${variables}`)
 * stays byte for byte. Nothing is written until `finish`.
 *
 * - Reading: the document, a map by where it starts, a pair by its key, what
 *   merge keys (`<<: *base`) give a map, lines and columns.
 * - Writing: a scalar (or an alias) written over in its quoting, new pairs in a
 *   map (in its flow or block style, its column, its line ends), lines
 *   inserted, a pair removed, any range replaced, an alias split into a copy.
 * - Sharing (shared.ts): whatever an edit changes, every other record that
 *   shares it through an anchor, an alias or a merge key reads what it read
 *   before: an anchored text that changes hands its anchor on, an anchored map
 *   or list that changes has its aliases written out as copies of it.
 */
import {
  isAlias,
  isCollection,
  isMap,
  isPair,
  isScalar,
  isSeq,
  parseDocument,
  type Alias,
  type Document,
  type Node,
  type Pair,
  type Scalar,
  type YAMLMap,
  type YAMLSeq,
} from "yaml";
import { scalarText } from "../yaml-text.js";
import { givenByMergeKeys, indexDocument, isMergePair, within, type DocumentIndex } from "./document-index.js";
import { sharedSplices } from "./shared.js";
import { applyEdits, type EditSplice } from "./splices.js";
import { renderFlow, toTree, type Leaf, type Tree } from "./tree.js";
import type { EditedText } from "./types.js";

export interface EditOptions {
  /** How a key or a text reads (export --merge: `${variables}` resolved); as written when absent. */
  resolve?: (s: string) => string;
  /** False for a new file: nothing in it is located or edited, only appended to. */
  parse?: boolean;
}

/** The style of a map new pairs go into, for whoever renders them. */
export interface PairStyle {
  /** A flow map: the pairs as `a: 1, b: 2`; else block lines at column 0 (the editor indents them). */
  flow: boolean;
  /** A flow map written `{ a }` rather than `{a}`. */
  padded: boolean;
  /** A block map where some value is a flow map: nested maps written in flow too. */
  flowValues: boolean;
}

/** Where the last content of a node ends: its last scalar, or a flow collection's bracket; never a comment after it. */
export function contentEnd(node: unknown): number {
  if ((isMap(node) || isSeq(node)) && !node.flow && node.items.length) {
    const last = node.items[node.items.length - 1];
    if (!isPair(last)) return contentEnd(last);
    const value = last.value as { range?: number[] } | null;
    return value?.range && value.range[1]! > value.range[0]! ? contentEnd(value) : contentEnd(last.key);
  }
  return (node as { range?: number[] }).range![1]!;
}

export class YamlEdit {
  /** Undefined when the text is not parsed, does not parse, or has an alias of no anchor: nothing in it is edited. */
  readonly doc: Document | undefined;
  /** Why `doc` is undefined for a text that was parsed. */
  readonly error: string | undefined;
  private indexed: DocumentIndex | undefined;
  readonly splices: EditSplice[] = [];
  readonly written = new Map<Scalar | Alias, EditSplice>();
  readonly copies = new Map<Alias, Tree | Leaf>();
  readonly touched: Array<{ node: Node; scope: Node | undefined }> = [];
  private readonly resolveText: (s: string) => string;

  constructor(
    readonly name: string,
    readonly text: string,
    opts: EditOptions = {},
  ) {
    this.resolveText = opts.resolve ?? ((s) => s);
    if (opts.parse === false) return;
    // merge: as the loader reads files (src/manifest/yaml.ts), so `<<: *defaults` fields count.
    const doc = parseDocument(text, { merge: true }) as Document;
    if (doc.errors.length) this.error = doc.errors[0]!.message.split("\n")[0];
    else if (!(this.indexed = indexDocument(doc)).resolves) this.error = "an alias names no anchor before it";
    else this.doc = doc;
  }

  get index(): DocumentIndex {
    if (!this.doc) throw new Error(`${this.name} is not a parsed YAML document`);
    return (this.indexed ??= indexDocument(this.doc));
  }

  // ------------------------------------------------------------ reading

  /** A pair's key as a text (a merge key reads `<<`). */
  keyOf(p: Pair): string {
    if (isMergePair(p)) return "<<";
    return this.resolveText(String(isScalar(p.key) ? p.key.value : p.key));
  }
  /** The map's own pair for `key` (never a merge key's, nor what it gives). */
  findPair(map: YAMLMap, key: string): Pair | undefined {
    return (map.items as Pair[]).find((p) => !isMergePair(p) && this.keyOf(p) === key);
  }
  /** What the map's merge keys give it, as the loader reads it (keys as `keyOf` reads them). */
  givenByMergeKeys(map: YAMLMap): Map<string, unknown> {
    return givenByMergeKeys(this.doc!, map, this.resolveText);
  }
  /** A node's value as the loader reads it: plain data, texts and keys resolved. */
  js(node: unknown): unknown {
    const resolve = (v: unknown): unknown => {
      if (typeof v === "string") return this.resolveText(v);
      if (Array.isArray(v)) return v.map(resolve);
      if (v !== null && typeof v === "object") return Object.fromEntries(Object.entries(v).map(([k, x]) => [this.resolveText(k), resolve(x)]));
      return v;
    };
    return node && typeof node === "object" && "toJS" in node ? resolve((node as Node).toJS(this.doc!)) : node;
  }
  /** The map that starts at an offset (where its first key, or its `{`, is). */
  mapAt(offset: number): YAMLMap | undefined {
    return this.index.mapAt.get(offset);
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

  // ------------------------------------------------------------ writing

  /** Replace a range of the text (offsets of the original); `order` places an insert among others at its offset (splices.ts). */
  splice(start: number, end: number, text: string, order = 0): void {
    this.splices.push({ start, end, text, order });
  }
  /** Insert whole lines at a line end (a file without a final newline gets one first); `order`: splices.ts. */
  insertLines(at: number, lines: string, order = -1): void {
    const needsNewline = at === this.text.length && this.text.length > 0 && !this.text.endsWith("\n");
    this.splice(at, at, `${needsNewline ? "\n" : ""}${lines}`, order);
  }

  /**
   * `value` written over a scalar or an alias (or an empty value), a text in the old scalar's
   * quoting (a block scalar's as a double-quoted one, its line breaks kept), a number or a boolean
   * plain. The other records that shared the scalar keep its old text (shared.ts).
   */
  setScalar(node: Scalar | Alias, value: string | number | boolean, flow: boolean): void {
    const [start, end] = node.range!;
    let text: string;
    if (typeof value !== "string") text = renderFlow(value);
    else if (isAlias(node)) text = scalarText(value, { flow });
    else {
      const block = node.type === "BLOCK_LITERAL" || node.type === "BLOCK_FOLDED";
      text = scalarText(value, { flow, like: block ? "QUOTE_DOUBLE" : node.type });
    }
    // A block scalar's range holds the line break(s) after it; an empty value's is empty, right after the colon.
    text = start === end ? ` ${text}` : text + (this.text.slice(start, end).match(/(\r?\n)+$/)?.[0] ?? "");
    const made = this.written.get(node);
    if (made) made.text = text;
    else {
      const splice = { start, end, text, order: 0 };
      this.splices.push(splice);
      this.written.set(node, splice);
    }
  }

  /** The alias is written out as a copy of what it stands for; the copy (a tree for a map) may still be changed. */
  splitAlias(alias: Alias): Tree | Leaf {
    const made = this.copies.get(alias);
    if (made !== undefined) return made;
    const copy = toTree(this.index.targetOf.get(alias)!.toJS(this.doc!, { maxAliasCount: 100 }));
    this.copies.set(alias, copy);
    return copy;
  }

  /**
   * The node's content changes. Every anchored map or list from it up to `scope` (not `scope`
   * itself; the whole document when undefined) that holds it has its aliases written out as copies
   * of what they stood for, so the records that alias it read what they read before.
   */
  touch(node: Node, scope?: Node): void {
    if (!isAlias(node)) this.touched.push({ node, scope });
  }

  /** Whether a flow collection is written `[ a ]` (padded) rather than `[a]`: as it was, so a rewrite keeps the file's style. */
  padded(node: Node): boolean {
    return /^[[{][ \t]/.test(this.text.slice(node.range![0], node.range![0] + 2));
  }

  /**
   * New pairs in a map, as `render` writes them for its style: after a flow map's last pair (or
   * inside `{}`); in a block map, as lines in its column after its last pair whose value is not a
   * block map or list (so they stay apart from a nested value's own new keys), else after the
   * line its last content ends on (comments below it stay below).
   */
  addPairs(map: YAMLMap, render: (style: PairStyle) => string): void {
    if (!map.range) throw new Error("a map without a source range");
    const order = map.range[0];
    const last = map.items.at(-1) as Pair | undefined;
    if (map.flow) {
      const at = last ? contentEnd(last.value ?? last.key) : this.text.indexOf("{", map.range[0]) + 1;
      const pairs = render({ flow: true, padded: this.padded(map), flowValues: false });
      this.splice(at, at, last ? `, ${pairs}` : pairs, order);
      return;
    }
    const first = map.items[0]!.key as Node;
    const flat = (map.items as Pair[]).filter((p) => !(isCollection(p.value) && !p.value.flow)).at(-1);
    const after = contentEnd(flat ? (flat.value ?? flat.key) : map);
    const flowValues = map.items.some((p) => isMap(p.value) && p.value.flow);
    const lines = render({ flow: false, padded: false, flowValues });
    this.insertLines(this.lineEnd(after), indented(lines, this.column(first.range![0])), order);
  }

  /** Lines after a block list's last item, in its column; false when it is not one (flow, or empty). */
  appendToList(seq: YAMLSeq, lines: () => string): boolean {
    if (seq.flow || !seq.items.length || !seq.range) return false;
    this.insertLines(this.lineEnd(seq.range[1]), indented(lines(), this.column(seq.range[0])), seq.range[0]);
    return true;
  }

  /** Removes a pair's lines; false when its key starts a list item's line (`- name: x`), which stays. */
  removePair(pair: Pair): boolean {
    const key = pair.key as Node;
    const value = pair.value as Node | null;
    if (/^\s*-\s/.test(this.text.slice(this.lineStart(key.range![0]), key.range![0] + 1))) return false;
    this.splice(this.lineStart(key.range![0]), this.lineEnd(value?.range ? value.range[1] : key.range![1]), "");
    return true;
  }

  /** Aliases that cross a node's bounds written out, so its text can move elsewhere in the file and mean the same. */
  detach(node: Node): void {
    if (!this.doc) return;
    for (const [target, uses] of this.index.aliasesOf) for (const { alias } of uses) if (within(alias, node) !== within(target, node)) this.splitAlias(alias);
  }

  /** The edited text, and the splices made (at offsets of the original), shared text split first. */
  finish(): EditedText {
    if (!this.doc) return applyEdits(this.text, this.splices);
    const { doc, index, text, written, copies, touched, splices } = this;
    return applyEdits(text, [...splices, ...sharedSplices({ doc, index, text, written, copies, touched, splices })]);
  }

  result(): string {
    return this.finish().text;
  }
}

/** Lines moved right by `column` (blank lines stay blank; the first one too unless `first` is false), ending with a line break. */
export function indented(text: string, column: number, first = true): string {
  const pad = " ".repeat(column);
  return text
    .replace(/\n$/, "")
    .split("\n")
    .map((l, i) => ((i === 0 && !first) || l === "" ? l : pad + l))
    .join("\n")
    .concat("\n");
}
