/**
 * The records the tenant has under another name or path than the folder's
 * entry, where the plan takes them for the same records (renamed or moved by
 * hand in the PIM, found by the id the ledger remembers). Not a rule of its
 * own: the planner's decision, read off the plan it makes of the folder
 * against the tenant (a rename or move whose previous address came from the
 * ledger: plan/match.ts, plan/kinds/), so whatever proves identity there
 * decides here too. export --merge makes those entries follow the record.
 */
import { pathKey, type Kind } from "../model/catalogue.js";
import { ROOT_KIND, parseAddress, type RootType } from "../plan/address.js";
import { buildPlan, type PlanInput } from "../plan/planner.js";
import type { HandRename } from "./merge-state.js";

export function renamedByHand(input: PlanInput): HandRename[] {
  if (!entryTheTenantLacks(input)) return [];
  const out: HandRename[] = [];
  for (const action of buildPlan(input).plan.actions) {
    if (action.previous?.via !== "ledger") continue;
    const now = parseAddress(action.address)?.segments;
    const before = parseAddress(action.previous.address)?.segments;
    // A record of its own (not a value, web id or version of one), the same kind on both sides.
    if (now?.length !== 1 || before?.length !== 1 || now[0].type !== before[0].type) continue;
    const kind = ROOT_KIND[now[0].type as RootType];
    if (kind) out.push({ kind, from: now[0].key, to: before[0].key });
  }
  return out;
}

/**
 * Whether some entry's identity is not in the tenant: a rename needs one, so without it (a folder
 * that matches the tenant by name, the usual merge) no plan is made.
 */
function entryTheTenantLacks({ desired, remote }: PlanInput): boolean {
  const key = (kind: Kind, r: { name?: string; slug?: string; path?: string[] }) =>
    kind === "categories" ? pathKey(r.path!) : String(kind === "blocks" ? r.slug : r.name);
  return desired.managed.some((kind) => {
    const have = new Set((remote[kind] as Array<{ name?: string; slug?: string; path?: string[] }>).map((r) => key(kind, r)));
    return (desired[kind] as Array<{ name?: string; slug?: string; path?: string[] }>).some((d) => !have.has(key(kind, d)));
  });
}
