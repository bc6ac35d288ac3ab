/**
 * export --merge: the tenant's records no entry of the folder stands for are
 * added, each where its kind already lives (the first file that declares it,
 * else `<kind>.yaml`), a new category subtree whole under its parent's entry.
 * A name the folder lists as a previous one is never added back.
 */
import { isMap, isSeq } from "yaml";
import { comparePaths, KIND_NOUN, pathKey, type Kind } from "../model/catalogue.js";
import { nestCategories } from "./files.js";
import type { Json } from "./merge-rules.js";
import { entryName, recordKey, type MergeState } from "./merge-state.js";
import { renderYaml, MergeFile } from "./merge-file.js";

/** New files (`<kind>.yaml` that did not exist), by name. */
export function addNewEntries(s: MergeState): Map<string, MergeFile> {
  const created = new Map<string, MergeFile>();
  for (const kind of s.input.kinds) {
    if (kind === "categories") continue;
    const fresh = [...s.wanted.get(kind)!.entries()]
      .filter(([id]) => {
        const key = recordKey(kind, id);
        const by = s.claimed.get(key);
        if (by && !s.seen.has(key))
          s.report.pendingRenames.push(
            `${by} lists "${id}" as a previous name, and the tenant has both: "${id}" is not added (the plan deletes or keeps it as your prune policy says)`,
          );
        return !s.seen.has(key) && !by;
      })
      .map(([, e]) => e);
    if (fresh.length) appendToKind(s, created, kind, fresh);
  }
  if (s.input.kinds.includes("categories")) addCategories(s, created);
  return created;
}

/** Where a kind's new entries go: the first file that declares the kind, else `<kind>.yaml`. */
function appendToKind(s: MergeState, created: Map<string, MergeFile>, kind: Kind, items: unknown[]): void {
  const added = (file: string) => {
    for (const e of items) {
      s.report.added.push(`${file}: ${KIND_NOUN[kind]} "${entryName(kind, e as Json)}"`);
      // New categories are known by path (addCategories).
      if (kind !== "categories") s.added.add(recordKey(kind, entryName(kind, e as Json)));
      // A new attribute's type values are records of their own (an overlay's identity-only entry brings nothing else).
      if (kind === "attributes")
        for (const v of ((e as Json).values as Json[] | undefined) ?? []) s.added.add(recordKey("values", entryName(kind, e as Json), String(v.value)));
    }
  };
  for (const f of s.files) {
    const seq = f.doc && isMap(f.doc.contents) ? f.doc.contents.get(kind) : undefined;
    if (isSeq(seq) && f.appendItems(seq, items)) return added(f.name);
  }
  const name = s.input.overlay?.newFile(kind) ?? `${kind}.yaml`;
  const existing = s.files.find((f) => f.name === name);
  const body = renderYaml({ [kind]: items }, s.text);
  if (existing) existing.insertLines(existing.text.length, `\n${body}`);
  else created.set(name, new MergeFile(name, `${s.input.header(kind)}${body}`, s.text, { parse: false }));
  added(name);
}

/** Each new category subtree goes whole under its parent's entry (or at the root); a parent's new children in one edit. */
function addCategories(s: MergeState, created: Map<string, MergeFile>): void {
  const fresh = s.input.exported.categories.filter((c) => !s.seen.has(recordKey("categories", pathKey(c.path)))).sort((a, b) => comparePaths(a.path, b.path));
  for (const c of fresh) s.added.add(recordKey("categories", pathKey(c.path)));
  const freshKeys = new Set(fresh.map((c) => pathKey(c.path)));
  const roots = fresh.filter((c) => !freshKeys.has(pathKey(c.path.slice(0, -1))));
  // The subtrees, in the order of their roots (nestCategories nests each under the nearest category it is given).
  const items = nestCategories(fresh);
  const rootItems: unknown[] = [];
  const byParent = new Map<string, unknown[]>();
  roots.forEach((root, i) => {
    const parentKey = pathKey(root.path.slice(0, -1));
    if (root.path.length === 1 || !s.categoryMaps.has(parentKey)) return void rootItems.push(items[i]);
    const { f } = s.categoryMaps.get(parentKey)!;
    s.report.added.push(`${f.name}: category "${pathKey(root.path)}"`);
    byParent.set(parentKey, [...(byParent.get(parentKey) ?? []), items[i]]);
  });
  for (const [parentKey, children] of byParent) {
    const { f, map } = s.categoryMaps.get(parentKey)!;
    const pair = f.findPair(map, "children");
    if (pair && isSeq(pair.value) && f.appendItems(pair.value, children)) continue;
    if (pair) f.replaceValue(map, pair, [...((f.js(pair.value) as unknown[] | null) ?? []), ...children]);
    else f.addKey(map, "children", children);
  }
  if (rootItems.length) appendToKind(s, created, "categories", rootItems);
}
