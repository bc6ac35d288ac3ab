/**
 * Move hints: a post-pass over a finished plan. When the plan deletes a
 * record and creates one that looks like it, the reviewer is probably looking
 * at a move or a rename written without `previous_paths` / `previous_names`,
 * which would lose the record's id and whatever hangs on it. Each hint names
 * both actions, says why they look alike, and gives the manifest line to add.
 *
 * Looks alike, for categories: the same name elsewhere in the tree, a near
 * name under the same parent, or the same children (at least two, most of
 * them shared). For named records (attributes, sets, brands, display groups)
 * and type values: a near name, or the same values / attributes. Each delete
 * and each create is used once, best match first. Children of a hinted
 * category that would follow it are not hinted again.
 */
import { closeNames } from "../errors.js";
import { pathKey, type Catalogue } from "../model/catalogue.js";
import type { RemoteCatalogue } from "../model/remote.js";
import { categoryPath, lastKey, parseAddress } from "./address.js";
import type { Action, MoveHint, Plan, ResourceType } from "./types.js";

const yamlList = (names: readonly string[]): string => `[${names.map((n) => JSON.stringify(n)).join(", ")}]`;

export function moveHints(plan: Plan, desired: Catalogue, remote: RemoteCatalogue): MoveHint[] {
  const deletes = plan.actions.filter((a) => a.op === "delete");
  if (!deletes.length) return [];
  const creates = plan.actions.filter((a) => a.op === "create");
  return [...categoryHints(deletes, creates, desired, remote), ...namedHints(deletes, creates, desired, remote)];
}

// ---------------------------------------------------------------- categories

interface CategoryEnd {
  action: Action;
  path: string[];
  name: string;
  parentKey: string;
  children: Set<string>;
}

function childNames(paths: Iterable<string[]>): Map<string, Set<string>> {
  const out = new Map<string, Set<string>>();
  for (const p of paths) {
    if (p.length < 2) continue;
    const key = pathKey(p.slice(0, -1));
    const set = out.get(key) ?? new Set<string>();
    set.add(p[p.length - 1]!);
    out.set(key, set);
  }
  return out;
}

function categoryEnds(actions: Action[], children: Map<string, Set<string>>): CategoryEnd[] {
  const out: CategoryEnd[] = [];
  for (const a of actions) {
    if (a.type !== "category") continue;
    const parsed = parseAddress(a.address);
    const path = parsed ? categoryPath(parsed) : undefined;
    if (!path?.length) continue;
    out.push({ action: a, path, name: path[path.length - 1]!, parentKey: pathKey(path.slice(0, -1)), children: children.get(pathKey(path)) ?? new Set() });
  }
  // Shallow first, so a parent's pairing is known before its children's.
  return out.sort((x, y) => x.path.length - y.path.length);
}

function shared(a: Set<string>, b: Set<string>): number {
  let n = 0;
  for (const x of a) if (b.has(x)) n++;
  return n;
}

/** Same children: at least two on each side, and at least 80% of the larger side shared. */
function sameChildren(a: Set<string>, b: Set<string>): number | undefined {
  if (a.size < 2 || b.size < 2) return undefined;
  const n = shared(a, b);
  return n >= 2 && n >= 0.8 * Math.max(a.size, b.size) ? n : undefined;
}

