/**
 * The planner: a pure, synchronous function of (desired catalogue, tenant
 * state, ledger, prune policy) to a Plan. No I/O; reading happens around it.
 * Each kind's planner (src/plan/kinds/) adds its actions to one context;
 * edges.ts adds the dependencies names imply; order.ts sorts. Design:
 * src/plan/README.md.
 */
import { compareText, type OwnedTable } from "../model/catalogue.js";
import type { IdentitiesByAddress, IdentitiesById } from "./ownership.js";
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
export { fingerprint } from "./fingerprint.js";

export interface PlanOutcome {
  plan: Plan;
  /** Table -> ids of declared records found in the tenant: applying the plan adopts them (prune "owned"). */
  declared: Partial<Record<OwnedTable, number[]>>;
  /**
   * What apply records in the ledger of each record the plan touches or finds (ownership.ts): by id,
   * the declared records found in the tenant; by address, those it creates (apply learns their ids).
   * Functions: the fingerprints are computed only when an apply asks.
   */
  names: { byId(): IdentitiesById; byAddress(): IdentitiesByAddress };
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
  ctx.warnings.push(...ctx.ownership.warnings());

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
  // The closures hold the ownership alone, not the context: apply keeps `names` through its writes, and the
  // context (every index of the desired and remote records, the actions by address) was 12 MB of a full apply's 118 MB live heap.
  const ownership = ctx.ownership;
  const names = { byId: () => ownership.identitiesById(), byAddress: () => ownership.identitiesByAddress() };
  return { plan, errors: ctx.errors, declared: ctx.ownership.declaredIds(), names };
}
