/** The combined review for people at a terminal: the table of tenants, the shared changes once, each tenant's own. */
import type { ChalkInstance } from "chalk";
import type { FleetPlan, FleetTenant } from "../../plan/fleet.js";
import type { Plan } from "../../plan/types.js";
import { escapeControls } from "../../base/controls.js";
import { alignRows, blockedLine, groupByKind, hintLines, palette, summaryLine, type RenderOptions } from "../common.js";
import { kindLines } from "../text.js";
import { COLUMN_TITLES, COUNT_COLUMNS, fleetSummaryLine, rowCells } from "./common.js";
import { foldFleet, tenantsLabel } from "./fold.js";

export function renderFleetText(fleet: FleetPlan, opts: RenderOptions): string {
  const c = palette(opts.color);
  const fold = foldFleet(fleet);
  const out: string[] = [c.bold(`Plan for ${fleet.tenants.length} tenants`), "", ...table(fleet, c), ""];
  for (const group of fold.shared) {
    out.push(c.bold(`Changes ${tenantsLabel(group.tenants, fold.planned, fold.total)}`), "");
    for (const [kind, actions] of groupByKind(group.actions)) out.push(...kindLines(kind, actions, opts, c, "  "));
  }
  for (const t of fleet.tenants) out.push(...tenantLines(t, fold.own.get(t.tenant) ?? [], opts, c), "");
  out.push(c.bold(fleetSummaryLine(fleet)));
  // One blank line between parts, however the parts end.
  return `${out.filter((l, i) => l !== "" || out[i - 1] !== "").join("\n")}\n`;
}

/** Column-aligned: the tenant, its counts, its error (the error's message in full, on the row's end). */
function table(fleet: FleetPlan, c: ChalkInstance): string[] {
  const head = ["tenant", ...COUNT_COLUMNS.map((k) => COLUMN_TITLES[k]), "error"];
  const rows = fleet.tenants.map((t) => {
    const { counts, error } = rowCells(t);
    return [escapeControls(t.tenant), ...counts, escapeControls(error)];
  });
  const [top, ...lines] = alignRows([head, ...rows]);
  return [c.bold(top!), ...lines.map((l, i) => (fleet.tenants[i]!.error ? c.red(l) : l))];
}

/** A tenant's own part: its summary line, the actions no other tenant has, what a reviewer must see; or why it has no plan. */
function tenantLines(t: FleetTenant, own: Plan["actions"], opts: RenderOptions, c: ChalkInstance): string[] {
  const name = escapeControls(t.tenant);
  if (!t.plan) {
    const error = t.error!;
    return [
      c.red.bold(`Tenant "${name}": could not be planned (${error.code})`),
      c.red(`  ${escapeControls(error.message)}`),
      ...error.details.map((d) => `    ${escapeControls(d)}`),
    ];
  }
  const plan = t.plan;
  const out = [c.bold(`Tenant "${name}": ${summaryLine(plan)}`)];
  if (own.length) out.push(c.dim(`  only in this tenant (${own.length}):`));
  for (const [kind, actions] of groupByKind(own)) out.push(...kindLines(kind, actions, opts, c, "  "));
  const blocked = blockedLine(plan);
  if (blocked) out.push(c.red(`  Blocked deletes: ${blocked}`));
  for (const h of hintLines(plan)) out.push(c.yellow(`  ? ${h}`));
  for (const w of plan.warnings) out.push(c.yellow(`  Warning: ${escapeControls(w)}`));
  return out;
}
