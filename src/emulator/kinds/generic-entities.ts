/** Generic entities: read-only in API v1 (seeded with every tenant), their flags as 1/0. */
import { notFound } from "../errors.js";
import { intParam, ok, paginate, type RouteSpec } from "../request.js";

function genericJson(g: { is_tree: boolean; is_product_attribute: boolean; publishable: boolean; display_on_navigation: boolean }): Record<string, unknown> {
  return {
    ...g,
    is_tree: g.is_tree ? 1 : 0,
    is_product_attribute: g.is_product_attribute ? 1 : 0,
    publishable: g.publishable ? 1 : 0,
    display_on_navigation: g.display_on_navigation ? 1 : 0,
  };
}

export const genericEntityRoutes: RouteSpec[] = [
  [
    "GET",
    "/generic-entities",
    (c) => {
      const all = [...c.store.genericEntities.values()].sort((a, b) => a.id - b.id).map(genericJson);
      const q = new URLSearchParams(c.query);
      q.delete("limit");
      // A fixed page of 1000 (the document's limit table), which no `limit` asked for: --max-page-size does not refuse it.
      const p = paginate({ ...c, query: q, switches: { ...c.switches, maxPageSize: undefined } }, "/generic-entities", all, 1000);
      return ok({ generic_entities: p.items, links: p.links, meta: p.meta });
    },
  ],
  [
    "GET",
    "/generic-entities/:id",
    (c) => {
      const g = c.store.genericEntities.get(intParam(c, "id"));
      if (!g) throw notFound("Generic entity");
      return ok({ generic_entity: genericJson(g) });
    },
  ],
];
