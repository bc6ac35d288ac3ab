/**
 * Targeted edits of a manifest file's text: set a string at a path of keys
 * below an entry (an attribute, a value, a category ...), changing only the
 * bytes of that scalar, or inserting the missing keys as new lines (block
 * maps) or new pairs (flow maps). Everything else (comments, order, quoting,
 * layout) stays byte for byte: the yaml library's source ranges say where each
 * node is, and the text is edited, never re-serialised. One parse and one
 * pass over the text per file, whatever the number of edits.
 *
 * Text shared through YAML's anchors, aliases and merge keys stays as it was
 * for every record that shares it (the loader reads the file as before except
 * at the translations):
 * - a translation that is an alias (`name: *n`) is written as a text of its own;
 * - an anchored translation (`name: &n Farbe`) gets its new text without the
 *   anchor, and the first alias of it takes the anchor with the old text, so
 *   the other aliases read what they read before;
 * - a map on the way that is an alias (`versions: *v`) is written out as a copy
 *   of what it stood for, with the translation in it;
 * - a map on the way that other places alias or merge (`versions: &v`) keeps
 *   them as they were: each of those aliases is written out as a copy of it;
 * - a key the map inherits through `<<` (a version, a versions map) is written
 *   as its own key holding a copy of what it inherited plus the translation
 *   (an own key hides the whole inherited value).
 * An entry that is itself anchored and merged elsewhere is not copied: the
 * import's whole-file check (import-check.ts) then refuses, naming the record.
 */
import { isAlias, isMap, isPair, isScalar, isSeq, parseDocument, type Alias, type Document, type Scalar, type YAMLMap } from "yaml";
import { applySplices, scalarText, type TextSplice } from "../yaml-text.js";
import { PimctlError } from "../../errors.js";
import type { ParsedYaml } from "../yaml.js";
import { indexDocument, inherited, ownPair, type DocumentIndex } from "./document-index.js";
import { put, renderBlock, renderFlow, toTree, type Tree } from "./tree.js";
import { editPlainYaml } from "./texts-fast.js";
import type { EditedText, EntryEdits, TextEdit } from "./types.js";

export type { EditedText, EntryEdits } from "./types.js";

interface Op extends TextSplice {
  /** Among inserts at one offset, the outer map's goes first so the inner's text lands before it. */
  order: number;
}

/** The edits of one file, collected as what to do to which node, then turned into splices at once. */
class FileEdits {
  private readonly index: DocumentIndex;
  private readonly replaced = new Map<Scalar | Alias, { value: string; flow: boolean }>();
  private readonly inserts = new Map<YAMLMap, Tree>();
  private readonly copies = new Map<Alias, Tree>();
  /** Maps below an entry that an edit changes (inside them or below). */
  private readonly touched = new Set<YAMLMap>();

  constructor(
    private readonly doc: Document,
    private readonly text: string,
  ) {
    this.index = indexDocument(doc);
  }

  entry(offset: number): YAMLMap | undefined {
    return this.index.mapAt.get(offset);
  }

  add(entry: YAMLMap, where: string, edit: TextEdit): void {
    const { keys, value } = edit;
    let node = entry;
    for (let i = 0; i < keys.length; i++) {
      const last = i === keys.length - 1;
      const pair = ownPair(node, keys[i]!);
      if (!pair) {
        const tree = this.inserts.get(node) ?? this.inserts.set(node, new Map()).get(node)!;
        const from = last ? undefined : inherited(this.doc, node, keys[i]!);
        if (from && typeof from === "object" && !Array.isArray(from) && !tree.has(keys[i]!)) tree.set(keys[i]!, toTree(from));
        put(tree, keys.slice(i), value);
        return;
      }
      const v = pair.value;
      if (last && (isAlias(v) || (isScalar(v) && v.range))) {
        this.replaced.set(v, { value, flow: node.flow === true });
        return;
      }
      const shown = keys.slice(0, i + 1).join(".");
      if (last) throw new PimctlError("invalid_value", `${where}: ${shown} is not a text (a list or a map?); write it by hand`);
      const target = isAlias(v) ? this.index.targetOf.get(v) : undefined;
      if (isAlias(v) && isMap(target)) {
        const copy = this.copies.get(v) ?? this.copies.set(v, toTree(target.toJS(this.doc, { maxAliasCount: 100 })) as Tree).get(v)!;
        put(copy, keys.slice(i + 1), value);
        return;
      }
      if (!isMap(v)) throw new PimctlError("invalid_value", `${where}: ${shown} is not a map (empty, or an alias of a text?); write it by hand`);
      this.touched.add(v);
      node = v;
    }
  }

  splices(eol: string): Op[] {
    const ops: Op[] = [];
    // What aliases a changed map stood for is what they keep: each becomes a copy of the map as it was.
    for (const map of this.touched)
      for (const use of this.index.aliasesOf.get(map) ?? [])
        if (!this.copies.has(use.alias)) this.copies.set(use.alias, toTree(map.toJS(this.doc, { maxAliasCount: 100 })) as Tree);
    for (const [alias, tree] of this.copies) ops.push({ start: alias.range![0], end: alias.range![1], text: renderFlow(tree), order: 0 });
    for (const [node, r] of this.replaced) ops.push(...this.replaceOps(node, r.value, r.flow));
    for (const [node, tree] of this.inserts) ops.push(insertOp(this.text, node, tree, eol));
    return ops;
  }

