/**
 * What an apply changes in the ledger's ownership, per table (where an id is unique): the ids it
 * created and found, the identity of each (key and fingerprint: src/plan/identity.ts), the ids
 * it deleted and what each delete took along, and the manifest entries it left records as.
 */
import type { Catalogue, OwnedTable } from "../model/catalogue.js";
import type { RemoteCatalogue } from "../model/remote.js";
import type { Ledger } from "../state/ledger.js";
import { rootAddress } from "../plan/address.js";
import { parseSelector } from "../plan/selectors.js";
import { entryPrints } from "../state/applied.js";
import type { AppliedIdentity } from "../plan/ownership.js";
import type { PlanOutcome } from "../plan/planner.js";
import type { Action, Plan } from "../plan/types.js";
import type { ApplyReport } from "../apply/index.js";

/** The table a resource type's records are numbered in, for ownership. */
export const OWNED_TABLE: Partial<Record<string, OwnedTable>> = {
  display_group: "display_groups",
  attribute: "attributes",
  type_value: "type_values",
  attribute_set: "attribute_sets",
  block: "blocks",
  brand: "brands",
  category: "categories",
  brand_asset: "brand_assets",
  category_asset: "category_assets",
};

export type IdsByTable = Partial<Record<OwnedTable, number[]>>;

/** Ids of records this run created, by table. */
export function createdByKind(p: Plan, report: ApplyReport): IdsByTable {
  const typeOf = new Map(p.actions.map((a) => [a.address, a.type]));
  const out: IdsByTable = {};
  for (const r of report.results) {
    const table = r.created_id === undefined ? undefined : OWNED_TABLE[typeOf.get(r.address) ?? ""];
    if (table) (out[table] ??= []).push(r.created_id!);
  }
  return out;
}

/**
 * The identities apply records, by table and id: those of the declared records the plan found
 * (unless their own action failed: the tenant may still hold what they were), and those of the
 * records it created, under the ids the tenant gave them (an asset's: its owner, "brand:12").
 */
export function appliedIdentities(p: Plan, report: ApplyReport, names: PlanOutcome["names"]): Partial<Record<OwnedTable, Record<string, AppliedIdentity>>> {
  const result = new Map(report.results.map((r) => [r.address, r]));
  // "<table>:<id>" -> the address of the record's own action (its update or rename), where it has one.
  const own = new Map<string, string>();
  for (const a of p.actions) if (a.refs.self && "id" in a.refs.self && OWNED_TABLE[a.type]) own.set(`${OWNED_TABLE[a.type]}:${a.refs.self.id}`, a.address);
  const out: Partial<Record<OwnedTable, Record<string, AppliedIdentity>>> = {};
  for (const [table, byId] of Object.entries(names.byId()) as Array<[OwnedTable, Record<string, AppliedIdentity>]>) {
    for (const [id, identity] of Object.entries(byId)) {
      const action = own.get(`${table}:${id}`);
      if (action !== undefined && result.get(action)?.status !== "done") continue;
      (out[table] ??= {})[id] = identity;
    }
  }
  const createdId = (address: string) => result.get(address)?.created_id;
  const byAddress = names.byAddress();
  for (const a of p.actions) {
    const id = createdId(a.address);
    if (id === undefined) continue;
    const identity = byAddress[a.address] ?? assetIdentity(a, createdId);
    const table = byAddress[a.address]?.table ?? OWNED_TABLE[a.type];
    if (!identity || !table) continue;
    (out[table] ??= {})[String(id)] = identity.fingerprint === undefined ? { key: identity.key } : { key: identity.key, fingerprint: identity.fingerprint };
  }
  return out;
}

/** A created asset is remembered by its owner ("brand:12"), known once the owner exists. */
function assetIdentity(a: Action, createdId: (address: string) => number | undefined): AppliedIdentity | undefined {
  if (a.type !== "brand_asset" && a.type !== "category_asset") return undefined;
  const owner = a.refs.owner;
  const id = owner && ("id" in owner ? owner.id : createdId(owner.address));
  return id === undefined ? undefined : { key: `${a.type === "brand_asset" ? "brand" : "category"}:${id}` };
}

