/**
 * The fold of a fleet's plans for the combined review: a change the same in several tenants is
 * shown once, with the tenants it applies to; what is left is each tenant's own. Two actions are
 * the same when everything a review shows of them is equal: address, op, resource type, changes
 * (field, before, after, unknown, long text), notes, flags and where a rename or move comes from.
 * ids and refs differ from tenant to tenant and are left out of the comparison.
 */
import { canonicalJson } from "../../plan/canonical-json.js";
import type { FleetPlan } from "../../plan/fleet.js";
import type { Action, Plan } from "../../plan/types.js";

/** Changes shared by the same set of tenants, in the order the first of them plans them. */
export interface SharedGroup {
  tenants: string[];
  actions: Action[];
}

export interface FleetFold {
  /** The tenants with a plan (sorted); a change's "N of M" counts among these. */
  planned: string[];
  /** Every tenant of the fleet, planned or not: the heading says how many of them could not be planned. */
  total: number;
  /** Groups of changes found in two or more tenants: the most tenants first, then by the tenants' names. */
  shared: SharedGroup[];
  /** Each planned tenant's actions found in no other tenant, in its plan's order. */
  own: Map<string, Action[]>;
}

/**
 * What makes two tenants' actions the same change: what the review prints of it. A delete's notes
 * ("deletes its 5 type values") and its flags (destructive, blocked) differ from tenant to tenant
 * with the tenant's data, and a fold that left them out would show one tenant's words for all.
 */
export function sameChangeKey(a: Action): string {
  const changes = a.changes.map((c) => ({ field: c.field, before: c.before, after: c.after, unknown: c.before_unknown === true, long: c.long_text === true }));
  // A flag set false and a flag left out read the same.
  const flags = Object.entries(a.flags)
    .filter(([, on]) => on === true)
    .map(([name]) => name)
    .sort();
  return canonicalJson([a.address, a.op, a.type, changes, a.notes ?? [], flags, a.previous ?? null]);
}

export function foldFleet(fleet: FleetPlan): FleetFold {
  const plans = fleet.tenants.filter((t): t is typeof t & { plan: Plan } => t.plan !== undefined);
  const seen = new Map<string, { action: Action; tenants: string[] }>();
  const keys = new Map<Action, string>();
  for (const { tenant, plan } of plans) {
    for (const a of plan.actions) {
      const key = sameChangeKey(a);
      keys.set(a, key);
      const entry = seen.get(key);
      if (!entry) seen.set(key, { action: a, tenants: [tenant] });
      // An address twice in one plan (it cannot be; plans have unique addresses) would count once.
      else if (entry.tenants.at(-1) !== tenant) entry.tenants.push(tenant);
    }
  }
  const groups = new Map<string, SharedGroup>();
  const sharedKeys = new Set<string>();
  for (const [key, { action, tenants }] of seen) {
    if (tenants.length < 2) continue;
    sharedKeys.add(key);
    const id = tenants.join("\u0000");
    const group = groups.get(id) ?? { tenants, actions: [] };
    group.actions.push(action);
    groups.set(id, group);
  }
  const own = new Map<string, Action[]>();
  for (const { tenant, plan } of plans)
    own.set(
      tenant,
      plan.actions.filter((a) => !sharedKeys.has(keys.get(a)!)),
    );
  const shared = [...groups.values()].sort((x, y) => y.tenants.length - x.tenants.length || compareLists(x.tenants, y.tenants));
  return { planned: plans.map((p) => p.tenant), total: fleet.tenants.length, shared, own };
}

function compareLists(x: readonly string[], y: readonly string[]): number {
  for (let i = 0; i < Math.min(x.length, y.length); i++) if (x[i] !== y[i]) return x[i]! < y[i]! ? -1 : 1;
  return x.length - y.length;
}

/**
 * "in all 20 tenants", "in 18 of 20 tenants: all but prod-apac, prod-us", "in 2 of 20 tenants: prod-eu, prod-us".
 * When some of the `total` tenants could not be planned, the count is said to be among those that
 * could, and how many could not: "in all 2 tenants that could be planned (2 of 4 could not be
 * planned)"; a bare "all 2 tenants" under a plan for 4 would read as all of the fleet.
 */
export function tenantsLabel(tenants: readonly string[], planned: readonly string[], total = planned.length): string {
  const n = tenants.length;
  const m = planned.length;
  const unplanned = total - m;
  const among = unplanned ? " that could be planned" : "";
  const after = unplanned ? ` (${unplanned} of ${total} could not be planned)` : "";
  if (n === m) return `in all ${m} tenants${among}${after}`;
  const having = new Set(tenants);
  const without = planned.filter((t) => !having.has(t));
  return `in ${n} of ${m} tenants${among}: ${without.length < n ? `all but ${without.join(", ")}` : tenants.join(", ")}${after}`;
}
