/**
 * Drift across a fleet as one report: a row per tenant (drifted, from the tenant, from the
 * manifests, not possible through API v1, error), then each tenant's report as `drift` prints it.
 */
import { driftCounts, type FleetDriftReport, type FleetDriftTenant } from "../drift/fleet.js";
import { escapeControls, jsonText } from "../base/controls.js";
import { plural } from "../plural.js";
import { alignRows, truncate } from "./common.js";
import { driftMarkdownBody, driftText, type DriftFormat } from "./drift.js";

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

function markdown(r: FleetDriftReport): string {
  const cell = (s: string) => escapeControls(truncate(s, 300).replace(/\|/g, "\\|").replace(/\n/g, " "));
  const out = [
    `# Catalogue drift across ${r.tenants.length} tenants`,
    "",
    `| ${HEAD.join(" | ")} |`,
    `|---|${HEAD.slice(1, -1)
      .map(() => "---:|")
      .join("")}---|`,
  ];
  for (const t of r.tenants) {
    const [name, ...rest] = cells(t);
    out.push(`| \`${cell(name!)}\` | ${rest.map(cell).join(" | ")} |`);
  }
  out.push("");
  for (const t of r.tenants) {
    out.push(`## \`${escapeControls(t.tenant)}\``, "");
    if (t.report) out.push(driftMarkdownBody(t.report));
    else out.push(`> [!CAUTION]`, `> Could not be read (\`${t.error!.code}\`): ${cell(t.error!.message)}`, "");
  }
  out.push(`**${closing(r)}**`);
  return `${out.join("\n")}\n`;
}

export function renderFleetDrift(r: FleetDriftReport, format: DriftFormat): string {
  if (format === "json") return `${jsonText(r, 2)}\n`;
  return format === "markdown" ? markdown(r) : text(r);
}
