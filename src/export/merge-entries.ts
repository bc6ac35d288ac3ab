/**
 * export --merge over the entries the folder already declares: each is merged
 * with the tenant's record of the same identity (merge-map.ts), an attribute's
 * values one by one, a category's children below it. An entry the tenant lacks
 * is reported and kept; one whose rename the tenant has not seen yet is left
 * as the folder has it (its other fields merged from the record it renames).
 */
import { isMap, isSeq, type YAMLMap, type YAMLSeq } from "yaml";
import { KIND_NOUN, pathKey, type Kind } from "../model/catalogue.js";
import { mergeMap } from "./merge-map.js";
import { keepFields, SKIP, VALUE_SKIP, asExported, type Json } from "./merge-rules.js";
import { recordKey, type MergeState } from "./merge-state.js";
import type { MergeFile } from "./merge-file.js";
import { REMOVE } from "../manifest/overlay-rules.js";

/** A category's path in the tenant where it differs from the folder's (moved by hand, left in place): folder path key -> tenant path. */
export type CategoryFollow = (folderKey: string) => string[] | undefined;

export function mergeEntries(s: MergeState, follow: CategoryFollow): void {
  for (const f of s.files) {
    if (!f.doc || !isMap(f.doc.contents)) continue;
    for (const kind of s.input.kinds) {
      const seq = f.doc.contents.get(kind);
      if (!isSeq(seq)) continue;
      if (kind === "categories") visitCategories(s, f, seq, { folder: [], tenant: [] }, follow);
      else for (const item of seq.items) if (isMap(item)) mergeNamed(s, f, kind, item);
    }
  }
}

/** A previous_* list as identities (a path as its key). */
const names = (v: unknown): string[] => (Array.isArray(v) ? v.map((x) => (Array.isArray(x) ? pathKey(x.map(String)) : String(x))) : []);

/**
 * An entry the tenant does not have under its name may still have it under a previous one: a
 * rename the next apply makes. The old record is then neither new nor to be merged into the
 * entry (which says what it becomes): it is marked seen, and reported. The name found, if any.
 */
function pendingRename(
  s: MergeState,
  o: { seenKey: (old: string) => string; olds: string[]; have: (old: string) => boolean; where: string; label: string; fieldsMerged?: boolean },
): string | undefined {
  const old = o.olds.find(o.have);
  if (old === undefined) return undefined;
  s.seen.add(o.seenKey(old));
  const left = o.fieldsMerged ? "the name is left as the folder has it, its other fields merged" : "left as the folder has it";
  s.report.pendingRenames.push(`${o.where}: ${o.label} is "${old}" in the tenant (a rename the next apply makes; ${left})`);
  return old;
}

function mergeNamed(s: MergeState, f: MergeFile, kind: Exclude<Kind, "categories">, item: YAMLMap): void {
  const current = f.js(item) as Json;
  // An overlay's removal is no record: nothing of the tenant's is merged into it (overlay-split.ts reports it).
  if (REMOVE in current) return;
  const id = String(kind === "blocks" ? current.slug : current.name);
  const label = `${KIND_NOUN[kind]} "${id}"`;
  const wanted = s.wanted.get(kind)!;
  s.seen.add(recordKey(kind, id));
  // A name the folder renames away from is never added back: the loader would refuse the folder.
  for (const old of names(current.previous_names)) s.claimed.set(recordKey(kind, old), `${f.at(item.range![0])}: ${label}`);
  let desired = wanted.get(id);
  if (!desired) {
    const old = pendingRename(s, {
      seenKey: (o) => recordKey(kind, o),
      olds: names(current.previous_names),
      have: (o) => wanted.has(o),
      where: f.at(item.range![0]),
      label,
      fieldsMerged: true,
    });
    if (old === undefined) {
      s.report.onlyInFolder.push(`${f.at(item.range![0])}: ${label}`);
      return;
    }
    // The rename is the folder's; every other field is merged from the record it renames,
    // so a change made in the tenant meanwhile is not reverted by the next apply unseen.
    desired = wanted.get(old)!;
  }
  const skip = SKIP[kind];
  mergeMap({ f, map: item, current: asExported(kind, current), desired, skip, keep: keepFields(kind), label, entry: true }, s.notes(recordKey(kind, id)));
  if (kind === "attributes") mergeValues(s, f, item, id, desired);
}

