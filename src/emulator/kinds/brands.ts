/**
 * Brands and their sub-resources (language versions, assets and web ids through
 * assets.ts, attribute values, assigned attributes and attribute sets): the records'
 * rules (unique names, what a delete takes with it), their JSON and their routes.
 */
import { notFound, unprocessable } from "../errors.js";
import { BRAND_FIELDS, type BrandAttrValueRec, type BrandRec } from "../record-shapes.js";
import { now, type StoreCore } from "../store-core.js";
import {
  bodyObject,
  intParam,
  noContent,
  ok,
  pageParams,
  paginate,
  pick,
  searchMiss,
  versionParam,
  type FieldKind,
  type RequestContext,
  type RouteSpec,
} from "../request.js";
import { assetRoutes } from "./assets.js";

// ------------------------------------------------------------------ records

export function brandByNameLookup(s: StoreCore, name: string, caseInsensitive = false): BrandRec | undefined {
  if (!caseInsensitive) {
    const id = s.brandByName.get(name);
    return id === undefined ? undefined : s.brands.get(id);
  }
  for (const b of s.brands.values()) if (b.name.toLowerCase() === name.toLowerCase()) return b;
  return undefined;
}

export function createBrand(s: StoreCore, body: Partial<BrandRec> & { name: string }): BrandRec {
  if (s.brandByName.has(body.name)) throw unprocessable("name", "The name has already been taken.");
  const t = now();
  const b: BrandRec = {
    id: s.id("brands"),
    name: body.name,
    desc: body.desc ?? null,
    excluded: body.excluded ?? false,
    exclusion_start_date: body.exclusion_start_date ?? null,
    exclusion_end_date: body.exclusion_end_date ?? null,
    exclusion_reason: body.exclusion_reason ?? null,
    seo_search_keywords: body.seo_search_keywords ?? null,
    seo_meta_desc: body.seo_meta_desc ?? null,
    seo_meta_keywords: body.seo_meta_keywords ?? null,
    seo_title: body.seo_title ?? null,
    product_count: body.product_count ?? 0,
    versions: body.versions ?? {},
    created_at: t,
    updated_at: t,
  };
  s.brands.set(b.id, b);
  s.brandByName.set(b.name, b.id);
  s.brandIds = null;
  s.changed("brand", b.id);
  return b;
}

export function updateBrand(s: StoreCore, id: number, body: Partial<BrandRec>): BrandRec {
  const b = s.getBrand(id);
  if (body.name !== undefined && body.name !== b.name) {
    if (s.brandByName.has(body.name)) throw unprocessable("name", "The name has already been taken.");
    s.brandByName.delete(b.name);
    s.brandByName.set(body.name, id);
    b.name = body.name;
  }
  for (const k of [...BRAND_FIELDS, "excluded"] as const) if (body[k] !== undefined) (b as unknown as Record<string, unknown>)[k] = body[k];
  b.updated_at = now();
  s.changed("brand", id);
  return b;
}

export function deleteBrand(s: StoreCore, id: number): void {
  const b = s.getBrand(id);
  s.brands.delete(id);
  s.brandByName.delete(b.name);
  s.brandIds = null;
  for (const [aid, a] of s.brandAssets) if (a.owner_id === id) s.brandAssets.delete(aid);
  for (const m of s.brandWebIds.values()) m.delete(id);
  for (const [vid, v] of s.brandAttrValues) if (v.brand_id === id) s.brandAttrValues.delete(vid);
  s.brandAssignedAttributes.delete(id);
  s.brandAssignedSets.delete(id);
  s.changed("brand", id, "delete");
}

export function brandAttributeValues(s: StoreCore, brandId: number): BrandAttrValueRec[] {
  const out: BrandAttrValueRec[] = [];
  for (const v of s.brandAttrValues.values()) if (v.brand_id === brandId) out.push(v);
  return out.sort((a, b) => a.attribute_id - b.attribute_id || a.version_id - b.version_id);
}

export function createBrandAttributeValue(s: StoreCore, brandId: number, attributeId: number, versionId: number, value: string): void {
  s.getBrand(brandId);
  if (!s.attributes.has(attributeId)) throw unprocessable("attribute_id", "The selected attribute id is invalid.");
  if (brandAttributeValues(s, brandId).some((v) => v.attribute_id === attributeId && v.version_id === versionId)) {
    throw unprocessable("values", "The attribute already holds a value for this version.");
  }
  const v = { id: s.id("brandAttrValues"), brand_id: brandId, attribute_id: attributeId, version_id: versionId, value };
  s.brandAttrValues.set(v.id, v);
  s.changed("brand", brandId);
}

