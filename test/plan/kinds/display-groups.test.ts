import { describe, expect, it } from "vitest";
import { displayGroups } from "../../../src/plan/kinds/display-groups.js";
import { planKinds } from "../../helpers/plan-kind.js";

describe("display groups kind", () => {
  it("creates, updates and renames by name; refs point at ids or at creates", () => {
    const { actions, ctx, errors } = planKinds(
      [displayGroups],
      {
        display_groups: [
          { name: "Basics", in_navigation: true, previous_names: ["Basic"] },
          { name: "New", sort_order: 1 },
          { name: "Same", sort_order: 2 },
        ],
      },
      {
        display_groups: [
          { id: 1, name: "Basic", in_navigation: false },
          { id: 2, name: "Same", sort_order: 2 },
        ],
      },
    );
    expect(errors).toEqual([]);
    expect([...actions.values()].map((a) => `${a.op} ${a.address}`)).toEqual(['rename display_group["Basics"]', 'create display_group["New"]']);
    expect(actions.get('display_group["Basics"]')!.previous).toEqual({ address: 'display_group["Basic"]', via: "previous_names" });
    expect(ctx.refs.display_groups.get("New")).toEqual({ address: 'display_group["New"]' });
    expect(ctx.refs.display_groups.get("Same")).toEqual({ id: 2 });
  });

  it("an undeclared group is unmanaged, and with pruning on unsupported (API v1 cannot delete it)", () => {
    const remote = { display_groups: [{ id: 7, name: "Old" }] };
    expect(planKinds([displayGroups], { display_groups: [] }, remote).ctx.unmanaged).toEqual([
      { address: 'display_group["Old"]', kind: "display_groups", id: 7 },
    ]);
    const pruned = planKinds([displayGroups], { display_groups: [] }, remote, { prune: { display_groups: true } });
    const a = pruned.actions.get('display_group["Old"]')!;
    expect([a.op, a.flags]).toEqual(["unsupported", { unsupported: true }]);
  });
});
