/** A drift report as text (people, logs), markdown (an issue a scheduled job opens) or JSON. */
import { countsAsDrift, type DriftItem, type DriftReport } from "../drift/index.js";
import { plural } from "../plural.js";
import { escapeControls, jsonText } from "../base/controls.js";
import { MARKDOWN_LIMIT } from "./markdown.js";
import { cutLines } from "./markdown-fit.js";
import { tableCell } from "./common.js";

export const DRIFT_FORMATS = ["text", "markdown", "json"] as const;
export type DriftFormat = (typeof DRIFT_FORMATS)[number];

/** What differs, in words: `desc changed`, `missing from the tenant`, ... */
function what(i: DriftItem): string {
  const byManifests = i.origin === "manifests";
  switch (i.op) {
    case "create":
      return byManifests && i.address === rootOf(i) ? "new in the manifests" : "missing from the tenant";
    case "delete":
      return byManifests ? "removed from the manifests" : "in the tenant, not in the manifests";
    case "rename":
      return "renamed";
    case "move":
      return "moved";
    case "unsupported":
      return `${i.fields.join(", ") || "record"} differs (API v1 cannot write it back)`;
    default:
      return `${i.fields.join(", ") || "record"} changed`;
  }
}

/** A version or sub-record's own record: the address up to its first segment. */
const rootOf = (i: DriftItem): string => i.address.slice(0, i.address.indexOf("]") + 1);

/**
 * When, from the feed (`changed in the tenant 2026-11-20T10:14:03Z, changelog 48213`), or why it
 * is not known; for a difference the manifests introduced, what they did since the last apply.
 */
function when(i: DriftItem): string {
  if (i.changelog_id === undefined) return i.note ?? "no changelog entry";
  const verb = i.change_type === "delete" ? "deleted" : i.change_type === "reset" ? "reset" : "changed";
  return `${verb}${i.origin === "tenant" ? " in the tenant" : ""} ${i.changed_at}, changelog ${i.changelog_id}${i.note ? ` (${i.note})` : ""}`;
}

/** Where the differences come from, when the manifests introduced some: `2 made in the tenant, 4 in the manifests not applied yet`. */
function origins(drift: readonly DriftItem[]): string {
  const manifests = drift.filter((i) => i.origin === "manifests").length;
  if (!manifests) return "";
  const tenant = drift.filter((i) => i.origin === "tenant").length;
  const unknown = drift.length - manifests - tenant;
  return `: ${tenant} made in the tenant, ${manifests} in the manifests not applied yet${unknown ? `, ${unknown} not known` : ""}`;
}

/** Every line below is escaped whole (src/base/controls.ts): its parts are names and the feed's words. */
function headline(r: DriftReport): string {
  return escapeControls(
    r.drifted
      ? `${plural(r.drifted, "difference")} between the manifests and tenant "${r.tenant}" (checked ${r.checked_at})${origins(r.items.filter(countsAsDrift))}`
      : `No drift: tenant "${r.tenant}" matches the manifests (checked ${r.checked_at})`,
  );
}

/** What API v1 cannot write back: shown after the drift, never counted as drift. */
const NOT_POSSIBLE = "Not possible through API v1";
const NOT_COUNTED = "shown, not counted as drift; set them in the PIM's UI";

/** The items that count as drift, and those API v1 cannot write back. */
const split = (r: DriftReport) => ({ drift: r.items.filter(countsAsDrift), unwritable: r.items.filter((i) => !countsAsDrift(i)) });

/** A report for people: the headline, then each item (a fleet's report prints each tenant's in turn). */
export function driftText(r: DriftReport): string {
  const { drift, unwritable } = split(r);
  const lines = [headline(r) + (drift.length ? ":" : ".")];
  for (const i of drift) lines.push(escapeControls(`  ${i.address}: ${what(i)}; ${when(i)}`));
  if (unwritable.length) lines.push(...(drift.length ? [""] : []), `${NOT_POSSIBLE} (${NOT_COUNTED}):`);
  for (const i of unwritable) lines.push(escapeControls(`  ${i.address}: ${what(i)}; ${when(i)}`));
  if (drift.length) lines.push("", `Run 'pimctl plan' to review the changes apply would make, or update the manifests to the tenant.`);
  return `${lines.join("\n")}\n`;
}

const cell = tableCell;

const TABLE_HEAD = ["| Record | What differs | When (changelog) |", "|---|---|---|"];
const row = (i: DriftItem) => `| \`${cell(i.address)}\` | ${cell(what(i))} | ${cell(when(i))} |`;

/** The title and the report; a report too long for an issue has its rows cut (GitHub refuses a body over 65,536 characters). */
function markdown(r: DriftReport): string {
  const title = `# Catalogue drift on \`${escapeControls(r.tenant)}\`\n\n`;
  return title + driftMarkdownBody(r, MARKDOWN_LIMIT - title.length);
}

/** The row that ends a cut table: a row, since GitHub reads a line right after a table as one. */
const moreRow = (left: number) => `| _... and ${left} more: every item is in \`pimctl drift --format json\`_ | | |`;

/**
 * A report's markdown under its title: the headline, the tables, the feed read (a fleet's report puts
 * each tenant's under its own heading). Longer than `room`, its tables' rows are cut to fit, the drift
 * given three quarters of the rows' room when there are rows API v1 cannot write back too.
 */
export function driftMarkdownBody(r: DriftReport, room = Infinity): string {
  const { drift, unwritable } = split(r);
  const body = (driftRows: string[], unwritableRows: string[]) => {
    const lines = [`${headline(r)}.`];
    if (drift.length) lines.push("", ...TABLE_HEAD, ...driftRows);
    if (unwritable.length) lines.push("", `**${NOT_POSSIBLE}** (${NOT_COUNTED}):`, "", ...TABLE_HEAD, ...unwritableRows);
    if (r.items.length) lines.push("", feedLine(r));
    return `${lines.join("\n")}\n`;
  };
  const full = body(drift.map(row), unwritable.map(row));
  if (full.length <= room) return full;
  const rowsRoom = room - body([], []).length;
  const driftRows = cutLines(drift.map(row), unwritable.length ? Math.floor((rowsRoom * 3) / 4) : rowsRoom, moreRow);
  const used = driftRows.reduce((n, l) => n + l.length + 1, 0);
  return body(driftRows, cutLines(unwritable.map(row), rowsRoom - used, moreRow));
}

/** Which feed was read, and what to run next. */
function feedLine(r: DriftReport): string {
  return escapeControls(
    `Feed read: ${r.feed.entity_types.join(", ") || "none needed"}${r.feed.since ? ` since ${r.feed.since}` : " (every entry)"}. Run \`pimctl ` +
      `plan\` to review what apply would change back.`,
  );
}

export function renderDrift(r: DriftReport, format: DriftFormat): string {
  if (format === "json") return `${jsonText(r, 2)}\n`;
  return format === "markdown" ? markdown(r) : driftText(r);
}
