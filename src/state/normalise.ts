/**
 * The one place that knows the API's shapes: 1/0 booleans, null versus
 * absent, parent_id 0 versus null, the read shape of category.attribute_sets,
 * asset uri. Everything it returns is in the catalogue's terms.
 */
import type { ApiAsset, ApiAttribute, ApiBrand, ApiCategory, ApiDisplayGroup, ApiTypeValue, Bool01 } from "../api/types.js";
import { coerceBool, coerceIdList, dateInstant } from "../api/wire.js";
import type { AttributeType, Brand, BrandTextField, CategoryStatus, CategoryTextField } from "../model/catalogue.js";
import { BRAND, CATEGORY, versionedFields } from "../model/schema.js";

/** The text fields a language version of a brand / category carries (the field tables say which). */
const BRAND_VERSIONED = versionedFields(BRAND) as BrandTextField[];
const CATEGORY_VERSIONED = versionedFields(CATEGORY) as CategoryTextField[];
import type { RemoteAsset, RemoteAttribute, RemoteBrand, RemoteDisplayGroup, RemoteTypeValue } from "../model/remote.js";

/** true/false, 1/0 and "1"/"0" (the field-type table's bool coercer). */
export function bool(v: Bool01 | string | null | undefined): boolean | undefined {
  if (v === undefined || v === null) return undefined;
  const b = coerceBool(v);
  return b === true || b === false ? b : undefined;
}

/**
 * A datetime field. The tenant may write an instant as "…Z", "…+00:00", with
 * milliseconds or in SQL form; when it is the instant the manifest names, it reads
 * as the manifest's own text, so the form alone never shows as a change.
 */
export function date(v: string | null | undefined, desired?: string | null): string | null {
  const t = text(v);
  if (t === undefined) return null;
  const at = dateInstant(t);
  if (desired && at !== undefined && dateInstant(desired) === at) return desired;
  return at === undefined ? t : new Date(at).toISOString().replace(/\.000Z$/, "Z");
}

/** Empty text is "nothing": null and "" both become absent, so a manifest's "" never shows a perpetual diff. */
export function text(v: string | null | undefined): string | undefined {
  return v === null || v === undefined || v === "" ? undefined : v;
}

/** Root categories: parent_id is 0 on writes and null (or 0) on reads. */
export function parentId(v: number | null | undefined): number | null {
  return v === null || v === undefined || v === 0 ? null : v;
}

/** category.attribute_sets reads as ids or as objects with an id; either becomes ids. */
export function attributeSetIds(v: ApiCategory["attribute_sets"] | string): number[] {
  const ids = coerceIdList(v ?? []);
  return Array.isArray(ids) ? (ids as number[]) : [];
}

/**
 * The fields that are defined, in a new object: `delete` would leave tens of
 * thousands of records in V8's slow dictionary mode (more memory, slower planning).
 */
function defined<T extends object>(o: T): T {
  const out = {} as T;
  for (const k in o) if (o[k] !== undefined) out[k] = o[k];
  return out;
}

export function displayGroup(d: ApiDisplayGroup): RemoteDisplayGroup {
  return defined({ id: d.id, name: d.name, sort_order: d.sort_order, in_navigation: bool(d.in_navigation) });
}

export function typeValue(v: ApiTypeValue): RemoteTypeValue {
  return defined({ id: v.id, value: v.value, slug: text(v.slug) ?? null, sort_order: v.sort_order, versions: {} as Record<string, string> });
}

export function attribute(a: ApiAttribute, displayGroupNames: Map<number, string>): RemoteAttribute {
  const dg =
    a.display_group_id === null || a.display_group_id === undefined ? null : (displayGroupNames.get(a.display_group_id) ?? a.display_group_name ?? null);
  return defined({
    id: a.id,
    name: a.name,
    type: a.type as AttributeType,
    slug: text(a.slug),
    note: a.note === undefined ? undefined : (text(a.note) ?? null),
    length: a.length ?? undefined,
    display_group: dg,
    sort_order: a.sort_order,
    publish: bool(a.publish),
    versions: {},
    values: (a.typeValuesArray ?? []).map(typeValue),
  });
}

export function brand(
  b: ApiBrand,
  desired?: Pick<Brand, "exclusion_start_date" | "exclusion_end_date">,
): Omit<RemoteBrand, "versions"> & { versions: NonNullable<RemoteBrand["versions"]> } {
  return defined({
    id: b.id,
    name: b.name,
    desc: text(b.desc),
    excluded: bool(b.excluded),
    exclusion_start_date: date(b.exclusion_start_date, desired?.exclusion_start_date),
    exclusion_end_date: date(b.exclusion_end_date, desired?.exclusion_end_date),
    exclusion_reason: text(b.exclusion_reason),
    seo_search_keywords: text(b.seo_search_keywords),
    seo_meta_desc: text(b.seo_meta_desc),
    seo_meta_keywords: text(b.seo_meta_keywords),
    seo_title: text(b.seo_title),
    product_count: b.product_count ?? 0,
    versions: {},
  });
}

/** Per-version brand text, only the fields that carry text. */
export function brandVersion(b: ApiBrand): Record<string, string> {
  const out: Record<string, string> = {};
  for (const k of BRAND_VERSIONED) {
    const v = text(b[k]);
    if (v !== undefined) out[k] = v;
  }
  return out;
}

export function categoryVersion(c: ApiCategory): Record<string, string> {
  const out: Record<string, string> = {};
  for (const k of CATEGORY_VERSIONED) {
    const v = text(c[k]);
    if (v !== undefined) out[k] = v;
  }
  return out;
}

/** Category fields, without the tree (paths are built by the reader). */
export function categoryFields(c: ApiCategory, setNames: Map<number, string>) {
  return defined({
    name: c.name,
    slug: text(c.slug),
    desc: text(c.desc),
    status: c.status as CategoryStatus | undefined,
    is_visible: bool(c.is_visible),
    sort_order: c.sort_order,
    attribute_sets: attributeSetIds(c.attribute_sets)
      .map((id) => setNames.get(id))
      .filter((n): n is string => n !== undefined)
      .sort(),
    seo_meta_desc: text(c.seo_meta_desc),
    seo_meta_keywords: text(c.seo_meta_keywords),
    seo_meta_title: text(c.seo_meta_title),
    search_keywords: text(c.search_keywords),
  });
}

/** An asset as stored: `uri` is the tenant's address; the image_url it came from is not readable. */
export function asset(a: ApiAsset): RemoteAsset {
  return defined({ id: a.id, uri: a.uri, alttext: text(a.alttext) ?? "", thumbnail: bool(a.thumbnail) });
}
