/**
 * The combined review's fold and exit code (issue 35, contract 4): two actions are the same change
 * when address, op, type and changes are equal, whatever their ids and refs; a change shared by
 * some tenants names them; the fleet's exit code is the worst of the tenants', 1 over 3 over 2 over 0.
 */
import { describe, expect, it } from "vitest";
import { buildPlan } from "../../src/plan/planner.js";
import { FLEET_FORMAT_VERSION, worstExit, type FleetPlan } from "../../src/plan/fleet.js";
import type { Plan } from "../../src/plan/types.js";
import { foldFleet, tenantsLabel } from "../../src/render/fleet/fold.js";
import { renderFleet } from "../../src/render/fleet/index.js";
import { desired, ledger, prune, remote } from "../fixtures/plan/every-action.js";

const base = buildPlan({ tenant: "a", desired, remote, ledger, prune }).plan;

/** The same plan for another tenant, its ids and refs all different (another tenant numbers its records itself). */
function renumbered(plan: Plan, tenant: string): Plan {
  const copy = structuredClone(plan);
  copy.tenant = tenant;
  for (const a of copy.actions) for (const ref of Object.values(a.refs)) if ("id" in ref) ref.id += 1000;
  return copy;
}

const fleetOf = (...plans: Plan[]): FleetPlan => ({
  format_version: FLEET_FORMAT_VERSION,
  kind: "fleet",
  tenants: plans.map((plan) => ({ tenant: plan.tenant, plan, exit: 2 })),
  waves: [plans.map((p) => p.tenant)],
});

describe("the fold of a fleet's plans", () => {
  it("counts actions whose ids and refs differ as the same change", () => {
    expect(base.actions.some((a) => Object.values(a.refs).some((r) => "id" in r))).toBe(true);
    const fold = foldFleet(fleetOf(base, renumbered(base, "b")));
    expect(fold.shared).toHaveLength(1);
    expect(fold.shared[0]!.tenants).toEqual(["a", "b"]);
    expect(fold.shared[0]!.actions).toHaveLength(base.actions.length);
    expect(fold.own.get("a")).toEqual([]);
  });

  it("keeps a change whose value differs with its tenant", () => {
    const other = renumbered(base, "b");
    const changed = other.actions.find((a) => a.op === "update" && a.changes.length)!;
    changed.changes[0]!.after = "only in b";
    const fold = foldFleet(fleetOf(base, other, renumbered(base, "c")));
    expect(fold.own.get("b")!.map((a) => a.address)).toEqual([changed.address]);
    expect(fold.own.get("a")).toEqual([]);
    // The a/c version of that action is shared by two of the three.
    const pair = fold.shared.find((g) => g.tenants.join() === "a,c")!;
    expect(pair.actions.map((a) => a.address)).toEqual([changed.address]);
    expect(tenantsLabel(pair.tenants, fold.planned)).toBe("in 2 of 3 tenants: all but b");
    expect(renderFleet(fleetOf(base, other, renumbered(base, "c")), "text", { color: false })).toContain("Changes in 2 of 3 tenants: all but b");
  });

  it("names the tenants a change is in, or the few it is not", () => {
    const all = ["a", "b", "c", "d", "e"];
    expect(tenantsLabel(all, all)).toBe("in all 5 tenants");
    expect(tenantsLabel(["a", "b", "c", "d"], all)).toBe("in 4 of 5 tenants: all but e");
    expect(tenantsLabel(["a", "c"], all)).toBe("in 2 of 5 tenants: a, c");
  });
});

describe("the fleet's exit code", () => {
  it("is the worst of the tenants': 1 over 3 over 2 over 0", () => {
    expect(worstExit([])).toBe(0);
    expect(worstExit([0, 2, 0])).toBe(2);
    expect(worstExit([2, 3, 0])).toBe(3);
    expect(worstExit([3, 1, 2])).toBe(1);
  });
});
