/**
 * An overlay entry whose identity the base does not declare adds a record for its tenant: that is
 * the rule (docs/fleets.md), and it is also what a typo in a patch, or a category written at the
 * root instead of nested from it, silently does. kustomize refuses a patch with no target; here an
 * add is legitimate, so these are warnings at the overlay's line, for the two mistakes that look
 * most like a patch: a name one or two letters from a base name of the same kind, and a root
 * category named as one of the base's nested categories.
 */
import { KINDS, type Kind } from "../model/catalogue.js";
import { PimctlError, levenshtein } from "../errors.js";
import type { Written } from "./overlay-merge.js";
import { entryNoun, identityOf, type Entry } from "./overlay-rules.js";

/** What the base declares, for the checks: top-level identities by kind, and every nested category by name with its path. */
export interface BaseNames {
  byKind: Map<Kind, string[]>;
  nestedCategories: Map<string, string>;
}

export function baseNames(documents: ReadonlyArray<{ data: Record<string, unknown> }>): BaseNames {
  const byKind = new Map<Kind, string[]>();
  const nestedCategories = new Map<string, string>();
  const walk = (children: unknown, path: string[]) => {
    if (!Array.isArray(children)) return;
    for (const c of children as Array<{ name?: unknown; children?: unknown }>) {
      if (typeof c?.name !== "string") continue;
      if (!nestedCategories.has(c.name)) nestedCategories.set(c.name, [...path, c.name].join(" > "));
      walk(c.children, [...path, c.name]);
    }
  };
  for (const doc of documents) {
    for (const kind of KINDS) {
      const list = doc.data[kind];
      if (!Array.isArray(list)) continue;
      for (const entry of list) {
        const id = identityOf(kind, entry);
        if (id !== undefined) (byKind.get(kind) ?? byKind.set(kind, []).get(kind)!).push(id);
        if (kind === "categories" && id !== undefined) walk((entry as { children?: unknown }).children, [id]);
      }
    }
  }
  return { byKind, nestedCategories };
}

/** The warning for a top-level overlay entry that adds a record, when it looks like a patch that missed. */
export function addedByMistake(kind: Kind, entry: Written<Entry>, tenantNames: BaseNames): PimctlError | undefined {
  const id = identityOf(kind, entry.value);
  if (id === undefined) return undefined;
  const noun = entryNoun(kind);
  const location = entry.parsed.atPath(entry.path);
  const nested = kind === "categories" ? tenantNames.nestedCategories.get(id) : undefined;
  if (nested) {
    return new PimctlError("invalid_value", `the overlay adds a root ${noun} "${id}"; the base has "${id}" at ${nested}`, {
      location,
      details: ["to patch it, write it nested from its root as the base does; to add a root category of that name, leave it as it is"],
    });
  }
  const limit = Math.min(2, Math.floor(id.length / 3));
  const close = (tenantNames.byKind.get(kind) ?? []).filter((name) => name !== id && levenshtein(id.toLowerCase(), name.toLowerCase()) <= limit);
  if (!close.length) return undefined;
  return new PimctlError(
    "invalid_value",
    `the overlay adds a ${noun} "${id}", which the base does not declare: did you mean ${close.map((n) => `"${n}"`).join(" or ")}?`,
    {
      location,
      details: ["an overlay entry patches the base entry with exactly its identity; any other identity adds a record for this tenant"],
    },
  );
}
