/**
 * Where a difference comes from: made in the tenant since the last apply, or introduced by the
 * manifests since (an imported translation not applied yet, any manifest edit, a record added or
 * removed). How drift knows: at each apply the ledger records, by record id, a fingerprint of
 * each record's manifest entry as applied (src/state/applied.ts). Today's entry with the same
 * fingerprint means the manifests are as applied, so the tenant changed; another fingerprint
 * means the manifests changed. Without a fingerprint (never applied by a pimctl that records
 * them, or left out of the applies) nothing is claimed. Pure.
 */
import type { Catalogue } from "../model/catalogue.js";
import { parseAddress, printAddress, type RootType } from "../plan/address.js";
import type { Action } from "../plan/types.js";
import { APPLIED_KINDS, entryIndex, entryPrint } from "../state/applied.js";
import type { Ledger } from "../state/ledger.js";

export type Origin = "tenant" | "manifests";

export interface OriginClaim {
  origin: Origin;
  /** For the manifests' differences: what they did since the last apply, for people. */
  note?: string;
}

const NOT_APPLIED_YET = "since the last apply (not applied yet)";
export const MANIFESTS_CHANGED = `the manifests changed this record ${NOT_APPLIED_YET}`;
export const MANIFESTS_ADDED = `the manifests added it ${NOT_APPLIED_YET}`;
export const MANIFESTS_REMOVED = `the manifests removed it ${NOT_APPLIED_YET}`;

/**
 * Each action's origin, by address, where the ledger can tell. `fromLedger` gives ids of records
 * deleted by hand (drift's ledgerIds): such a record is missing because the tenant lost it.
 */
export function origins(actions: readonly Action[], desired: Catalogue, ledger: Ledger, fromLedger: ReadonlyMap<string, number>): Map<string, OriginClaim> {
  const entryOf = entryIndex(desired);
  const out = new Map<string, OriginClaim>();
  for (const a of actions) {
    const root = parseAddress(a.address)?.segments[0];
    const type = root?.type as RootType | undefined;
    const kind = type && APPLIED_KINDS[type];
    const applied = kind && ledger.applied[kind];
    // No apply recorded this kind's entries: nothing to compare with.
    if (!root || !type || !kind || !applied) continue;
    const rootAddress = printAddress({ segments: [root] });
    const ref = a.address === rootAddress ? a.refs.self : a.refs[type];
    const claim = claimFor(a, {
      rootAddress,
      id: ref && "id" in ref ? ref.id : fromLedger.get(rootAddress),
      entry: entryOf(type, root.key),
      applied,
      // A ledger that records no names of the kind (written before it did) cannot say a name is new.
      knownName: () => (ledger.names[kind] ? Object.values(ledger.names[kind]).includes(root.key) : undefined),
    });
    if (claim) out.set(a.address, claim);
  }
  return out;
}

function claimFor(
  a: Action,
  r: { rootAddress: string; id: number | undefined; entry: object | undefined; applied: Record<string, string>; knownName: () => boolean | undefined },
): OriginClaim | undefined {
  // Not in the manifests (a delete, pruning on): removed from them, when pimctl applied it.
  if (!r.entry) return r.id !== undefined && r.applied[String(r.id)] !== undefined ? { origin: "manifests", note: MANIFESTS_REMOVED } : undefined;
  // Not in the tenant: lost there when pimctl applied it (its id or its name is known), else new in the manifests.
  if (r.id === undefined) {
    const known = r.knownName();
    return known === undefined ? undefined : known ? { origin: "tenant" } : { origin: "manifests", note: MANIFESTS_ADDED };
  }
  if (a.op === "create" && a.address === r.rootAddress) return { origin: "tenant" };
  const print = r.applied[String(r.id)];
  if (print === undefined) return undefined;
  return print === entryPrint(r.entry) ? { origin: "tenant" } : { origin: "manifests", note: MANIFESTS_CHANGED };
}
