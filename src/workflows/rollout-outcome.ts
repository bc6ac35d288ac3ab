/**
 * How one tenant of a rollout ended, from what its apply returned or threw: the outcome the
 * final table shows, the exit code a single-tenant `pimctl apply` would have given for it,
 * and one line that says why.
 */
import { PimctlError, PimctlErrors, type ErrorCode } from "../errors.js";
import type { ApplyResult } from "./apply.js";

export type RolloutOutcome = "applied" | "failed" | "stale" | "not started" | "already applied" | "interrupted";

export interface TenantEnd {
  outcome: RolloutOutcome;
  /** The tenant's own exit code, as `pimctl apply` gives it for one tenant (README "Exit codes"). */
  exit: number;
  detail?: string;
  /** The error that ended the tenant, as a person reads it (its detail lines under its first). */
  error?: string;
}

/** The exit codes of README "Exit codes" (src/cli/exit-codes.ts, which the workflows cannot import): a tenant's own. */
const EXIT_OF = { ok: 0, error: 1, policy: 3, partial: 4, stale: 5 } as const;

/** Converged: the tenant is as its plan leaves it. A wave goes on only when all of its tenants are. */
export function converged(outcome: RolloutOutcome): boolean {
  return outcome === "applied" || outcome === "already applied";
}

/** An apply that returned: done, done before (already applied), stopped part-way, or with failures. */
export function endOf(result: ApplyResult): TenantEnd {
  if (result.alreadyApplied) return { outcome: "already applied", exit: EXIT_OF.ok, detail: result.alreadyApplied };
  const report = result.report;
  if (!report) return { outcome: "already applied", exit: EXIT_OF.ok, detail: "no changes" };
  const c = report.counts;
  const done = `${c.done} of ${result.plan.actions.length - c.unsupported} actions done`;
  if (result.stopped) return { outcome: "interrupted", exit: EXIT_OF.partial, detail: `${result.stopped} after ${done}; not verified` };
  const v = result.verification;
  const problems = [
    ...(c.failed ? [`${c.failed} failed`] : []),
    ...(c.skipped ? [`${c.skipped} skipped`] : []),
    ...(report.stopped_by
      ? [`stopped: ${report.stopped_by.code === "api_unauthorized" ? "the token was refused (401)" : "the tenant stopped answering"}`]
      : []),
    ...(v?.error ? ["the verification read failed"] : []),
    ...(v?.mismatches.length ? [`${v.mismatches.length} change${v.mismatches.length === 1 ? "" : "s"} not stored as written`] : []),
    ...(result.stateNotSaved ? [`the state was not saved${result.stateNotSaved.rescueFile ? ` (rescue file ${result.stateNotSaved.rescueFile})` : ""}`] : []),
    ...(result.lockNotReleased ? [`the lock was not released (id ${result.lockNotReleased.id})`] : []),
  ];
  if (problems.length) return { outcome: "failed", exit: EXIT_OF.partial, detail: `${done}: ${problems.join(", ")}` };
  return { outcome: "applied", exit: EXIT_OF.ok, detail: `${done}${c.unsupported ? `, ${c.unsupported} not possible through API v1` : ""}` };
}

/** An apply that threw: nothing was written by it (a refusal, a stale plan, a signal before the first write, an error). */
export function endOfError(e: unknown): TenantEnd {
  const errors = e instanceof PimctlErrors ? e.errors : e instanceof PimctlError ? [e] : [];
  const first = errors[0];
  if (!first) return { outcome: "failed", exit: EXIT_OF.error, detail: `internal error: ${(e as Error)?.message ?? String(e)}` };
  const code: ErrorCode | undefined = errors.every((x) => x.code === first.code) ? first.code : undefined;
  const error = errors.map((x) => x.format()).join("\n");
  const detail = first.message.split("\n")[0]!;
  if (code === "plan_stale") return { outcome: "stale", exit: EXIT_OF.stale, detail, error };
  if (code === "interrupted") return { outcome: "interrupted", exit: EXIT_OF.error, detail, error };
  return { outcome: "failed", exit: code === "policy_refused" ? EXIT_OF.policy : EXIT_OF.error, detail, error };
}