function mergeValues(s: MergeState, f: MergeFile, item: YAMLMap, attribute: string, desired: Json): void {
  const want = (desired.values as Json[] | undefined) ?? [];
  const pair = f.findPair(item, "values");
  const seq = pair && isSeq(pair.value) ? pair.value : undefined;
  const have = new Set<string>();
  for (const v of seq?.items ?? []) {
    if (!isMap(v)) continue;
    const current = f.js(v) as Json;
    if (REMOVE in current) continue;
    const id = String(current.value);
    have.add(id);
    const d = want.find((x) => x.value === id);
    const label = `value "${id}" of attribute "${attribute}"`;
    if (d) {
      const m = { f, map: v, current: asExported("values", current), desired: d, skip: VALUE_SKIP, label: `attribute "${attribute}" value "${id}"` };
      mergeMap({ ...m, entry: true }, s.notes(recordKey("values", attribute, id)));
      continue;
    }
    const renamed = pendingRename(s, {
      seenKey: (old) => (have.add(old), old),
      olds: names(current.previous_values),
      have: (old) => want.some((x) => x.value === old),
      where: f.at(v.range![0]),
      label,
    });
    if (renamed === undefined) s.report.onlyInFolder.push(`${f.at(v.range![0])}: ${label}`);
  }
  // Identity first, as people write a value (export's field order puts slug first).
  const added = want.filter((x) => !have.has(String(x.value))).map(({ value, ...rest }) => ({ value, ...rest }));
  if (!added.length) return;
  for (const v of added) {
    s.report.added.push(`${f.name}: value "${String(v.value)}" of attribute "${attribute}"`);
    s.added.add(recordKey("values", attribute, String(v.value)));
  }
  if (seq && f.appendItems(seq, added)) return;
  if (pair) f.replaceValue(item, pair, [...((f.js(pair.value) as Json[] | null) ?? []), ...added]);
  else f.addKey(item, "values", added);
}

function visitCategories(s: MergeState, f: MergeFile, seq: YAMLSeq, parent: { folder: string[]; tenant: string[] }, follow: CategoryFollow): void {
  const tenant = s.wanted.get("categories")!;
  for (const item of seq.items) {
    if (!isMap(item) || item.has(REMOVE)) continue;
    const name = s.text.resolve(String(item.get("name")));
    const folderPath = [...parent.folder, name];
    const folderKey = pathKey(folderPath);
    const tenantPath = follow(folderKey) ?? [...parent.tenant, name];
    const key = pathKey(tenantPath);
    s.seen.add(recordKey("categories", key));
    s.categoryMaps.set(key, { f, map: item });
    const label = `category "${folderKey}"`;
    const desired = tenant.get(key);
    const current = f.js(item) as Json;
    if (desired) {
      const m = { f, map: item, current: asExported("categories", current), desired, skip: SKIP.categories, keep: keepFields("categories"), label };
      mergeMap({ ...m, entry: true }, s.notes(recordKey("categories", folderKey)));
    } else {
      const renamed = pendingRename(s, {
        // The old record's subtree moves with it: none of it is new.
        seenKey: (old) => {
          for (const k of tenant.keys()) if (k.startsWith(`${old}/`)) s.seen.add(recordKey("categories", k));
          return recordKey("categories", old);
        },
        olds: [...names(current.previous_names).map((n) => pathKey([...parent.tenant, n])), ...names(current.previous_paths)],
        have: (old) => tenant.has(old),
        where: f.at(item.range![0]),
        label,
      });
      if (renamed === undefined) s.report.onlyInFolder.push(`${f.at(item.range![0])}: ${label}`);
    }
    const children = item.get("children");
    if (isSeq(children)) visitCategories(s, f, children, { folder: folderPath, tenant: tenantPath }, follow);
  }
}
