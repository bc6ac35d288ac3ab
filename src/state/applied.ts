/**
 * What pimctl last applied, per record: the ledger's `applied` section holds, by table and
 * record id, a fingerprint of the record's manifest entry when an apply last left the tenant's
 * record as that entry says. drift compares it with the entry today: the same entry means a
 * difference was made in the tenant; another entry means the manifests changed since the last
 * apply (docs/drift.md). One fingerprint per record keeps the ledger small (16 hex digits an id,
 * like `names`); the price is that a record changed on both sides is named as the manifests'.
 */
import { createHash } from "node:crypto";
import { pathKey, type Catalogue, type OwnedTable } from "../model/catalogue.js";
import { canonicalJson } from "../plan/canonical-json.js";
import { printAddress, type RootType } from "../plan/address.js";
import type { Ledger } from "./ledger.js";

/** The root types whose manifest entries the ledger fingerprints by id, with the table their ids are numbered in. */
export const APPLIED_KINDS: Readonly<Partial<Record<RootType, OwnedTable>>> = {
  display_group: "display_groups",
  attribute: "attributes",
  attribute_set: "attribute_sets",
  brand: "brands",
  category: "categories",
};

/** A manifest entry as an apply makes the tenant hold it: not where it is written, nor its earlier names. */
function appliedView(entry: object): object {
  const { source: _s, previous_names: _n, previous_paths: _p, ...rest } = entry as Record<string, unknown>;
  if (Array.isArray(rest.values)) rest.values = rest.values.map(({ source: _vs, previous_values: _v, ...value }: Record<string, unknown>) => value);
  return rest;
}

/** The fingerprint of a record's manifest entry: 16 hex digits of the sha256 of its canonical JSON. */
export function entryPrint(entry: object): string {
  return createHash("sha256")
    .update(canonicalJson(appliedView(entry)))
    .digest("hex")
    .slice(0, 16);
}

/** Finds a root record's manifest entry by its type and key (its name; a category's path key). */
export function entryIndex(desired: Catalogue): (type: RootType, key: string) => object | undefined {
  const lists: Partial<Record<RootType, ReadonlyArray<{ name: string; path?: string[] }>>> = {
    display_group: desired.display_groups,
    attribute: desired.attributes,
    attribute_set: desired.attribute_sets,
    brand: desired.brands,
    category: desired.categories,
  };
  const maps = new Map<RootType, Map<string, object>>();
  return (type, key) => {
    let map = maps.get(type);
    if (!map) maps.set(type, (map = new Map((lists[type] ?? []).map((e) => [e.path ? pathKey(e.path) : e.name, e]))));
    return map.get(key);
  };
}

type ByTableAndId = Partial<Record<OwnedTable, Record<string, string>>>;

/** Table -> id -> the identity apply records (its key: a name, a category's path key), as `recordNames` takes it. */
type KeysByTableAndId = Partial<Record<string, Record<string, string | { key: string }>>>;

/**
 * The fingerprints of the manifest entries of records known by id (`names`: table -> id -> the
 * record's key, a name or a category's path key, or its identity with that key), by table and id;
 * `keep` leaves out records by their address.
 */
export function entryPrints(desired: Catalogue, names: ReadonlyArray<KeysByTableAndId>, keep: (address: string) => boolean = () => true): ByTableAndId {
  const entryOf = entryIndex(desired);
  const out: ByTableAndId = {};
  for (const [type, table] of Object.entries(APPLIED_KINDS) as Array<[RootType, OwnedTable]>) {
    for (const [id, identity] of names.flatMap((n) => Object.entries(n[table] ?? {}))) {
      const key = typeof identity === "string" ? identity : identity.key;
      const entry = entryOf(type, key);
      if (entry && keep(printAddress({ segments: [{ type, key }] }))) (out[table] ??= {})[id] = entryPrint(entry);
    }
  }
  return out;
}

/** Remember, by table and record id, the fingerprints of the entries an apply left the tenant's records as. */
export function recordApplied(ledger: Ledger, prints: ByTableAndId): void {
  for (const [table, byId] of Object.entries(prints)) Object.assign((ledger.applied[table as OwnedTable] ??= {}), byId);
}
