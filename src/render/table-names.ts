/**
 * How the fleet's markdown tables (the plan comment's, the drift issue's) name tenants: a name cut to
 * 100 characters, told apart from the others' cuts (base/distinct-cuts.ts: review 2 found two tenants
 * whose names differ past character 100 reading the same), in the tenant column and inside an error.
 */
import { distinctCuts } from "../base/distinct-cuts.js";
import { tableCell } from "./common.js";

/** The most of a tenant's name a table's cell shows, unless a shorter cut would read as another's. */
const NAME_MAX = 100;

export interface TableNames {
  /** The name as the table words it (cut), plain: for an error's text, escaped with it. */
  shown: (tenant: string) => string;
  /** The name as the table shows it: cut, escaped, in backticks. */
  name: (tenant: string) => string;
}

export function tableNames(tenants: ReadonlyArray<{ tenant: string }>): TableNames {
  const shown = distinctCuts(
    tenants.map((t) => t.tenant),
    NAME_MAX,
  );
  return { shown, name: (tenant) => `\`${tableCell(shown(tenant))}\`` };
}
