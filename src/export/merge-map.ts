/**
 * Merging one YAML map's fields with what the tenant has (export --merge):
 * change what differs, remove what the tenant no longer has, add what is new
 * inside a field the entry declares. A field a merge key (`<<: *defaults`)
 * gives is written on the entry itself, over what the merge key gives: the
 * map the key points at is shared, and stays as it is for every other entry.
 */
import { isMap, type Node, type Pair, type YAMLMap } from "yaml";
import { emptyLike, isObject, same, withMissing, type Json } from "./merge-rules.js";
import type { MergeFile } from "./merge-file.js";

/** YAML's merge key (as the editor reads its key): its pair gives fields, it is not one. */
const MERGE_KEY = "<<";

export interface MapMerge {
  f: MergeFile;
  map: YAMLMap;
  /** The map as the loader reads it: with what merge keys give. */
  current: Json;
  desired: Json;
  /** Fields never written. */
  skip: readonly string[];
  /** Fields only added to: what the folder has is kept. */
  keep?: readonly string[];
  label: string;
  /** An entry (its undeclared fields are not its to manage), or a map inside one (the tenant's new keys are added). */
  entry: boolean;
}

/** Where merge says what it did, and which of the record's fields it changed (merge-verify.ts checks no other did). */
export interface MergeNotes {
  updated: string[];
  byHand: string[];
  changed(field: string): void;
}

export function mergeMap(m: MapMerge, notes: MergeNotes, field?: string): void {
  const { f, map } = m;
  const declared = map.items.map((p) => f.keyOf(p as Pair)).filter((k) => k !== MERGE_KEY);
  const inherited = Object.keys(m.current).filter((k) => !declared.includes(k));
  const keys = [...new Set([...declared, ...inherited, ...(m.entry ? [] : Object.keys(m.desired))])];
  const desired = { ...m.desired };
  for (const key of m.keep ?? []) if (key in m.current) desired[key] = withMissing(m.current[key], desired[key]);
  const differs = keys.filter((key) => !m.skip.includes(key) && !same(m.current[key], desired[key]));
  if (!differs.length) return;
  for (const key of differs) notes.changed(field ?? key);
  // A flow map (`{ a: 1, b: 2 }`) that gains or loses a key is written again whole, in flow style.
  if (map.flow && differs.some((key) => desired[key] === undefined || !f.findPair(map, key))) {
    const raw = f.js(map) as Json;
    const whole: Json = {};
    for (const key of keys) {
      const value = m.skip.includes(key) ? raw[key] : desired[key];
      if (value !== undefined) whole[key] = value;
    }
    f.rewriteFlow(map, whole);
    for (const key of differs) notes.updated.push(`${f.at(map.range![0])}: ${m.label}: ${key}`);
    return;
  }
  const given = f.givenByMergeKeys(map);
  for (const key of differs) {
    const pair = f.findPair(map, key);
    if (pair) mergeDeclared({ ...m, desired }, pair, key, given.has(key), notes, field ?? key);
    else mergeUndeclared({ ...m, desired }, key, notes);
  }
}

/** A field the map declares. */
function mergeDeclared(m: MapMerge, pair: Pair, key: string, alsoMerged: boolean, notes: MergeNotes, field: string): void {
  const { f, map } = m;
  const cur = m.current[key];
  const want = m.desired[key];
  const where = f.at((pair.key as Node).range![0]);
  if (want === undefined) {
    // Removing the entry's own value would bring back what its merge key gives: written empty instead.
    const empty = alsoMerged ? emptyLike(cur) : undefined;
    if (empty !== undefined) {
      f.replaceValue(map, pair, empty);
      notes.updated.push(`${where}: ${m.label}: ${key} emptied (the tenant has none)`);
    } else if (!alsoMerged && f.removeField(map, pair)) notes.updated.push(`${where}: ${m.label}: ${key} removed (the tenant has none)`);
    else notes.byHand.push(`${where}: ${m.label}: ${key} is gone in the tenant, but it starts the entry's line: remove it by hand`);
  } else if (isMap(pair.value) && !pair.value.flow && isObject(cur) && isObject(want)) {
    mergeMap({ f, map: pair.value, current: cur, desired: want, skip: [], label: `${m.label}.${key}`, entry: false }, notes, field);
  } else if (Array.isArray(cur) && Array.isArray(want) && want.every((x) => typeof x !== "object") && cur.every((x) => typeof x !== "object")) {
    // A list of names keeps the folder's order: the names still there, then the new ones.
    const kept = cur.filter((x) => want.includes(x));
    f.replaceValue(map, pair, [...kept, ...want.filter((x) => !kept.includes(x))]);
    notes.updated.push(`${where}: ${m.label}: ${key}`);
  } else {
    f.replaceValue(map, pair, want);
    notes.updated.push(`${where}: ${m.label}: ${key}`);
  }
}

/** A field the map does not declare: new in the tenant (inside a declared field), or given by a merge key. */
function mergeUndeclared(m: MapMerge, key: string, notes: MergeNotes): void {
  const { f, map } = m;
  const where = f.at(map.range![0]);
  const fromMergeKey = key in m.current;
  const want = m.desired[key] ?? (fromMergeKey ? emptyLike(m.current[key]) : undefined);
  if (want === undefined) {
    notes.byHand.push(`${where}: ${m.label}: ${key} is gone in the tenant, but comes from a merge key (<<) and has no empty value: edit it by hand`);
    return;
  }
  f.addKey(map, key, want);
  notes.updated.push(`${where}: ${m.label}: ${key} ${fromMergeKey ? "written on the entry (it came from a merge key <<, which stays as it is)" : "added"}`);
}