export function updateBrandAttributeValue(s: StoreCore, brandId: number, attributeId: number, valueId: number, value: string): void {
  s.getBrand(brandId);
  const v = s.brandAttrValues.get(valueId);
  if (!v || v.brand_id !== brandId || v.attribute_id !== attributeId) throw notFound("Brand attribute value");
  v.value = value;
  s.changed("brand", brandId);
}

export function deleteBrandAttributeValue(s: StoreCore, brandId: number, attributeId: number, valueId: number): void {
  s.getBrand(brandId);
  const v = s.brandAttrValues.get(valueId);
  if (!v || v.brand_id !== brandId || v.attribute_id !== attributeId) throw notFound("Brand attribute value");
  s.brandAttrValues.delete(valueId);
  s.changed("brand", brandId);
}

export function assignBrandAttribute(s: StoreCore, brandId: number, attributeId: number): void {
  s.getBrand(brandId);
  if (!s.attributes.has(attributeId)) throw unprocessable("attribute_id", "The selected attribute id is invalid.");
  let assigned = s.brandAssignedAttributes.get(brandId);
  if (!assigned) s.brandAssignedAttributes.set(brandId, (assigned = new Set()));
  assigned.add(attributeId);
  s.changed("brand", brandId);
}

export function assignBrandSet(s: StoreCore, brandId: number, setId: number): void {
  s.getBrand(brandId);
  if (!s.attributeSets.has(setId)) throw unprocessable("attribute_set_id", "The selected attribute set id is invalid.");
  let assigned = s.brandAssignedSets.get(brandId);
  if (!assigned) s.brandAssignedSets.set(brandId, (assigned = new Set()));
  assigned.add(setId);
  s.changed("brand", brandId);
}

// --------------------------------------------------------------------- JSON

export function brandJson(b: BrandRec, version?: number, fallback = true): Record<string, unknown> {
  const v = version ? (b.versions[version] ?? {}) : undefined;
  const text = (k: (typeof BRAND_FIELDS)[number]) => (v ? (v[k] ?? (fallback ? b[k] : null)) : b[k]);
  return {
    id: b.id,
    name: b.name,
    desc: text("desc"),
    excluded: b.excluded,
    exclusion_start_date: b.exclusion_start_date,
    exclusion_end_date: b.exclusion_end_date,
    exclusion_reason: text("exclusion_reason"),
    seo_search_keywords: text("seo_search_keywords"),
    seo_meta_desc: text("seo_meta_desc"),
    seo_meta_keywords: text("seo_meta_keywords"),
    seo_title: text("seo_title"),
    product_count: b.product_count,
    ...(version ? { version_id: version } : {}),
    created_at: b.created_at,
    updated_at: b.updated_at,
  };
}

export function brandAttributesJson(c: RequestContext, brandId: number, onlyAttribute?: number): Record<string, unknown>[] {
  const byAttr = new Map<number, Array<{ id: number; version_id: number; value: string }>>();
  for (const aid of c.store.brandAssignedAttributes.get(brandId) ?? []) byAttr.set(aid, []);
  for (const v of brandAttributeValues(c.store, brandId)) {
    const list = byAttr.get(v.attribute_id) ?? [];
    list.push({ id: v.id, version_id: v.version_id, value: v.value });
    byAttr.set(v.attribute_id, list);
  }
  const out: Record<string, unknown>[] = [];
  for (const [aid, values] of [...byAttr].sort((x, y) => x[0] - y[0])) {
    if (onlyAttribute !== undefined && aid !== onlyAttribute) continue;
    const a = c.store.attributes.get(aid);
    if (!a) continue;
    out.push({ attribute_id: aid, name: a.name, slug: a.slug, user_defined_key: a.slug, type: a.type, values });
  }
  return out;
}

function brandAttributeBody(c: RequestContext): { attribute_id: number; version_id: number; values: string[] } {
  const b = bodyObject(c);
  const p = pick(b, { attribute_id: "int", version_id: "int" }, ["attribute_id"]);
  if (
    !Array.isArray(b.values) ||
    b.values.length === 0 ||
    b.values.some((v) => v === null || typeof v !== "object" || typeof (v as { value?: unknown }).value !== "string")
  ) {
    throw unprocessable("values", "The values field must be a non-empty array of objects with a string value.");
  }
  return {
    attribute_id: p.attribute_id as number,
    version_id: (p.version_id as number | undefined) ?? 0,
    values: (b.values as Array<{ value: string }>).map((v) => v.value),
  };
}

// ------------------------------------------------------------------- routes

