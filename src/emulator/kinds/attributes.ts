/**
 * Attributes and their language versions: the records' rules (unique names, a known
 * display group, what a delete takes with it), their JSON (with the type values) and
 * their routes. Type values: type-values.ts.
 */
import { unprocessable } from "../errors.js";
import type { AttributeRec } from "../record-shapes.js";
import { now, slugify, type StoreCore } from "../store-core.js";
import { bodyObject, intParam, noContent, ok, pick, same, searchMiss, versionParam, type FieldKind, type RequestContext, type RouteSpec } from "../request.js";
import { typeValueJson, typeValueRoutes, typeValuesOf } from "./type-values.js";

// ------------------------------------------------------------------ records

export function attributeByName(s: StoreCore, name: string, caseInsensitive = false): AttributeRec | undefined {
  for (const a of s.attributes.values()) if (caseInsensitive ? a.name.toLowerCase() === name.toLowerCase() : a.name === name) return a;
  return undefined;
}

export function createAttribute(s: StoreCore, body: Partial<AttributeRec> & { name: string; type: string }): AttributeRec {
  if (attributeByName(s, body.name)) throw unprocessable("name", "The name has already been taken.");
  if (body.display_group_id != null && !s.displayGroups.has(body.display_group_id))
    throw unprocessable("display_group_id", "The selected display group id is invalid.");
  const t = now();
  const a: AttributeRec = {
    id: s.id("attributes"),
    name: body.name,
    type: body.type,
    slug: body.slug ?? slugify(body.name),
    note: body.note ?? null,
    length: body.length ?? null,
    display_group_id: body.display_group_id ?? null,
    sort_order: body.sort_order ?? 0,
    publish: body.publish ?? false,
    versions: {},
    created_at: t,
    updated_at: t,
  };
  s.attributes.set(a.id, a);
  s.changed("attribute", a.id);
  return a;
}

export function updateAttribute(s: StoreCore, id: number, body: Partial<AttributeRec>): AttributeRec {
  const a = s.getAttribute(id);
  if (body.name !== undefined && body.name !== a.name && attributeByName(s, body.name)) throw unprocessable("name", "The name has already been taken.");
  if (body.display_group_id != null && !s.displayGroups.has(body.display_group_id))
    throw unprocessable("display_group_id", "The selected display group id is invalid.");
  for (const k of ["name", "type", "slug", "note", "length", "display_group_id", "sort_order", "publish"] as const) {
    if (body[k] !== undefined) (a as unknown as Record<string, unknown>)[k] = body[k];
  }
  a.updated_at = now();
  s.changed("attribute", id);
  return a;
}

export function setAttributeVersion(s: StoreCore, id: number, version: number, body: { name?: string; note?: string | null }): AttributeRec {
  const a = s.getAttribute(id);
  const v = (a.versions[version] ??= {});
  if (body.name !== undefined) v.name = body.name;
  if (body.note !== undefined) v.note = body.note;
  a.updated_at = now();
  s.changed("attribute", id);
  return a;
}

export function deleteAttributeVersion(s: StoreCore, id: number, version: number): void {
  const a = s.getAttribute(id);
  delete a.versions[version];
  s.changed("attribute", id);
}

/** Its type values, set assignments and brand values go with it. */
export function deleteAttribute(s: StoreCore, id: number): void {
  s.getAttribute(id);
  s.attributes.delete(id);
  for (const [tid, tv] of s.typeValues) if (tv.attribute_id === id) s.typeValues.delete(tid);
  s.tvByAttribute?.delete(id);
  for (const [sid, x] of s.assignments) if (x.attribute_id === id) s.assignments.delete(sid);
  for (const [vid, v] of s.brandAttrValues) if (v.attribute_id === id) s.brandAttrValues.delete(vid);
  for (const set of s.brandAssignedAttributes.values()) set.delete(id);
  s.changed("attribute", id, "delete");
}

// --------------------------------------------------------------------- JSON

