/**
 * What `export --merge` writes and how it compares: the fields it never
 * writes (identity, the folder's own history, what API v1 cannot read back),
 * the fields it only adds to (what API v1 cannot write), and equality as the
 * plan sees it. Plain data and pure functions; merge.ts and its parts use them.
 */
import type { Kind } from "../model/catalogue.js";
import { ATTRIBUTE, ATTRIBUTE_SET, BLOCK, BRAND, CATEGORY, DISPLAY_GROUP, type FieldDef } from "../model/schema.js";
import { canonicalJson } from "../plan/canonical-json.js";
import { ownVersions } from "./to-catalogue.js";
import { tidy } from "./files.js";

export type Json = Record<string, unknown>;
export const isObject = (v: unknown): v is Json => v !== null && typeof v === "object" && !Array.isArray(v);

const TABLES: Record<Kind, Record<string, FieldDef>> = {
  display_groups: DISPLAY_GROUP,
  attributes: ATTRIBUTE,
  attribute_sets: ATTRIBUTE_SET,
  blocks: BLOCK,
  brands: BRAND,
  categories: CATEGORY,
};
/**
 * A kind's fields with a mark of model/schema.ts: `writeOnly`, what API v1 cannot read back
 * (web_ids, assets, a brand's attribute_sets); `readOnly`, what it reads but cannot write.
 */
const marked = (kind: Kind, mark: "writeOnly" | "readOnly"): string[] =>
  Object.entries(TABLES[kind])
    .filter(([, f]) => f[mark] === true)
    .map(([k]) => k);
const writeOnly = (kind: Kind) => marked(kind, "writeOnly");

/**
 * Fields merge never writes: identity, the folder's own history, what the tenant cannot tell
 * (write-only), and what is merged entry by entry (an attribute's values, a category's children).
 */
export const SKIP: Record<Kind, readonly string[]> = {
  display_groups: ["name", "previous_names"],
  attributes: ["name", "previous_names", "values"],
  attribute_sets: ["name", "previous_names"],
  // Block assets are read-only in API v1 and not part of the manifest language.
  blocks: ["slug", "previous_names", "assets"],
  brands: ["name", "previous_names", ...writeOnly("brands")],
  categories: ["name", "previous_names", "previous_paths", "children", ...writeOnly("categories")],
};
export const VALUE_SKIP = ["value", "previous_values"];

/**
 * Fields API v1 reads but cannot write, as model/schema.ts marks them `readOnly` (the planner
 * shows a difference as `unsupported`: today the language versions of brands and categories,
 * plan/action-builders.ts unsupportedVersion): what the folder says is kept (the translators' work never
 * reaches the tenant), only what it lacks is added.
 */
export const keepFields = (kind: Kind): readonly string[] => marked(kind, "readOnly");

/** Equal as the plan sees it: empty values absent, lists of names in any order. */
function norm(v: unknown): unknown {
  if (Array.isArray(v)) {
    const items = v.map(norm);
    return items.every((x) => typeof x !== "object") ? [...items].sort((a, b) => (String(a) < String(b) ? -1 : String(a) > String(b) ? 1 : 0)) : items;
  }
  if (isObject(v))
    return Object.fromEntries(
      Object.keys(v)
        .sort()
        .map((k) => [k, norm(v[k])]),
    );
  return v;
}
export const same = (a: unknown, b: unknown): boolean => canonicalJson(norm(a) as never) === canonicalJson(norm(b) as never);

/**
 * A folder entry as export would write it: no empty fields, no version text that repeats the
 * master. Fields merge never writes are left out first (a category's children, an attribute's
 * values are merged entry by entry: tidying them here too would cost a walk per level).
 */
export function asExported(kind: Kind | "values", entry: Json): Json {
  const skip = kind === "values" ? VALUE_SKIP : SKIP[kind];
  const out = Object.fromEntries(Object.entries(entry).filter(([k]) => !skip.includes(k) || k === "name" || k === "value"));
  if ((kind === "attributes" || kind === "brands" || kind === "categories") && isObject(out.versions)) {
    const own = ownVersions(out.versions as Record<string, object>, out);
    if (own) out.versions = own;
    else delete out.versions;
  }
  if (kind === "values" && isObject(out.versions)) {
    const own = Object.fromEntries(Object.entries(out.versions).filter(([, t]) => t !== out.value));
    if (Object.keys(own).length) out.versions = own;
    else delete out.versions;
  }
  return Object.fromEntries(
    Object.entries(out)
      .map(([k, x]) => [k, tidy(x)])
      .filter(([, x]) => x !== undefined),
  );
}

/** `kept` with what only `extra` has added, at every level of maps: nothing of `kept` changes. */
export function withMissing(kept: unknown, extra: unknown): unknown {
  if (!isObject(kept) || !isObject(extra)) return kept === undefined ? extra : kept;
  const out: Json = { ...kept };
  for (const [k, v] of Object.entries(extra)) out[k] = withMissing(kept[k], v);
  return out;
}

/**
 * The empty value of a field's type, which the plan reads as "none" (empty text and null are the
 * same, an empty list or map holds nothing): what an entry declares to stop inheriting a field
 * the tenant no longer has. Undefined where a type has no empty form (a number, a boolean).
 */
export function emptyLike(v: unknown): unknown {
  if (typeof v === "string") return "";
  if (Array.isArray(v)) return [];
  if (isObject(v)) return {};
  return undefined;
}
