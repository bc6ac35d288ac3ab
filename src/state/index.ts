/**
 * Reading a tenant: only the kinds the manifests manage, only the
 * sub-resources they declare, names resolved by search or by listing,
 * whichever costs fewer requests. Independent reads run concurrently (the
 * client bounds how many). The request-count formula is in README.md beside this file.
 */
import type { ApiBrand, ApiCategory, ListRead, PimApi } from "../api/types.js";
import { KINDS, compareText, comparePaths, pathKey, type Catalogue, type Kind } from "../model/catalogue.js";
import type { Channel, RemoteAttribute, RemoteAttributeSet, RemoteBrand, RemoteCatalogue, RemoteCategory } from "../model/remote.js";
import * as N from "./normalise.js";
import { listsFor, listedAttributes, started, startAttributeVersions, startReads, type StartedReads, type VersionTexts } from "./started.js";
import { resolveVersionIds } from "./versions.js";

export { resolveVersionIds } from "./versions.js";
export { startReads, startVersionLists, type StartedReads } from "./started.js";

export interface ReadStateOptions {
  kinds: Kind[];
  /** Decides which sub-resources and names to read; undefined reads everything (export). */
  desired?: Catalogue;
  versionMap?: Record<string, number>;
  prune?: Partial<Record<Kind, boolean>>;
  log?: (line: string) => void;
  /** Lists already under way (startReads), begun while the manifests loaded. */
  started?: StartedReads;
  /**
   * Search the brands the desired catalogue names without reading the first
   * page (a targeted plan: a few names, the same cost in a tenant of any size).
   * Ignored when the brands must be listed (pruning, export).
   */
  searchBrands?: boolean;
  /** Brands to read besides those the desired catalogue names (a target on a brand only the tenant has). */
  alsoBrands?: string[];
}

const pmap = <T, R>(items: readonly T[], fn: (t: T) => Promise<R>): Promise<R[]> => Promise.all(items.map(fn));

