/**
 * The plans `apply --tenant GLOB` rolls out, made at the start of the run: every selected tenant
 * planned as `pimctl plan --tenant X` plans it (a tenant that cannot be planned is an entry with its
 * error, and fails when its turn comes), in the waves of the config's `rollout:`.
 *
 * STAND-IN until part B of issue 35 (wt-fleet-review) lands its fleet planner (one manifest load,
 * overlapping reads, bounded memory): this plans tenant after tenant, a bounded number at once.
 */
import { PimctlError, PimctlErrors } from "../errors.js";
import { ALLOW_DELETE_FLAG, refuseBlockedDeletes } from "../plan/delete-permission.js";
import { runWaves } from "../base/waves.js";
import { rolloutWaves } from "../config/select.js";
import { plan, type PlanOptions } from "./plan.js";
import { projectConfig } from "./project.js";
import type { RolloutFleet } from "./rollout.js";

/** Plan each of `tenants` (at most `parallelism` at once); the result lists them sorted by name, with the config's waves. */
export async function planRollout(opts: PlanOptions, tenants: readonly string[], parallelism: number): Promise<RolloutFleet> {
  const config = await projectConfig(opts);
  const sorted = [...tenants].sort();
  const entries = await runWaves(
    [sorted],
    async (tenant) => {
      try {
        const made = await plan({ ...opts, tenant });
        // As apply refuses the plan it makes: before any tenant is written to.
        if (!opts.allowDelete)
          refuseBlockedDeletes(
            made.plan,
            `the plan of tenant "${tenant}"`,
            `Pass ${ALLOW_DELETE_FLAG} to apply them, or leave them out (prune off for the kind, --exclude).`,
          );
        return { tenant, plan: made.plan, exit: made.plan.actions.some((a) => a.op !== "unsupported") ? 2 : 0 };
      } catch (e) {
        return { tenant, ...planError(e) };
      }
    },
    { parallelism, maxFailed: Number.POSITIVE_INFINITY, converged: () => true, ...(opts.signal ? { signal: opts.signal } : {}) },
  );
  return {
    tenants: entries.map((e) => e.result ?? { tenant: e.item, ...planError(new PimctlError("interrupted", "interrupted before it was planned")) }),
    waves: rolloutWaves(config, sorted),
  };
}

/** A tenant that cannot be planned: its error as contract 3 keeps it, and the exit code plan gives for it. */
function planError(e: unknown): { error: { code: PimctlError["code"]; message: string; details: string[] }; exit: number } {
  const errors = e instanceof PimctlErrors ? e.errors : e instanceof PimctlError ? [e] : [new PimctlError("internal", (e as Error)?.message ?? String(e))];
  const first = errors[0]!;
  const lines = errors.map((x) => x.format());
  return {
    error: {
      code: first.code,
      message: lines[0]!.split("\n")[0]!,
      details: lines
        .join("\n")
        .split("\n")
        .slice(1)
        .map((l) => l.trim()),
    },
    exit: errors.every((x) => x.code === "policy_refused") ? 3 : 1,
  };
}
