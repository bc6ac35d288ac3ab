/** What every format of the combined review says the same way: the table of tenants, the closing line, the public data. */
import type { FleetPlan, FleetTenant } from "../../plan/fleet.js";
import { hasChanges } from "../../plan/types.js";
import { plural } from "../../plural.js";

/** The table's columns after the tenant's name: the plan's counts, then its error. */
export const COUNT_COLUMNS = ["create", "update", "rename", "move", "delete", "unsupported"] as const;
export const COLUMN_TITLES: Record<(typeof COUNT_COLUMNS)[number], string> = {
  create: "create",
  update: "update",
  rename: "rename",
  move: "move",
  delete: "delete",
  unsupported: "not possible (API v1)",
};

/** A tenant's row: its counts, or its error's code and message (empty counts). */
export function rowCells(t: FleetTenant): { counts: string[]; error: string } {
  if (!t.plan) return { counts: COUNT_COLUMNS.map(() => ""), error: t.error ? `${t.error.code}: ${t.error.message}` : "" };
  const s = t.plan.summary;
  return { counts: COUNT_COLUMNS.map((c) => String(s[c])), error: "" };
}

/** "3 tenants: 2 with changes, 1 without changes, 1 could not be planned." */
export function fleetSummaryLine(fleet: FleetPlan): string {
  const failed = fleet.tenants.filter((t) => !t.plan).length;
  const changed = fleet.tenants.filter((t) => t.plan && hasChanges(t.plan)).length;
  const same = fleet.tenants.length - failed - changed;
  const parts = [
    ...(changed ? [`${changed} with changes`] : []),
    ...(same ? [`${same} without changes`] : []),
    ...(failed ? [`${failed} could not be planned`] : []),
  ];
  return `Fleet of ${plural(fleet.tenants.length, "tenant")}: ${parts.join(", ")}.`;
}

/** The fleet as programs read it (schemas/fleet-plan.schema.json): each plan without its basis and seal, as `plan --format json` prints one. */
export function publicFleet(fleet: FleetPlan): FleetPlan {
  const tenants = fleet.tenants.map((t) => {
    if (!t.plan) return t;
    const { integrity: _integrity, basis: _basis, ...plan } = t.plan;
    return { ...t, plan };
  });
  return { format_version: fleet.format_version, kind: "fleet", tenants, waves: fleet.waves };
}
