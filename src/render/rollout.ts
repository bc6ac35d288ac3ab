/**
 * A rollout's end for people: one table, a row per tenant in wave order (applied, failed, stale,
 * not started, already applied, interrupted), a count line, and the command that resumes. Names and
 * the tenants' answers in it pass through base/controls.ts.
 */
import { escapeControls } from "../base/controls.js";
import { truncate } from "./common.js";

/** A tenant's row, as the rollout workflow gives it (src/workflows/rollout.ts). */
export interface RolloutRow {
  tenant: string;
  wave: number;
  outcome: string;
  exit: number;
  detail?: string;
}

/** The order outcomes are counted in, in the line above the table. */
const OUTCOME_ORDER = ["applied", "already applied", "failed", "stale", "interrupted", "not started"];

/** "Rollout: 2 applied, 1 failed (3 tenants, 2 waves)." */
function headLine(rows: readonly RolloutRow[]): string {
  const waves = new Set(rows.map((r) => r.wave)).size;
  const counts = OUTCOME_ORDER.map((o) => [o, rows.filter((r) => r.outcome === o).length] as const).filter(([, n]) => n > 0);
  return `Rollout: ${counts.map(([o, n]) => `${n} ${o}`).join(", ")} (${rows.length} tenants, ${waves} wave${waves === 1 ? "" : "s"}).`;
}

/** The table as text (stderr), ending with the resume command when there is one. */
export function renderRolloutTable(rows: readonly RolloutRow[], resume?: string): string {
  const head = headLine(rows);
  const cells = [
    ["wave", "tenant", "outcome", "exit", "detail"],
    ...rows.map((r) => [String(r.wave), escapeControls(r.tenant), r.outcome, String(r.exit), escapeControls(r.detail ?? "")]),
  ];
  const widths = [0, 1, 2, 3].map((i) => Math.max(...cells.map((c) => c[i]!.length)));
  const lines = cells.map((c) => `  ${c.map((cell, i) => (i < 4 ? cell.padEnd(widths[i]!) : cell)).join("  ")}`.trimEnd());
  return [head, ...lines, ...(resume ? [`Resume with: ${escapeControls(resume)}`] : []), ""].join("\n");
}

/** The same as markdown, for a pipeline's job summary (GITHUB_STEP_SUMMARY). */
export function renderRolloutMarkdown(rows: readonly RolloutRow[], resume?: string): string {
  const cell = (s: string) => escapeControls(truncate(s, 300).replace(/\|/g, "\\|").replace(/\n/g, " "));
  return [
    `### ${headLine(rows)}`,
    "",
    "| wave | tenant | outcome | exit | detail |",
    "|---:|---|---|---:|---|",
    ...rows.map((r) => `| ${r.wave} | \`${cell(r.tenant)}\` | ${r.outcome} | ${r.exit} | ${cell(r.detail ?? "")} |`),
    ...(resume ? ["", `Resume with: \`${cell(resume)}\``] : []),
    "",
  ].join("\n");
}
