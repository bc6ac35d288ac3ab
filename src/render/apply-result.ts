/**
 * The views of an apply's result (as Terraform's internal/command/views): the text a person
 * reads after the run, line by line with where each goes, and the JSON of `--report`. The CLI
 * picks the views for how the run ended (src/apply/outcome.ts) and an exit code; it writes no
 * result text of its own. The markdown for a pipeline's job summary is apply-summary.ts.
 */
import { BREAKER_THRESHOLD } from "../apply/index.js";
import { applyEnding, type ApplyResult } from "../apply/outcome.js";
import { escapeControls, jsonText } from "../base/controls.js";
import { plural } from "../plural.js";
import { unlockCommand } from "../state/backends/index.js";
import { restoreCommand } from "../state/rescue.js";
import { notDoneLines } from "./apply-summary.js";

/**
 * One piece of the text view. stdout carries only what a program reads (the requests of
 * --dry-run); stderr the rest; a "note" is for people and dropped under --quiet (the CLI's say).
 */
export interface ApplyLine {
  to: "stdout" | "stderr" | "note";
  text: string;
}

export interface ApplyTextOptions {
  dryRun: boolean;
  /** The run applied a saved plan (`apply FILE`): finishing it is said differently. */
  savedPlan: boolean;
  /** One tenant of a rollout: how to finish is the rollout's next step, printed below its table. */
  inRollout?: boolean;
  /** --tenant as given: the commands the text suggests name it. */
  tenantFlag?: string;
  /** Where pimctl runs: a rescue file's path is shown relative to it. */
  cwd: string;
}

/** The text a person reads after an apply, in order. */
export function applyResultText(result: ApplyResult, opts: ApplyTextOptions): ApplyLine[] {
  const out: ApplyLine[] = [];
  const stderr = (text: string) => void out.push({ to: "stderr", text });
  const note = (text: string) => void out.push({ to: "note", text });
  switch (applyEnding(result, opts.dryRun)) {
    case "aborted":
      return [{ to: "stderr", text: "Apply cancelled; nothing was changed.\n" }];
    case "already-applied":
      return [{ to: "note", text: `${result.alreadyApplied}. Nothing to do.` }];
    case "no-changes":
      // The result line, even with --quiet.
      return [{ to: "stderr", text: "No changes. The tenant matches the manifests.\n" }, ...stateProblemLines(result, opts)];
    case "dry-run":
      return dryRunLines(result);
    case "ran":
      break;
  }
  const report = result.report!;
  if (result.backupFile) note(`Backup export saved to ${result.backupFile}.`);
  // Never one line per action not done: failures are listed (up to a cap), the rest counted per kind.
  // Addresses and the tenant's error messages in them: escaped (src/base/controls.ts).
  const notDone = notDoneLines(result.plan, report, { savedPlan: opts.savedPlan, ...(opts.inRollout ? { inRollout: true } : {}) });
  for (const line of notDone.failed) stderr(`${escapeControls(line)}\n`);
  for (const line of notDone.skipped) note(escapeControls(line));
  out.push(...stoppedLines(result));
  out.push(...stateProblemLines(result, opts));
  if (notDone.next) note(notDone.next);
  const c = report.counts;
  // The result line, even with --quiet: a log always says how the run ended.
  stderr(
    `Apply: ${c.done} done, ${c.failed} failed, ${c.skipped} skipped, ${c.unsupported} not possible through API v1 (` +
      `${(report.duration_ms / 1000).toFixed(1)} s).\n`,
  );
  return out;
}

/** --dry-run: each request on stdout (a program reads them), the count and a blocked delete's note for people. */
function dryRunLines(result: ApplyResult): ApplyLine[] {
  const out: ApplyLine[] = [];
  const built = result.report!.results.filter((r) => r.request);
  for (const { request } of built)
    out.push({
      to: "stdout",
      text: `${escapeControls(`${request!.method} ${request!.path}`)}${request!.body === undefined ? "" : ` ${jsonText(request!.body)}`}\n`,
    });
  out.push({ to: "stderr", text: `Dry run: ${plural(built.length, "request")} built, none sent.\n` });
  const blocked = result.plan.actions.filter((a) => a.flags.blocked).length;
  if (blocked)
    out.push({ to: "note", text: `Note: the plan has ${plural(blocked, "blocked delete")}; a real apply refuses it (make the plan with --allow-delete).` });
  return out;
}

