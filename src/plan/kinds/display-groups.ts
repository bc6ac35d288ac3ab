/** Display groups: by name; API v1 cannot delete them. */
import { addr } from "../address.js";
import type { PlanContext } from "../context.js";
import { FIELDS } from "../fields.js";
import { leftover, upsert } from "../action-builders.js";
import type { KindPlanner } from "./kind.js";

export const displayGroups: KindPlanner = {
  kind: "display_groups",

  index(ctx: PlanContext): void {
    for (const r of ctx.remote.display_groups) ctx.refs.display_groups.set(r.name, { id: r.id });
  },

  plan(ctx: PlanContext): void {
    const { pairs, leftover: undeclared } = ctx.match("display group", ctx.desired.display_groups, ctx.remote.display_groups, "display_groups");
    ctx.recordRenames("display_groups", pairs);
    for (const m of pairs) {
      const address = addr.displayGroup(m.desired.name);
      const a = upsert(ctx, m, { kind: "display_groups", type: "display_group", address, specs: FIELDS.display_group, table: "display_groups" });
      ctx.refs.display_groups.set(m.desired.name, m.remote ? { id: m.remote.id } : { address: a!.address });
    }
    for (const r of undeclared) {
      ctx.refs.display_groups.set(r.name, { id: r.id });
      leftover(ctx, {
        table: "display_groups",
        key: r.name,
        kind: "display_groups",
        type: "display_group",
        address: addr.displayGroup(r.name),
        remote: r,
        change: { field: "name", before: r.name },
        unsupported: "API v1 cannot delete display groups; remove it in the PIM's UI",
      });
    }
  },
};