export function attributeJson(c: RequestContext, a: AttributeRec, version?: number, withDetails = true): Record<string, unknown> {
  const v = version ? a.versions[version] : undefined;
  const fb = c.switches.versionFallback;
  const dg = a.display_group_id === null ? undefined : c.store.displayGroups.get(a.display_group_id);
  return {
    id: a.id,
    name: version ? (v?.name ?? (fb ? a.name : null)) : a.name,
    type: a.type,
    slug: a.slug,
    ...(withDetails ? { note: version ? (v?.note !== undefined ? v.note : fb ? a.note : null) : a.note, length: a.length } : {}),
    display_group_id: a.display_group_id,
    display_group_name: dg?.name ?? null,
    sort_order: a.sort_order,
    publish: a.publish,
    version_id: version ?? 0,
    typeValuesArray: typeValuesOf(c.store, a.id)
      .map((tv) => typeValueJson(tv, version, fb))
      .filter((x) => x !== undefined),
    created_at: a.created_at,
    updated_at: a.updated_at,
  };
}

// ------------------------------------------------------------------- routes

const ATTRIBUTE_WRITE: Record<string, FieldKind> = {
  name: "string",
  type: "string",
  slug: "string",
  note: "nullable-string",
  length: "nullable-int",
  display_group_id: "nullable-int",
  sort_order: "int",
  publish: "bool",
};
// The attribute's type enum; "calculated" is listed only for product attributes, so writes refuse it.
const ATTRIBUTE_TYPES = ["selectbox", "date", "datetime", "text", "textarea", "multiselect", "json", "markdown"];
function checkType(t: unknown): void {
  if (t !== undefined && !ATTRIBUTE_TYPES.includes(t as string))
    throw unprocessable("type", `The selected type is invalid (one of ${ATTRIBUTE_TYPES.join(", ")}).`);
}

/** The attribute routes, then the type value routes (the router's order: it breaks ties and lists Allow). */
export const attributeRoutes: RouteSpec[] = [
  [
    "GET",
    "/attributes",
    (c) => ok({ attributes: [...c.store.attributes.values()].sort((a, b) => a.id - b.id).map((a) => attributeJson(c, a, undefined, false)) }),
  ],
  [
    "GET",
    "/attributes/version/:version",
    (c) => ok({ attributes: [...c.store.attributes.values()].sort((a, b) => a.id - b.id).map((a) => attributeJson(c, a, versionParam(c), false)) }),
  ],
  ["GET", "/attributes/:id", (c) => ok({ attribute: attributeJson(c, c.store.getAttribute(intParam(c, "id"))) })],
  ["GET", "/attributes/:id/version/:version", (c) => ok({ attribute: attributeJson(c, c.store.getAttribute(intParam(c, "id")), versionParam(c)) })],
  [
    "POST",
    "/attributes",
    (c) => {
      const b = pick(bodyObject(c), ATTRIBUTE_WRITE, ["name", "type"]);
      checkType(b.type);
      return ok({ attribute: attributeJson(c, createAttribute(c.store, b as never)) }, 201);
    },
  ],
  [
    "PUT",
    "/attributes/:id",
    (c) => {
      const b = pick(bodyObject(c), ATTRIBUTE_WRITE);
      checkType(b.type);
      return ok({ attribute: attributeJson(c, updateAttribute(c.store, intParam(c, "id"), b as never)) });
    },
  ],
  [
    "PUT",
    "/attributes/:id/version/:version",
    (c) => {
      const b = pick(bodyObject(c), { name: "string", note: "nullable-string" });
      const v = versionParam(c);
      if (v === 0) throw unprocessable("version_id", "Use PUT /attributes/<ID> for the master version.");
      return ok({ attribute: attributeJson(c, setAttributeVersion(c.store, intParam(c, "id"), v, b as never), v) });
    },
  ],
  [
    "DELETE",
    "/attributes/:id",
    (c) => {
      deleteAttribute(c.store, intParam(c, "id"));
      return noContent;
    },
  ],
  [
    "DELETE",
    "/attributes/:id/version/:version",
    (c) => {
      deleteAttributeVersion(c.store, intParam(c, "id"), versionParam(c));
      return noContent;
    },
  ],
  [
    "POST",
    "/attributes/search",
    (c) => {
      const b = pick(bodyObject(c), { name: "string" }, ["name"]);
      const found = [...c.store.attributes.values()].find((a) => same(c, a.name, b.name as string));
      return found ? ok({ attribute: attributeJson(c, found) }) : searchMiss(c);
    },
  ],
  ...typeValueRoutes,
];
