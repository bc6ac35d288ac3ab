/**
 * What pimctl last applied, per record: the ledger's `applied` section holds, by prune kind and
 * record id, a fingerprint of the record's manifest entry when an apply last left the tenant's
 * record as that entry says. drift compares it with the entry today: the same entry means a
 * difference was made in the tenant; another entry means the manifests changed since the last
 * apply (README "Drift"). One fingerprint per record keeps the ledger small (16 hex digits an id,
 * like `names`); the price is that a record changed on both sides is named as the manifests'.
 */
import { createHash } from "node:crypto";
import { pathKey, type Catalogue, type PruneKind } from "../model/catalogue.js";
import { canonicalJson } from "../plan/canonical-json.js";
import { printAddress, type RootType } from "../plan/address.js";
import type { Ledger } from "./ledger.js";

/** The root types whose records the ledger knows by id (as in `names`), with their prune kind. */
export const APPLIED_KINDS: Readonly<Partial<Record<RootType, PruneKind>>> = {
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

type ByKindAndId = Partial<Record<PruneKind, Record<string, string>>>;

/**
 * The fingerprints of the manifest entries of records known by id (`names`: prune kind -> id -> name,
 * a category's path key), by prune kind and id; `keep` leaves out records by their address.
 */
export function entryPrints(desired: Catalogue, names: ReadonlyArray<ByKindAndId>, keep: (address: string) => boolean = () => true): ByKindAndId {
  const entryOf = entryIndex(desired);
  const out: ByKindAndId = {};
  for (const [type, kind] of Object.entries(APPLIED_KINDS) as Array<[RootType, PruneKind]>) {
    for (const [id, key] of names.flatMap((n) => Object.entries(n[kind] ?? {}))) {
      const entry = entryOf(type, key);
      if (entry && keep(printAddress({ segments: [{ type, key }] }))) (out[kind] ??= {})[id] = entryPrint(entry);
    }
  }
  return out;
}

/** Remember, by prune kind and record id, the fingerprints of the entries an apply left the tenant's records as. */
export function recordApplied(ledger: Ledger, prints: Partial<Record<PruneKind, Record<string, string>>>): void {
  for (const [kind, byId] of Object.entries(prints)) Object.assign((ledger.applied[kind as PruneKind] ??= {}), byId);
}
