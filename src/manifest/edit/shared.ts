/**
 * What YAML shares inside one file: a node with an anchor (`&a`) is repeated
 * by every alias of it (`*a`, `<<: *a`), so an edit inside the anchored node
 * would change each record that aliases it too, and an edit that writes the
 * anchored node again (a flow map rewritten whole) would leave its aliases
 * pointing at nothing. Before an edited text is made, every alias of such a
 * node is written out as that node's value before the edit (as JSON, which
 * YAML reads as a flow value): the records that alias it keep exactly what
 * they had, and only the edited record changes. An alias inside a range an
 * edit replaces is left to that edit (it writes plain values).
 */
import { visit, type Alias, type Document, type Node } from "yaml";
import type { TextSplice } from "../yaml-text.js";

/** Anchored node -> its aliases, in the order they appear. */
function aliasesByTarget(doc: Document): Map<Node, Alias[]> {
  const out = new Map<Node, Alias[]>();
  visit(doc, {
    Alias(_, alias) {
      const target = alias.resolve(doc);
      if (!target) return;
      const list = out.get(target);
      if (list) list.push(alias);
      else out.set(target, [alias]);
    },
  });
  return out;
}

/** Whether every alias of the document names an anchor set before it (the yaml library reads such a text, but cannot resolve it). */
export function aliasesResolve(doc: Document): boolean {
  let ok = true;
  visit(doc, {
    Alias(_, alias) {
      if (alias.resolve(doc)) return;
      ok = false;
      return visit.BREAK;
    },
  });
  return ok;
}

/** The splices that write out the aliases of every anchored node an edit changes or writes again. */
export function aliasSplits(doc: Document, touched: readonly Node[], edits: readonly TextSplice[]): TextSplice[] {
  if (!touched.length && !edits.length) return [];
  const replaced = edits.filter((e) => e.start < e.end);
  const inReplaced = (n: Node) => replaced.some((e) => n.range !== undefined && n.range !== null && e.start <= n.range[0] && n.range[1] <= e.end);
  return splitsOf(doc, aliasesByTarget(doc), (target) => touched.some((t) => within(t, target)) || inReplaced(target), inReplaced);
}

/**
 * The splices that make a node stand alone before it is moved elsewhere in the text: an alias
 * outside it of an anchor inside it, and an alias inside it of an anchor outside it, written out.
 */
export function detachSplits(doc: Document, node: Node): TextSplice[] {
  const inside = (n: Node) => within(n, node);
  const byTarget = aliasesByTarget(doc);
  const out: TextSplice[] = [];
  for (const [target, aliases] of byTarget) {
    const crossing = aliases.filter((a) => inside(a) !== inside(target));
    if (crossing.length)
      out.push(
        ...splitsOf(
          doc,
          new Map([[target, crossing]]),
          () => true,
          () => false,
        ),
      );
  }
  return out;
}

function splitsOf(doc: Document, byTarget: Map<Node, Alias[]>, split: (target: Node) => boolean, leave: (alias: Alias) => boolean): TextSplice[] {
  const out: TextSplice[] = [];
  for (const [target, aliases] of byTarget) {
    if (!split(target)) continue;
    const text = JSON.stringify(target.toJS(doc) ?? null);
    for (const alias of aliases) if (!leave(alias)) out.push({ start: alias.range![0], end: alias.range![1], text });
  }
  return out;
}

/** Whether `inner` is `outer` or lies inside it (nodes of one document nest by their source ranges). */
function within(inner: Node, outer: Node): boolean {
  if (inner === outer) return true;
  const [i, o] = [inner.range, outer.range];
  return !!i && !!o && o[0] <= i[0] && i[1] <= o[1];
}
