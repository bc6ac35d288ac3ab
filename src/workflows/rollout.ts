/**
 * The rollout (issue 35, contract 5 of the fleet design): tenants applied wave by wave, each
 * exactly as a single-tenant apply of a saved plan (its own lock, ledger and stale check from its
 * own basis, its verification). A wave starts only when every tenant of the one before converged;
 * after the first tenant that did not (or --max-failed-tenants of them), or a signal, no tenant
 * starts: the ones under way finish (on a signal, as apply ends on one), the rest are "not started".
 */
import { hold } from "../holdings.js";
import { hasChanges } from "../plan/types.js";
import { wavesProblem, type FleetPlan } from "../plan/fleet.js";
import { PimctlError } from "../errors.js";
import { runWaves } from "../base/waves.js";
import { apply, type ApplyOptions, type ApplyResult } from "./apply.js";
import { TENANT_PARALLELISM } from "./fleet-plan.js";
import { converged, endOf, endOfError, type RolloutOutcome, type TenantEnd } from "./rollout-outcome.js";

/** What a rollout reads of a fleet plan (contract 3): each tenant's plan or error, and the waves. */
export type RolloutFleet = Pick<FleetPlan, "tenants" | "waves">;

export interface RolloutOptions {
  /** Stop starting tenants once this many did not converge (default 1: at the first). */
  maxFailedTenants?: number;
  /** Tenants of a wave applied at once (default TENANT_PARALLELISM, 4). */
  tenantParallelism?: number;
}

export interface RolloutTenant extends TenantEnd {
  tenant: string;
  /** Its wave, numbered from 1. */
  wave: number;
  result?: ApplyResult;
}

export interface RolloutResult {
  tenants: RolloutTenant[];
  /** The command that resumes (the same command): set when a tenant did not converge. */
  resume?: string;
  /**
   * Saved plans only: the tenants whose saved plan can never converge (stale, or holding an error
   * instead of a plan), and the command that plans them again into their files, to run before `resume`.
   */
  replan?: { tenants: string[]; command: string };
}

export interface RolloutRunOptions
  extends
    RolloutOptions,
    Omit<ApplyOptions, "planFile" | "savedPlan" | "tenant" | "confirm" | "hooks" | "targets" | "excludes" | "allowDelete" | "dryRun" | "backupFile"> {
  /** Where a tenant's plan comes from, for messages: its saved file (a fleet file or its own), else the plans this run made. */
  sourceOf?: (tenant: string) => string;
  /** The command that resumes the rollout (the same command), given back when a tenant did not converge. */
  resumeCommand?: string;
  /** Saved plans: the command that plans these tenants again into their files, given back when a saved plan cannot converge. */
  replanCommand?: (tenants: readonly string[]) => string;
  onTenantStart?: (tenant: string, wave: number) => void;
  onTenantEnd?: (row: RolloutTenant) => void;
}

/** Apply a fleet plan's tenants in its waves. Never throws for a tenant: each ends as a row of the result. */
export async function rollout(fleet: RolloutFleet, opts: RolloutRunOptions): Promise<RolloutResult> {
  // Read files are checked when parsed (fleet-file.ts); a fleet handed over by a library caller is checked here.
  const problem = wavesProblem(fleet);
  if (problem) throw new PimctlError("plan_integrity", `the fleet cannot be rolled out: ${problem}`);
  const byName = new Map(fleet.tenants.map((t) => [t.tenant, t]));
  const rows = new Map<string, RolloutTenant>();
  const started = new Set<string>();
  const release = hold({
    what: "the rollout",
    onSignal: "starting no more tenants",
    release: async () => [stoppedLine(fleet, started, rows, opts.resumeCommand)],
  });
  try {
    const items = await runWaves(
      fleet.waves,
      async (tenant, wave) => {
        const row: RolloutTenant = { tenant, wave, ...(await applyTenant(byName.get(tenant), tenant, opts)) };
        rows.set(tenant, row);
        return row;
      },
      {
        parallelism: opts.tenantParallelism ?? TENANT_PARALLELISM,
        maxFailed: opts.maxFailedTenants ?? 1,
        converged: (row) => converged(row.outcome),
        ...(opts.signal ? { signal: opts.signal } : {}),
        onStart: (tenant: string, wave: number) => {
          started.add(tenant);
          opts.onTenantStart?.(tenant, wave);
        },
        ...(opts.onTenantEnd ? { onEnd: (_t: string, _w: number, row: RolloutTenant) => opts.onTenantEnd!(row) } : {}),
      },
    );
    const tenants = items.map((i) => i.result ?? notStarted(i.item, i.wave, opts.signal));
    return { tenants, ...nextStep(tenants, byName, opts) };
  } finally {
    release();
  }
}

