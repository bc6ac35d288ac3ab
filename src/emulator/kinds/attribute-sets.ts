/**
 * Attribute sets and their attribute assignments: the records' rules, and their routes
 * (the records are their own JSON). `--set-attribute-delete-id` decides which id the
 * assignment DELETE takes.
 */
import { notFound, unprocessable } from "../errors.js";
import type { AssignmentRec, AttributeSetRec } from "../record-shapes.js";
import { now, type StoreCore } from "../store-core.js";
import { bodyObject, intParam, noContent, ok, pick, same, searchMiss, type RouteSpec } from "../request.js";

// ------------------------------------------------------------------ records

export function attributeSetByName(s: StoreCore, name: string, caseInsensitive = false): AttributeSetRec | undefined {
  for (const x of s.attributeSets.values()) if (caseInsensitive ? x.name.toLowerCase() === name.toLowerCase() : x.name === name) return x;
  return undefined;
}

export function createAttributeSet(s: StoreCore, body: { name: string; sort_order?: number }): AttributeSetRec {
  if (attributeSetByName(s, body.name)) throw unprocessable("name", "The name has already been taken.");
  const set = { id: s.id("attributeSets"), name: body.name, sort_order: body.sort_order ?? 0 };
  s.attributeSets.set(set.id, set);
  s.changed("attribute_set", set.id);
  return set;
}

export function updateAttributeSet(s: StoreCore, id: number, body: { name?: string; sort_order?: number }): AttributeSetRec {
  const set = s.getSet(id);
  if (body.name !== undefined && body.name !== set.name && attributeSetByName(s, body.name)) throw unprocessable("name", "The name has already been taken.");
  if (body.name !== undefined) set.name = body.name;
  if (body.sort_order !== undefined) set.sort_order = body.sort_order;
  s.changed("attribute_set", id);
  return set;
}

/** Its assignments go with it; categories and brands forget it. */
export function deleteAttributeSet(s: StoreCore, id: number): void {
  s.getSet(id);
  s.attributeSets.delete(id);
  for (const [aid, a] of s.assignments) if (a.attribute_set_id === id) s.assignments.delete(aid);
  for (const c of s.categories.values()) c.attribute_sets = c.attribute_sets.filter((x) => x !== id);
  for (const set of s.brandAssignedSets.values()) set.delete(id);
  s.changed("attribute_set", id, "delete");
}

export function setAssignments(s: StoreCore, setId: number): AssignmentRec[] {
  const out: AssignmentRec[] = [];
  for (const a of s.assignments.values()) if (a.attribute_set_id === setId) out.push(a);
  return out.sort((a, b) => a.sort_order - b.sort_order || a.id - b.id);
}

export function assignToSet(s: StoreCore, setId: number, attributeId: number): AssignmentRec {
  s.getSet(setId);
  if (!s.attributes.has(attributeId)) throw unprocessable("attribute_id", "The selected attribute id is invalid.");
  const existing = setAssignments(s, setId).find((a) => a.attribute_id === attributeId);
  if (existing) return existing;
  const t = now();
  const a: AssignmentRec = {
    id: s.id("assignments"),
    attribute_id: attributeId,
    attribute_set_id: setId,
    sort_order: setAssignments(s, setId).length,
    created_at: t,
    updated_at: t,
  };
  s.assignments.set(a.id, a);
  s.changed("attribute_set", setId);
  return a;
}

export function unassignFromSet(s: StoreCore, setId: number, assignmentId: number): void {
  s.getSet(setId);
  const a = s.assignments.get(assignmentId);
  if (!a || a.attribute_set_id !== setId) throw notFound("Attribute set attribute");
  s.assignments.delete(assignmentId);
  s.changed("attribute_set", setId);
}

// ------------------------------------------------------------------- routes

export const attributeSetRoutes: RouteSpec[] = [
  ["GET", "/attribute_sets", (c) => ok({ attribute_sets: [...c.store.attributeSets.values()].sort((a, b) => a.id - b.id) })],
  ["GET", "/attribute_sets/:id", (c) => ok({ attribute_set: c.store.getSet(intParam(c, "id")) })],
  [
    "POST",
    "/attribute_sets",
    (c) => ok({ attribute_set: createAttributeSet(c.store, pick(bodyObject(c), { name: "string", sort_order: "int" }, ["name"]) as never) }, 201),
  ],
  [
    "PUT",
    "/attribute_sets/:id",
    (c) => ok({ attribute_set: updateAttributeSet(c.store, intParam(c, "id"), pick(bodyObject(c), { name: "string", sort_order: "int" }) as never) }),
  ],
  [
    "DELETE",
    "/attribute_sets/:id",
    (c) => {
      deleteAttributeSet(c.store, intParam(c, "id"));
      return noContent;
    },
  ],
  [
    "POST",
    "/attribute_sets/search",
    (c) => {
      const b = pick(bodyObject(c), { name: "string" }, ["name"]);
      const found = [...c.store.attributeSets.values()].find((s) => same(c, s.name, b.name as string));
      return found ? ok({ attribute_set: found }) : searchMiss(c);
    },
  ],
  [
    "GET",
    "/attribute_sets/:id/attributes",
    (c) => {
      const id = intParam(c, "id");
      if (!c.store.attributeSets.has(id)) throw notFound("Attribute set");
      const list = setAssignments(c.store, id);
      if (!list.length) throw notFound("Attribute set attributes");
      return ok({ attribute_set_attributes: list.map((a) => ({ id: a.id, attribute_id: a.attribute_id, attribute_set_id: a.attribute_set_id })) });
    },
  ],
  [
    "GET",
    "/attribute_sets/:id/attributes/:attribute",
    (c) => {
      const setId = intParam(c, "id");
      c.store.getSet(setId);
      const a = setAssignments(c.store, setId).find((x) => x.attribute_id === intParam(c, "attribute"));
      if (!a) throw notFound("Attribute set attribute");
      return ok({ attribute_set_attribute: a });
    },
  ],
  [
    "POST",
    "/attribute_sets/:id/attributes",
    (c) => {
      const b = pick(bodyObject(c), { attribute_id: "int" }, ["attribute_id"]);
      const a = assignToSet(c.store, intParam(c, "id"), b.attribute_id as number);
      return ok({ attribute_set_attribute: a }, 201);
    },
  ],
  [
    "DELETE",
    "/attribute_sets/:id/attributes/:assignment",
    (c) => {
      const setId = intParam(c, "id");
      const id = intParam(c, "assignment");
      if (c.switches.setAttributeDeleteId === "attribute") {
        const a = setAssignments(c.store, setId).find((x) => x.attribute_id === id);
        if (!a) throw notFound("Attribute set attribute");
        unassignFromSet(c.store, setId, a.id);
      } else unassignFromSet(c.store, setId, id);
      return noContent;
    },
  ],
];
