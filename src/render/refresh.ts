/** One clause saying how the tenant was read, for the line plan and apply print on stderr. */
import type { RefreshReport } from "../state/changelog/index.js";
import { plural } from "../plural.js";

export function describeRefresh(r: RefreshReport): string {
  if (r.mode === "changelog") {
    return `from the changelog: ${plural(r.entries ?? 0, "change")} since the snapshot, ${plural(r.rereads ?? 0, "record")} re-read`;
  }
  return r.fallback ? `read in full: ${r.fallback}` : "";
}
