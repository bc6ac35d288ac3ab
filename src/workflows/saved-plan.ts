/**
 * A saved plan, checked before apply runs it: the file as written, the tenant it was made
 * for, and a plan made now from its basis (stale, already applied, or partly applied).
 */
import type { Config } from "../config/index.js";
import type { LedgerState } from "../state/backends/index.js";
import { readPlanFile } from "../planfile/file.js";
import { ALLOW_DELETE_FLAG, refuseBlockedDeletes } from "../plan/delete-permission.js";
import type { Plan, PlanBasis } from "../plan/types.js";
import { savedPlanDifferences } from "../apply/stale.js";
import { pickTenant, tenantBaseUrl, type Connection } from "../tenant.js";
import { normaliseBaseUrl } from "../api/base-url.js";
import { PimctlError, PimctlErrors } from "../errors.js";
import { type PlanOptions, type PlanPolicy, type PlanResult, makePlan, planHmacKey, refuseUnknownVersions } from "./plan.js";
import type { ProjectOptions } from "./project.js";

/**
 * The checks of a saved plan that need no tenant: a valid file, an intact
 * digest (and signature), applied whole, its deletes permitted at plan time.
 */
export async function readSavedPlan(opts: PlanOptions & { planFile: string }): Promise<Plan & { basis: PlanBasis }> {
  return acceptSavedPlan(await readPlanFile(opts.planFile, { hmacKey: planHmacKey(opts.env) }), opts.planFile, opts);
}

/**
 * The checks of a saved plan already read (`label` names it in messages: its file, or a
 * tenant's plan in a rollout): made with a basis, applied whole, its deletes permitted at plan time.
 */
export function acceptSavedPlan(saved: Plan, label: string, opts: Pick<PlanOptions, "targets" | "excludes" | "allowDelete">): Plan & { basis: PlanBasis } {
  const basis = saved.basis;
  if (!basis) throw new PimctlError("plan_format", `${label} has no basis; save plans with 'pimctl plan --out FILE'`);
  if (opts.targets?.length || opts.excludes?.length) {
    throw new PimctlError("usage", `a saved plan is applied whole: narrow it when planning ('pimctl plan --target ... --out FILE'), not when applying`);
  }
  // The tenant named: in a fleet file's refusal a bare 'pimctl plan' would plan another tenant, or refuse.
  const again = `'pimctl plan --tenant ${saved.tenant} ${ALLOW_DELETE_FLAG} --out FILE'`;
  if (opts.allowDelete && !saved.deletes_allowed) {
    throw new PimctlError(
      "policy_refused",
      `${label} was made without ${ALLOW_DELETE_FLAG}: the permission to delete is decided at plan time, where reviewers see it. Make the ` +
        `plan again with ${again}`,
    );
  }
  refuseBlockedDeletes(saved, label, `Make the plan again with ${again} so the deletes are reviewed as deletes, or leave them out (prune off, --exclude).`);
  return { ...saved, basis };
}

/**
 * A saved plan's tenant is its name and its normalised base URL, both sealed
 * in the file: applied to a tenant that differs in either (another name for
 * the same address, the same name moved), it is refused before anything is
 * read, naming both.
 */
export function refuseOtherTenant(saved: Plan & { basis: PlanBasis }, file: string, config: Config, tenantFlag: string | undefined): void {
  const target = pickTenant(config, tenantFlag ?? saved.tenant);
  const targetUrl = tenantBaseUrl(config, target.name, target.tenant);
  const madeFor = normaliseBaseUrl(saved.basis.base_url);
  if (target.name === saved.tenant && targetUrl === madeFor) return;
  throw new PimctlError(
    "plan_stale",
    `${file} was made for tenant "${saved.tenant}" at ${madeFor}, not tenant "${target.name}" at ${targetUrl}; nothing was read or written`,
    {
      details: [
        `a saved plan is applied to the tenant it was made for; make a plan for "${target.name}" with 'pimctl plan --tenant ${target.name} --out FILE'`,
      ],
    },
  );
}

