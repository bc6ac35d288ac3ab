/**
 * Field-level comparison. A desired field that is undefined is unmanaged and
 * never compared. Empty text and null are the same value (the API returns
 * either for "nothing"), and sets of names compare without order.
 */
import type { FieldChange, Json } from "./types.js";

export type FieldKind = "scalar" | "text" | "long_text" | "name_set";

export interface FieldSpec {
  field: string;
  kind: FieldKind;
}

const f = (field: string, kind: FieldKind = "scalar"): FieldSpec => ({ field, kind });

export const FIELDS = {
  display_group: [f("name", "text"), f("sort_order"), f("in_navigation")],
  attribute: [
    f("name", "text"),
    f("type"),
    f("slug", "text"),
    f("note", "text"),
    f("length"),
    f("display_group", "text"),
    f("sort_order"),
    f("publish"),
  ],
  attribute_version: [f("name", "text"), f("note", "text")],
  type_value: [f("value", "text"), f("slug", "text"), f("sort_order")],
  attribute_set: [f("name", "text"), f("sort_order")],
  block: [f("name", "text"), f("slug", "text"), f("content", "long_text")],
  brand: [
    f("name", "text"),
    f("desc", "long_text"),
    f("excluded"),
    f("exclusion_start_date", "text"),
    f("exclusion_end_date", "text"),
    f("exclusion_reason", "text"),
    f("seo_search_keywords", "text"),
    f("seo_meta_desc", "long_text"),
    f("seo_meta_keywords", "text"),
    f("seo_title", "text"),
  ],
  brand_version: [
    f("desc", "long_text"),
    f("exclusion_reason", "text"),
    f("seo_search_keywords", "text"),
    f("seo_meta_desc", "long_text"),
    f("seo_meta_keywords", "text"),
    f("seo_title", "text"),
  ],
  category: [
    f("name", "text"),
    f("slug", "text"),
    f("desc", "long_text"),
    f("status"),
    f("is_visible"),
    f("sort_order"),
    f("attribute_sets", "name_set"),
    f("seo_meta_desc", "long_text"),
    f("seo_meta_keywords", "text"),
    f("seo_meta_title", "text"),
    f("search_keywords", "text"),
  ],
  category_version: [
    f("name", "text"),
    f("desc", "long_text"),
    f("seo_meta_desc", "long_text"),
    f("seo_meta_keywords", "text"),
    f("seo_meta_title", "text"),
    f("search_keywords", "text"),
  ],
  asset: [f("alttext", "text"), f("thumbnail")],
} satisfies Record<string, FieldSpec[]>;

function canonical(value: unknown, kind: FieldKind): Json {
  if (value === undefined || value === null) return kind === "name_set" ? [] : kind === "scalar" ? null : "";
  if (kind === "name_set" && Array.isArray(value)) return [...(value as string[])].sort();
  return value as Json;
}

export function sameValue(a: unknown, b: unknown, kind: FieldKind): boolean {
  const x = canonical(a, kind);
  const y = canonical(b, kind);
  if (Array.isArray(x) && Array.isArray(y)) return x.length === y.length && x.every((v, i) => v === y[i]);
  return x === y;
}

function isLong(kind: FieldKind, value: unknown): boolean {
  return kind === "long_text" || (typeof value === "string" && (value.includes("\n") || value.length > 120));
}

function json(value: unknown, kind: FieldKind): Json {
  if (kind === "name_set" && Array.isArray(value)) return [...(value as string[])].sort();
  return (value ?? null) as Json;
}

/** Every managed field of a record being created. */
export function createChanges(desired: object, specs: readonly FieldSpec[]): FieldChange[] {
  const out: FieldChange[] = [];
  const d = desired as Record<string, unknown>;
  for (const s of specs) {
    const v = d[s.field];
    if (v === undefined) continue;
    const c: FieldChange = { field: s.field, after: json(v, s.kind) };
    if (isLong(s.kind, v)) c.long_text = true;
    out.push(c);
  }
  return out;
}

/** Managed fields whose desired value differs from the remote one. */
export function updateChanges(desired: object, remote: object, specs: readonly FieldSpec[]): FieldChange[] {
  const out: FieldChange[] = [];
  const d = desired as Record<string, unknown>;
  const r = remote as Record<string, unknown>;
  for (const s of specs) {
    const want = d[s.field];
    if (want === undefined) continue;
    const have = r[s.field];
    if (sameValue(want, have, s.kind)) continue;
    const c: FieldChange = { field: s.field, before: json(have, s.kind), after: json(want, s.kind) };
    if (isLong(s.kind, want) || isLong(s.kind, have)) c.long_text = true;
    out.push(c);
  }
  return out;
}
