/**
 * One table of field types for what API v1 sends back, and one small coercer
 * per type. The document says "id values are integers" and "boolean", but a
 * real tenant may send ids as numeric strings, booleans as 1/0 or "1"/"0",
 * category attribute_sets as ids, objects or a comma-separated string, and
 * dates with or without a zone or milliseconds. The client runs every parsed
 * answer through `canonical` so the rest of pimctl sees one shape; dates are
 * compared as instants by the state reader (`sameInstant`).
 */

import { wireTypesOfManifestFields } from "../model/schema.js";

export type FieldType = "id" | "bool" | "date" | "id-list";

/**
 * Field name -> type, for every record of API v1 (names mean the same thing on
 * every record). The manifest's own fields come from the field tables
 * (src/model/schema.ts: publish, excluded, is_visible, in_navigation,
 * thumbnail; the exclusion dates); the rest are fields only the API has.
 */
export const FIELD_TYPES: Readonly<Record<string, FieldType>> = {
  ...wireTypesOfManifestFields(),
  id: "id",
  attribute_id: "id",
  attribute_set_id: "id",
  brand_id: "id",
  block_id: "id",
  category_id: "id",
  parent_id: "id",
  display_group_id: "id",
  version_id: "id",
  master_attribute_type_value_id: "id",
  entity_id: "id",
  profile_id: "id",
  is_smart: "bool",
  sync: "bool",
  is_tree: "bool",
  is_product_attribute: "bool",
  publishable: "bool",
  display_on_navigation: "bool",
  // A category's attribute sets are names in manifests and ids (or objects, or "1,2") in answers.
  attribute_sets: "id-list",
  created_at: "date",
  updated_at: "date",
};

/** 1, "1", true, "true" -> true; 0, "0", false, "false" -> false; anything else unchanged. */
export function coerceBool(v: unknown): unknown {
  if (v === true || v === 1 || v === "1" || v === "true") return true;
  if (v === false || v === 0 || v === "0" || v === "false") return false;
  return v;
}

/** 12 and "12" -> 12; anything else unchanged (null stays null). */
export function coerceId(v: unknown): unknown {
  if (typeof v === "string" && /^-?\d+$/.test(v.trim())) return Number(v.trim());
  return v;
}

/**
 * Ids, objects with an id, or "1,2,3" -> number[] of ids. Objects keep their
 * other fields out: only the ids are a fact pimctl compares.
 */
export function coerceIdList(v: unknown): unknown {
  if (typeof v === "string")
    return v
      .split(",")
      .map((s) => s.trim())
      .filter(Boolean)
      .map(coerceId)
      .filter((x): x is number => typeof x === "number");
  if (!Array.isArray(v)) return v;
  return v
    .map((x) => (x !== null && typeof x === "object" && "id" in x ? coerceId((x as { id: unknown }).id) : coerceId(x)))
    .filter((x): x is number => typeof x === "number" && Number.isInteger(x));
}

/**
 * A datetime as milliseconds since the epoch, or undefined when it is not one.
 * "2026-01-02T03:04:05Z", "…+00:00", "…05.000Z" and the SQL form
 * "2026-01-02 03:04:05" (read as UTC: the document says changelog times are UTC
 * and shows no zone for the others) all denote the same instant.
 */
export function dateInstant(v: unknown): number | undefined {
  if (typeof v !== "string" || !v.trim()) return undefined;
  const s = v.trim();
  const m = s.match(/^(\d{4}-\d{2}-\d{2})[ T](\d{2}:\d{2}(?::\d{2}(?:\.\d+)?)?)(Z|[+-]\d{2}:?\d{2})?$/i);
  if (m) {
    const zone = m[3] === undefined ? "Z" : m[3].toUpperCase() === "Z" ? "Z" : m[3].includes(":") ? m[3] : `${m[3].slice(0, 3)}:${m[3].slice(3)}`;
    const t = Date.parse(`${m[1]}T${m[2]}${zone}`);
    return Number.isNaN(t) ? undefined : t;
  }
  if (/^\d{4}-\d{2}-\d{2}$/.test(s)) return Date.parse(`${s}T00:00:00Z`);
  return undefined;
}

/** Dates stay text here (the reader compares instants); everything else by the table. */
export function coerceField(key: string, v: unknown): unknown {
  switch (FIELD_TYPES[key]) {
    case "id":
      return coerceId(v);
    case "bool":
      return coerceBool(v);
    case "id-list":
      return coerceIdList(v);
    default:
      return v;
  }
}

/**
 * Walks a parsed answer and coerces every field the table names, in place (the
 * answer is fresh from JSON.parse and nobody else holds it: a copy of every
 * record doubled what reading a 5 MB attribute list allocated). The top level
 * is the envelope (`{attribute_sets: [...]}` is a list of records, not a
 * category's id list) unless it is a bare record (it has an id).
 */
export function canonical(data: unknown, envelope = true): unknown {
  if (Array.isArray(data)) {
    for (const x of data) canonical(x, false);
    return data;
  }
  if (data === null || typeof data !== "object") return data;
  const obj = data as Record<string, unknown>;
  const isRecord = !envelope || "id" in obj;
  // for...in, not Object.keys: no array per record (a large list has hundreds of thousands of objects).
  for (const k in obj) {
    // links and meta carry page numbers and addresses, not records.
    if (k === "links" || k === "meta" || !Object.hasOwn(obj, k)) continue;
    const v = obj[k];
    // Only the table's own keys are assigned (never __proto__); nested records change in place.
    if (isRecord && FIELD_TYPES[k] !== undefined && (v === null || typeof v !== "object" || FIELD_TYPES[k] === "id-list")) {
      // Written only when the coercion changed it: a field already in shape (nearly all of them) costs no store.
      const coerced = coerceField(k, v);
      if (coerced !== v) obj[k] = coerced;
    } else canonical(v, false);
  }
  return obj;
}