  /** A text written over a scalar or an alias; an anchor other aliases still need moves to the first of them. */
  private replaceOps(node: Scalar | Alias, value: string, flow: boolean): Op[] {
    const [start, end] = node.range!;
    if (isAlias(node)) return [{ start, end, text: scalarText(value, { flow }), order: 0 }];
    const old = this.text.slice(start, end);
    const tail = old.match(/(\r?\n)+$/)?.[0] ?? "";
    const block = node.type === "BLOCK_LITERAL" || node.type === "BLOCK_FOLDED";
    const ops: Op[] = [{ start, end, text: scalarText(value, { flow, like: block ? "QUOTE_DOUBLE" : node.type }) + tail, order: 0 }];
    const heirs = node.anchor ? (this.index.aliasesOf.get(node) ?? []).filter((u) => !this.replaced.has(u.alias)) : [];
    if (heirs.length) {
      const anchor = `&${node.anchor}`;
      const at = this.text.lastIndexOf(anchor, start);
      const spaces = /^[ \t]*/.exec(this.text.slice(at + anchor.length, start))![0].length;
      ops.push({ start: at, end: at + anchor.length + spaces, text: "", order: 0 });
      const heir = heirs[0]!;
      ops.push({ start: heir.alias.range![0], end: heir.alias.range![1], text: `${anchor} ${scalarText(String(node.value), { flow: heir.flow })}`, order: 0 });
    }
    return ops;
  }
}

/** Where the last content of a node ends: its last scalar, or a flow collection's bracket; never a comment after it. */
function contentEnd(node: unknown): number {
  if ((isMap(node) || isSeq(node)) && !node.flow && node.items.length) {
    const last = node.items[node.items.length - 1];
    if (!isPair(last)) return contentEnd(last);
    const value = last.value as { range?: number[] } | null;
    return value?.range && value.range[1]! > value.range[0]! ? contentEnd(value) : contentEnd(last.key);
  }
  return (node as { range?: number[] }).range![1]!;
}

/** New keys of a map: pairs at the end of a flow map, or lines after the line a block map's last content ends on. */
function insertOp(text: string, node: YAMLMap, tree: Tree, eol: string): Op {
  const start = node.range![0];
  const last = node.items[node.items.length - 1];
  if (node.flow) {
    const at = last ? contentEnd(last.value ?? last.key) : text.indexOf("{", start) + 1;
    const pairs = renderFlow(tree).slice(2, -2);
    return { start: at, end: at, text: last ? `, ${pairs}` : pairs, order: start };
  }
  const first = node.items[0]!.key as Scalar;
  const column = first.range![0] - (text.lastIndexOf("\n", first.range![0] - 1) + 1);
  const flowValues = node.items.some((p) => isMap(p.value) && p.value.flow);
  const lines = renderBlock(tree, " ".repeat(column), flowValues).join(eol);
  // After the line the last content ends on, not at the map's end: that may lie past comments
  // below it, on the next entry's line (its "- " already written).
  const nl = text.indexOf("\n", Math.max(contentEnd(node) - 1, 0));
  const at = nl === -1 ? text.length : nl + 1;
  return { start: at, end: at, text: nl === -1 ? `${eol}${lines}` : `${lines}${eol}`, order: start };
}

/** The file's text with every edit made; errors name the entry and the key that could not be written. */
export function editYaml(text: string, file: string, entries: readonly EntryEdits[], parsed?: ParsedYaml): EditedText {
  // A text the loader read with its full parser (anchors, merge keys ...) is edited over the yaml library's document.
  return (parsed && !parsed.fast ? undefined : editPlainYaml(text, entries, parsed?.fast)) ?? editYamlDocument(text, file, entries);
}

/** The reference editor, over the `yaml` library's document of the whole file (any YAML). */
export function editYamlDocument(text: string, file: string, entries: readonly EntryEdits[]): EditedText {
  const doc = parseDocument(text, { merge: true });
  if (doc.errors.length) throw new PimctlError("yaml_syntax", `${file}: ${doc.errors[0]!.message.split("\n")[0]}`);
  const edits = new FileEdits(doc, text);
  for (const entry of entries) {
    const map = edits.entry(entry.offset);
    if (!map) throw new PimctlError("io", `${entry.where}: the entry is not where the manifest loader found it; was the file changed meanwhile?`);
    for (const edit of entry.edits) edits.add(map, entry.where, edit);
  }
  const ops = edits.splices(text.includes("\r\n") ? "\r\n" : "\n");
  // At one offset, an inner map's new lines go before its outer map's: the larger `order` is listed first.
  ops.sort((a, b) => b.order - a.order);
  const splices = ops.map(({ start, end, text: t }) => ({ start, end, text: t }));
  return { text: applySplices(text, splices), splices };
}
