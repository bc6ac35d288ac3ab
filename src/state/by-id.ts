/**
 * A read narrowed to targets (plan --target) of attributes and categories by
 * the ids the ledger remembers (`names`: id -> name; for categories id -> path
 * key), instead of the lists, which grow with the tenant (the attribute lists:
 * megabytes per language version; the category list: a page per 1,000).
 *
 * Every record read is checked to be the one the manifests name: the same
 * name, and for a category the same path, walked up by parent ids to the root.
 * Names are unique (attributes in the tenant, categories within their parent),
 * so a record that checks out proves no other holds that name. Anything else
 * (an id that answers 404, a record renamed or moved by hand, a record the
 * ledger does not know: a create, previous_* in the manifests) returns
 * undefined, and the caller reads the lists as it would without ids.
 */
import type { ApiAttribute, ApiCategory, PimApi } from "../api/types.js";
import { comparePaths, pathKey, type Catalogue } from "../model/catalogue.js";
import type { RemoteAttribute, RemoteBrand, RemoteCategory } from "../model/remote.js";
import * as N from "./normalise.js";
import { pmap } from "../base/promises.js";
import { listedAttributes, versionTexts, type ListedAttribute, type VersionTexts } from "./started.js";
import { readCategoryDetails } from "./categories.js";
import { mergeAttributeVersions, type SetAssignmentRows } from "./attributes.js";

/** The ledger's `names`: prune kind -> record id -> name (categories: path key). */
export type KnownIds = Partial<Record<string, Record<string, string>>>;

/** What the attribute lists would have given for the desired attributes, and the single reads' details. */
export interface AttributesById {
  listed: ListedAttribute[];
  perVersion: Array<[string, VersionTexts[]]>;
  /** Attribute id -> its single reads (master, then each version): their note and length. */
  details: Map<number, ApiAttribute[]>;
}

function idsByName(byId: Record<string, string> | undefined): Map<string, number> {
  const out = new Map<string, number>();
  for (const [id, name] of Object.entries(byId ?? {})) out.set(name, Number(id));
  return out;
}

/** A read by id that answers 404 is "not this record", never an error. */
export async function unlessGone<T>(read: Promise<T>): Promise<T | undefined> {
  try {
    return await read;
  } catch (e) {
    if ((e as { code?: string }).code === "api_not_found") return undefined;
    throw e;
  }
}

/**
 * The desired attributes by id: GET /attributes/<ID> (note, length and type values) and
 * GET /attributes/<ID>/version/<V> (names, notes and type values in that version), 1 + one
 * per version each, whatever the tenant's size. Undefined when any one does not check out.
 */
export async function readAttributesById(
  api: PimApi,
  desired: Catalogue["attributes"],
  known: KnownIds,
  versions: ReadonlyArray<readonly [string, number]>,
): Promise<AttributesById | undefined> {
  const ids = idsByName(known.attributes);
  // None desired (a brand's or set's read needs only the attributes it refers to): those are read by readReferencedAttributes.
  if (desired.some((d) => d.previous_names?.length || !ids.has(d.name))) return undefined;
  const read = await pmap(desired, async (d) => {
    const all = await readAttribute(api, ids.get(d.name)!, versions);
    return all?.[0]!.name === d.name ? all : undefined;
  });
  if (read.some((r) => r === undefined)) return undefined;
  return asLists(read as ApiAttribute[][], versions);
}

/** An attribute's single reads, master then each version; undefined when one answers 404 (or another record). */
async function readAttribute(api: PimApi, id: number, versions: ReadonlyArray<readonly [string, number]>): Promise<ApiAttribute[] | undefined> {
  const all = await Promise.all([unlessGone(api.getAttribute(id)), ...versions.map(([, v]) => unlessGone(api.getAttribute(id, v)))]);
  return all.every((a) => a?.id === id) ? (all as ApiAttribute[]) : undefined;
}

/** Single reads in the shapes the lists are reduced to (readState merges them the same way). */
function asLists(found: ApiAttribute[][], versions: ReadonlyArray<readonly [string, number]>): AttributesById {
  // The list's shape: it carries no note or length (readState adds them where the manifests manage them).
  const listed = listedAttributes(
    found.map((all) => {
      const { note: _n, length: _l, ...master } = all[0]!;
      return master;
    }),
  );
  return {
    listed,
    perVersion: versions.map(([name], i) => [name, versionTexts(found.map((all) => all[i + 1]!))]),
    details: new Map(found.map((all) => [all[0]!.id, all])),
  };
}

