/**
 * A rollout's end for people: one table, a row per tenant in wave order (applied, failed, stale,
 * not started, already applied, interrupted), a count line, and what to run next (the command that
 * resumes, or a new plan of the tenants whose saved plan cannot converge). Names and
 * the tenants' answers in it pass through base/controls.ts.
 */
import { escapeControls } from "../base/controls.js";
import { tableCell, truncate } from "./common.js";

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

/** What to run next (src/workflows/rollout.ts RolloutResult): the same command, or a new plan of the tenants whose saved plan cannot converge. */
export interface RolloutNext {
  resume?: string;
  replan?: { tenants: readonly string[]; command: string };
}

/** The next step as a line; `name` writes a tenant's name and `code` a command, as the format wants them. */
function nextLine(next: RolloutNext, name: (s: string) => string, code: (s: string) => string): string[] {
  if (next.replan) {
    const names = next.replan.tenants.map(name).join(", ");
    const then = next.resume ? `, then run: ${code(next.resume)}` : "";
    const why = "cannot converge (stale, or not planned): running them again fails the same way";
    return [`The saved plans of ${names} ${why}. Plan again: ${code(next.replan.command)}${then}`];
  }
  return next.resume ? [`Resume with: ${code(next.resume)}`] : [];
}

/** The table as text (stderr), ending with what to run next when there is something. */
export function renderRolloutTable(rows: readonly RolloutRow[], next: RolloutNext = {}): string {
  const head = headLine(rows);
  const cells = [
    ["wave", "tenant", "outcome", "exit", "detail"],
    ...rows.map((r) => [String(r.wave), escapeControls(r.tenant), r.outcome, String(r.exit), escapeControls(r.detail ?? "")]),
  ];
  const widths = [0, 1, 2, 3].map((i) => Math.max(...cells.map((c) => c[i]!.length)));
  const lines = cells.map((c) => `  ${c.map((cell, i) => (i < 4 ? cell.padEnd(widths[i]!) : cell)).join("  ")}`.trimEnd());
  return [head, ...lines, ...nextLine(next, escapeControls, escapeControls), ""].join("\n");
}

/** The same as markdown, for a pipeline's job summary (GITHUB_STEP_SUMMARY). */
export function renderRolloutMarkdown(rows: readonly RolloutRow[], next: RolloutNext = {}): string {
  const cell = (s: string) => tableCell(truncate(s, 300));
  return [
    `### ${headLine(rows)}`,
    "",
    "| wave | tenant | outcome | exit | detail |",
    "|---:|---|---|---:|---|",
    ...rows.map((r) => `| ${r.wave} | \`${cell(r.tenant)}\` | ${r.outcome} | ${r.exit} | ${cell(r.detail ?? "")} |`),
    ...nextLine(
      next,
      (n) => `\`${cell(n)}\``,
      (c) => `\`${cell(c)}\``,
    ).flatMap((l) => ["", l]),
    "",
  ].join("\n");
}
