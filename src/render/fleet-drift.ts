/**
 * Drift across a fleet as one report: a row per tenant (drifted, from the tenant, from the
 * manifests, not possible through API v1, error), then each tenant's report as `drift` prints it.
 */
import { driftCounts, type FleetDriftReport, type FleetDriftTenant } from "../drift/fleet.js";
import { escapeControls, jsonText } from "../base/controls.js";
import { plural } from "../plural.js";
import { alignRows, tableCell, truncate } from "./common.js";
import { driftMarkdownBody, driftText, type DriftFormat } from "./drift.js";
import { alikeError, alikeNames, entryTenants, errorCellText, failedFirst, foldFailedAlike, type FailedAlike } from "./fold-errors.js";
import { MARKDOWN_LIMIT } from "./markdown.js";
import { cutLines, wholeParts } from "./markdown-fit.js";
import { tableNames, type TableNames } from "./table-names.js";

const HEAD = ["tenant", "drifted", "from the tenant", "from the manifests", "not possible (API v1)", "error"];

function cells(t: FleetDriftTenant): string[] {
  if (!t.report) return [t.tenant, "", "", "", "", t.error ? `${t.error.code}: ${t.error.message}` : ""];
  const n = driftCounts(t.report);
  return [t.tenant, String(n.drifted), String(n.tenant), String(n.manifests), String(n.unsupported), ""];
}

/** "3 tenants: 1 drifted, 1 without drift, 1 could not be read." */
function closing(r: FleetDriftReport): string {
  const failed = r.tenants.filter((t) => !t.report).length;
  const drifted = r.tenants.filter((t) => t.report?.drifted).length;
  const clean = r.tenants.length - failed - drifted;
  const parts = [...(drifted ? [`${drifted} drifted`] : []), ...(clean ? [`${clean} without drift`] : []), ...(failed ? [`${failed} could not be read`] : [])];
  return `Drift across ${plural(r.tenants.length, "tenant")}: ${parts.join(", ")}.`;
}

function text(r: FleetDriftReport): string {
  const rows = r.tenants.map((t) => cells(t).map((c) => escapeControls(c)));
  const out = [`Drift across ${r.tenants.length} tenants`, "", ...alignRows([HEAD, ...rows]), ""];
  for (const t of r.tenants) {
    if (t.report) out.push(driftText(t.report));
    else out.push(escapeControls(`Tenant "${t.tenant}" could not be read: ${t.error!.message}`), ...t.error!.details.map((d) => escapeControls(`  ${d}`)), "");
  }
  out.push(closing(r));
  return `${out.join("\n")}\n`;
}

const cell = (s: string) => tableCell(truncate(s, 300));
/** An error as a cell (or a caution's line) shows it: the tenant's name as the table words it, the message kept. */
const errorCell = (error: string, tenant: string, names: TableNames) => tableCell(errorCellText(error, tenant, names.shown));
const TABLE_HEAD = [
  `| ${HEAD.join(" | ")} |`,
  `|---|${HEAD.slice(1, -1)
    .map(() => "---:|")
    .join("")}---|`,
];
const emptyCounts = HEAD.slice(1, -1)
  .map(() => " ")
  .join("|");
const WHOLE_FLEET = "`pimctl drift --tenant GLOB --format json`";

/** The most of the issue the table may take once the report no longer fits whole: the rest is the tenants' reports. */
const TABLE_ROOM = MARKDOWN_LIMIT / 2;

/**
 * The fleet's drift as one issue body: the table, then each tenant's report. Too long for an issue
 * (GitHub takes 65,536 characters), tenants that could not be read alike fold into one row and one
 * caution, the table is cut to its room, and the reports that do not fit are cut, the last one shown
 * by its rows, with a line that says how many more and where the whole report is.
 */