function categoryHints(deletes: Action[], creates: Action[], desired: Catalogue, remote: RemoteCatalogue): MoveHint[] {
  const gone = categoryEnds(deletes, childNames(remote.categories.map((c) => c.path)));
  const made = categoryEnds(creates, childNames(desired.categories.map((c) => c.path)));
  if (!gone.length || !made.length) return [];
  const byName = group(gone, (g) => g.name);
  const byPath = new Map(gone.map((g) => [pathKey(g.path), g]));
  const withChildren = gone.filter((g) => g.children.size >= 2);
  const byParent = group(gone, (g) => g.parentKey);
  const used = new Set<CategoryEnd>();
  /** Created path key -> the deleted path it was paired with (hinted or following its parent). */
  const pairedWith = new Map<string, string[]>();
  const hints: MoveHint[] = [];

  for (const c of made) {
    const parentPair = pairedWith.get(c.parentKey);
    if (parentPair) {
      // The parent's hint carries this child along: pair quietly, no second hint.
      const follower = byPath.get(pathKey([...parentPair, c.name]));
      if (follower && !used.has(follower)) {
        used.add(follower);
        pairedWith.set(pathKey(c.path), follower.path);
        continue;
      }
    }
    let best: { g: CategoryEnd; reason: string; score: number } | undefined;
    const consider = (g: CategoryEnd, reason: string, score: number) => {
      if (!used.has(g) && (!best || score > best.score)) best = { g, reason, score };
    };
    for (const g of byName.get(c.name) ?? []) {
      if (g.parentKey === c.parentKey) continue;
      const common = shared(g.children, c.children);
      consider(g, `same name elsewhere in the tree${common ? ` (and ${common} of the same children)` : ""}`, 1000 + common * 10 + commonPrefix(g.path, c.path));
    }
    const siblings = byParent.get(c.parentKey) ?? [];
    const near = new Set(
      closeNames(
        c.name,
        siblings.map((g) => g.name),
        3,
      ),
    );
    for (const g of siblings)
      if (near.has(g.name) && g.name !== c.name) consider(g, "a near name under the same parent", 500 + shared(g.children, c.children) * 10);
    for (const g of c.children.size >= 2 ? withChildren : []) {
      const n = sameChildren(g.children, c.children);
      if (n !== undefined && g.name !== c.name) consider(g, `the same children (${n} of ${Math.max(g.children.size, c.children.size)})`, 200 + n);
    }
    if (!best) continue;
    const { g, reason } = best;
    used.add(g);
    pairedWith.set(pathKey(c.path), g.path);
    const rename = g.parentKey === c.parentKey;
    hints.push({
      delete: g.action.address,
      create: c.action.address,
      reason,
      add: rename ? `previous_names: ${yamlList([g.name])}` : `previous_paths: [${yamlList(g.path)}]`,
    });
  }
  return hints;
}

function commonPrefix(a: string[], b: string[]): number {
  let i = 0;
  while (i < a.length && i < b.length && a[i] === b[i]) i++;
  return i;
}

// ---------------------------------------------------------------- named records and type values

const NAMED: Partial<Record<ResourceType, "previous_names" | "previous_values">> = {
  attribute: "previous_names",
  attribute_set: "previous_names",
  brand: "previous_names",
  display_group: "previous_names",
  type_value: "previous_values",
};

/** What a record holds, to recognise it under another name: an attribute's values, a set's attributes. */
function members(type: ResourceType, name: string, side: Catalogue | RemoteCatalogue): Set<string> {
  if (type === "attribute") return new Set((side.attributes.find((a) => a.name === name)?.values ?? []).map((v) => v.value));
  if (type === "attribute_set") return new Set(side.attribute_sets.find((s) => s.name === name)?.attributes ?? []);
  return new Set();
}

/** The scope within which a name must be unique: the attribute of a type value, else the type. */
function scope(a: Action): string {
  const parsed = parseAddress(a.address);
  return a.type === "type_value" && parsed ? `${a.type}\0${parsed.segments[0].key}` : a.type;
}

function namedHints(deletes: Action[], creates: Action[], desired: Catalogue, remote: RemoteCatalogue): MoveHint[] {
  const hints: MoveHint[] = [];
  const gone = group(
    deletes.filter((a) => NAMED[a.type]),
    scope,
  );
  const used = new Set<Action>();
  for (const c of creates) {
    const field = NAMED[c.type];
    const candidates = field ? (gone.get(scope(c)) ?? []).filter((g) => !used.has(g)) : [];
    if (!field || !candidates.length) continue;
    const name = lastKey(c.address)!;
    const names = new Map(candidates.map((g) => [lastKey(g.address)!, g]));
    const near = closeNames(name, names.keys(), 1)[0];
    let match: { g: Action; reason: string } | undefined = near !== undefined ? { g: names.get(near)!, reason: "a near name" } : undefined;
    if (!match) {
      const mine = members(c.type, name, desired);
      for (const [old, g] of names) {
        const n = sameChildren(members(g.type, old, remote), mine);
        if (n !== undefined) {
          match = { g, reason: `the same ${c.type === "attribute" ? "values" : "attributes"} (${n})` };
          break;
        }
      }
    }
    if (!match) continue;
    used.add(match.g);
    hints.push({ delete: match.g.address, create: c.address, reason: match.reason, add: `${field}: ${yamlList([lastKey(match.g.address)!])}` });
  }
  return hints;
}

function group<T>(items: T[], key: (t: T) => string): Map<string, T[]> {
  const out = new Map<string, T[]>();
  for (const t of items) {
    const k = key(t);
    const list = out.get(k);
    if (list) list.push(t);
    else out.set(k, [t]);
  }
  return out;
}