/**
 * A saved plan may run only if a plan made now from its basis (the tenant
 * read under the lock) equals it, action for action and fingerprint for
 * fingerprint. Throws before anything is written.
 */
export async function checkSavedPlan(
  saved: Plan & { basis: PlanBasis },
  file: string,
  config: Config,
  connection: Connection,
  state: LedgerState,
  opts: ProjectOptions,
  ifApplied: "ok" | "fail",
  madeByThisRun = false,
): Promise<PlanResult & { alreadyApplied?: string }> {
  const basis = saved.basis;
  const policy: PlanPolicy = {
    prune: basis.prune,
    targets: basis.targets ?? [],
    excludes: basis.excludes ?? [],
    allowDelete: basis.allow_delete === true,
  };
  const checked = await refuseUnknownVersions(connection, config, basis.desired, opts);
  const current = await makePlan(connection, config, basis.desired, state.ledger, policy, opts, checked).catch((e: unknown) => {
    if (e instanceof PimctlError || e instanceof PimctlErrors) throw e;
    throw new PimctlError("plan_format", `${file}: its basis cannot be planned again (${(e as Error).message}); make a new plan with 'pimctl plan --out FILE'`);
  });
  // What apply goes on with: the saved plan (never the one made now), with what this read learned.
  const result: PlanResult = {
    plan: saved,
    desired: basis.desired,
    remote: current.remote,
    declared: current.declared,
    names: current.names,
    refresh: current.refresh,
    ledger: state.ledger,
    ledgerExisted: state.existed,
    connection,
    config,
  };
  const differences = savedPlanDifferences({ saved, current: current.plan });
  if (differences.length && alreadyApplied(saved, current.plan)) {
    const message = `${file} was already applied: the tenant already looks as the plan leaves it (a plan made now from its basis has no changes)`;
    if (ifApplied === "fail")
      throw new PimctlError("plan_stale", `${message}; nothing was applied`, {
        details: ["pass --if-applied=ok to treat a re-run of an applied plan as done (exit 0)"],
      });
    return { ...result, alreadyApplied: message };
  }
  if (differences.length) {
    const done = partlyApplied(saved, current.plan);
    throw new PimctlError(
      "plan_stale",
      `${file} is not what a plan made now from its own basis gives (the tenant changed${madeByThisRun ? " since" : ", or the file was edited"}); ` +
        `nothing was applied. Plan again`,
      {
        details: [
          ...(done
            ? [
                `${done.done} of its ${done.of} actions are already done, and a plan made now has only the rest (a run that stopped part way?): ` +
                  `make a new plan to finish`,
              ]
            : []),
          ...differences.slice(0, 50).concat(differences.length > 50 ? [`... and ${differences.length - 50} more`] : []),
        ],
      },
    );
  }
  return result;
}

/**
 * A saved plan with changes whose basis, planned now, has none: the tenant is
 * already as the plan leaves it (a re-run of the job that applied it, or the
 * same change applied another way). Actions API v1 cannot carry out stay in
 * every plan and say nothing about it.
 */
export function alreadyApplied(saved: Plan, current: Plan): boolean {
  const real = (p: Plan) => p.actions.filter((a) => a.op !== "unsupported");
  return real(saved).length > 0 && real(current).length === 0;
}

/** Some of a saved plan's actions are done and a plan made now holds only (some of) the others. */
export function partlyApplied(saved: Plan, current: Plan): { done: number; of: number } | undefined {
  const real = (p: Plan) => p.actions.filter((a) => a.op !== "unsupported");
  const savedAddresses = new Set(real(saved).map((a) => a.address));
  const left = real(current);
  if (!left.length || left.length >= savedAddresses.size || !left.every((a) => savedAddresses.has(a.address))) return undefined;
  return { done: savedAddresses.size - left.length, of: savedAddresses.size };
}
