/**
 * The tenants of a fleet report with those that failed alike folded into one entry: when a shared token
 * is revoked, 200 tenants fail with the same code, and a comment cannot hold 200 rows of it. Failed
 * alike means the same error code: the messages name each tenant and its address, so no two are equal,
 * and the entry shows the first tenant's message for all.
 */

import { truncate } from "./common.js";
import { someNames } from "./markdown-fit.js";

/** How many tenants a folded entry names before "and N more". */
const NAMES_SHOWN = 10;

interface WithError {
  tenant: string;
  error?: { code: string; message: string; details: string[] };
}

/** Two or more tenants that failed with the same code, in the report's order. */
export interface FailedAlike<T> {
  code: string;
  tenants: T[];
}

export type FoldedEntry<T> = { one: T } | { alike: FailedAlike<T> };

/** The tenants in order, each failed group (two or more with one code) as one entry where its first tenant is. */
export function foldFailedAlike<T extends WithError>(tenants: readonly T[]): Array<FoldedEntry<T>> {
  const byCode = new Map<string, T[]>();
  for (const t of tenants) if (t.error) byCode.set(t.error.code, [...(byCode.get(t.error.code) ?? []), t]);
  const out: Array<FoldedEntry<T>> = [];
  for (const t of tenants) {
    const group = t.error ? byCode.get(t.error.code)! : [];
    if (group.length < 2) out.push({ one: t });
    else if (group[0] === t) out.push({ alike: { code: t.error!.code, tenants: group } });
  }
  return out;
}

/**
 * The entries that failed first, then the others, each in the report's order: a cut report keeps why
 * tenants failed before their neighbours' change lists (review 2: the cautions came last, and were cut first).
 */
export function failedFirst<T extends WithError>(entries: ReadonlyArray<FoldedEntry<T>>): Array<FoldedEntry<T>> {
  return [...entries.filter(entryFailed), ...entries.filter((e) => !entryFailed(e))];
}

/** A folded group, or one tenant with its error. */
export const entryFailed = <T extends WithError>(e: FoldedEntry<T>): boolean => !("one" in e) || e.one.error !== undefined;

/** How many tenants an entry stands for: "N more" in a cut report counts tenants, not entries. */
export const entryTenants = <T>(e: FoldedEntry<T>): number => ("one" in e ? 1 : e.alike.tenants.length);

/** "`prod-001`, `prod-002`, ... and 190 more": the first names of the group, each quoted by `quote` (escaped for where it goes). */
export function alikeNames<T extends WithError>(g: FailedAlike<T>, quote: (name: string) => string): string {
  return someNames(
    g.tenants.map((t) => t.tenant),
    NAMES_SHOWN,
    quote,
  );
}

/** "api_unauthorized (as prod-001): GET /channels (401) ...": the code they share, and the first one's message for all. */
export function alikeError<T extends WithError>(g: FailedAlike<T>): string {
  const first = g.tenants[0]!;
  return `${g.code} (as ${first.tenant}): ${first.error!.message}`;
}

/** How many mentions of the tenant's name an error cell gives room for beside its message. */
const MENTIONS_ALLOWED = 3;

/**
 * An error in a fleet table's cell: the tenant's name as the table shows it (`shown`: cut) wherever
 * the text repeats it, then cut to `max` characters not counting those names. A client's message
 * names the tenant (twice for a refused token), and three 300-character names in a cell cut at 300
 * left no message (review 2, md1).
 */
export function errorCellText(text: string, tenant: string, shown: (tenant: string) => string, max = 300): string {
  const as = shown(tenant);
  const named = as === tenant || tenant === "" ? text : text.replaceAll(tenant, as);
  // A client's message names the tenant twice at most, and "(as NAME)" once more: a one-letter name found
  // a thousand times in a message must not lift the cut.
  const mentions = as === "" ? 0 : Math.min(named.split(as).length - 1, MENTIONS_ALLOWED);
  return truncate(named, max + mentions * as.length);
}
