/** The changelog feed (API v1: Changelogs), followed by its `links.next`. */
import { PimctlError } from "../../errors.js";
import { getLimited, nextLink, sameTenantPath } from "../lists.js";
import type { Attempt } from "../attempt.js";
import type { ApiSelf } from "../core.js";
import type * as T from "../types.js";

/** A number a page's meta gives, or undefined when it gives none. */
const count = (x: unknown): number | undefined => (x === null || x === undefined || x === "" || !Number.isFinite(Number(x)) ? undefined : Number(x));

/** What a changelog page's `meta` says of its paging; each field may be absent (a service may leave `total` out). */
function pagingOf(v: unknown): { total?: number; current_page?: number; last_page?: number } | undefined {
  if (v === null || typeof v !== "object") return undefined;
  const m = v as Record<string, unknown>;
  const [total, current_page, last_page] = [count(m.total), count(m.current_page), count(m.last_page)];
  return {
    ...(total === undefined ? {} : { total }),
    ...(current_page === undefined ? {} : { current_page }),
    ...(last_page === undefined ? {} : { last_page }),
  };
}

/** Page `n` of the feed, parsed, with its list; anything else stops the read (never a partial feed). */
function changelogPage(core: ApiSelf, path: string, r: Attempt, n: number): { changelogs: unknown[]; links?: unknown; meta?: unknown } {
  let data: { changelogs?: unknown; links?: unknown; meta?: unknown } | null;
  try {
    data = core.parse("GET", path, r);
  } catch (e) {
    throw new PimctlError("api_protocol", `changelog page ${n} could not be read: ${(e as Error).message}; stopping instead of returning a partial feed`, {
      request: core.info("GET", path, r.status),
    });
  }
  if (!data || !Array.isArray(data.changelogs))
    throw new PimctlError("api_protocol", `changelog page ${n} has no "changelogs" list; stopping instead of returning a partial feed`, {
      request: core.info("GET", path, r.status),
    });
  return data as { changelogs: unknown[]; links?: unknown; meta?: unknown };
}

export const changelogEndpoints = {
  async listChangelogs(this: ApiSelf, opts: T.ChangelogQuery = {}): Promise<T.ApiChangelog[]> {
    return (await this.readChangelogs(opts)).entries;
  },

  /**
   * Changelog entries, all pages (or the first): API v1 names no paging parameter but `limit`,
   * so the client follows `links.next` when the answer has one, and never builds page numbers.
   * It asks for the largest page the tenant takes (a 422 steps down, as for the other lists),
   * and says what the pages said of themselves (their totals, whether they described paging at
   * all, the limit sent): whether that proves the read whole is the changelog refresh's call.
   */
  async readChangelogs(this: ApiSelf, opts: T.ChangelogQuery & { firstPage?: boolean } = {}): Promise<T.ChangelogRead> {
    const query = { limit: opts.limit ?? this.changelogLimit, entity_type: opts.entityType, updated_at: opts.updatedAt };
    const first = await getLimited(this, "/changelogs", query, (smaller) => {
      if (this.changelogLimit > smaller) this.changelogLimit = smaller;
    });
    let { r, full: path } = first;
    const limit = first.limit ?? query.limit;
    let requests = first.requests;
    const entries: T.ApiChangelog[] = [];
    const totals: Array<number | undefined> = [];
    let paged = false;
    // Every page must parse and say where the next one is; a page that does not is an
    // error, never a quiet end of the feed (an incremental sync would skip changes).
    for (let n = 1; ; n++) {
      const data = changelogPage(this, path, r, n);
      entries.push(...(data.changelogs as T.ApiChangelog[]));
      const next = nextLink(data.links);
      const meta = pagingOf(data.meta);
      totals.push(meta?.total);
      paged ||= meta !== undefined || (data.links !== null && typeof data.links === "object");
      if (!next && meta?.current_page !== undefined && meta.last_page !== undefined && meta.current_page < meta.last_page) {
        throw new PimctlError(
          "api_protocol",
          `changelog page ${n} says it is page ${meta.current_page} of ${meta.last_page} but gives no next address; stopping instead of returning ` +
            `a partial feed`,
          { request: this.info("GET", path) },
        );
      }
      if (!next || opts.firstPage) return { entries, totals, limit, paged, more: Boolean(next), requests };
      path = sameTenantPath(this, next, path);
      r = await this.request("GET", path);
      requests++;
    }
  },

  getChangelog(this: ApiSelf, id: number): Promise<T.ApiChangelog> {
    return this.get(`/changelogs/${id}`, "changelogs");
  },
};
