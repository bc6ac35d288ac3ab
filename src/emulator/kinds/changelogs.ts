/**
 * The changelog: read-only; the store core writes an entry per create, update or delete
 * of a brand, category, attribute (type values included) or attribute set (changed()).
 * `--changelog-paging` decides whether a long list pages, `--changelog-total` what its
 * meta.total counts.
 */
import { notFound, unprocessable } from "../errors.js";
import { parseUtc } from "../wire-format.js";
import { intParam, ok, paginate, type RequestContext, type RouteSpec } from "../request.js";

/** meta.total in the reading --changelog-total names; `matching` is what the query matches. */
function withTotal(c: RequestContext, meta: Record<string, unknown>, matching: number): Record<string, unknown> {
  switch (c.switches.changelogTotal) {
    case "absent": {
      const rest = { ...meta };
      delete rest.total;
      return rest;
    }
    case "tenant":
      return { ...meta, total: c.store.changelogs.length };
    case "lagging":
      return { ...meta, total: Math.max(0, matching - 1) };
    default:
      return meta;
  }
}

export const changelogRoutes: RouteSpec[] = [
  [
    "GET",
    "/changelogs",
    (c) => {
      let list = c.store.changelogs;
      const type = c.query.get("entity_type");
      if (type) list = list.filter((e) => e.entity_type === type);
      const since = c.query.get("updated_at");
      if (since) {
        // A client may send back a time in the form it read (SQL form is UTC, like every time here).
        const t = parseUtc(since);
        if (Number.isNaN(t)) throw unprocessable("updated_at", "The updated at is not a valid ISO 8601 datetime.");
        list = list.filter((e) => Date.parse(e.updated_at) >= Math.floor(t / 1000) * 1000);
      }
      const p = paginate(c, "/changelogs", list, 250);
      if (c.switches.changelogPaging === "capped") return ok({ changelogs: p.items });
      return ok({ changelogs: p.items, links: p.links, meta: withTotal(c, p.meta as Record<string, unknown>, list.length) });
    },
  ],
  [
    "GET",
    "/changelogs/:id",
    (c) => {
      const e = c.store.changelogs[intParam(c, "id") - 1];
      if (!e) throw notFound("Changelog");
      return ok({ changelogs: e });
    },
  ],
];
