/**
 * The planner: a pure, synchronous function of (desired catalogue, tenant
 * state, ledger, prune policy) to a Plan. No I/O; reading happens around it.
 * Each kind's planner (src/plan/kinds/) adds its actions to one context;
 * edges.ts adds the dependencies names imply; order.ts sorts. Design:
 * src/plan/README.md.
 */
import { compareText } from "../model/catalogue.js";
import type { PimctlError } from "../errors.js";
import { sortedRecord } from "./collections.js";
import { PlanContext, type PlanInput } from "./context.js";
import { linkFreedNames } from "./edges.js";
import { recount } from "./filter.js";
import { orderActions } from "./order.js";
import { PLAN_FORMAT_VERSION, type Plan } from "./types.js";
import { KIND_PLANNERS } from "./kinds/index.js";
import { translationCoverage } from "./coverage.js";

export type { PlanInput } from "./context.js";
export type { LedgerView } from "./context.js";
export type { PruneKind } from "./policy.js";
import type { PruneKind } from "./policy.js";
export { fingerprint } from "./fingerprint.js";

export interface PlanOutcome {
  plan: Plan;
  /** Prune kind -> ids of declared records found in the tenant: applying the plan adopts them (prune "owned"). */
  declared: Partial<Record<PruneKind, number[]>>;
  /** Prune kind -> id -> declared name of the named kinds' records found in the tenant: apply records them in the ledger. */
  names: Partial<Record<PruneKind, Record<string, string>>>;
  /** Problems that make the plan unusable (unknown references, refused moves). */
  errors: PimctlError[];
}

export function buildPlan(input: PlanInput): PlanOutcome {
  const ctx = new PlanContext(input);
  ctx.checkVersions();
  for (const kind of KIND_PLANNERS) {
    if (ctx.managed.has(kind.kind)) kind.plan(ctx);
    else kind.index?.(ctx);
  }
  linkFreedNames(ctx.actions);

  const ordered = orderActions([...ctx.actions.values()], ctx.errors);
  const unmanaged = ctx.unmanaged.sort((a, b) => compareText(a.address, b.address));
  const plan: Plan = {
    format_version: PLAN_FORMAT_VERSION,
    tenant: input.tenant,
    version_ids: sortedRecord(input.remote.version_ids),
    actions: ordered,
    unmanaged,
    warnings: ctx.warnings,
    summary: recount(ordered, unmanaged.length),
    fingerprints: sortedRecord(ctx.fingerprints),
  };
  const coverage = translationCoverage(ordered, input.desired);
  if (coverage.length) plan.translations = coverage;
  const declared = Object.fromEntries([...ctx.declared].map(([kind, ids]) => [kind, [...ids].sort((a, b) => a - b)]));
  const names = Object.fromEntries(
    [...ctx.declaredNames].map(([kind, byId]) => [kind, Object.fromEntries([...byId].sort(([a], [b]) => a - b).map(([id, name]) => [String(id), name]))]),
  );
  return { plan, errors: ctx.errors, declared, names };
}