export async function readState(api: PimApi, opts: ReadStateOptions): Promise<RemoteCatalogue> {
  const full = opts.desired === undefined;
  const kinds = new Set(opts.kinds);
  const desired = opts.desired;
  const log = opts.log ?? (() => undefined);
  const need = listsFor(kinds);
  const early = opts.started ?? startReads(api, opts.kinds, { brandsFirstPage: opts.searchBrands !== true });
  // Only the lists these kinds need; one the early scan missed starts now.
  const reads: StartedReads = {
    channels: early.channels,
    attributeVersions: early.attributeVersions,
    ...(need.groups ? { displayGroups: early.displayGroups ?? started(api.listDisplayGroups()) } : {}),
    ...(need.sets ? { sets: early.sets ?? started(api.listAttributeSets()) } : {}),
    ...(need.blocks ? { blocks: early.blocks ?? started(api.listBlocks()) } : {}),
    ...(need.attributes ? { attributes: early.attributes ?? started(api.listAttributes().then(listedAttributes)) } : {}),
    ...(kinds.has("brands") && early.brandsFirst ? { brandsFirst: early.brandsFirst } : {}),
    ...(kinds.has("categories") ? { categories: early.categories ?? started(api.readCategories()) } : {}),
  };
  const managedAttributes = kinds.has("attributes");
  // Version ids the config gives need not wait for the channels: a channel that disagrees is an
  // error below (resolveVersionIds), so a list started here is never a list read in vain.
  if (!full && managedAttributes) {
    const fromConfig = (desired?.versions ?? []).map((v) => opts.versionMap?.[v]).filter((id): id is number => id !== undefined && id !== 0);
    startAttributeVersions(api, reads, fromConfig);
  }

  const channels: Channel[] = (await reads.channels).map((c) => ({ id: c.id, channel_name: c.channel_name, version_id: c.version_id, version_name: c.version_name }));
  // Export reads every version the tenant publishes; a plan only those the manifests name.
  // A config name for an id a channel publishes under another name is an alias: read it once, by the config's name.
  const aliased = new Set(Object.values(opts.versionMap ?? {}));
  const wantedVersions = full
    ? [...new Set([...channels.filter((c) => c.version_id !== 0 && !aliased.has(c.version_id)).map((c) => c.version_name), ...Object.keys(opts.versionMap ?? {})])].sort()
    : (desired?.versions ?? []);
  const { ids: versionIds } = resolveVersionIds(channels, opts.versionMap, wantedVersions);
  const versions = Object.entries(versionIds);
  if (managedAttributes) startAttributeVersions(api, reads, versions.map(([, id]) => id));

  // Per-record reads wait for the category list: they would otherwise fill the client's
  // slots ahead of the category pages, which everything about categories waits for.
  const listsDone = reads.categories ? reads.categories.then(() => undefined, () => undefined) : Promise.resolve();
  const groupsRead = (reads.displayGroups ?? Promise.resolve([])).then((l) => l.map(N.displayGroup));
  const attributesRead = (async () => {
    if (!reads.attributes) return [];
    const groupNames = new Map((await groupsRead).map((d) => [d.id, d.name]));
    const listed = (await reads.attributes).map(({ attribute, groupId }) => {
      const name = groupId === null ? undefined : groupNames.get(groupId);
      if (name !== undefined) attribute.display_group = name;
      return attribute;
    });
    return mergeAttributeVersions(
      listed,
      managedAttributes ? await Promise.all(versions.map(async ([name, id]) => [name, await reads.attributeVersions.get(id)!] as const)) : [],
    );
  })();
  // Awaited only on some paths: when the attribute read fails, Promise.all below reports it.
  const attrNamesRead = started(attributesRead.then((l) => new Map(l.map((a) => [a.id, a.name]))));
  const setsRead = reads.sets ?? Promise.resolve([]);

  const categoryFacts: CategoryReadFacts = { orphans: [] };
  const brandFacts: { doubt?: string } = {};
  const [displayGroups, attributes, attributeSets, brands, categories, blockList] = await Promise.all([
    groupsRead,
    (async () => {
      const attrs = await attributesRead;
      if (managedAttributes) {
        await listsDone;
        await readAttributeDetails(api, attributesNeedingDetails(attrs, desired, full), versions);
      }
      return attrs;
    })(),
    (async () => {
      const sets = await setsRead;
      if (!need.sets) return [];
      const out: RemoteAttributeSet[] = sets.map((s) => ({ id: s.id, name: s.name, ...(s.sort_order !== undefined ? { sort_order: s.sort_order } : {}), attributes: [], assignment_ids: {} }));
      const wanted = setsNeedingAssignments(out, desired, kinds.has("attribute_sets") && (full || opts.prune?.attributes === true));
      if (wanted.length) {
        await listsDone;
        await readSetAssignments(api, wanted, await attrNamesRead);
      }
      return out;
    })(),
    kinds.has("brands") ? readBrands(api, reads, desired, opts.alsoBrands ?? [], versions, opts.prune?.brands === true || full, opts.searchBrands === true, log, brandFacts, listsDone) : Promise.resolve([]),
    kinds.has("categories") ? setsRead.then((sets) => readCategories(api, reads.categories!, desired, versions, new Map(sets.map((s) => [s.id, s.name])), full, categoryFacts)) : Promise.resolve([]),
    (reads.blocks ?? Promise.resolve([])).then((blocks) =>
      pmap(blocks, async (b) => ({
        id: b.id,
        slug: b.slug,
        ...(N.text(b.name) !== undefined ? { name: b.name } : {}),
        ...(N.text(b.content) !== undefined ? { content: b.content! } : {}),
        asset_count: full ? (await api.listBlockAssets(b.id)).length : 0,
      })),
    ),
  ]);
  // Brand attributes are read keyed by attribute id; re-key by name.
  const attrNames = await attrNamesRead;
  for (const b of brands) if (b.attributes) b.attributes = rekeyBrandAttributes(b.attributes, attrNames);

  return {
    read: KINDS.filter((k) => kinds.has(k)),
    channels,
    version_ids: versionIds,
    display_groups: displayGroups.sort((a, b) => compareText(a.name, b.name)),
    attributes: attributes.sort((a, b) => compareText(a.name, b.name)),
    attribute_sets: attributeSets.sort((a, b) => compareText(a.name, b.name)),
    blocks: blockList.sort((a, b) => compareText(a.slug, b.slug)),
    brands: brands.sort((a, b) => compareText(a.name, b.name)),
    categories,
    ...(brandFacts.doubt || categoryFacts.doubt
      ? { read_doubts: { ...(brandFacts.doubt ? { brands: brandFacts.doubt } : {}), ...(categoryFacts.doubt ? { categories: categoryFacts.doubt } : {}) } }
      : {}),
    ...(categoryFacts.orphans.length ? { orphan_categories: categoryFacts.orphans.sort((a, b) => a.id - b.id) } : {}),
  };
}

