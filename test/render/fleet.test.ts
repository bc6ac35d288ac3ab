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

  it("keeps a change whose notes or flags differ with its tenant, in every format that folds (bug 3 of the review)", () => {
    // The same delete in both tenants, but b's attribute has 5 type values and a's 1: the notes say so.
    const deleted = base.actions.find((a) => a.op === "delete" && a.notes?.length)!;
    const a = structuredClone(base);
    const b = renumbered(base, "b");
    a.actions.find((x) => x.address === deleted.address)!.notes = ["deletes its 1 type value"];
    b.actions.find((x) => x.address === deleted.address)!.notes = ["deletes its 5 type values"];
    const fold = foldFleet(fleetOf(a, b));
    expect(fold.own.get("a")!.map((x) => x.address)).toEqual([deleted.address]);
    expect(fold.own.get("b")!.map((x) => x.address)).toEqual([deleted.address]);
    expect(fold.shared[0]!.actions.map((x) => x.address)).not.toContain(deleted.address);
    for (const format of ["text", "markdown", "html"] as const) {
      const out = renderFleet(fleetOf(a, b), format, { color: false });
      expect(out, format).toContain("deletes its 1 type value");
      expect(out, format).toContain("deletes its 5 type values");
    }
    // A flag alone (destructive in one tenant only) is a difference too, and so is where a rename comes from.
    const flagged = renumbered(base, "b");
    const target = flagged.actions.find((x) => x.address === deleted.address)!;
    target.flags = { ...target.flags, destructive: !target.flags.destructive };
    expect(
      foldFleet(fleetOf(base, flagged))
        .own.get("b")!
        .map((x) => x.address),
    ).toEqual([deleted.address]);
    const renamed = base.actions.find((x) => x.previous)!;
    const moved = renumbered(base, "b");
    moved.actions.find((x) => x.address === renamed.address)!.previous = { address: "elsewhere", via: "ledger" };
    expect(
      foldFleet(fleetOf(base, moved))
        .own.get("b")!
        .map((x) => x.address),
    ).toEqual([renamed.address]);
    // Flags written as false or left out are the same.
    const falsy = renumbered(base, "b");
    for (const x of falsy.actions) for (const k of ["destructive", "write_only", "blocked", "unsupported"] as const) x.flags[k] ??= false;
    expect(foldFleet(fleetOf(base, falsy)).own.get("b")).toEqual([]);
  });

  it("names the tenants a change is in, or the few it is not", () => {
    const all = ["a", "b", "c", "d", "e"];
    expect(tenantsLabel(all, all)).toBe("in all 5 tenants");
    expect(tenantsLabel(["a", "b", "c", "d"], all)).toBe("in 4 of 5 tenants: all but e");
    expect(tenantsLabel(["a", "c"], all)).toBe("in 2 of 5 tenants: a, c");
  });
});

describe("the headings of shared changes when some tenants could not be planned (bug 8 of the review)", () => {
  const failed = (tenant: string) => ({ tenant, error: { code: "api_unauthorized" as const, message: "401", details: [] }, exit: 1 });
  const withFailures = (...plans: Plan[]): FleetPlan => {
    const fleet = fleetOf(...plans);
    return { ...fleet, tenants: [...fleet.tenants, failed("c"), failed("d")] };
  };

  it("says the count is among the tenants that could be planned, and how many could not, in every format", () => {
    const fleet = withFailures(base, renumbered(base, "b"));
    const heading = "Changes in all 2 tenants that could be planned (2 of 4 could not be planned)";
    expect(renderFleet(fleet, "text", { color: false })).toContain(`\n${heading}\n`);
    expect(renderFleet(fleet, "markdown", { color: false })).toContain(`\n#### ${heading}\n`);
    expect(renderFleet(fleet, "html", { color: false })).toContain(`<h2>${heading}</h2>`);
    for (const format of ["text", "markdown", "html"] as const) expect(renderFleet(fleet, format, { color: false })).not.toContain("in all 2 tenants\n");
  });

  it("names the planned tenants a change is not in, and still counts those that could not be planned", () => {
    expect(tenantsLabel(["a", "b"], ["a", "b", "e"], 5)).toBe("in 2 of 3 tenants that could be planned: all but e (2 of 5 could not be planned)");
    expect(tenantsLabel(["a", "b"], ["a", "b"], 3)).toBe("in all 2 tenants that could be planned (1 of 3 could not be planned)");
    expect(tenantsLabel(["a", "b"], ["a", "b"], 2)).toBe("in all 2 tenants");
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
