/**
 * Reading a tenant: only the kinds the manifests manage, only the
 * sub-resources they declare, names resolved by search or by listing,
 * whichever costs fewer requests. Independent reads run concurrently (the
 * client bounds how many). The request-count formula is in README.md beside this file.
 */
import type { ApiBrand, PimApi } from "../api/types.js";
import { KINDS, compareText, comparePaths, type Catalogue, type Kind } from "../model/catalogue.js";
import type { Channel, RemoteAttribute, RemoteAttributeSet, RemoteBrand, RemoteCatalogue, RemoteCategory } from "../model/remote.js";
import * as N from "./normalise.js";
import { PimctlError, PimctlErrors } from "../errors.js";

export interface ReadStateOptions {
  kinds: Kind[];
  /** Decides which sub-resources and names to read; undefined reads everything (export). */
  desired?: Catalogue;
  versionMap?: Record<string, number>;
  prune?: Partial<Record<Kind, boolean>>;
  log?: (line: string) => void;
}

/**
 * Version name -> id: the channels publish (version_name, version_id) and are
 * the truth; the config's `versions:` only fills names no channel publishes.
 * A config id that contradicts a channel is an error naming both ids, never a
 * silent override (texts would be written into the wrong language).
 */
export function resolveVersionIds(
  channels: Channel[],
  versionMap: Record<string, number> | undefined,
  wanted: string[],
): { ids: Record<string, number>; unknown: string[] } {
  const known: Record<string, number> = {};
  const publishedBy: Record<string, string> = {};
  for (const c of channels) {
    if (c.version_id !== 0 && c.version_name) {
      known[c.version_name] = c.version_id;
      publishedBy[c.version_name] = c.channel_name;
    }
  }
  const conflicts: PimctlError[] = [];
  for (const [name, id] of Object.entries(versionMap ?? {})) {
    if (known[name] === undefined) known[name] = id;
    else if (known[name] !== id) {
      conflicts.push(
        new PimctlError("config", `versions: in pimctl.yaml maps language version "${name}" to id ${id}, but the tenant's channel "${publishedBy[name]}" publishes "${name}" as version id ${known[name]}`, {
          details: [`remove "${name}" from versions: (the channels already say it), or correct the id to ${known[name]}`],
        }),
      );
    }
  }
  if (conflicts.length) throw new PimctlErrors(conflicts);
  const ids: Record<string, number> = {};
  const unknown: string[] = [];
  for (const w of wanted) {
    if (known[w] === undefined) unknown.push(w);
    else ids[w] = known[w];
  }
  return { ids, unknown };
}

const pmap = <T, R>(items: readonly T[], fn: (t: T) => Promise<R>): Promise<R[]> => Promise.all(items.map(fn));