function rekeyBrandAttributes(attrs: NonNullable<RemoteBrand["attributes"]>, names: Map<number, string>): NonNullable<RemoteBrand["attributes"]> {
  const byName: NonNullable<RemoteBrand["attributes"]> = {};
  for (const [key, v] of Object.entries(attrs)) byName[names.get(Number(key)) ?? key] = v;
  return byName;
}

/** The per-version lists' names and type values, onto the master list's records. */
function mergeAttributeVersions(attrs: RemoteAttribute[], perVersion: ReadonlyArray<readonly [string, VersionTexts[]]>): RemoteAttribute[] {
  const byId = new Map(attrs.map((a) => [a.id, a]));
  for (const [name, list] of perVersion) {
    for (const va of list) {
      const a = byId.get(va.id);
      if (!a) continue;
      a.versions![name] = { ...(va.name ? { name: va.name } : {}) };
      const values = new Map(a.values.map((v) => [v.id, v]));
      for (const tv of va.values) {
        const m = values.get(tv.master);
        if (m) m.versions![name] = tv.value;
      }
    }
  }
  return attrs;
}

/** note and length come only with the single read: the attributes whose manifests manage them (all for export). */
function attributesNeedingDetails(attrs: RemoteAttribute[], desired: Catalogue | undefined, full: boolean): RemoteAttribute[] {
  const desiredByName = new Map((desired?.attributes ?? []).map((a) => [a.name, a]));
  return attrs.filter((a) => {
    if (full) return true;
    const d = desiredByName.get(a.name) ?? desired?.attributes.find((x) => x.previous_names?.includes(a.name));
    return d !== undefined && (d.note !== undefined || d.length !== undefined || Object.values(d.versions ?? {}).some((v) => v.note !== undefined));
  });
}

/**
 * Attribute details (note, length; the note in each version) for the given
 * attributes, filled in place. Every request is independent of the others.
 */
export async function readAttributeDetails(api: PimApi, attributes: RemoteAttribute[], versions: ReadonlyArray<readonly [string, number]>): Promise<void> {
  await pmap(attributes, async (a) => {
    const [detail, ...perVersion] = await Promise.all([api.getAttribute(a.id), ...versions.map(([, id]) => api.getAttribute(a.id, id))]);
    a.note = N.text(detail!.note) ?? null;
    if (detail!.length !== undefined && detail!.length !== null) a.length = detail!.length;
    else a.length = null;
    versions.forEach(([name], i) => {
      a.versions![name] = { ...(a.versions![name] ?? {}), note: N.text(perVersion[i]!.note) ?? null };
    });
  });
}

/** The sets whose assignments a plan needs: those whose manifests declare `attributes` (all when `all`). */
function setsNeedingAssignments(sets: RemoteAttributeSet[], desired: Catalogue | undefined, all: boolean): RemoteAttributeSet[] {
  if (desired === undefined || all) return sets;
  const wantsMembers = new Set<string>();
  for (const s of desired.attribute_sets) if (s.attributes !== undefined) for (const n of [s.name, ...(s.previous_names ?? [])]) wantsMembers.add(n);
  return sets.filter((s) => wantsMembers.has(s.name));
}

/**
 * The attributes assigned to each given set, by name, with the assignment
 * row ids, filled in place. An assignment of an attribute not in
 * `attributeNames` (not read) is left out.
 */
