/**
 * The combined review as one pull-request comment: the table of tenants, each group of shared
 * changes and each tenant's own part folded in <details>. GitHub refuses a comment over 65,536
 * characters: past the limit the actions go one line each, and then the sections that do not fit
 * are cut, with a line that says how many and where every tenant's plan is (the HTML page, the JSON).
 */
import type { FleetPlan, FleetTenant } from "../../plan/fleet.js";
import type { Action } from "../../plan/types.js";
import { escapeControls } from "../../base/controls.js";
import { esc } from "../html/escape.js";
import { blockedLine, groupByKind, hintLines, summaryLine, truncate, type RenderOptions } from "../common.js";
import { MARKDOWN_LIMIT, kindSection } from "../markdown.js";
import { COLUMN_TITLES, COUNT_COLUMNS, fleetSummaryLine, rowCells } from "./common.js";
import { foldFleet, tenantsLabel, type FleetFold } from "./fold.js";

/** Marks the comment so a pipeline can find and update it (the fleet's own: a single tenant's comment keeps `<!-- pimctl-plan -->`). */
export const FLEET_MARKDOWN_MARKER = "<!-- pimctl-fleet-plan -->";

export function renderFleetMarkdown(fleet: FleetPlan, opts: RenderOptions): string {
  const fold = foldFleet(fleet);
  const head = `${[FLEET_MARKDOWN_MARKER, `### pimctl plan for ${fleet.tenants.length} tenants`, "", ...table(fleet), ""].join("\n")}\n`;
  const tail = `**${escapeControls(fleetSummaryLine(fleet))}**\n`;
  const full = sections(fleet, fold, opts);
  if (fits(head, full, tail)) return head + full.join("") + tail;
  const compact = sections(fleet, fold, { ...opts, compact: true });
  const note = "_The review is long for a comment: one line per action below; the HTML page and the JSON have every field._\n\n";
  if (fits(head + note, compact, tail)) return head + note + compact.join("") + tail;
  return cut(head + note, compact, tail);
}

const fits = (head: string, parts: readonly string[], tail: string) => head.length + parts.reduce((n, p) => n + p.length, 0) + tail.length <= MARKDOWN_LIMIT;

/** The sections in order, each whole (its <details> and code blocks closed): a cut falls between two of them. */
function sections(fleet: FleetPlan, fold: FleetFold, opts: RenderOptions): string[] {
  const out: string[] = [];
  for (const group of fold.shared) {
    const lines = [`#### Changes ${escapeControls(tenantsLabel(group.tenants, fold.planned, fold.total))}`, ""];
    for (const [kind, actions] of groupByKind(group.actions)) lines.push(...kindSection(kind, actions, opts));
    out.push(`${lines.join("\n")}\n`);
  }
  for (const t of fleet.tenants) out.push(tenantSection(t, fold.own.get(t.tenant) ?? [], opts));
  return out;
}

/** A tenant's part, folded: its summary in the <summary>, then its own actions, blocked deletes, hints and warnings. */
function tenantSection(t: FleetTenant, own: readonly Action[], opts: RenderOptions): string {
  const name = `<code>${esc(t.tenant)}</code>`;
  if (!t.plan) {
    const e = t.error!;
    const details = e.details.map((d) => `> ${escapeControls(d)}`);
    return [`> [!CAUTION]`, `> **${name} could not be planned** (\`${e.code}\`): ${escapeControls(e.message)}`, ...details, "", ""].join("\n");
  }
  const plan = t.plan;
  const lines = [`<details><summary>${name}: ${esc(summaryLine(plan))}</summary>`, ""];
  if (own.length) lines.push(`_Only in this tenant (${own.length}):_`, "");
  for (const [kind, actions] of groupByKind(own)) lines.push(...kindSection(kind, actions, opts));
  const blocked = blockedLine(plan);
  if (blocked) lines.push("> [!CAUTION]", `> **Blocked deletes**: ${blocked}`, "");
  for (const h of hintLines(plan)) lines.push(`- possible move: ${h}`);
  for (const w of plan.warnings) lines.push(`> [!NOTE]`, `> ${escapeControls(w)}`, "");
  lines.push("</details>", "", "");
  return lines.join("\n");
}

function table(fleet: FleetPlan): string[] {
  const cell = (s: string) => escapeControls(s.replace(/\|/g, "\\|").replace(/\n/g, " "));
  const rows = fleet.tenants.map((t) => {
    const { counts, error } = rowCells(t);
    return `| \`${cell(t.tenant)}\` | ${counts.join(" | ")} | ${error ? cell(truncate(error, 300)) : ""} |`;
  });
  return [`| tenant | ${COUNT_COLUMNS.map((k) => COLUMN_TITLES[k]).join(" | ")} | error |`, `|---|${COUNT_COLUMNS.map(() => "---:|").join("")}---|`, ...rows];
}

/** As many whole sections as fit, then the pointer to where the rest is. */
function cut(head: string, parts: readonly string[], tail: string): string {
  const pointer = (left: number) =>
    `_The review is cut here: ${left} more ${left === 1 ? "section" : "sections"} did not fit a comment (GitHub takes 65,536 characters). ` +
    `Every tenant's plan is in the HTML review page (\`--html FILE\`, or \`pimctl show FILE... --format html\`) and in the JSON (\`--format json\`)._\n\n`;
  let text = head;
  let i = 0;
  const room = MARKDOWN_LIMIT - tail.length - pointer(parts.length).length;
  while (i < parts.length && text.length + parts[i]!.length <= room) text += parts[i++];
  return text + pointer(parts.length - i) + tail;
}