/** Ids of records this run deleted, by table, with the records each delete took along (`removedWith`). */
export function deletedByKind(p: Plan, report: ApplyReport, goneWith: ReadonlyMap<string, IdsByTable>): IdsByTable {
  const done = new Set(report.results.filter((r) => r.status === "done").map((r) => r.address));
  const out: IdsByTable = {};
  for (const a of p.actions) {
    const table = OWNED_TABLE[a.type];
    const self = a.refs.self;
    if (a.op !== "delete" || !table || !done.has(a.address) || !self || !("id" in self)) continue;
    (out[table] ??= []).push(self.id);
    for (const [t, ids] of Object.entries(goneWith.get(a.address) ?? {}) as Array<[OwnedTable, number[]]>) (out[t] ??= []).push(...ids);
  }
  return out;
}

/**
 * What each delete takes along in the tenant, by table: a brand's or a category's assets
 * (those read, and those the ledger remembers writing), an attribute's type values. Without it
 * their ids would stay in `owned` for records that are gone, and a tenant that reuses ids would
 * hand them to records someone made by hand.
 */
export function removedWith(p: Plan, remote: RemoteCatalogue, ledger: Ledger): Map<string, IdsByTable> {
  const byId = <T extends { id: number }>(list: readonly T[]) => new Map(list.map((x) => [x.id, x]));
  const brands = byId(remote.brands);
  const categories = byId(remote.categories);
  const attributes = byId(remote.attributes);
  const assetsOf = (owner: "brand" | "category", id: number, read: ReadonlyArray<{ id: number }> | undefined): number[] => [
    ...new Set([...(read ?? []).map((x) => x.id), ...Object.keys(ledger.assets[`${owner}:${id}`] ?? {}).map(Number)]),
  ];
  const out = new Map<string, IdsByTable>();
  for (const a of p.actions) {
    const self = a.refs.self;
    if (a.op !== "delete" || !self || !("id" in self)) continue;
    if (a.type === "brand") out.set(a.address, { brand_assets: assetsOf("brand", self.id, brands.get(self.id)?.assets) });
    else if (a.type === "category") out.set(a.address, { category_assets: assetsOf("category", self.id, categories.get(self.id)?.assets) });
    else if (a.type === "attribute") out.set(a.address, { type_values: (attributes.get(self.id)?.values ?? []).map((v) => v.id) });
  }
  return out;
}

/**
 * The records this apply left as their manifest entries say, by table and id, with each entry's
 * fingerprint (the ledger's `applied`, state/applied.ts): every record whose identity apply records
 * (`identities`, from appliedIdentities: the declared records found, the records created) whose
 * every action was done (those API v1 cannot carry out aside), and that the plan's targets,
 * excludes and ignore rules did not leave out (a left out record may differ still).
 */
export function appliedPrints(
  p: Plan,
  report: ApplyReport,
  desired: Catalogue,
  identities: Partial<Record<OwnedTable, Record<string, AppliedIdentity>>>,
  ignore: readonly string[],
): Partial<Record<OwnedTable, Record<string, string>>> {
  const status = new Map(report.results.map((r) => [r.address, r.status]));
  const unfinished = new Set(p.actions.filter((a) => a.op !== "unsupported" && status.get(a.address) !== "done").map((a) => rootAddress(a.address)));
  const targets = (p.basis?.targets ?? []).map(parseSelector);
  const excludes = [...(p.basis?.excludes ?? []), ...ignore].map(parseSelector);
  const inScope = (address: string) => (!targets.length || targets.some((t) => t.matches(address))) && !excludes.some((e) => e.matches(address));
  return entryPrints(desired, [identities], (address) => !unfinished.has(address) && inScope(address));
}
