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
import { blockedLine, groupByKind, hintLines, summaryLine, type RenderOptions } from "../common.js";
import { alikeNames, entryFailed, entryTenants, failedFirst, foldFailedAlike, type FailedAlike } from "../fold-errors.js";
import { MARKDOWN_LIMIT, kindSection } from "../markdown.js";
import { wholeParts } from "../markdown-fit.js";
import { fleetSummaryLine } from "./common.js";
import { foldFleet, tenantsLabel, type FleetFold } from "./fold.js";
import { foldedTable, fullTable } from "./markdown-table.js";

/** Marks the comment so a pipeline can find and update it (the fleet's own: a single tenant's comment keeps `<!-- pimctl-plan -->`). */
export const FLEET_MARKDOWN_MARKER = "<!-- pimctl-fleet-plan -->";

/** The most of the comment the table may take once it no longer fits whole: the rest is the changes'. */
const TABLE_ROOM = MARKDOWN_LIMIT / 2;

export function renderFleetMarkdown(fleet: FleetPlan, opts: RenderOptions): string {
  const fold = foldFleet(fleet);
  const headOf = (table: string[]) => `${[FLEET_MARKDOWN_MARKER, `### pimctl plan for ${fleet.tenants.length} tenants`, "", ...table, ""].join("\n")}\n`;
  const tail = `**${escapeControls(fleetSummaryLine(fleet))}**\n`;
  const head = headOf(fullTable(fleet));
  const full = sections(fleet, fold, opts, false);
  if (fits(head, full, tail)) return head + texts(full) + tail;
  const compactOpts = { ...opts, compact: true };
  const compact = sections(fleet, fold, compactOpts, false);
  if (fits(head + COMPACT_NOTE, compact, tail)) return head + noteFor(compact) + texts(compact) + tail;
  // Past that, tenants that failed alike fold into one row and one section, the table is cut to its room, and then whole sections.
  return cut(headOf(foldedTable(fleet, TABLE_ROOM)), sections(fleet, fold, compactOpts, true), tail);
}

/**
 * A part of the review after the table, how many actions it shows (the note on one line per action is
 * said only above some), and how many tenants it is the part of (0 for changes shared by several).
 */
interface Section {
  text: string;
  actions: number;
  tenants: number;
}

const COMPACT_NOTE = "_The review is long for a comment: one line per action below; the HTML page and the JSON have every field._\n\n";
const noteFor = (shown: readonly Section[]) => (shown.some((s) => s.actions > 0) ? COMPACT_NOTE : "");
const texts = (parts: readonly Section[]) => parts.map((p) => p.text).join("");
const fits = (head: string, parts: readonly Section[], tail: string) =>
  head.length + parts.reduce((n, p) => n + p.text.length, 0) + tail.length <= MARKDOWN_LIMIT;

/**
 * The sections in order, each whole (its <details> and code blocks closed): a cut falls between two of
 * them. Folded for a cut (`foldFailed`), the cautions of the tenants that could not be planned come
 * first, before the shared changes and the tenants' own: a reviewer must see why tenants failed.
 */
function sections(fleet: FleetPlan, fold: FleetFold, opts: RenderOptions, foldFailed: boolean): Section[] {
  const shared: Section[] = fold.shared.map((group) => {
    const lines = [`#### Changes ${escapeControls(tenantsLabel(group.tenants, fold.planned, fold.total))}`, ""];
    for (const [kind, actions] of groupByKind(group.actions)) lines.push(...kindSection(kind, actions, opts));
    return { text: `${lines.join("\n")}\n`, actions: group.actions.length, tenants: 0 };
  });
  const entries = foldFailed ? failedFirst(foldFailedAlike(fleet.tenants)) : fleet.tenants.map((one) => ({ one }));
  const parts = entries.map((e): Section => {
    const own = "one" in e ? (fold.own.get(e.one.tenant) ?? []) : [];
    return { text: "one" in e ? tenantSection(e.one, own, opts) : failedAlikeSection(e.alike), actions: own.length, tenants: entryTenants(e) };
  });
  if (!foldFailed) return [...shared, ...parts];
  const failed = entries.filter(entryFailed).length;
  return [...parts.slice(0, failed), ...shared, ...parts.slice(failed)];
}

/** A tenant's part, folded: its summary in the <summary>, then its own actions, blocked deletes, hints and warnings. */
function tenantSection(t: FleetTenant, own: readonly Action[], opts: RenderOptions): string {
  const name = `<code>${esc(t.tenant)}</code>`;
  if (!t.plan) {
    const e = t.error!;
    const details = detailLines(e.details);
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

/** Tenants that could not be planned with the same code: one caution naming them, with the first one's message and details. */
function failedAlikeSection(g: FailedAlike<FleetTenant>): string {
  const first = g.tenants[0]!;
  const names = alikeNames(g, (n) => `<code>${esc(n)}</code>`);
  const head =
    `> **${g.tenants.length} tenants could not be planned** (\`${escapeControls(g.code)}\`): ${names}. ` +
    `As <code>${esc(first.tenant)}</code> words it: ${escapeControls(first.error!.message)}`;
  const pointer = "> _Each tenant's own error is in the HTML review page and in the JSON._";
  return [`> [!CAUTION]`, head, ...detailLines(first.error!.details), pointer, "", ""].join("\n");
}

/** An error's details as quoted lines, the first 20 (a manifest error can have hundreds): the HTML page and the JSON have every one. */
function detailLines(details: readonly string[]): string[] {
  const shown = details.slice(0, 20).map((d) => `> ${escapeControls(d)}`);
  return details.length > shown.length ? [...shown, `> ... and ${details.length - shown.length} more (the HTML page and the JSON have every one)`] : shown;
}

/** As many whole sections as fit (with the note on one line per action when one is left to show), then the pointer to where the rest is. */
function cut(head: string, parts: readonly Section[], tail: string): string {
  if (fits(head + COMPACT_NOTE, parts, tail)) return head + noteFor(parts) + texts(parts) + tail;
  const room = MARKDOWN_LIMIT - head.length - COMPACT_NOTE.length - tail.length - pointer(parts).length;
  const { kept, left } = wholeParts(
    parts.map((p) => p.text),
    room,
  );
  return head + noteFor(parts.slice(0, kept.length)) + kept.join("") + pointer(parts.slice(parts.length - left)) + tail;
}

/**
 * "The review is cut here: 2 more groups of shared changes and the parts of 17 more tenants did not
 * fit": tenants counted, a folded caution as many as it names.
 */
function pointer(left: readonly Section[]): string {
  const groups = left.filter((s) => s.tenants === 0).length;
  const tenants = left.reduce((n, s) => n + s.tenants, 0);
  const what = [
    ...(groups ? [`${groups} more ${groups === 1 ? "group" : "groups"} of shared changes`] : []),
    ...(tenants ? [`the parts of ${tenants} more ${tenants === 1 ? "tenant" : "tenants"}`] : []),
  ];
  return (
    `_The review is cut here: ${what.join(" and ")} did not fit a comment (GitHub takes 65,536 characters). ` +
    `Every tenant's plan is in the HTML review page (\`--html FILE\`, or \`pimctl show FILE... --format html\`) and in the JSON (\`--format json\`)._\n\n`
  );
}
