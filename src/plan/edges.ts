/**
 * Dependencies between actions that no single reference expresses. Edges from
 * references (a create another action points at) are added as actions are;
 * these come from names and uses:
 * - a create that takes a name a rename or move frees waits for it;
 * - deleting an attribute waits for the removals of it from sets;
 * - deleting an attribute set waits for the categories that stop using it.
 * Children-before-parents for category deletes is declared by the categories kind.
 */
import { push } from "./collections.js";
import { rootAddress } from "./address.js";
import type { Action, FieldChange } from "./types.js";

const nameOf = (c: FieldChange | undefined, side: "before" | "after"): string | undefined => (typeof c?.[side] === "string" ? (c[side] as string) : undefined);

const identityChange = (a: Action): FieldChange | undefined => a.changes.find((c) => c.field === "name" || c.field === "value");

/** Names are unique per type, type values per attribute, categories per parent. */
function nameScope(a: Action): string {
  return `${a.type}\0${a.type === "type_value" ? rootAddress(a.address) : ""}`;
}

function parentScope(a: Action): string {
  return JSON.stringify(a.identity?.parent ?? a.changes.find((c) => c.field === "parent")?.after ?? null);
}

export function linkFreedNames(actions: ReadonlyMap<string, Action>): void {
  const freedBy = namesFreed(actions);
  const { removedFromSets, setsDroppedBy } = membershipsDropped(actions);
  for (const a of actions.values()) {
    if (a.op === "create") {
      const name = nameOf(identityChange(a), "after");
      const by = name === undefined ? undefined : freedBy.get(`${nameScope(a)}\0${name}`);
      if (by && (a.type !== "category" || parentScope(a) === parentScope(actions.get(by)!))) a.depends_on.push(by);
    }
    if (a.op === "delete" && a.type === "attribute") a.depends_on.push(...(removedFromSets.get(nameOf(a.changes[0], "before") ?? "") ?? []));
    if (a.op === "delete" && a.type === "attribute_set") a.depends_on.push(...(setsDroppedBy.get(nameOf(a.changes[0], "before") ?? "") ?? []));
  }
}

/** The names renames and moves give up, in their scope: name -> the action that frees it. */
function namesFreed(actions: ReadonlyMap<string, Action>): Map<string, string> {
  const freedBy = new Map<string, string>();
  for (const a of actions.values()) {
    if (a.op !== "rename" && a.op !== "move") continue;
    const old = nameOf(identityChange(a), "before");
    if (old !== undefined) freedBy.set(`${nameScope(a)}\0${old}`, a.address);
  }
  return freedBy;
}

/** What must go before an attribute's or a set's delete: its removals from sets, and the categories that drop the set. */
function membershipsDropped(actions: ReadonlyMap<string, Action>) {
  const removedFromSets = new Map<string, string[]>();
  const setsDroppedBy = new Map<string, string[]>();
  for (const a of actions.values()) {
    if (a.type === "attribute_set_attribute" && a.op === "delete") push(removedFromSets, nameOf(a.changes[0], "before") ?? "", a.address);
    const sets = a.type === "category" ? a.changes.find((c) => c.field === "attribute_sets") : undefined;
    if (sets && Array.isArray(sets.before)) for (const s of sets.before) if (typeof s === "string") push(setsDroppedBy, s, a.address);
  }
  return { removedFromSets, setsDroppedBy };
}
