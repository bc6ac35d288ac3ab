/** `pimctl translations status` as text, markdown (a pull-request comment) or JSON. */
import { TEXT_KIND_TITLES } from "../plan/texts.js";
import type { ReadOnlyCoverage, StatusReport } from "./status.js";

export const STATUS_FORMATS = ["text", "markdown", "json"] as const;
export type StatusFormat = (typeof STATUS_FORMATS)[number];

/** Listed addresses per version and state, before "... and N more" (json lists all). */
const LIST_LIMIT = 200;

const listed = (ids: string[], prefix: string, code = false): string[] =>
  ids
    .slice(0, LIST_LIMIT)
    .map((id) => `${prefix}${code ? `\`${id}\`` : id}`)
    .concat(ids.length > LIST_LIMIT ? [`${prefix}... and ${ids.length - LIST_LIMIT} more (--format json lists all)`] : []);

/** Read-only texts (brand and category versions) in one line: "categories: 1 of 2 translated; brand texts: ...". */
const readOnlyLine = (r: ReadOnlyCoverage): string => r.kinds.map((k) => `${TEXT_KIND_TITLES[k.kind]}: ${k.translated} of ${k.total} translated`).join("; ");

/** One tenant's status as `--format json` prints it: the report under its format's version. */
const statusDocument = (report: StatusReport) => ({ format_version: "1.1", ...report });

/** Several tenants' statuses (`--tenant` selecting several): JSON `{"tenants": [{"tenant", ...}]}`, else each under a heading naming its tenant. */
export function renderFleetStatus(reports: ReadonlyArray<{ tenant: string; report: StatusReport }>, format: StatusFormat): string {
  if (format === "json") return `${JSON.stringify({ tenants: reports.map((r) => ({ tenant: r.tenant, ...statusDocument(r.report) })) }, null, 2)}\n`;
  return reports.map((r) => `${format === "markdown" ? "## " : ""}Tenant ${r.tenant}\n\n${renderStatus(r.report, format)}`).join("\n");
}

export function renderStatus(report: StatusReport, format: StatusFormat): string {
  if (format === "json") return `${JSON.stringify(statusDocument(report), null, 2)}\n`;
  const out: string[] = [];
  if (!report.versions.length) return "No language versions in the manifests (name one with --language).\n";
  if (format === "markdown") {
    out.push("### Translations", "", "| version | kind | translated | missing | outdated |", "|---|---|---:|---:|---:|");
    for (const v of report.versions) {
      for (const k of v.kinds) out.push(`| ${v.version} | ${TEXT_KIND_TITLES[k.kind]} | ${k.translated} / ${k.total} | ${k.missing} | ${k.outdated} |`);
      out.push(`| **${v.version}** | **all (${v.percent}%)** | **${v.translated} / ${v.total}** | **${v.missing}** | **${v.outdated}** |`);
      for (const k of v.read_only?.kinds ?? [])
        out.push(`| ${v.version} | ${TEXT_KIND_TITLES[k.kind]} (read-only in API v1, not counted) | ${k.translated} / ${k.total} | – | – |`);
    }
    for (const v of report.versions) {
      for (const [state, ids] of [
        ["Missing", v.missing_ids],
        ["Outdated", v.outdated_ids],
      ] as const) {
        if (!ids.length) continue;
        out.push("", `<details><summary>${v.version}: ${state.toLowerCase()} (${ids.length})</summary>`, "", ...listed(ids, "- ", true), "", "</details>");
      }
    }
    return `${out.join("\n")}\n`;
  }
  for (const v of report.versions) {
    out.push(`${v.version}: ${v.translated} of ${v.total} translated (${v.percent}%), ${v.missing} missing, ${v.outdated} outdated`);
    for (const k of v.kinds) out.push(`  ${TEXT_KIND_TITLES[k.kind]}: ${k.translated} translated, ${k.missing} missing, ${k.outdated} outdated`);
    if (v.read_only) out.push(`  read-only in API v1 (not units, not counted): ${readOnlyLine(v.read_only)}`);
    if (v.outdated_ids.length) out.push(`  outdated (the master text changed since the translation was made):`, ...listed(v.outdated_ids, "    "));
    if (v.missing_ids.length) out.push(`  missing:`, ...listed(v.missing_ids, "    "));
  }
  return `${out.join("\n")}\n`;
}