function markdown(r: FleetDriftReport): string {
  const title = `# Catalogue drift across ${r.tenants.length} tenants\n\n`;
  const tail = `**${closing(r)}**\n`;
  const names = tableNames(r.tenants);
  const full = title + tableText(r.tenants.map((t) => tenantRow(t, names))) + r.tenants.map((t) => tenantPart(t, names)).join("") + tail;
  if (full.length <= MARKDOWN_LIMIT) return full;
  const entries = foldFailedAlike(r.tenants);
  const rows = entries.map((e) => ("one" in e ? tenantRow(e.one, names) : alikeRow(e.alike, names)));
  const head = title + tableText(cutLines(rows, TABLE_ROOM, moreTenantsRow, entries.map(entryTenants)));
  // The reports in the table's order, but those that could not be read first: why is kept before others' items.
  const ordered = failedFirst(entries);
  const counts = ordered.map(entryTenants);
  const parts = ordered.map((e) => ("one" in e ? tenantPart(e.one, names) : alikePart(e.alike, names)));
  const room = MARKDOWN_LIMIT - head.length - tail.length - pointer(r.tenants.length).length;
  const { kept, left } = wholeParts(parts, room);
  if (!left) return head + kept.join("") + tail;
  // The first report that does not fit is shown by as many of its rows as fit, when a few do.
  const next = ordered[kept.length]!;
  const roomLeft = room - kept.reduce((n, p) => n + p.length, 0);
  const partial = "one" in next && next.one.report && roomLeft > 2_000 ? tenantPart(next.one, names, roomLeft) : "";
  // "N more tenants": a folded group left out is as many tenants as it names.
  const after = counts.slice(kept.length).reduce((n, c) => n + c, 0) - (partial ? 1 : 0);
  return head + kept.join("") + partial + (after ? pointer(after) : "") + tail;
}

/** "| 200 tenants: `prod-001`, ... and 190 more | | ... | api_unauthorized (as prod-001): GET /channels (401) ... |" */
function alikeRow(g: FailedAlike<FleetDriftTenant>, names: TableNames): string {
  return `| ${g.tenants.length} tenants: ${alikeNames(g, names.name)} |${emptyCounts}| ${errorCell(alikeError(g), g.tenants[0]!.tenant, names)} |`;
}

function tenantRow(t: FleetDriftTenant, names: TableNames): string {
  const [tenant, ...rest] = cells(t);
  const error = rest.pop()!;
  return `| ${names.name(tenant!)} | ${rest.map(cell).join(" | ")} | ${errorCell(error, t.tenant, names)} |`;
}

const tableText = (rows: readonly string[]) => `${[...TABLE_HEAD, ...rows].join("\n")}\n\n`;
const moreTenantsRow = (left: number) => `| _... and ${left} more tenants: every tenant's row is in ${WHOLE_FLEET}_ |${emptyCounts}| |`;
const pointer = (left: number) =>
  `_The report is cut here: the reports of ${left} more ${left === 1 ? "tenant" : "tenants"} did not fit an issue (GitHub takes 65,536 characters). ` +
  `Every tenant's report is in ${WHOLE_FLEET} (and in the text \`pimctl drift --tenant GLOB\` prints)._\n\n`;

/** A tenant's report under its heading (its rows cut to `room`), or the error that kept it from being read. */
function tenantPart(t: FleetDriftTenant, names: TableNames, room = Infinity): string {
  const heading = `## \`${escapeControls(t.tenant)}\`\n\n`;
  if (t.report) return `${heading}${driftMarkdownBody(t.report, room - heading.length - 1)}\n`;
  return `${heading}> [!CAUTION]\n> Could not be read (\`${t.error!.code}\`): ${errorCell(t.error!.message, t.tenant, names)}\n\n`;
}

/** Tenants that could not be read with the same code: one caution naming them, with the first one's message. */
function alikePart(g: FailedAlike<FleetDriftTenant>, names: TableNames): string {
  const first = g.tenants[0]!;
  return [
    `## ${g.tenants.length} tenants that could not be read`,
    "",
    "> [!CAUTION]",
    `> **${g.tenants.length} tenants could not be read** (\`${escapeControls(g.code)}\`): ${alikeNames(g, names.name)}. ` +
      `As ${names.name(first.tenant)} words it: ${errorCell(first.error!.message, first.tenant, names)}`,
    `> _Each tenant's own error is in ${WHOLE_FLEET}._`,
    "",
    "",
  ].join("\n");
}

export function renderFleetDrift(r: FleetDriftReport, format: DriftFormat): string {
  if (format === "json") return `${jsonText(r, 2)}\n`;
  return format === "markdown" ? markdown(r) : text(r);
}
