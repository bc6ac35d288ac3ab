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

/**
 * When a problem comes of two fields and the field that decides it is written in another file than
 * the one the error points at (an overlay sets an attribute's type, the base gives its values), the
 * words that name that other place: " (its type is set at overlays/prod-us/attributes.yaml:3:11)".
 * Empty when both are in one file: a single directory's messages stay as they were.
 */
export function setElsewhere(what: string, at: SourceLocation, other: SourceLocation): string {
  return other.file === at.file ? "" : ` (${what} is set at ${other.file}:${other.line}:${other.column})`;
}
