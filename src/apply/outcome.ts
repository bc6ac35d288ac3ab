/**
 * What an apply run ends with, as data: the apply workflow (src/workflows/apply.ts) returns it,
 * the views in src/render/apply-result.ts turn it into text and JSON, and the CLI picks a view
 * and an exit code from it. Here, below both, so render/ never imports a workflow.
 */
import { hasChanges, type Plan } from "../plan/types.js";
import type { ApplyReport } from "./index.js";
import type { VerificationReport } from "./verify.js";

export interface ApplyResult {
  plan: Plan;
  report?: ApplyReport;
  verification?: VerificationReport;
  aborted?: boolean;
  backupFile?: string;
  /** A saved plan found already applied (--if-applied=ok): why nothing was done. */
  alreadyApplied?: string;
  /**
   * Why the run stopped starting actions after writes began: a process signal
   * ("interrupted (SIGINT)") or a lock it could not keep. The tenant was not verified.
   */
  stopped?: string;
  /** The ledger could not be saved to its backend: it is in `rescueFile` (exit 4), or, when even that failed, in `ledger` with `rescueError`. */
  stateNotSaved?: { error: string; rescueFile?: string; rescueError?: string; ledger?: string };
  /** The lock could not be released (after the writes): break it with `pimctl state unlock id`. */
  lockNotReleased?: { error: string; id: string };
}

/**
 * How the run ended, which decides what is shown: cancelled at the confirmation, a saved plan found
 * already applied, nothing to change, a dry run (requests built, none sent), or a run that wrote.
 */
export type ApplyEnding = "aborted" | "already-applied" | "no-changes" | "dry-run" | "ran";

export function applyEnding(result: ApplyResult, dryRun: boolean): ApplyEnding {
  if (result.aborted) return "aborted";
  if (result.alreadyApplied) return "already-applied";
  if (!hasChanges(result.plan)) return "no-changes";
  return dryRun ? "dry-run" : "ran";
}

/** A run that wrote but did not do all it was asked: failed, skipped, interrupted, not verified, its state or lock left behind. */
export function applyIncomplete(result: ApplyResult): boolean {
  const c = result.report?.counts;
  const v = result.verification;
  if ((c && (c.failed > 0 || c.skipped > 0)) || (v && (v.mismatches.length > 0 || v.error !== undefined))) return true;
  return Boolean(result.stopped || result.stateNotSaved || result.lockNotReleased);
}
