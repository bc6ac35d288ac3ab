/**
 * The plans a rollout applies, checked before any tenant is written: made now (`apply --tenant
 * GLOB`, as `plan --tenant GLOB` makes them: src/workflows/fleet-plan.ts) or read from a saved
 * fleet file (`apply fleet.json`) or several tenants' saved plans (`apply plan-*.json`). What a
 * policy refuses (deletes without permission, a saved plan narrowed at apply time) refuses the
 * whole rollout, as it refuses a single-tenant apply: nothing is written. A tenant that could not
 * be planned fails when its turn comes.
 */
import { PimctlError, PimctlErrors } from "../errors.js";
import { ALLOW_DELETE_FLAG, refuseBlockedDeletes } from "../plan/delete-permission.js";
import type { FleetPlan } from "../plan/fleet.js";
import { readPlanFilesFrom } from "../planfile/fleet-file.js";
import { rolloutWaves } from "../config/select.js";
import { planFleet, type FleetPlanOptions, type Selection } from "./fleet-plan.js";
import { planHmacKey, type PlanOptions } from "./plan.js";
import { acceptSavedPlan } from "./saved-plan.js";
import { projectConfig } from "./project.js";

/** Plan the selected tenants now; refused whole when a plan deletes without --allow-delete. */
export async function planRollout(opts: FleetPlanOptions, selection: Selection): Promise<FleetPlan> {
  const { fleet } = await planFleet(opts, selection);
  if (!opts.allowDelete) {
    const remedy = `Pass ${ALLOW_DELETE_FLAG} to apply them, or leave them out (prune off for the kind, --exclude).`;
    refuseAny(fleet, (plan, tenant) => refuseBlockedDeletes(plan, `the plan of tenant "${tenant}"`, remedy));
  }
  return fleet;
}

/** Saved plans a rollout applies, and the file each tenant's plan was read from (for messages). */
export interface SavedRollout {
  fleet: FleetPlan;
  sourceOf: (tenant: string) => string;
}

/**
 * Saved files, every tenant's plan checked as `apply FILE` checks one (seal, permission to delete,
 * applied whole): a fleet file (its own waves, which its digest covers), or several files, single
 * tenants' plans (a CI matrix's) or fleet files, in the config's rollout waves. A tenant in two
 * files is refused, naming both.
 */
export async function readRolloutFiles(files: readonly string[], opts: PlanOptions): Promise<SavedRollout> {
  const config = files.length > 1 ? await projectConfig(opts) : undefined;
  const hmacKey = planHmacKey(opts.env);
  const { fleet, fileOf } = await readPlanFilesFrom(files, {
    cwd: opts.cwd,
    ...(hmacKey ? { hmacKey } : {}),
    ...(config ? { waves: (tenants: readonly string[]) => rolloutWaves(config, tenants) } : {}),
  });
  const sourceOf = (tenant: string) => fileOf.get(tenant) ?? files.join(", ");
  refuseAny(fleet, (plan, tenant) => acceptSavedPlan(plan, `${sourceOf(tenant)} (tenant ${tenant})`, opts));
  return { fleet, sourceOf };
}

/** Every tenant's refusal at once: the person fixes them together. */
function refuseAny(fleet: FleetPlan, check: (plan: NonNullable<FleetPlan["tenants"][number]["plan"]>, tenant: string) => unknown): void {
  const errors: PimctlError[] = [];
  for (const t of fleet.tenants) {
    if (!t.plan) continue;
    try {
      check(t.plan, t.tenant);
    } catch (e) {
      if (e instanceof PimctlErrors) errors.push(...e.errors);
      else if (e instanceof PimctlError) errors.push(e);
      else throw e;
    }
  }
  if (errors.length === 1) throw errors[0]!;
  if (errors.length) throw new PimctlErrors(errors);
}
