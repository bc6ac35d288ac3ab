/**
 * The table of tenants at the top of the fleet's comment: a row per tenant; past the room a comment
 * gives it, tenants that failed alike (the same error code) as one row with the first one's message,
 * then rows cut with one that says how many more and where every row is.
 */
import type { FleetPlan, FleetTenant } from "../../plan/fleet.js";
import { alikeError, alikeNames, entryTenants, errorCellText, foldFailedAlike } from "../fold-errors.js";
import { cutLines } from "../markdown-fit.js";
import { tableNames, type TableNames } from "../table-names.js";
import { tableCell } from "../common.js";
import { COLUMN_TITLES, COUNT_COLUMNS, rowCells } from "./common.js";

const cell = tableCell;
const emptyCounts = COUNT_COLUMNS.map(() => " ").join("|");

/** The table with a row per tenant, as long as the fleet. */
export function fullTable(fleet: FleetPlan): string[] {
  const names = tableNames(fleet.tenants);
  return [...TABLE_HEAD, ...fleet.tenants.map((t) => tenantRow(t, names))];
}

/** The table folded and cut to `room` characters: it fits whatever the fleet. */
export function foldedTable(fleet: FleetPlan, room: number): string[] {
  const names = tableNames(fleet.tenants);
  // "| 200 tenants: `prod-001`, ... and 190 more | | ... | api_unauthorized (as prod-001): GET /channels (401) ... |"
  const entries = foldFailedAlike(fleet.tenants);
  const rows = entries.map((e) => {
    if ("one" in e) return tenantRow(e.one, names);
    const error = cell(errorCellText(alikeError(e.alike), e.alike.tenants[0]!.tenant, names.shown));
    return `| ${e.alike.tenants.length} tenants: ${alikeNames(e.alike, names.name)} |${emptyCounts}| ${error} |`;
  });
  return [...TABLE_HEAD, ...cutLines(rows, room - TABLE_HEAD.join("\n").length - 1, moreRow, entries.map(entryTenants))];
}

const TABLE_HEAD = [`| tenant | ${COUNT_COLUMNS.map((k) => COLUMN_TITLES[k]).join(" | ")} | error |`, `|---|${COUNT_COLUMNS.map(() => "---:|").join("")}---|`];

function tenantRow(t: FleetTenant, { shown, name }: TableNames): string {
  const { counts, error } = rowCells(t);
  return `| ${name(t.tenant)} | ${counts.join(" | ")} | ${cell(errorCellText(error, t.tenant, shown))} |`;
}

/** A row, not a line under the table: GitHub reads a line right after a table as one more row. */
const moreRow = (left: number) => `| _... and ${left} more tenants: every tenant's row is in the HTML review page and in the JSON_ |${emptyCounts}| |`;
