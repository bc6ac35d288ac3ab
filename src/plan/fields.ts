/**
 * Field-level comparison. A desired field that is undefined is unmanaged and
 * never compared. Empty text and null are the same value (the API returns
 * either for "nothing"), and sets of names compare without order.
 */
import { ASSET, ATTRIBUTE, ATTRIBUTE_SET, BLOCK, BRAND, CATEGORY, DISPLAY_GROUP, TYPE_VALUE, comparedFields, type Compare } from "../model/schema.js";
import type { FieldChange, Json } from "./types.js";

export type FieldKind = Compare;

export interface FieldSpec {
  field: string;
  kind: FieldKind;
}

/** Per record type, the fields compared one by one: read from the field tables (src/model/schema.ts). */
export const FIELDS = {
  display_group: comparedFields(DISPLAY_GROUP),
  attribute: comparedFields(ATTRIBUTE),
  attribute_version: comparedFields(ATTRIBUTE, { versioned: true }),
  type_value: comparedFields(TYPE_VALUE),
  attribute_set: comparedFields(ATTRIBUTE_SET),
  block: comparedFields(BLOCK),
  brand: comparedFields(BRAND),
  brand_version: comparedFields(BRAND, { versioned: true }),
  category: comparedFields(CATEGORY),
  category_version: comparedFields(CATEGORY, { versioned: true }),
  asset: comparedFields(ASSET),
} satisfies Record<string, FieldSpec[]>;

/** A field's value as comparison sees it: null, undefined and "" alike for text, name sets sorted. */
export function canonical(value: unknown, kind: FieldKind): Json {
  if (value === undefined || value === null) return kind === "name_set" ? [] : kind === "scalar" ? null : "";
  if (kind === "name_set" && Array.isArray(value)) return [...(value as string[])].sort();
  return value as Json;
}

const sameOrder = (x: readonly unknown[], y: readonly unknown[]) => x.length === y.length && x.every((v, i) => v === y[i]);

export function sameValue(a: unknown, b: unknown, kind: FieldKind): boolean {
  // Sets of names are usually equal in the same order: no sorted copies then.
  if (kind === "name_set" && Array.isArray(a) && Array.isArray(b) && sameOrder(a, b)) return true;
  const x = canonical(a, kind);
  const y = canonical(b, kind);
  if (Array.isArray(x) && Array.isArray(y)) return sameOrder(x, y);
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
