/** Run one kind planner on plain data (no HTTP): the per-kind unit tests' harness. */
import { emptyCatalogue, type Catalogue } from "../../src/model/catalogue.js";
import { emptyRemote, type RemoteCatalogue } from "../../src/model/remote.js";
import { PlanContext, type PlanInput } from "../../src/plan/context.js";
import type { KindPlanner } from "../../src/plan/kinds/index.js";
import type { Action } from "../../src/plan/types.js";

/** An empty tenant that publishes French as version 2. */
function tenantWithFrench(): RemoteCatalogue {
  return { ...emptyRemote(), version_ids: { French: 2 } };
}

/** Plan `kinds` (in order) over desired and remote; returns the actions by address and the context. */
export function planKinds(
  kinds: KindPlanner[],
  desired: Partial<Catalogue>,
  remote: Partial<RemoteCatalogue>,
  extra: Pick<PlanInput, "ledger" | "prune"> = {},
): { ctx: PlanContext; actions: Map<string, Action>; errors: string[] } {
  const ctx = new PlanContext({
    tenant: "unit",
    desired: { ...emptyCatalogue(), managed: kinds.map((k) => k.kind), ...desired },
    remote: { ...tenantWithFrench(), ...remote },
    ...extra,
  });
  for (const k of kinds) k.plan(ctx);
  return { ctx, actions: ctx.actions, errors: ctx.errors.map((e) => e.format()) };
}
