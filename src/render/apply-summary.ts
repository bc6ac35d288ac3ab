/** An apply's outcome as markdown, for a pipeline's job summary. */
import type { ApplyReport } from "../apply/index.js";
import { escapeControls } from "./controls.js";

export function renderApplySummary(tenant: string, report: ApplyReport, verification?: { mismatches: Array<{ address: string; fields: string[] }> }): string {
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
  const skipped = report.results.filter((r) => r.status === "skipped");
  // Addresses, error messages and reasons carry names: each line escaped (src/render/controls.ts).
  for (const r of failed) out.push(escapeControls(`- failed: \`${r.address}\`: ${r.error?.message ?? "unknown error"}`));
  for (const r of skipped) out.push(escapeControls(`- skipped: \`${r.address}\`: ${r.reason ?? ""}`));
  for (const m of verification?.mismatches ?? []) out.push(escapeControls(`- not stored as written: \`${m.address}\` (${m.fields.join(", ")})`));
  if (failed.length || skipped.length || verification?.mismatches.length) out.push("");
  return `${out.join("\n")}\n`;
}
