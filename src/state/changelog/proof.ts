/**
 * Whether a read of the changelog feed holds every entry its query matched. API v1 names no
 * paging parameter but `limit`, no largest `limit` and no meaning for `meta.total`, so the
 * only proof is the service's own count, checked against what it listed:
 * - every page carries `meta.total`, the totals never fall from page to page (an entry
 *   arriving meanwhile adds one; a fall means entries left the list and the pages shifted back
 *   past one), no entry is listed twice (the pages shifted forward), and the entries listed are
 *   as many as the last page's total. A total that counts something else (every entry of the
 *   tenant, or one write behind the list) fails this on every read that lists an entry, so no
 *   snapshot is ever started from it.
 * - a single page without `meta.total` is whole when its `links` say no page follows and it
 *   holds fewer entries than the `limit` sent: a full page may have been cut. Several such
 *   pages are not: a page shifted by an entry arriving meanwhile cannot be told.
 * - a bare list (no `links`, no `meta`: `--changelog-paging capped`) never is. A service may
 *   clamp `limit` without a word (the emulator clamps at 1000, a `--max-page-size` with
 *   `--oversized-limit clamp` below that), so fewer entries than asked for proves nothing.
 * The reasons are one line each: the plan shows them as why it read in full.
 */
import type { ChangelogRead } from "../../api/types.js";

/** Why `read` (every page its links lead to) cannot be shown whole, or undefined when it can. */
export function unproven(read: ChangelogRead): string | undefined {
  const listed = read.entries.length;
  const distinct = new Set(read.entries.map((e) => e.id)).size;
  if (read.totals.every((t): t is number => t !== undefined)) {
    const totals = read.totals as number[];
    if (distinct < listed) return `the changelog feed listed an entry twice: its pages shifted while they were read`;
    const falls = totals.some((t, i) => i > 0 && t < totals[i - 1]!);
    const said = [...new Set(totals)].join(" then ");
    if (falls || distinct !== totals.at(-1))
      return `the changelog feed's meta.total says ${said} but it listed ${distinct} entries, so its count cannot be trusted`;
    return undefined;
  }
  if (!read.paged) return "the changelog feed answers without paging or meta.total, so a list cut at the service's page size cannot be told from a whole one";
  if (read.totals.length > 1) return "the changelog feed pages its answers without meta.total, so a page shifted by an entry arriving meanwhile cannot be told";
  if (listed >= read.limit) return `the changelog feed's one page holds ${listed} entries, as many as the limit sent, and no meta.total: it may have been cut`;
  return undefined;
}
