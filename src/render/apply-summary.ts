/**
 * An apply's outcome for people: what was not done, counted per cause and per
 * kind (never one line per action: the JSON --report keeps the full list), and
 * the same as markdown for a pipeline's job summary.
 */
import type { ActionResult, ApplyReport, SkipCause } from "../apply/index.js";
import { KINDS, type Kind } from "../model/catalogue.js";
import type { Plan } from "../plan/types.js";
import { plural } from "../plural.js";
import { escapeControls } from "../base/controls.js";

/** Failed actions listed one by one, up to this many; the rest are counted. */
export const FAILED_LIST_CAP = 20;

const SKIP_TEXT: Record<SkipCause, string> = {
  dependency_failed: "skipped, because an action they depend on failed",
  fail_fast: "not started: --fail-fast stopped the run",
  interrupted: "not started: the run was interrupted",
  token_refused: "not attempted: the tenant refused the token",
  tenant_unreachable: "not attempted: the tenant stopped answering",
};
const SKIP_ORDER: SkipCause[] = ["dependency_failed", "fail_fast", "interrupted", "token_refused", "tenant_unreachable"];
/** Causes a re-run cures by itself (nothing in the manifests to fix). */
const RERUN_FINISHES: ReadonlySet<SkipCause> = new Set(["fail_fast", "interrupted", "token_refused", "tenant_unreachable"]);

/** "categories 480, brands 24" in the manifest's kind order. */
export function countsByKind(plan: Plan, results: readonly ActionResult[]): string {
  const kindOf = new Map(plan.actions.map((a) => [a.address, a.kind]));
  const n = new Map<Kind, number>();
  for (const r of results) {
    const kind = kindOf.get(r.address);
    if (kind) n.set(kind, (n.get(kind) ?? 0) + 1);
  }
  return KINDS.filter((k) => n.has(k))
    .map((k) => `${k} ${n.get(k)}`)
    .join(", ");
}

/** Groups of results that are not done: one entry per skip cause, in a fixed order. */
function skippedGroups(report: ApplyReport): Array<{ cause: SkipCause; results: ActionResult[] }> {
  const by = new Map<SkipCause, ActionResult[]>();
  for (const r of report.results) {
    if (r.status !== "skipped") continue;
    const cause = r.skip_cause ?? "interrupted";
    (by.get(cause) ?? by.set(cause, []).get(cause)!).push(r);
  }
  return SKIP_ORDER.filter((c) => by.has(c)).map((cause) => ({ cause, results: by.get(cause)! }));
}

/**
 * The lines after an apply that did not do everything: failed actions (each, up
 * to FAILED_LIST_CAP), then the rest counted per cause and kind, then how to finish.
 */
export function notDoneLines(
  plan: Plan,
  report: ApplyReport,
  opts: { savedPlan?: boolean; inRollout?: boolean } = {},
): { failed: string[]; skipped: string[]; next?: string } {
  const failedResults = report.results.filter((r) => r.status === "failed");
  const failed = failedResults.slice(0, FAILED_LIST_CAP).map((r) => `failed: ${r.address}: ${r.error?.message ?? "unknown error"}`);
  if (failedResults.length > FAILED_LIST_CAP) {
    failed.push(
      `failed: ${failedResults.length - FAILED_LIST_CAP} more (${countsByKind(plan, failedResults.slice(FAILED_LIST_CAP))}); --report FILE lists every one`,
    );
  }
  const groups = skippedGroups(report);
  const skipped = groups.map((g) => `${plural(g.results.length, "action")} ${SKIP_TEXT[g.cause]} (${countsByKind(plan, g.results)})`);
  const rerun = groups.some((g) => RERUN_FINISHES.has(g.cause));
  // In a rollout the next step is the rollout's (below its table): a bare `pimctl apply` would name no tenant.
  const next = !rerun
    ? undefined
    : opts.inRollout
      ? "The rollout's next step, below its table, finishes it."
      : `Run \`pimctl apply\` again to finish: it plans only what is left and creates nothing ` +
        `twice${opts.savedPlan ? " (the saved plan is now stale: apply without it, or plan and save again)" : ""}.`;
  return { failed, skipped, ...(next ? { next } : {}) };
}

/** An apply's outcome as markdown, for a pipeline's job summary. */
export function renderApplySummary(
  tenant: string,
  report: ApplyReport,
  verification?: { mismatches: Array<{ address: string; fields: string[] }> },
  plan?: Plan,
): string {
  const c = report.counts;
  const out = [
    `### pimctl apply: tenant \`${escapeControls(tenant)}\``,
    "",
    "| done | failed | skipped | not possible (API v1) | seconds |",
    "|---:|---:|---:|---:|---:|",
    `| ${c.done} | ${c.failed} | ${c.skipped} | ${c.unsupported} | ${(report.duration_ms / 1000).toFixed(1)} |`,
    "",
  ];
  const failed = report.results.filter((r) => r.status === "failed");
  // Addresses, error messages and reasons carry names: each line escaped (src/base/controls.ts).
  for (const r of failed.slice(0, FAILED_LIST_CAP)) out.push(escapeControls(`- failed: \`${r.address}\`: ${r.error?.message ?? "unknown error"}`));
  if (failed.length > FAILED_LIST_CAP) out.push(`- failed: ${failed.length - FAILED_LIST_CAP} more (the JSON report lists every one)`);
  const groups = skippedGroups(report);
  for (const g of groups) out.push(`- ${plural(g.results.length, "action")} ${SKIP_TEXT[g.cause]}${plan ? ` (${countsByKind(plan, g.results)})` : ""}`);
  for (const m of verification?.mismatches ?? []) out.push(escapeControls(`- not stored as written: \`${m.address}\` (${m.fields.join(", ")})`));
  if (failed.length || groups.length || verification?.mismatches.length) out.push("");
  return `${out.join("\n")}\n`;
}