const BRAND_WRITE: Record<string, FieldKind> = {
  name: "string",
  desc: "nullable-string",
  excluded: "bool",
  exclusion_start_date: "nullable-string",
  exclusion_end_date: "nullable-string",
  exclusion_reason: "nullable-string",
  seo_search_keywords: "nullable-string",
  seo_meta_desc: "nullable-string",
  seo_meta_keywords: "nullable-string",
  seo_title: "nullable-string",
};

export const brandRoutes: RouteSpec[] = [
  [
    "GET",
    "/brands",
    (c) => {
      const v = Number(c.query.get("version") ?? "0");
      const version = Number.isInteger(v) && v > 0 ? v : undefined;
      const ids = c.store.sortedBrandIds();
      const { page, limit } = pageParams(c, 25);
      const p = paginate(c, "/brands", ids, 25);
      void page;
      void limit;
      return ok({ brands: p.items.map((id) => brandJson(c.store.brands.get(id)!, version, c.switches.versionFallback)), links: p.links, meta: p.meta });
    },
  ],
  ["GET", "/brands/:id", (c) => ok({ brand: brandJson(c.store.getBrand(intParam(c, "id"))) })],
  [
    "GET",
    "/brands/:id/version/:version",
    (c) => ok({ brand: brandJson(c.store.getBrand(intParam(c, "id")), versionParam(c) || undefined, c.switches.versionFallback) }),
  ],
  ["POST", "/brands", (c) => ok({ brand: brandJson(createBrand(c.store, pick(bodyObject(c), BRAND_WRITE, ["name"]) as never)) }, 201)],
  ["PUT", "/brands/:id", (c) => ok({ brand: brandJson(updateBrand(c.store, intParam(c, "id"), pick(bodyObject(c), BRAND_WRITE) as never)) })],
  [
    "DELETE",
    "/brands/:id",
    (c) => {
      deleteBrand(c.store, intParam(c, "id"));
      return noContent;
    },
  ],
  [
    "POST",
    "/brands/search",
    (c) => {
      const b = pick(bodyObject(c), { name: "string" }, ["name"]);
      const found = brandByNameLookup(c.store, b.name as string, c.switches.searchCase === "insensitive");
      return found ? ok({ brand: brandJson(found) }) : searchMiss(c);
    },
  ],
  ...assetRoutes("brand"),
  ["GET", "/brands/:id/attributes", (c) => ok({ brand_attributes: brandAttributesJson(c, c.store.getBrand(intParam(c, "id")).id) })],
  [
    "GET",
    "/brands/:id/attributes/:attribute",
    (c) => ok({ brands_attributes: brandAttributesJson(c, c.store.getBrand(intParam(c, "id")).id, intParam(c, "attribute")) }),
  ],
  [
    "POST",
    "/brands/:id/attributes",
    (c) => {
      const brandId = intParam(c, "id");
      const b = brandAttributeBody(c);
      for (const v of b.values) createBrandAttributeValue(c.store, brandId, b.attribute_id, b.version_id, v);
      return ok({ brand_attributes: brandAttributesJson(c, brandId, b.attribute_id)[0] ?? null }, 201);
    },
  ],
  [
    "PUT",
    "/brands/:id/attributes/:attribute/values/:value",
    (c) => {
      const brandId = intParam(c, "id");
      const attributeId = intParam(c, "attribute");
      const b = brandAttributeBody(c);
      updateBrandAttributeValue(c.store, brandId, attributeId, intParam(c, "value"), b.values[0]!);
      return ok({ brand_attributes: brandAttributesJson(c, brandId, attributeId)[0] ?? null });
    },
  ],
  [
    "DELETE",
    "/brands/:id/attributes/:attribute/values/:value",
    (c) => {
      deleteBrandAttributeValue(c.store, intParam(c, "id"), intParam(c, "attribute"), intParam(c, "value"));
      return noContent;
    },
  ],
  [
    "POST",
    "/brands/:id/assigned-attributes",
    (c) => {
      const b = pick(bodyObject(c), { attribute_id: "int" }, ["attribute_id"]);
      assignBrandAttribute(c.store, intParam(c, "id"), b.attribute_id as number);
      return ok({ message: "Attribute assigned." });
    },
  ],
  [
    "POST",
    "/brands/:id/assigned-attribute-sets",
    (c) => {
      const b = pick(bodyObject(c), { attribute_set_id: "int" }, ["attribute_set_id"]);
      assignBrandSet(c.store, intParam(c, "id"), b.attribute_set_id as number);
      return ok({ message: "Attribute set assigned." });
    },
  ],
];