/** One tenant: its plan applied as a saved plan is (a plan that changes nothing is not run: the tenant is at it). */
async function applyTenant(
  entry: RolloutFleet["tenants"][number] | undefined,
  tenant: string,
  opts: RolloutRunOptions,
): Promise<TenantEnd & { result?: ApplyResult }> {
  if (!entry?.plan) {
    const error = entry?.error;
    return {
      outcome: "failed",
      exit: entry?.exit || 1,
      detail: error ? `not planned: ${error.message.split("\n")[0]!}` : "no plan for this tenant",
      ...(error ? { error: [error.message, ...error.details.map((d) => `  ${d}`)].join("\n") } : {}),
    };
  }
  if (!hasChanges(entry.plan)) return { outcome: "already applied", exit: 0, detail: "no changes" };
  const label = opts.sourceOf ? `${opts.sourceOf(tenant)} (tenant ${tenant})` : `the plan of tenant "${tenant}" made by this run`;
  try {
    const result = await apply({
      ...opts,
      tenant,
      savedPlan: { plan: entry.plan, label, madeByThisRun: !opts.sourceOf },
      ...(opts.warn ? { warn: (line: string) => opts.warn!(`${tenant}: ${line}`) } : {}),
    });
    return { ...endOf(result), result };
  } catch (e) {
    return endOfError(e);
  }
}

/**
 * What to run next when a tenant did not converge: the same command, which skips the tenants at their
 * plan; but a saved plan that is stale, or holds an error instead of a plan, fails the same way every
 * time it is run: those tenants are planned again instead.
 */
function nextStep(
  tenants: readonly RolloutTenant[],
  byName: ReadonlyMap<string, RolloutFleet["tenants"][number]>,
  opts: RolloutRunOptions,
): Pick<RolloutResult, "resume" | "replan"> {
  if (tenants.every((t) => converged(t.outcome))) return {};
  const deadEnds = opts.replanCommand ? tenants.filter((t) => t.outcome === "stale" || !byName.get(t.tenant)?.plan).map((t) => t.tenant) : [];
  const resume = opts.resumeCommand ? { resume: opts.resumeCommand } : {};
  return deadEnds.length ? { ...resume, replan: { tenants: deadEnds, command: opts.replanCommand!(deadEnds) } } : resume;
}

function notStarted(tenant: string, wave: number, signal: AbortSignal | undefined): RolloutTenant {
  const why = signal?.aborted ? "the rollout was interrupted before it started" : "the rollout stopped before it started";
  return { tenant, wave, outcome: "not started", exit: 4, detail: why };
}

/** What a forced end (a second signal) leaves of the rollout, in one line. */
function stoppedLine(fleet: RolloutFleet, started: ReadonlySet<string>, rows: Map<string, RolloutTenant>, resume: string | undefined): string {
  const by = (outcome: RolloutOutcome) => [...rows.values()].filter((r) => r.outcome === outcome).map((r) => r.tenant);
  const inFlight = [...started].filter((t) => !rows.has(t));
  const pending = fleet.waves.flat().filter((t) => !started.has(t));
  const parts = [
    ...(["applied", "already applied", "failed", "stale", "interrupted"] as const).flatMap((o) => (by(o).length ? [`${o}: ${by(o).join(", ")}`] : [])),
    ...(inFlight.length ? [`stopped in flight: ${inFlight.join(", ")}`] : []),
    ...(pending.length ? [`not started: ${pending.join(", ")}`] : []),
  ];
  return `The rollout was stopped (${parts.join("; ")}).${resume ? ` Resume with: ${resume}` : ""}`;
}
