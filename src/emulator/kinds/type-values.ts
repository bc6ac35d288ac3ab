/**
 * Attribute type values (the options of a selectbox or multiselect attribute), with
 * their language versions: the records' rules, their JSON and their routes.
 */
import { notFound, unprocessable } from "../errors.js";
import type { TypeValueRec } from "../record-shapes.js";
import { now, slugify, type StoreCore } from "../store-core.js";
import { intParam, noContent, ok, pick, bodyObject, versionParam, type RouteSpec } from "../request.js";

// ------------------------------------------------------------------ records

export function typeValuesOf(s: StoreCore, attributeId: number): TypeValueRec[] {
  const m = s.typeValueIndex().get(attributeId);
  return m ? [...m.values()].sort((a, b) => a.sort_order - b.sort_order || a.id - b.id) : [];
}

export function getTypeValue(s: StoreCore, attributeId: number, id: number): TypeValueRec {
  s.getAttribute(attributeId);
  const tv = s.typeValues.get(id);
  if (!tv || tv.attribute_id !== attributeId) throw notFound("Attribute type value");
  return tv;
}

export function createTypeValue(s: StoreCore, attributeId: number, body: { value: string; slug?: string | null; sort_order?: number }): TypeValueRec {
  s.getAttribute(attributeId);
  if (typeValuesOf(s, attributeId).some((t) => t.value === body.value)) throw unprocessable("value", "The value has already been taken.");
  const t = now();
  const tv: TypeValueRec = {
    id: s.id("typeValues"),
    attribute_id: attributeId,
    value: body.value,
    slug: body.slug === undefined ? slugify(body.value) : body.slug,
    sort_order: body.sort_order ?? 0,
    versions: {},
    created_at: t,
    updated_at: t,
  };
  s.typeValues.set(tv.id, tv);
  s.indexTypeValue(tv);
  s.changed("attribute", attributeId);
  return tv;
}

export function updateTypeValue(
  s: StoreCore,
  attributeId: number,
  id: number,
  body: { value?: string; slug?: string | null; sort_order?: number },
): TypeValueRec {
  const tv = getTypeValue(s, attributeId, id);
  if (body.value !== undefined && body.value !== tv.value && typeValuesOf(s, attributeId).some((t) => t.value === body.value)) {
    throw unprocessable("value", "The value has already been taken.");
  }
  if (body.value !== undefined) tv.value = body.value;
  if (body.slug !== undefined) tv.slug = body.slug;
  if (body.sort_order !== undefined) tv.sort_order = body.sort_order;
  tv.updated_at = now();
  s.changed("attribute", attributeId);
  return tv;
}

export function setTypeValueVersion(s: StoreCore, attributeId: number, id: number, version: number, value: string): TypeValueRec {
  const tv = getTypeValue(s, attributeId, id);
  const existing = tv.versions[version];
  if (existing) existing.value = value;
  else tv.versions[version] = { id: s.id("typeValueVersions"), value };
  tv.updated_at = now();
  s.changed("attribute", attributeId);
  return tv;
}

export function deleteTypeValueVersion(s: StoreCore, attributeId: number, id: number, version: number): void {
  const tv = getTypeValue(s, attributeId, id);
  delete tv.versions[version];
  s.changed("attribute", attributeId);
}

export function deleteTypeValue(s: StoreCore, attributeId: number, id: number): void {
  getTypeValue(s, attributeId, id);
  s.typeValues.delete(id);
  s.tvByAttribute?.get(attributeId)?.delete(id);
  s.changed("attribute", attributeId);
}

// --------------------------------------------------------------------- JSON

export function typeValueJson(tv: TypeValueRec, version: number | undefined, fallback: boolean): Record<string, unknown> | undefined {
  const base = { attribute_id: tv.attribute_id, slug: tv.slug, sort_order: tv.sort_order, created_at: tv.created_at, updated_at: tv.updated_at };
  if (!version) return { id: tv.id, ...base, value: tv.value, version_id: 0 };
  const v = tv.versions[version];
  if (!v && !fallback) return undefined;
  return { id: v?.id ?? tv.id, ...base, value: v?.value ?? tv.value, version_id: version, master_attribute_type_value_id: tv.id };
}

// ------------------------------------------------------------------- routes

export const typeValueRoutes: RouteSpec[] = [
  [
    "GET",
    "/attributes/:id/type_values",
    (c) =>
      ok({
        attribute_type_values: typeValuesOf(c.store, c.store.getAttribute(intParam(c, "id")).id).map((t) => typeValueJson(t, undefined, true)),
      }),
  ],
  [
    "GET",
    "/attributes/:id/type_values/version/:version",
    (c) =>
      ok({
        attribute_type_values: typeValuesOf(c.store, c.store.getAttribute(intParam(c, "id")).id)
          .map((t) => typeValueJson(t, versionParam(c), c.switches.versionFallback))
          .filter((x) => x !== undefined),
      }),
  ],
  [
    "GET",
    "/attributes/:id/type_values/:tv",
    (c) => ok({ attribute_type_value: typeValueJson(getTypeValue(c.store, intParam(c, "id"), intParam(c, "tv")), undefined, true) }),
  ],
  [
    "GET",
    "/attributes/:id/type_values/:tv/version/:version",
    (c) => {
      const tv = typeValueJson(getTypeValue(c.store, intParam(c, "id"), intParam(c, "tv")), versionParam(c), c.switches.versionFallback);
      if (!tv) throw notFound("Attribute type value version");
      return ok({ attribute_type_value: tv });
    },
  ],
  [
    "POST",
    "/attributes/:id/type_values",
    (c) => {
      const b = pick(bodyObject(c), { value: "string", slug: "nullable-string", sort_order: "int" }, ["value"]);
      return ok({ attribute_type_value: typeValueJson(createTypeValue(c.store, intParam(c, "id"), b as never), undefined, true) }, 201);
    },
  ],
  [
    "PUT",
    "/attributes/:id/type_values/:tv",
    (c) => {
      const b = pick(bodyObject(c), { value: "string", slug: "nullable-string", sort_order: "int" });
      return ok({ attribute_type_value: typeValueJson(updateTypeValue(c.store, intParam(c, "id"), intParam(c, "tv"), b as never), undefined, true) });
    },
  ],
  [
    "PUT",
    "/attributes/:id/type_values/:tv/version/:version",
    (c) => {
      const b = pick(bodyObject(c), { value: "string" }, ["value"]);
      const v = versionParam(c);
      if (v === 0) throw unprocessable("version_id", "Use PUT .../type_values/<ID> for the master version.");
      const tv = setTypeValueVersion(c.store, intParam(c, "id"), intParam(c, "tv"), v, b.value as string);
      return ok({ attribute_type_value: typeValueJson(tv, v, true) });
    },
  ],
  [
    "DELETE",
    "/attributes/:id/type_values/:tv",
    (c) => {
      deleteTypeValue(c.store, intParam(c, "id"), intParam(c, "tv"));
      return noContent;
    },
  ],
  [
    "DELETE",
    "/attributes/:id/type_values/:tv/version/:version",
    (c) => {
      deleteTypeValueVersion(c.store, intParam(c, "id"), intParam(c, "tv"), versionParam(c));
      return noContent;
    },
  ],
];
