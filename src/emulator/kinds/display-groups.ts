/** Display groups (how attributes are grouped on screen): the records' rules and the routes. */
import type { DisplayGroupRec } from "../record-shapes.js";
import { type StoreCore } from "../store-core.js";
import { bodyObject, intParam, ok, pick, type RouteSpec } from "../request.js";

// ------------------------------------------------------------------ records

export function createDisplayGroup(s: StoreCore, body: { name: string; sort_order?: number; in_navigation?: boolean }): DisplayGroupRec {
  const d = { id: s.id("displayGroups"), name: body.name, sort_order: body.sort_order ?? 0, in_navigation: body.in_navigation ?? false };
  s.displayGroups.set(d.id, d);
  s.changed(null, d.id);
  return d;
}

export function updateDisplayGroup(s: StoreCore, id: number, body: { name?: string; sort_order?: number; in_navigation?: boolean }): DisplayGroupRec {
  const d = s.getDisplayGroup(id);
  if (body.name !== undefined) d.name = body.name;
  if (body.sort_order !== undefined) d.sort_order = body.sort_order;
  if (body.in_navigation !== undefined) d.in_navigation = body.in_navigation;
  s.changed(null, id);
  return d;
}

// ------------------------------------------------------------------- routes

export const displayGroupRoutes: RouteSpec[] = [
  [
    "GET",
    "/display-groups",
    (c) =>
      ok({ display_groups: [...c.store.displayGroups.values()].sort((a, b) => a.id - b.id).map((d) => ({ ...d, in_navigation: d.in_navigation ? 1 : 0 })) }),
  ],
  [
    "GET",
    "/display-groups/:id",
    (c) => {
      const d = c.store.getDisplayGroup(intParam(c, "id"));
      return ok({ display_group: { ...d, in_navigation: d.in_navigation ? 1 : 0 } });
    },
  ],
  [
    "POST",
    "/display-groups",
    (c) => {
      const d = createDisplayGroup(c.store, pick(bodyObject(c), { name: "string", sort_order: "int", in_navigation: "bool" }, ["name"]) as never);
      return ok({ display_group: { ...d, in_navigation: d.in_navigation ? 1 : 0 } }, 201);
    },
  ],
  [
    "PUT",
    "/display-groups/:id",
    (c) => {
      const d = updateDisplayGroup(c.store, intParam(c, "id"), pick(bodyObject(c), { name: "string", sort_order: "int", in_navigation: "bool" }) as never);
      return ok({ display_group: { ...d, in_navigation: d.in_navigation ? 1 : 0 } });
    },
  ],
];
