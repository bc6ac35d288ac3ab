/** The changelog feed (API v1: Changelogs), followed by its `links.next`. */
import { PimctlError } from "../../errors.js";
import { getLimited, nextLink, pageMeta, sameTenantPath } from "../lists.js";
import type { ApiSelf } from "../core.js";
import type * as T from "../types.js";

/** The changelog list's default page size (API document, Limits): a page this long may have been cut. */
export const CHANGELOG_DEFAULT_PAGE = 250;

export const changelogEndpoints = {
  async listChangelogs(this: ApiSelf, opts: T.ChangelogQuery = {}): Promise<T.ApiChangelog[]> {
    return (await this.readChangelogs(opts)).entries;
  },

  /**
   * Changelog entries, all pages (or the first): API v1 names no paging parameter but `limit`,
   * so the client follows `links.next` when the answer has one, and never builds page numbers.
   * It asks for the largest page the tenant takes (a 422 steps down, as for the other lists).
   */
  async readChangelogs(this: ApiSelf, opts: T.ChangelogQuery & { firstPage?: boolean } = {}): Promise<T.ChangelogRead> {
    const query = { limit: opts.limit ?? this.changelogLimit, entity_type: opts.entityType, updated_at: opts.updatedAt };
    const first = await getLimited(this, "/changelogs", query, (smaller) => {
      if (this.changelogLimit > smaller) this.changelogLimit = smaller;
    });
    let { r, full: path } = first;
    let requests = first.requests;
    const entries: T.ApiChangelog[] = [];
    let total: number | undefined;
    // Every page must parse and say where the next one is; a page that does not is an
    // error, never a quiet end of the feed (an incremental sync would skip changes).
    for (let n = 1; ; n++) {
      let data: { changelogs?: unknown; links?: unknown; meta?: unknown } | null;
      try {
        data = this.parse("GET", path, r);
      } catch (e) {
        throw new PimctlError("api_protocol", `changelog page ${n} could not be read: ${(e as Error).message}; stopping instead of returning a partial feed`, {
          request: this.info("GET", path, r.status),
        });
      }
      if (!data || !Array.isArray(data.changelogs))
        throw new PimctlError("api_protocol", `changelog page ${n} has no "changelogs" list; stopping instead of returning a partial feed`, {
          request: this.info("GET", path, r.status),
        });
      entries.push(...(data.changelogs as T.ApiChangelog[]));
      const next = nextLink(data.links);
      const meta = pageMeta(data.meta);
      if (n === 1 && meta) total = meta.total;
      if (!next && meta && meta.current_page < meta.last_page) {
        throw new PimctlError(
          "api_protocol",
          `changelog page ${n} says it is page ${meta.current_page} of ${meta.last_page} but gives no next address; stopping instead of returning ` +
            `a partial feed`,
          { request: this.info("GET", path) },
        );
      }
      if (!next) {
        const cut = !(meta && meta.current_page >= meta.last_page) && (data.changelogs as unknown[]).length >= CHANGELOG_DEFAULT_PAGE;
        return { entries, ...(total === undefined ? {} : { total }), more: false, cut, requests };
      }
      if (opts.firstPage) return { entries, ...(total === undefined ? {} : { total }), more: true, cut: false, requests };
      path = sameTenantPath(this, next, path);
      r = await this.request("GET", path);
      requests++;
    }
  },

  getChangelog(this: ApiSelf, id: number): Promise<T.ApiChangelog> {
    return this.get(`/changelogs/${id}`, "changelogs");
  },
};
