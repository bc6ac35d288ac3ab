/** The changelog feed (API v1: Changelogs), followed by its `links.next`. */
import { PimctlError } from "../../errors.js";
import { nextLink, pageMeta, sameTenantPath } from "../lists.js";
import type { ApiSelf } from "../core.js";
import type * as T from "../types.js";

/** The changelog list's default page size (API document, Limits): a page this long may have been cut. */
export const CHANGELOG_DEFAULT_PAGE = 250;

export const changelogEndpoints = {
  /**
   * Changelog entries, all pages: API v1 names no paging parameter but `limit`, so the
   * client follows `links.next` when the answer has one, and never builds page numbers.
   */
  async listChangelogs(
    this: ApiSelf,
    opts: { limit?: number; entityType?: T.ApiChangelog["entity_type"]; updatedAt?: string; seen?: { cut: boolean } } = {},
  ): Promise<T.ApiChangelog[]> {
    const q = new URLSearchParams();
    if (opts.limit) q.set("limit", String(opts.limit));
    if (opts.entityType) q.set("entity_type", opts.entityType);
    if (opts.updatedAt) q.set("updated_at", opts.updatedAt);
    const out: T.ApiChangelog[] = [];
    let path: string | undefined = `/changelogs${q.size ? `?${q.toString()}` : ""}`;
    // Every page must parse and say where the next one is; a page that does not is an
    // error, never a quiet end of the feed (an incremental sync would skip changes).
    for (let n = 1; path; n++) {
      const r = await this.request("GET", path);
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
      out.push(...(data.changelogs as T.ApiChangelog[]));
      const next = nextLink(data.links);
      const meta = pageMeta(data.meta);
      if (!next && meta && meta.current_page < meta.last_page) {
        throw new PimctlError(
          "api_protocol",
          `changelog page ${n} says it is page ${meta.current_page} of ${meta.last_page} but gives no next address; stopping instead of returning ` +
            `a partial feed`,
          { request: this.info("GET", path) },
        );
      }
      if (opts.seen) opts.seen.cut = !next && !(meta && meta.current_page >= meta.last_page) && (data.changelogs as unknown[]).length >= CHANGELOG_DEFAULT_PAGE;
      path = next ? sameTenantPath(this, next, path) : undefined;
    }
    return out;
  },
  getChangelog(this: ApiSelf, id: number): Promise<T.ApiChangelog> {
    return this.get(`/changelogs/${id}`, "changelogs");
  },
};
