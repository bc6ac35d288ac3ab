import type { SourceLocation } from "../model/catalogue.js";

/**
 * A record of the catalogue: the parsed entry's fields, its path (categories) and where it is written.
 * Copied key by key on purpose: an object spread (`{ ...raw, source }`) in this loop gives every record
 * a hidden class of its own in V8 (about 150 bytes each, and every later read of them megamorphic);
 * keys added in the same order share one.
 */
export function located<T extends object>(raw: T, source: SourceLocation, path?: string[], omit?: ReadonlySet<string>): T & { source: SourceLocation } {
  const out: Record<string, unknown> = {};
  for (const key of Object.keys(raw)) if (!omit?.has(key)) out[key] = (raw as Record<string, unknown>)[key];
  if (path) out.path = path;
  out.source = source;
  return out as T & { source: SourceLocation };
}

/** A category entry's keys that are not the record's own fields: the tree around it. */
export const TREE_KEYS: ReadonlySet<string> = new Set(["children", "previous_paths"]);
