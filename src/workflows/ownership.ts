/**
 * What an apply changes in the ledger's ownership: the ids it created (and their names),
 * the ids it deleted and what each delete took along, and the entries it left records as.
 */
import type { RemoteCatalogue } from "../model/remote.js";
import type { Ledger } from "../state/ledger.js";
import type { Catalogue } from "../model/catalogue.js";
import { lastKey, rootAddress } from "../plan/address.js";
import { parseSelector } from "../plan/selectors.js";
import { entryPrints } from "../state/applied.js";
import type { PruneKind } from "../plan/policy.js";
import type { Plan } from "../plan/types.js";
import type { ApplyReport } from "../apply/index.js";

/** The prune kind a resource type's records count under, for ownership. */
export const OWNED_KIND: Partial<Record<string, PruneKind>> = {
  display_group: "display_groups",
  attribute: "attributes",
  type_value: "type_values",
  attribute_set: "attribute_sets",
  block: "blocks",
  brand: "brands",
  category: "categories",
  brand_asset: "assets",
  category_asset: "assets",
};

/** Ids of records this run created, by prune kind. */
export function createdByKind(p: Plan, report: ApplyReport): Partial<Record<PruneKind, number[]>> {
  const typeOf = new Map(p.actions.map((a) => [a.address, a.type]));
  const out: Partial<Record<PruneKind, number[]>> = {};
  for (const r of report.results) {
    const kind = r.created_id === undefined ? undefined : OWNED_KIND[typeOf.get(r.address) ?? ""];
    if (kind) (out[kind] ??= []).push(r.created_id!);
  }
  return out;
}

/** Names of the named kinds' records this run created, by prune kind and id (a category's: its path key, the address's key). */
export function createdNames(p: Plan, report: ApplyReport): Partial<Record<PruneKind, Record<string, string>>> {
  const byAddress = new Map(p.actions.map((a) => [a.address, a]));
  const out: Partial<Record<PruneKind, Record<string, string>>> = {};
  for (const r of report.results) {
    const a = r.created_id === undefined ? undefined : byAddress.get(r.address);
    const kind = a && (NAMED_TYPES.has(a.type) || a.type === "category") ? OWNED_KIND[a.type] : undefined;
    const name = a && lastKey(a.address);
    if (kind && name !== undefined) (out[kind] ??= {})[String(r.created_id)] = name;
  }
  return out;
}

/** The resource types whose identity is a unique name (the ledger remembers it per id). */
export const NAMED_TYPES: ReadonlySet<string> = new Set(["display_group", "attribute", "attribute_set", "brand"]);

export type IdsByKind = Partial<Record<PruneKind, number[]>>;

/** Ids of records this run deleted, by prune kind, with the records each delete took along (`removedWith`). */
export function deletedByKind(p: Plan, report: ApplyReport, goneWith: ReadonlyMap<string, IdsByKind>): IdsByKind {
  const done = new Set(report.results.filter((r) => r.status === "done").map((r) => r.address));
  const out: IdsByKind = {};
  for (const a of p.actions) {
    const kind = OWNED_KIND[a.type];
    const self = a.refs.self;
    if (a.op !== "delete" || !kind || !done.has(a.address) || !self || !("id" in self)) continue;
    (out[kind] ??= []).push(self.id);
    for (const [k, ids] of Object.entries(goneWith.get(a.address) ?? {}) as Array<[PruneKind, number[]]>) (out[k] ??= []).push(...ids);
  }
  return out;
}

/**
 * What each delete takes along in the tenant, by prune kind: a brand's or a
 * category's assets (those read, and those the ledger remembers writing), an
 * attribute's type values. Without it their ids would stay in `owned` for
 * records that are gone, and a tenant that reuses ids would hand them to
 * records someone made by hand.
 */
export function removedWith(p: Plan, remote: RemoteCatalogue, ledger: Ledger): Map<string, IdsByKind> {
  const byId = <T extends { id: number }>(list: readonly T[]) => new Map(list.map((x) => [x.id, x]));
  const brands = byId(remote.brands);
  const categories = byId(remote.categories);
  const attributes = byId(remote.attributes);
  const assetsOf = (owner: "brand" | "category", id: number, read: ReadonlyArray<{ id: number }> | undefined): number[] => [
    ...new Set([...(read ?? []).map((x) => x.id), ...Object.keys(ledger.assets[`${owner}:${id}`] ?? {}).map(Number)]),
  ];
  const out = new Map<string, IdsByKind>();
  for (const a of p.actions) {
    const self = a.refs.self;
    if (a.op !== "delete" || !self || !("id" in self)) continue;
    if (a.type === "brand") out.set(a.address, { assets: assetsOf("brand", self.id, brands.get(self.id)?.assets) });
    else if (a.type === "category") out.set(a.address, { assets: assetsOf("category", self.id, categories.get(self.id)?.assets) });
    else if (a.type === "attribute") out.set(a.address, { type_values: (attributes.get(self.id)?.values ?? []).map((v) => v.id) });
  }
  return out;
}

/**
 * The records this apply left as their manifest entries say, by prune kind and id, with each entry's
 * fingerprint (the ledger's `applied`, state/applied.ts): every record the plan knows by id (`names`:
 * the declared records found, the records created) whose every action was done (those API v1 cannot
 * carry out aside), and that the plan's targets, excludes and ignore rules did not leave out (a left
 * out record may differ still).
 */
export function appliedPrints(
  p: Plan,
  report: ApplyReport,
  desired: Catalogue,
  /** Record ids and names by prune kind: those the plan found, those the apply created. */
  names: ReadonlyArray<Partial<Record<PruneKind, Record<string, string>>>>,
  ignore: readonly string[],
): Partial<Record<PruneKind, Record<string, string>>> {
  const status = new Map(report.results.map((r) => [r.address, r.status]));
  const unfinished = new Set(p.actions.filter((a) => a.op !== "unsupported" && status.get(a.address) !== "done").map((a) => rootAddress(a.address)));
  const targets = (p.basis?.targets ?? []).map(parseSelector);
  const excludes = [...(p.basis?.excludes ?? []), ...ignore].map(parseSelector);
  const inScope = (address: string) => (!targets.length || targets.some((t) => t.matches(address))) && !excludes.some((e) => e.matches(address));
  return entryPrints(desired, names, (address) => !unfinished.has(address) && inScope(address));
}