/**
 * The attributes a set's assignments or a brand's values refer to besides those read (the
 * desired ones): read by id, as the lists would give them, so every reference has its name
 * and record. One that answers 404 is left out, as a list read would leave it out.
 */
export async function readReferencedAttributes(
  api: PimApi,
  read: RemoteAttribute[],
  setRows: SetAssignmentRows,
  brands: RemoteBrand[],
  versions: ReadonlyArray<readonly [string, number]>,
  groupNames: Map<number, string>,
): Promise<RemoteAttribute[]> {
  const have = new Set(read.map((a) => a.id));
  const ids = new Set<number>();
  for (const [, rows] of setRows) for (const r of rows) if (!have.has(r.attribute_id)) ids.add(r.attribute_id);
  for (const b of brands) for (const a of Object.values(b.attributes ?? {})) if (!have.has(a.attribute_id)) ids.add(a.attribute_id);
  if (!ids.size) return [];
  const found = (
    await pmap(
      [...ids].sort((a, b) => a - b),
      (id) => readAttribute(api, id, versions),
    )
  ).filter((r): r is ApiAttribute[] => r !== undefined);
  const lists = asLists(found, versions);
  const listed = lists.listed.map(({ attribute, groupId }) => {
    const name = groupId === null ? undefined : groupNames.get(groupId);
    if (name !== undefined) attribute.display_group = name;
    return attribute;
  });
  return mergeAttributeVersions(listed, lists.perVersion);
}

/**
 * The desired categories by id: GET /categories/<ID> for each, and its ancestors by parent_id
 * up to the root (each read once), checked against the declared path; then their versions
 * and assets where the manifests declare them, as the list read does. child_count is not
 * known without the list (0 here): only a delete's note uses it, and no delete comes of this read.
 */
export async function readCategoriesById(
  api: PimApi,
  desired: Catalogue["categories"],
  known: KnownIds,
  setNames: Map<number, string>,
  versions: Array<[string, number]>,
): Promise<RemoteCategory[] | undefined> {
  const ids = idsByName(known.categories);
  if (!desired.length || desired.some((d) => d.previous_names?.length || d.previous_paths?.length || !ids.has(pathKey(d.path)))) return undefined;
  const reads = new Map<number, Promise<ApiCategory | undefined>>();
  const get = (id: number) => {
    let r = reads.get(id);
    if (!r) reads.set(id, (r = unlessGone(api.getCategory(id))));
    return r;
  };
  // The path of names from the root, or undefined past `depth` levels (a cycle, or not the declared path).
  const pathOf = async (id: number, depth: number): Promise<string[] | undefined> => {
    if (depth === 0) return undefined;
    const c = await get(id);
    if (!c || c.id !== id) return undefined;
    const parent = N.parentId(c.parent_id);
    if (parent === null) return [c.name];
    const above = await pathOf(parent, depth - 1);
    return above && [...above, c.name];
  };
  const found = await pmap(desired, async (d) => {
    const id = ids.get(pathKey(d.path))!;
    const path = await pathOf(id, d.path.length);
    if (!path || path.length !== d.path.length || pathKey(path) !== pathKey(d.path)) return undefined;
    const c = (await get(id))!;
    const category: RemoteCategory = { id, parent_id: N.parentId(c.parent_id), path: d.path, child_count: 0, ...N.categoryFields(c, setNames) };
    return category;
  });
  if (found.some((c) => c === undefined)) return undefined;
  const cats = (found as RemoteCategory[]).sort((a, b) => comparePaths(a.path, b.path));
  const declared = new Map(desired.map((d) => [pathKey(d.path), d]));
  const of = (c: RemoteCategory) => declared.get(pathKey(c.path));
  await readCategoryDetails(api, cats, {
    versions,
    versionsOf: (c) => Object.keys(of(c)?.versions ?? {}).length > 0,
    assets: (c) => of(c)?.assets !== undefined,
  });
  return cats;
}
