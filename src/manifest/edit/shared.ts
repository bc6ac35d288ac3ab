/**
 * What YAML shares inside one file, kept as it was for every record but the
 * edited one. A node with an anchor (`&a`) is repeated by every alias of it
 * (`*a`, `<<: *a`), so an edit inside the anchored node would change each
 * record that aliases it too, and an edit that writes the anchored node again
 * would leave its aliases pointing at nothing. Before the edited text is made:
 * - an anchored text that is written over (or lies in a range written again)
 *   hands its anchor, with its old text, to its first alias left: the other
 *   aliases keep pointing at it and read what they read;
 * - an anchored map or list an edit touches (editor.ts `touch`) or writes again
 *   has each alias of it written out as a copy of what it stood for (tree.ts
 *   copyText), as has each alias the caller split itself (`splitAlias`).
 * An alias inside a range an edit writes again is left to that edit (it writes
 * plain values).
 */
import { isScalar, type Alias, type Document, type Node, type Scalar } from "yaml";
import { scalarText } from "../yaml-text.js";
import { within, type AliasUse, type DocumentIndex } from "./document-index.js";
import type { EditSplice } from "./splices.js";
import { copyText, renderFlow, toTree, type Leaf, type Tree } from "./tree.js";

/** What the editor (editor.ts) knows of the file and of what it was asked to do. */
export interface EditRecord {
  readonly doc: Document;
  readonly index: DocumentIndex;
  readonly text: string;
  /** Scalars and aliases written over, and their splices. */
  readonly written: ReadonlyMap<Scalar | Alias, EditSplice>;
  /** Aliases the caller split: written out as a copy of what they stood for (with any change made to it). */
  readonly copies: ReadonlyMap<Alias, Tree | Leaf>;
  /** Nodes whose content an edit changes, with how far up shared text is split (undefined: the whole document). */
  readonly touched: ReadonlyArray<{ node: Node; scope: Node | undefined }>;
  readonly splices: readonly EditSplice[];
}

/** The ranges edits write again (they do not overlap), and whether a node lies inside one. */
function rangesOf(splices: readonly EditSplice[]): (node: Node) => boolean {
  const ranges = splices.filter((s) => s.start < s.end).sort((a, b) => a.start - b.start);
  return (node) => {
    const [start, end] = node.range ?? [-1, -1];
    let lo = 0;
    let hi = ranges.length - 1;
    while (lo < hi) {
      const mid = (lo + hi + 1) >> 1;
      if (ranges[mid]!.start <= start) lo = mid;
      else hi = mid - 1;
    }
    const r = ranges[lo];
    return !!r && r.start <= start && end <= r.end;
  };
}

/** The splices that keep shared text as it was for every record the edits did not mean to change. */
export function sharedSplices(e: EditRecord): EditSplice[] {
  const inReplaced = rangesOf(e.splices);
  const copies = new Map<Alias, Tree | Leaf>(e.copies);
  const out: EditSplice[] = [];
  for (const [target, uses] of e.index.aliasesOf) {
    if (isScalar(target)) {
      if (e.written.has(target) || inReplaced(target)) out.push(...anchorHandedOn(e, target, uses, copies, inReplaced));
    } else if (inReplaced(target) || touchedInside(e, target)) {
      for (const { alias } of uses)
        if (!e.written.has(alias) && !copies.has(alias) && !inReplaced(alias)) copies.set(alias, toTree(target.toJS(e.doc, { maxAliasCount: 100 })));
    }
  }
  for (const [alias, copy] of copies) if (!inReplaced(alias)) out.push({ start: alias.range![0], end: alias.range![1], text: copyText(copy), order: 0 });
  return out;
}

/** Whether an edit touched this node or something inside it, within the scope it gave. */
function touchedInside(e: EditRecord, target: Node): boolean {
  return e.touched.some(({ node, scope }) => within(node, target) && (!scope || (target !== scope && within(target, scope))));
}

/**
 * An anchored text that changes: its anchor moves, with the old text, to the first alias that
 * still stands for it (the others keep pointing at it); none left, the anchor stays where it is.
 */
function anchorHandedOn(
  e: EditRecord,
  target: Scalar,
  uses: readonly AliasUse[],
  copies: ReadonlyMap<Alias, unknown>,
  inReplaced: (node: Node) => boolean,
): EditSplice[] {
  const heirs = uses.filter((u) => !e.written.has(u.alias) && !copies.has(u.alias) && !inReplaced(u.alias));
  if (!heirs.length || !target.anchor) return [];
  const anchor = `&${target.anchor}`;
  const out: EditSplice[] = [];
  const own = e.written.get(target);
  // Written over in place, the anchor (before the text) goes; inside a range written again, it has gone already.
  if (own) {
    const at = e.text.lastIndexOf(anchor, own.start);
    const spaces = /^[ \t]*/.exec(e.text.slice(at + anchor.length, own.start))![0].length;
    out.push({ start: at, end: at + anchor.length + spaces, text: "", order: 0 });
  }
  const heir = heirs[0]!;
  const old = target.value;
  const text = typeof old === "string" ? scalarText(old, { flow: heir.flow }) : renderFlow(old);
  out.push({ start: heir.alias.range![0], end: heir.alias.range![1], text: `${anchor} ${text}`, order: 0 });
  return out;
}