export async function readSetAssignments(api: PimApi, sets: RemoteAttributeSet[], attributeNames: ReadonlyMap<number, string>): Promise<void> {
  await pmap(sets, async (s) => {
    const raw = await api.listAttributeSetAttributes(s.id);
    s.attributes = raw.map((r) => attributeNames.get(r.attribute_id)).filter((n): n is string => n !== undefined).sort();
    s.assignment_ids = Object.fromEntries(raw.filter((r) => attributeNames.has(r.attribute_id)).map((r) => [attributeNames.get(r.attribute_id)!, r.id]));
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

/** What to read for each brand: versions by id (one request per brand and version), assets, attributes. */
export interface BrandDetailReads {
  /** The language versions read (name, id): attribute values in other versions are left out. */
  versions: ReadonlyArray<readonly [string, number]>;
  /** Read each brand's texts in each version (GET /brands/<id>?version_id=...). */
  readVersions: boolean;
  assets: (b: RemoteBrand) => boolean;
  attributes: (b: RemoteBrand) => boolean;
}

/**
 * Versions, assets and attributes of the given brands, filled in place.
 * Attributes are keyed by attribute id (as text): the caller re-keys them by
 * name once the attributes are read.
 */
export async function readBrandDetails(api: PimApi, brands: RemoteBrand[], what: BrandDetailReads): Promise<void> {
  const versionName = new Map(what.versions.map(([n, id]) => [id, n]));
  await pmap(brands, async (b) => {
    const [vers, assets, attrs] = await Promise.all([
      pmap(what.readVersions ? what.versions : [], async ([name, id]) => [name, N.brandVersion(await api.getBrand(b.id, id))] as const),
      what.assets(b) ? api.listBrandAssets(b.id) : Promise.resolve(undefined),
      what.attributes(b) ? api.listBrandAttributes(b.id) : Promise.resolve(undefined),
    ]);
    for (const [name, v] of vers) b.versions![name] = v;
    if (assets) b.assets = assets.map(N.asset);
    if (attrs) {
      b.attributes = {};
      for (const ba of attrs) {
        const values: Record<string, { id: number; value: string }> = {};
        for (const v of ba.values) {
          const key = v.version_id === 0 ? "" : versionName.get(v.version_id);
          if (key !== undefined) values[key] = { id: v.id, value: v.value };
        }
        b.attributes[String(ba.attribute_id)] = { attribute_id: ba.attribute_id, values };
      }
    }
  });
}

/**
 * Brands: the first page (at the largest limit) tells the total. When the
 * manifests name fewer brands than the remaining pages cost, search them by
 * name instead of listing the rest. `searchOnly` (a targeted plan: a few
 * names, the same cost in any tenant) skips the first page and searches.
 */
async function readBrands(
  api: PimApi,
  reads: StartedReads,
  desired: Catalogue | undefined,
  alsoNames: string[],
  versions: Array<[string, number]>,
  mustList: boolean,
  searchOnly: boolean,
  log: (line: string) => void,
  facts: { doubt?: string },
  listsDone: Promise<void>,
): Promise<RemoteBrand[]> {
  const names = new Set<string>();
  for (const b of desired?.brands ?? []) for (const n of [b.name, ...(b.previous_names ?? [])]) names.add(n);
  for (const n of alsoNames) names.add(n);
  const wantVersions = desired === undefined || (desired.brands ?? []).some((b) => b.versions && Object.keys(b.versions).length);
  const desiredByName = new Map<string, Catalogue["brands"][number]>();
  for (const d of desired?.brands ?? []) for (const n of [d.name, ...(d.previous_names ?? [])]) desiredByName.set(n, d);
  const what: BrandDetailReads = {
    versions,
    readVersions: false,
    // Sub-resources only for brands whose manifests declare them.
    assets: (b) => desired === undefined || desiredByName.get(b.name)?.assets !== undefined,
    attributes: (b) => {
      const d = desiredByName.get(b.name);
      return desired === undefined || d?.attributes !== undefined || d?.assigned_attributes !== undefined;
    },
  };
  // A date that denotes the instant the manifest names reads as the manifest's text: the
  // tenant may write it in another form (zone, milliseconds, SQL), which is no change.
  const normalise = (b: ApiBrand) => N.brand(b, desiredByName.get(b.name)) as RemoteBrand;
  if (searchOnly && !mustList) {
    // Each brand's own reads start when its search answers, not when the last one does.
    const found = await pmap([...names], async (n) => {
      const raw = await api.searchBrand(n);
      if (!raw) return undefined;
      const b = normalise(raw);
      await readBrandDetails(api, [b], { ...what, readVersions: wantVersions });
      return b;
    });
    log(`brands: search (${names.size} named by the targets; the tenant's size is not read)`);
    return found.filter((b): b is RemoteBrand => b !== undefined);
  }
  const first = await (reads.brandsFirst ?? api.listBrandsPage({ page: 1 }));
  const pagesLeft = first.meta.last_page - 1;
  const listCost = pagesLeft * (1 + (wantVersions ? versions.length : 0)) + (wantVersions ? versions.length : 0);
  const searchCost = names.size * (1 + (wantVersions ? versions.length : 0));
  if (mustList || pagesLeft === 0 || listCost <= searchCost) {
    log(`brands: list (${first.meta.total} in the tenant, ${names.size} named; list costs ${listCost} more requests, search ${searchCost})`);
    // The version lists need no page but the first: they run beside the remaining pages.
    const [read, perVersion] = await Promise.all([
      api.readBrands({ first }),
      wantVersions ? pmap(versions, async ([name, id]) => [name, await api.listBrands({ versionId: id })] as const) : Promise.resolve([]),
    ]);
    if (!read.complete) facts.doubt = read.problem ?? "the brand list changed while it was read";
    const brands = read.items.map(normalise);
    const byId = new Map(brands.map((b) => [b.id, b]));
    for (const [name, list] of perVersion) {
      for (const vb of list) {
        const b = byId.get(vb.id);
        if (b) b.versions![name] = N.brandVersion(vb);
      }
    }
    // One or two reads per listed brand: behind the category pages, like every per-record read.
    await listsDone;
    await readBrandDetails(api, brands, what);
    return brands;
  }
  log(`brands: search (${first.meta.total} in the tenant, ${names.size} named; list costs ${listCost} more requests, search ${searchCost})`);
  const onPage = first.items.filter((b) => names.has(b.name)).map(normalise);
  const have = new Set(first.items.map((b) => b.name));
  const searched = await pmap([...names].filter((n) => !have.has(n)), async (n) => {
    const raw = await api.searchBrand(n);
    if (!raw) return undefined;
    const b = normalise(raw);
    await readBrandDetails(api, [b], { ...what, readVersions: wantVersions });
    return b;
  });
  await readBrandDetails(api, onPage, { ...what, readVersions: wantVersions });
  return [...onPage, ...searched.filter((b): b is RemoteBrand => b !== undefined)];
}

/** What the category read found besides the records: doubts and orphans (see RemoteCatalogue). */
interface CategoryReadFacts {
  doubt?: string;
  orphans: NonNullable<RemoteCatalogue["orphan_categories"]>;
}

async function readCategories(
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
    facts.orphans.push({ id: o.id, name: o.name, parent_id: N.parentId(o.parent_id)!, reason: `its parent ${N.parentId(o.parent_id)} ${gone.get(N.parentId(o.parent_id)!)}` });
    excluded.add(o.id);
  }
  // Their descendants go with them: their paths are unknown too.
  for (let grew = true; grew; ) {
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
      what.versionsOf(c) ? pmap(what.versions, async ([name, id]) => [name, N.categoryVersion(await api.getCategory(c.id, { versionId: id }))] as const) : Promise.resolve([]),
      what.assets(c) ? api.listCategoryAssets(c.id) : Promise.resolve(undefined),
    ]);
    if (vers.length) c.versions = Object.fromEntries(vers);
    if (assets) c.assets = assets.map(N.asset);
  });
}
