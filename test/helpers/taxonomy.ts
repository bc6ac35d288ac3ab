/**
 * Shopify's real category tree (vendored in test/data/shopify-taxonomy, or $PIMCTL_TAXONOMY)
 * as a desired catalogue and as a tenant's state, plus a deterministic "next
 * release" of it: subtrees moved to another parent, categories renamed to a
 * near name, new categories added and a few removed, as a taxonomy release does.
 */
import { readTaxonomy } from "../../src/bench/taxonomy-data.js";
import { emptyCatalogue, pathKey, type Catalogue, type Category } from "../../src/model/catalogue.js";
import { emptyRemote, type RemoteCatalogue, type RemoteCategory } from "../../src/model/remote.js";

interface Node {
  name: { en: string };
  children?: Node[];
}

/** Every category path, parents before children. */
export function taxonomyPaths(): string[][] {
  const data = readTaxonomy<{ categories: Node[] }>();
  const out: string[][] = [];
  const walk = (n: Node, parent: string[]) => {
    const p = [...parent, n.name.en];
    out.push(p);
    for (const c of n.children ?? []) walk(c, p);
  };
  for (const r of data.categories) walk(r, []);
  return out;
}

export interface Release {
  paths: string[][];
  /** Old path key -> new path of each moved subtree root and each renamed category. */
  moved: Map<string, string[]>;
  renamed: Map<string, string[]>;
  added: number;
  removed: string[][];
}

const key = (p: string[]) => pathKey(p);
const nearName = (n: string): string => (n.includes(" & ") ? n.replace(" & ", " and ") : n.endsWith("s") ? n.slice(0, -1) : `${n}s`);

/** The next release: deterministic, so tests and figures repeat. */
export function nextRelease(old: string[][], o: { moves: number; renames: number; adds: number; removes: number }): Release {
  const byKey = new Map(old.map((p) => [key(p), p]));
  const children = new Map<string, string[]>();
  for (const p of old)
    if (p.length > 1) (children.get(key(p.slice(0, -1))) ?? children.set(key(p.slice(0, -1)), []).get(key(p.slice(0, -1)))!).push(p[p.length - 1]!);
  const taken = new Set<string>(); // path keys already touched by an edit (and their subtrees)
  const touched = (p: string[]) => [...taken].some((t) => key(p) === t || key(p).startsWith(`${t}/`) || t.startsWith(`${key(p)}/`));
  const moved = new Map<string, string[]>();
  const renamed = new Map<string, string[]>();
  const removed: string[][] = [];
  // Moves: a depth-3+ category goes under its parent's sibling (same root), when its name is free there.
  const step = Math.floor(old.length / (o.moves * 3));
  for (let i = 7; i < old.length && moved.size < o.moves; i += step) {
    const p = old[i]!;
    if (p.length < 3 || touched(p)) continue;
    const grand = p.slice(0, -2);
    const auntName = (children.get(key(grand)) ?? []).find((s) => s !== p[p.length - 2] && !touched([...grand, s]));
    if (!auntName) continue;
    const target = [...grand, auntName, p[p.length - 1]!];
    if (byKey.has(key(target))) continue;
    moved.set(key(p), target);
    taken.add(key(p));
    taken.add(key(target));
  }
  // Renames within the parent: "A & B" -> "A and B", plural <-> singular.
  for (let i = 11; i < old.length && renamed.size < o.renames; i += Math.floor(old.length / (o.renames * 2))) {
    const p = old[i]!;
    if (p.length < 2 || touched(p)) continue;
    const to = [...p.slice(0, -1), nearName(p[p.length - 1]!)];
    if (byKey.has(key(to))) continue;
    renamed.set(key(p), to);
    taken.add(key(p));
  }
  // Removed leaves with no successor.
  for (let i = 13; i < old.length && removed.length < o.removes; i += Math.floor(old.length / (o.removes * 2))) {
    const p = old[i]!;
    if ((children.get(key(p)) ?? []).length || touched(p)) continue;
    removed.push(p);
    taken.add(key(p));
  }
  const gone = new Set(removed.map(key));
  const rewrite = (p: string[]): string[] => {
    for (let n = p.length; n > 0; n--) {
      const head = key(p.slice(0, n));
      const to = moved.get(head) ?? renamed.get(head);
      if (to) return [...to, ...p.slice(n)];
    }
    return p;
  };
  const paths = old.filter((p) => !gone.has(key(p))).map(rewrite);
  // New leaves, spread over the tree under untouched parents.
  let added = 0;
  for (let i = 3; added < o.adds; i = (i + 37) % old.length) {
    if (gone.has(key(old[i]!))) continue;
    const parent = rewrite(old[i]!);
    const name = `New in release ${added + 1}`;
    paths.push([...parent, name]);
    added++;
  }
  return { paths, moved, renamed, added, removed };
}

export function desiredOf(paths: string[][], hints: Map<string, { previous_paths?: string[][]; previous_names?: string[] }> = new Map()): Catalogue {
  const categories: Category[] = paths.map((p) => ({ path: p, name: p[p.length - 1]!, ...(hints.get(key(p)) ?? {}) }));
  return { ...emptyCatalogue(), managed: ["categories"], versions: [], categories };
}

export function remoteOf(paths: string[][]): RemoteCatalogue {
  const ids = new Map<string, number>();
  let next = 1;
  for (const p of paths) ids.set(key(p), next++);
  const childCount = new Map<string, number>();
  for (const p of paths) if (p.length > 1) childCount.set(key(p.slice(0, -1)), (childCount.get(key(p.slice(0, -1))) ?? 0) + 1);
  const categories: RemoteCategory[] = paths.map((p) => ({
    id: ids.get(key(p))!,
    parent_id: p.length > 1 ? ids.get(key(p.slice(0, -1)))! : null,
    path: p,
    name: p[p.length - 1]!,
    child_count: childCount.get(key(p)) ?? 0,
  }));
  return { ...emptyRemote(), read: ["categories"], categories };
}
