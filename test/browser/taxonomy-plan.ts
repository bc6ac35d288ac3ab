/**
 * A plan on Shopify's real taxonomy (test/data/shopify-taxonomy, 10,595 categories), made
 * at test time: the whole tree is the tenant's state; the desired state moves
 * some leaves under a new top-level category, renames others in place, adds
 * new leaves, and leaves one subtree out with category pruning on (so it is deleted).
 * `copies: 10` makes the tree ten times larger, as issue 27 measures a large
 * tenant: the taxonomy ten times over, every root after the first suffixed
 * ("Apparel & Accessories #2"), 105,950 categories.
 */
import { readTaxonomy } from "../../src/bench/taxonomy-data.js";
import { emptyCatalogue, type Catalogue, type Category } from "../../src/model/catalogue.js";
import { emptyRemote, type RemoteCatalogue, type RemoteCategory } from "../../src/model/remote.js";
import { buildPlan } from "../../src/plan/planner.js";
import type { Plan } from "../../src/plan/types.js";

interface TaxonomyNode {
  name: { en: string };
  children?: TaxonomyNode[];
}

/** The taxonomy as tenant records, pre-order, siblings by name (duplicate sibling names dropped); `copies` times over. */
export function taxonomyCategories(copies = 1): RemoteCategory[] {
  const doc = readTaxonomy<{ categories: TaxonomyNode[] }>();
  // New root objects: the parsed taxonomy is shared and read-only.
  const roots = Array.from({ length: copies }, (_, i) => doc.categories.map((n) => (i === 0 ? n : { ...n, name: { en: `${n.name.en} #${i + 1}` } }))).flat();
  const out: RemoteCategory[] = [];
  const walk = (nodes: TaxonomyNode[], parent: RemoteCategory | undefined) => {
    const seen = new Set<string>();
    const sorted = [...nodes].sort((a, b) => (a.name.en < b.name.en ? -1 : a.name.en > b.name.en ? 1 : 0));
    for (const n of sorted) {
      if (seen.has(n.name.en)) continue;
      seen.add(n.name.en);
      const rec: RemoteCategory = {
        id: out.length + 1,
        parent_id: parent?.id ?? null,
        path: [...(parent?.path ?? []), n.name.en],
        name: n.name.en,
        child_count: n.children?.length ?? 0,
      };
      out.push(rec);
      walk(n.children ?? [], rec);
    }
  };
  walk(roots, undefined);
  return out;
}

export interface TaxonomyChanges {
  moves: number;
  renames: number;
  /** Leave out (and with pruning, delete) the first subtree with at least this many records. */
  pruneAtLeast?: number;
  /** The new top-level category the moved leaves go under. */
  newParent: string;
  /** New leaves, one under each of this many categories spread over the tree. */
  creates?: number;
  /** The taxonomy this many times over (see taxonomyCategories). */
  copies?: number;
}

export interface TaxonomyPlan {
  plan: Plan;
  remote: RemoteCategory[];
  moved: Array<{ from: string[]; to: string[] }>;
  renamed: Array<{ from: string[]; to: string[] }>;
  created: string[][];
  pruned: string[][];
}

const byPath = (a: { path: string[] }, b: { path: string[] }) => {
  for (let i = 0; i < Math.min(a.path.length, b.path.length); i++) {
    if (a.path[i] !== b.path[i]) return a.path[i]! < b.path[i]! ? -1 : 1;
  }
  return a.path.length - b.path.length;
};

export function taxonomyPlan(changes: TaxonomyChanges): TaxonomyPlan {
  const remote = taxonomyCategories(changes.copies);
  const key = (p: string[]) => JSON.stringify(p);
  // The pruned subtree: a second-level category of the requested size, chosen from the end so moves come from elsewhere.
  const pruned: string[][] = [];
  if (changes.pruneAtLeast) {
    const sizes = new Map<string, number>();
    for (const c of remote) for (let d = 1; d <= c.path.length; d++) sizes.set(key(c.path.slice(0, d)), (sizes.get(key(c.path.slice(0, d))) ?? 0) + 1);
    const root = [...remote].reverse().find((c) => c.path.length === 2 && (sizes.get(key(c.path)) ?? 0) >= changes.pruneAtLeast!)!;
    for (const c of remote) if (key(c.path.slice(0, 2)) === key(root.path)) pruned.push(c.path);
  }
  const prunedKeys = new Set(pruned.map(key));
  // Leaves with unique names, spread over the tree: every k-th one.
  const usedNames = new Set<string>();
  const leaves = remote.filter((c) => c.child_count === 0 && c.path.length >= 3 && !prunedKeys.has(key(c.path)));
  const step = Math.max(1, Math.floor(leaves.length / (changes.moves + changes.renames)));
  const picked = leaves.filter((_, i) => i % step === 0).filter((c) => !usedNames.has(c.name) && usedNames.add(c.name));
  const toMove = picked.slice(0, changes.moves);
  const toRename = picked.slice(changes.moves, changes.moves + changes.renames);
  const moveKeys = new Map(toMove.map((c) => [key(c.path), c]));
  const renameKeys = new Map(toRename.map((c) => [key(c.path), c]));

  const categories: Category[] = [{ path: [changes.newParent], name: changes.newParent }];
  const moved: TaxonomyPlan["moved"] = [];
  const renamed: TaxonomyPlan["renamed"] = [];
  for (const c of remote) {
    const k = key(c.path);
    if (prunedKeys.has(k)) continue;
    if (moveKeys.has(k)) {
      const to = [changes.newParent, c.name];
      categories.push({ path: to, name: c.name, previous_paths: [c.path] });
      moved.push({ from: c.path, to });
    } else if (renameKeys.has(k)) {
      const name = `${c.name} (renamed)`;
      const to = [...c.path.slice(0, -1), name];
      categories.push({ path: to, name, previous_names: [c.name] });
      renamed.push({ from: c.path, to });
    } else {
      categories.push({ path: c.path, name: c.name });
    }
  }
  // New leaves under inner categories spread over the tree (not in the pruned subtree).
  const created: string[][] = [];
  if (changes.creates) {
    const inner = remote.filter((c) => c.child_count > 0 && c.path.length >= 2 && !prunedKeys.has(key(c.path)));
    const every = Math.max(1, Math.floor(inner.length / changes.creates));
    for (let i = 0; i < inner.length && created.length < changes.creates; i += every) {
      const path = [...inner[i]!.path, "New in this season"];
      categories.push({ path, name: path[path.length - 1]! });
      created.push(path);
    }
  }
  categories.sort(byPath);
  const desired: Catalogue = { ...emptyCatalogue(), managed: ["categories"], categories };
  const state: RemoteCatalogue = { ...emptyRemote(), read: ["categories"], categories: remote };
  const { plan } = buildPlan({
    tenant: "taxonomy",
    desired,
    remote: state,
    ledger: { web_ids: {}, assets: {}, brand_attribute_sets: {} },
    prune: { categories: true },
  });
  return { plan, remote, moved, renamed, created, pruned };
}
