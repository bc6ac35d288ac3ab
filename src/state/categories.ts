/**
 * Categories, as readState reads them: the list checked against someone
 * writing meanwhile (a second read, parents missing from the pages read by id,
 * orphans of a deleted parent left out), the tree's paths, then versions and
 * assets where the manifests declare them.
 */
import type { ApiCategory, ListRead, PimApi } from "../api/types.js";
import { comparePaths, pathKey, type Catalogue } from "../model/catalogue.js";
import type { RemoteCatalogue, RemoteCategory } from "../model/remote.js";
import * as N from "./normalise.js";
import { pmap } from "../base/promises.js";

/** What the category read found besides the records: doubts and orphans (see RemoteCatalogue). */
export interface CategoryReadFacts {
  doubt?: string;
  orphans: NonNullable<RemoteCatalogue["orphan_categories"]>;
}

export async function readCategories(
  api: PimApi,
  listed: Promise<ListRead<ApiCategory>>,
  desired: Catalogue | undefined,
  versions: Array<[string, number]>,
  setNames: Map<number, string>,
  full: boolean,
  facts: CategoryReadFacts,
): Promise<RemoteCategory[]> {
  const read = await listed;
  if (!read.complete) facts.doubt = read.problem ?? "the category list changed while it was read";
  const byId = new Map(read.items.map((c) => [c.id, c]));
  // A delete and a create by someone else between two pages keep meta.total right while one
  // record slides out of the read. When the manifests name categories the read lacks (the plan
  // would create them) and the list took several pages, a second read must agree.
  const seenNames = new Set(read.items.map((c) => c.name));
  if (read.complete && (read.pages ?? 1) > 1 && (desired?.categories ?? []).some((d) => !seenNames.has(d.name))) {
    const again = await api.readCategories();
    const differ = !again.complete || again.items.length !== byId.size || again.items.some((c) => !byId.has(c.id));
    for (const c of again.items) byId.set(c.id, c);
    if (differ) facts.doubt = again.problem ?? "the category list changed between two reads (someone else is writing); records seen in either read are kept";
  }
  // A parent missing from the pages was skipped by a page shift (someone wrote meanwhile):
  // read it by id, up the tree. Only a parent that is really gone makes an orphan.
  const gone = new Map<number, string>();
  for (let missing = missingParents(byId, gone); missing.length; missing = missingParents(byId, gone)) {
    await pmap(missing, async (id) => {
      try {
        byId.set(id, await api.getCategory(id));
      } catch (e) {
        if ((e as { code?: string }).code !== "api_not_found") throw e;
        gone.set(id, "answers 404 (deleted while the tree was read)");
      }
    });
  }
  const orphanRoots = [...byId.values()].filter((c) => {
    const p = N.parentId(c.parent_id);
    return p !== null && gone.has(p);
  });
  const excluded = new Set<number>();
  for (const o of orphanRoots) {
    facts.orphans.push({
      id: o.id,
      name: o.name,
      parent_id: N.parentId(o.parent_id)!,
      reason: `its parent ${N.parentId(o.parent_id)} ${gone.get(N.parentId(o.parent_id)!)}`,
    });
    excluded.add(o.id);
  }
  // Their descendants go with them: their paths are unknown too.
  for (let grew = true; grew;) {
    grew = false;
    for (const c of byId.values()) {
      const p = N.parentId(c.parent_id);
      if (!excluded.has(c.id) && p !== null && excluded.has(p)) {
        excluded.add(c.id);
        grew = true;
      }
    }
  }
  const raw = [...byId.values()].filter((c) => !excluded.has(c.id));
  const childCount = new Map<number, number>();
  for (const c of raw) {
    const p = N.parentId(c.parent_id);
    if (p !== null) childCount.set(p, (childCount.get(p) ?? 0) + 1);
  }
  const paths = new Map<number, string[]>();
  const pathOf = (id: number, seen = new Set<number>()): string[] => {
    const known = paths.get(id);
    if (known) return known;
    const c = byId.get(id)!;
    const p = N.parentId(c.parent_id);
    const path = p === null || !byId.has(p) || seen.has(p) ? [c.name] : [...pathOf(p, seen.add(id)), c.name];
    paths.set(id, path);
    return path;
  };
  const cats: RemoteCategory[] = raw.map((c) => ({
    id: c.id,
    parent_id: N.parentId(c.parent_id),
    path: pathOf(c.id),
    child_count: childCount.get(c.id) ?? 0,
    ...N.categoryFields(c, setNames),
  }));
  cats.sort((a, b) => comparePaths(a.path, b.path));

  // Versions and assets only where the manifests declare them (everything for export).
  const desiredByKey = new Map<string, Catalogue["categories"][number]>();
  for (const d of desired?.categories ?? []) {
    desiredByKey.set(pathKey(d.path), d);
    for (const p of d.previous_paths ?? []) desiredByKey.set(pathKey(p), d);
    for (const n of d.previous_names ?? []) desiredByKey.set(pathKey([...d.path.slice(0, -1), n]), d);
  }
  const desiredOf = (c: RemoteCategory) => (full ? undefined : desiredByKey.get(pathKey(c.path)));
  await readCategoryDetails(api, cats, {
    versions,
    versionsOf: (c) => {
      if (full) return true;
      const d = desiredOf(c);
      return d?.versions !== undefined && Object.keys(d.versions).length > 0;
    },
    assets: (c) => full || desiredOf(c)?.assets !== undefined,
  });
  return cats;
}

/** What to read for each category: its versions (one request per version), its assets. */
export interface CategoryDetailReads {
  versions: ReadonlyArray<readonly [string, number]>;
  versionsOf: (c: RemoteCategory) => boolean;
  assets: (c: RemoteCategory) => boolean;
}

/** Versions and assets of the given categories, filled in place. */
export async function readCategoryDetails(api: PimApi, categories: RemoteCategory[], what: CategoryDetailReads): Promise<void> {
  // Only the categories with something to read get a task: most of a large tree has none.
  const todo = categories.filter((c) => (what.versions.length > 0 && what.versionsOf(c)) || what.assets(c));
  await pmap(todo, async (c) => {
    const [vers, assets] = await Promise.all([
      what.versionsOf(c)
        ? pmap(what.versions, async ([name, id]) => [name, N.categoryVersion(await api.getCategory(c.id, { versionId: id }))] as const)
        : Promise.resolve([]),
      what.assets(c) ? api.listCategoryAssets(c.id) : Promise.resolve(undefined),
    ]);
    if (vers.length) c.versions = Object.fromEntries(vers);
    if (assets) c.assets = assets.map(N.asset);
  });
}

/** Parents named by records but absent from the read (and not already known to be gone). */
function missingParents(byId: Map<number, { parent_id?: number | null }>, gone: Map<number, string>): number[] {
  const out = new Set<number>();
  for (const c of byId.values()) {
    const p = N.parentId(c.parent_id);
    if (p !== null && !byId.has(p) && !gone.has(p)) out.add(p);
  }
  return [...out];
}