export async function readState(api: PimApi, opts: ReadStateOptions): Promise<RemoteCatalogue> {
  const full = opts.desired === undefined;
  const kinds = new Set(opts.kinds);
  const desired = opts.desired;
  const log = opts.log ?? (() => undefined);
  const channels: Channel[] = (await api.listChannels()).map((c) => ({ id: c.id, channel_name: c.channel_name, version_id: c.version_id, version_name: c.version_name }));
  // Export reads every version the tenant publishes; a plan only those the manifests name.
  // A config name for an id a channel publishes under another name is an alias: read it once, by the config's name.
  const aliased = new Set(Object.values(opts.versionMap ?? {}));
  const wantedVersions = full
    ? [...new Set([...channels.filter((c) => c.version_id !== 0 && !aliased.has(c.version_id)).map((c) => c.version_name), ...Object.keys(opts.versionMap ?? {})])].sort()
    : (desired?.versions ?? []);
  const { ids: versionIds } = resolveVersionIds(channels, opts.versionMap, wantedVersions);
  const versions = Object.entries(versionIds);

  const needAttributes = kinds.has("attributes") || kinds.has("attribute_sets") || kinds.has("brands");
  const needSets = kinds.has("attribute_sets") || kinds.has("categories") || kinds.has("brands");
  const needGroups = kinds.has("display_groups") || kinds.has("attributes");

  const [displayGroups, sets, blocks] = await Promise.all([
    needGroups ? api.listDisplayGroups().then((l) => l.map(N.displayGroup)) : Promise.resolve([]),
    needSets ? api.listAttributeSets() : Promise.resolve([]),
    kinds.has("blocks") ? api.listBlocks() : Promise.resolve([]),
  ]);
  const groupNames = new Map(displayGroups.map((d) => [d.id, d.name]));
  const setNames = new Map(sets.map((s) => [s.id, s.name]));

  const categoryFacts: CategoryReadFacts = { orphans: [] };
  const brandFacts: { doubt?: string } = {};
  const [attributes, attributeSets, brands, categories, blockList] = await Promise.all([
    needAttributes ? readAttributes(api, kinds.has("attributes"), desired, versions, groupNames, full) : Promise.resolve([]),
    needSets ? readSets(api, sets, desired, kinds.has("attribute_sets") && (full || opts.prune?.attributes === true)) : Promise.resolve([]),
    kinds.has("brands") ? readBrands(api, desired, versions, opts.prune?.brands === true || full, log, brandFacts) : Promise.resolve([]),
    kinds.has("categories") ? readCategories(api, desired, versions, setNames, full, categoryFacts) : Promise.resolve([]),
    pmap(blocks, async (b) => ({
      id: b.id,
      slug: b.slug,
      ...(N.text(b.name) !== undefined ? { name: b.name } : {}),
      ...(N.text(b.content) !== undefined ? { content: b.content! } : {}),
      asset_count: full ? (await api.listBlockAssets(b.id)).length : 0,
    })),
  ]);
  // Names of the assignments, now that attributes are known.
  const attrNames = new Map(attributes.map((a) => [a.id, a.name]));
  for (const s of attributeSets) {
    const raw = (s as RemoteAttributeSet & { raw?: Array<{ id: number; attribute_id: number }> }).raw ?? [];
    s.attributes = raw.map((r) => attrNames.get(r.attribute_id)).filter((n): n is string => n !== undefined).sort();
    s.assignment_ids = Object.fromEntries(raw.filter((r) => attrNames.has(r.attribute_id)).map((r) => [attrNames.get(r.attribute_id)!, r.id]));
    delete (s as { raw?: unknown }).raw;
  }
  for (const b of brands) {
    if (!b.attributes) continue;
    // Brand attributes are read keyed by attribute id; re-key by name.
    const byName: NonNullable<RemoteBrand["attributes"]> = {};
    for (const [key, v] of Object.entries(b.attributes)) byName[attrNames.get(Number(key)) ?? key] = v;
    b.attributes = byName;
  }

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

async function readAttributes(
  api: PimApi,
  managed: boolean,
  desired: Catalogue | undefined,
  versions: Array<[string, number]>,
  groupNames: Map<number, string>,
  full: boolean,
): Promise<RemoteAttribute[]> {
  const [master, ...perVersion] = await Promise.all([api.listAttributes(), ...(managed ? versions.map(([, id]) => api.listAttributes(id)) : [])]);
  const attrs = master!.map((a) => N.attribute(a, groupNames));
  const byId = new Map(attrs.map((a) => [a.id, a]));
  perVersion.forEach((list, i) => {
    const [name] = versions[i]!;
    for (const va of list) {
      const a = byId.get(va.id);
      if (!a) continue;
      a.versions![name] = { ...(va.name ? { name: va.name } : {}) };
      const values = new Map(a.values.map((v) => [v.id, v]));
      for (const tv of va.typeValuesArray ?? []) {
        const m = values.get(tv.master_attribute_type_value_id ?? tv.id);
        if (m && tv.value !== undefined) m.versions![name] = tv.value;
      }
    }
  });
  if (!managed) return attrs;
  // note and length come only with the single read: fetch them for attributes that manage them.
  const desiredByName = new Map((desired?.attributes ?? []).map((a) => [a.name, a]));
  const needsDetail = attrs.filter((a) => {
    if (full) return true;
    const d = desiredByName.get(a.name) ?? desired?.attributes.find((x) => x.previous_names?.includes(a.name));
    return d !== undefined && (d.note !== undefined || d.length !== undefined || Object.values(d.versions ?? {}).some((v) => v.note !== undefined));
  });
  await pmap(needsDetail, async (a) => {
    const detail = await api.getAttribute(a.id);
    a.note = N.text(detail.note) ?? null;
    if (detail.length !== undefined && detail.length !== null) a.length = detail.length;
    else a.length = null;
    await pmap(versions, async ([name, id]) => {
      const v = await api.getAttribute(a.id, id);
      a.versions![name] = { ...(a.versions![name] ?? {}), note: N.text(v.note) ?? null };
    });
  });
  return attrs;
}

async function readSets(
  api: PimApi,
  sets: Array<{ id: number; name: string; sort_order?: number }>,
  desired: Catalogue | undefined,
  allAssignments: boolean,
): Promise<RemoteAttributeSet[]> {
  const wantsMembers = new Set<string>();
  for (const s of desired?.attribute_sets ?? []) if (s.attributes !== undefined) for (const n of [s.name, ...(s.previous_names ?? [])]) wantsMembers.add(n);
  return pmap(sets, async (s) => {
    const raw = desired === undefined || allAssignments || wantsMembers.has(s.name) ? await api.listAttributeSetAttributes(s.id) : [];
    return { id: s.id, name: s.name, ...(s.sort_order !== undefined ? { sort_order: s.sort_order } : {}), attributes: [], assignment_ids: {}, raw } as RemoteAttributeSet;
  });
}

/**
 * Brands: the first page (at the largest limit) tells the total. When the
 * manifests name fewer brands than the remaining pages cost, search them by
 * name instead of listing the rest.
 */
/** Parents named by records but absent from the read (and not already known to be gone). */
function missingParents(byId: Map<number, { parent_id?: number | null }>, gone: Map<number, string>): number[] {
  const out = new Set<number>();
  for (const c of byId.values()) {
    const p = N.parentId(c.parent_id);
    if (p !== null && !byId.has(p) && !gone.has(p)) out.add(p);
  }
  return [...out];
}

async function readBrands(
  api: PimApi,
  desired: Catalogue | undefined,
  versions: Array<[string, number]>,
  mustList: boolean,
  log: (line: string) => void,
  facts: { doubt?: string },
): Promise<RemoteBrand[]> {
  const names = new Set<string>();
  for (const b of desired?.brands ?? []) for (const n of [b.name, ...(b.previous_names ?? [])]) names.add(n);
  const wantVersions = desired === undefined || (desired.brands ?? []).some((b) => b.versions && Object.keys(b.versions).length);
  const first = await api.listBrandsPage({ page: 1 });
  const pagesLeft = first.meta.last_page - 1;
  let raw: ApiBrand[];
  let mode: "list" | "search";
  const listCost = pagesLeft * (1 + (wantVersions ? versions.length : 0)) + (wantVersions ? versions.length : 0);
  const searchCost = names.size * (1 + (wantVersions ? versions.length : 0));
  if (mustList || pagesLeft === 0 || listCost <= searchCost) {
    mode = "list";
    const read = await api.readBrands({ first });
    if (!read.complete) facts.doubt = read.problem ?? "the brand list changed while it was read";
    raw = read.items;
  } else {
    mode = "search";
    const have = new Map(first.items.map((b) => [b.name, b]));
    const found = await pmap([...names].filter((n) => !have.has(n)), (n) => api.searchBrand(n));
    raw = [...first.items.filter((b) => names.has(b.name)), ...found.filter((b): b is ApiBrand => b !== null)];
  }
  log(`brands: ${mode} (${first.meta.total} in the tenant, ${names.size} named; list costs ${listCost} more requests, search ${searchCost})`);
  const desiredDates = new Map<string, Catalogue["brands"][number]>();
  for (const d of desired?.brands ?? []) for (const n of [d.name, ...(d.previous_names ?? [])]) desiredDates.set(n, d);
  // A date that denotes the instant the manifest names reads as the manifest's text: the
  // tenant may write it in another form (zone, milliseconds, SQL), which is no change.
  const brands = raw.map((b) => N.brand(b, desiredDates.get(b.name))) as RemoteBrand[];
  const byId = new Map(brands.map((b) => [b.id, b]));
  if (wantVersions && versions.length) {
    if (mode === "list") {
      await pmap(versions, async ([name, id]) => {
        for (const vb of await api.listBrands({ versionId: id })) {
          const b = byId.get(vb.id);
          if (b) b.versions![name] = N.brandVersion(vb);
        }
      });
    } else {
      await pmap(brands, (b) =>
        pmap(versions, async ([name, id]) => {
          b.versions![name] = N.brandVersion(await api.getBrand(b.id, id));
        }),
      );
    }
  }
  // Sub-resources only for brands whose manifests declare them.
  const desiredByName = new Map<string, Catalogue["brands"][number]>();
  for (const d of desired?.brands ?? []) for (const n of [d.name, ...(d.previous_names ?? [])]) desiredByName.set(n, d);
  await pmap(brands, async (b) => {
    const d = desiredByName.get(b.name);
    const wantAssets = desired === undefined || d?.assets !== undefined;
    const wantAttrs = desired === undefined || d?.attributes !== undefined || d?.assigned_attributes !== undefined;
    const [assets, attrs] = await Promise.all([
      wantAssets ? api.listBrandAssets(b.id) : Promise.resolve(undefined),
      wantAttrs ? api.listBrandAttributes(b.id) : Promise.resolve(undefined),
    ]);
    if (assets) b.assets = assets.map(N.asset);
    if (attrs) {
      const versionName = new Map(versions.map(([n, id]) => [id, n]));
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
  return brands;
}

/** What the category read found besides the records: doubts and orphans (see RemoteCatalogue). */
interface CategoryReadFacts {
  doubt?: string;
  orphans: NonNullable<RemoteCatalogue["orphan_categories"]>;
}

async function readCategories(
  api: PimApi,
  desired: Catalogue | undefined,
  versions: Array<[string, number]>,
  setNames: Map<number, string>,
  full: boolean,
  facts: CategoryReadFacts,
): Promise<RemoteCategory[]> {
  const read = await api.readCategories();
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
    desiredByKey.set(JSON.stringify(d.path), d);
    for (const p of d.previous_paths ?? []) desiredByKey.set(JSON.stringify(p), d);
    for (const n of d.previous_names ?? []) desiredByKey.set(JSON.stringify([...d.path.slice(0, -1), n]), d);
  }
  await pmap(cats, async (c) => {
    const d = desiredByKey.get(JSON.stringify(c.path));
    const wantVersions = full || (d?.versions !== undefined && Object.keys(d.versions).length > 0);
    const wantAssets = full || d?.assets !== undefined;
    const [vers, assets] = await Promise.all([
      wantVersions ? pmap(versions, async ([name, id]) => [name, N.categoryVersion(await api.getCategory(c.id, { versionId: id }))] as const) : Promise.resolve([]),
      wantAssets ? api.listCategoryAssets(c.id) : Promise.resolve(undefined),
    ]);
    if (vers.length) c.versions = Object.fromEntries(vers);
    if (assets) c.assets = assets.map(N.asset);
  });
  return cats;
}
