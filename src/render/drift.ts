/** A drift report as text (people, logs), markdown (an issue a scheduled job opens) or JSON. */
import type { DriftItem, DriftReport } from "../drift/index.js";
import { plural } from "../plural.js";
import { escapeControls, jsonText } from "./controls.js";

export const DRIFT_FORMATS = ["text", "markdown", "json"] as const;
export type DriftFormat = (typeof DRIFT_FORMATS)[number];

/** What differs, in words: `desc changed`, `missing from the tenant`, ... */
function what(i: DriftItem): string {
  switch (i.op) {
    case "create":
      return "missing from the tenant";
    case "delete":
      return "in the tenant, not in the manifests";
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

/** When, from the feed: `2026-11-20T10:14:03Z, changelog 48213`, or why it is not known. */
function when(i: DriftItem): string {
  if (i.changelog_id === undefined) return i.note ?? "no changelog entry";
  const verb = i.change_type === "delete" ? "deleted" : i.change_type === "reset" ? "reset" : "changed";
  return `${verb} ${i.changed_at}, changelog ${i.changelog_id}${i.note ? ` (${i.note})` : ""}`;
}

/** Every line below is escaped whole (src/render/controls.ts): its parts are names and the feed's words. */
function headline(r: DriftReport): string {
  return escapeControls(
    r.items.length
      ? `${plural(r.items.length, "difference")} between the manifests and tenant "${r.tenant}" (checked ${r.checked_at})`
      : `No drift: tenant "${r.tenant}" matches the manifests (checked ${r.checked_at})`,
  );
}

function text(r: DriftReport): string {
  const lines = [headline(r) + (r.items.length ? ":" : ".")];
  for (const i of r.items) lines.push(escapeControls(`  ${i.address}: ${what(i)}; ${when(i)}`));
  if (r.items.length) lines.push("", `Run 'pimctl plan' to review the changes apply would make, or update the manifests to the tenant.`);
  return `${lines.join("\n")}\n`;
}

const cell = (s: string) => escapeControls(s.replace(/\|/g, "\\|").replace(/\n/g, " "));

function markdown(r: DriftReport): string {
  const lines = [`# Catalogue drift on \`${escapeControls(r.tenant)}\``, "", `${headline(r)}.`];
  if (r.items.length) {
    lines.push("", "| Record | What differs | When (changelog) |", "|---|---|---|");
    for (const i of r.items) lines.push(`| \`${cell(i.address)}\` | ${cell(what(i))} | ${cell(when(i))} |`);
    lines.push(
      "",
      escapeControls(
        `Feed read: ${r.feed.entity_types.join(", ") || "none needed"}${r.feed.since ? ` since ${r.feed.since}` : " (every entry)"}. Run \`pimctl ` +
          `plan\` to review what apply would change back.`,
      ),
    );
  }
  return `${lines.join("\n")}\n`;
}

export function renderDrift(r: DriftReport, format: DriftFormat): string {
  if (format === "json") return `${jsonText(r, 2)}\n`;
  return format === "markdown" ? markdown(r) : text(r);
}
