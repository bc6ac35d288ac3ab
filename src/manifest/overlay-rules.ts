/**
 * How an overlay entry meets the base entry of the same identity (issue 35, README "Fleets"):
 * which key is each kind's identity, which fields are maps merged key by key, and which lists
 * hold child entries merged by identity. Every other field is replaced whole (lists of names too).
 */
import { KIND_NOUN, type Kind } from "../model/catalogue.js";

/** The kinds of entries an overlay can patch: the manifest's kinds, and an attribute's type values. */
export type EntryKind = Kind | "type_values";

export const IDENTITY: Readonly<Record<EntryKind, string>> = {
  display_groups: "name",
  attributes: "name",
  attribute_sets: "name",
  blocks: "slug",
  brands: "name",
  categories: "name",
  type_values: "value",
};

/** Maps keyed by name: merged key by key; a version's fields (an object) field by field. */
export const MAP_FIELDS: Readonly<Partial<Record<EntryKind, ReadonlySet<string>>>> = {
  attributes: new Set(["versions"]),
  type_values: new Set(["versions"]),
  brands: new Set(["versions", "web_ids", "attributes"]),
  categories: new Set(["versions", "web_ids"]),
};

/** Lists of child entries with an identity of their own: merged by identity, recursively. */
export const CHILD_FIELDS: Readonly<Partial<Record<EntryKind, Readonly<Record<string, EntryKind>>>>> = {
  attributes: { values: "type_values" },
  categories: { children: "categories" },
};

/** The key that removes an entry for one tenant: `{ name: X, $remove: true }`. */
export const REMOVE = "$remove";

export function entryNoun(kind: EntryKind): string {
  return kind === "type_values" ? "type value" : KIND_NOUN[kind];
}

export type Entry = Record<string, unknown>;

export function isEntry(value: unknown): value is Entry {
  return !!value && typeof value === "object" && !Array.isArray(value);
}

/** An entry's identity, when it has one a person could match (a string). */
export function identityOf(kind: EntryKind, entry: unknown): string | undefined {
  const id = isEntry(entry) ? entry[IDENTITY[kind]] : undefined;
  return typeof id === "string" ? id : undefined;
}