/** Verification that failed or found changes not stored, and why the run stopped starting actions. */
function stoppedLines(result: ApplyResult): ApplyLine[] {
  const lines: string[] = [];
  const v = result.verification;
  // v.error is PimctlError.format(): its line breaks start its detail lines.
  if (v?.error)
    lines.push(`Verification: the read after the writes failed, so nothing was checked (exit 4): ${escapeControls(v.error, { keepNewlines: true })}\n`);
  if (v && v.mismatches.length) {
    lines.push(`Verification: the tenant did not store ${plural(v.mismatches.length, "change")} as written (exit 4):\n`);
    for (const m of v.mismatches) lines.push(`  ${escapeControls(`${m.address}: ${m.fields.join(", ")}`)}\n`);
  }
  const stoppedBy = result.report?.stopped_by;
  if (stoppedBy?.code === "api_unauthorized") {
    lines.push(
      `Stopped: ${escapeControls(stoppedBy.message, { keepNewlines: true })}\nNo action was started after the 401; ${stoppedBy.not_attempted} ` +
        `action(s) were not attempted and the tenant was not verified. Fix the token first.\n`,
    );
  } else if (stoppedBy?.code === "tenant_unreachable") {
    lines.push(
      `Stopped: the tenant stopped answering: ${BREAKER_THRESHOLD} actions in a row failed on the connection or with a server error (the ` +
        `last: ${escapeControls(stoppedBy.message.split("\n")[0]!)}).\nNo action was started after that; ${stoppedBy.not_attempted} action(s) ` +
        `were not attempted and the tenant was not verified. Wait until it answers again (pimctl ping).\n`,
    );
  }
  if (result.stopped) {
    lines.push(
      `Stopped: ${result.stopped}${result.report?.counts.skipped ? ". No action was started after it and" : " after every action was done;"} the ` +
        `tenant was not verified (exit 4).\n`,
    );
  }
  return lines.map((text) => ({ to: "stderr", text }));
}

/** Each failure on its own: the ledger's fate first (it holds what was written), then the lock. */
function stateProblemLines(result: ApplyResult, opts: ApplyTextOptions): ApplyLine[] {
  const { stateNotSaved: state, lockNotReleased: lock } = result;
  const tenant = result.plan.tenant;
  const lines: string[] = [];
  if (state?.rescueFile) {
    lines.push(
      `error: the state of tenant "${tenant}" could not be saved: ${state.error}\n  What this run wrote is in ${state.rescueFile}; ` +
        `restore it with: ${restoreCommand(state.rescueFile, opts.cwd, opts.tenantFlag)}\n`,
    );
  } else if (state) {
    // The last place left: the output. Saved to a file, it restores like a rescue file.
    lines.push(
      `error: the state of tenant "${tenant}" could not be saved: ${state.error}\n  nor written to a rescue file: ` +
        `${state.rescueError}\n  Save the ledger below to a file and restore it with: pimctl state push FILE\n${state.ledger}`,
    );
  }
  if (lock) lines.push(`error: ${lock.error}\n`);
  // state push takes the lock: the lock of this run, which is gone, is broken first.
  if (state?.rescueFile && lock)
    lines.push(
      `To recover once the remote answers: ${unlockCommand(lock.id, opts.tenantFlag)}, then ${restoreCommand(state.rescueFile, opts.cwd, opts.tenantFlag)}\n`,
    );
  return lines.map((text) => ({ to: "stderr", text }));
}

/** The JSON view (`--report FILE`): the plan's counts, every action's result, the verification, and how the run ended besides its actions. */
export function applyReportJson(result: ApplyResult): string {
  return `${JSON.stringify({ plan_summary: result.plan.summary, ...result.report, verification: result.verification, ...stateProblems(result) }, null, 2)}\n`;
}

/** What the report file says about the run's end besides its actions: why it stopped, a ledger not saved, a lock not released. */
function stateProblems(r: ApplyResult): Record<string, unknown> {
  return {
    ...(r.stopped ? { stopped: r.stopped } : {}),
    ...(r.stateNotSaved
      ? { state_not_saved: { error: r.stateNotSaved.error, rescue_file: r.stateNotSaved.rescueFile, rescue_error: r.stateNotSaved.rescueError } }
      : {}),
    ...(r.lockNotReleased ? { lock_not_released: { error: r.lockNotReleased.error, lock_id: r.lockNotReleased.id } } : {}),
  };
}
