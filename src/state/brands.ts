/**
 * Brands, as readState reads them: listed or searched by name, whichever costs
 * fewer requests (the formula is in README.md beside this file), then their
 * versions, assets and attributes where the manifests declare them.
 */
import type { ApiBrand, PimApi } from "../api/types.js";
import type { Catalogue } from "../model/catalogue.js";
import type { RemoteBrand } from "../model/remote.js";
import * as N from "./normalise.js";
import type { StartedReads } from "./started.js";
import { pmap } from "../base/promises.js";
import { unlessGone } from "./by-id.js";

/** Brand attributes, read keyed by attribute id, keyed by the attribute's name (once the attributes are read). */
export function rekeyBrandAttributes(attrs: NonNullable<RemoteBrand["attributes"]>, names: Map<number, string>): NonNullable<RemoteBrand["attributes"]> {
  const byName: NonNullable<RemoteBrand["attributes"]> = {};
  for (const [key, v] of Object.entries(attrs)) byName[names.get(Number(key)) ?? key] = v;
  return byName;
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

/** How readBrands reads: the language versions, whether it must list, and what the ledger remembers. */
export interface BrandReads {
  versions: Array<[string, number]>;
  /** List every brand (pruning, export). */
  mustList: boolean;
  /** Search the named brands without the first page (a targeted plan). */
  searchOnly: boolean;
  log: (line: string) => void;
  facts: { doubt?: string };
  listsDone: Promise<void>;
  /**
   * The ledger's brand names by id: a brand renamed by hand in the PIM has its sub-records read
   * under its id, whatever its name in the tenant, and a search that misses a name the ledger
   * remembers reads that id (the planner decides whether it is the same brand: src/plan/identity.ts).
   */
  remembered?: Readonly<Record<string, string>>;
}

/**
 * Brands: the first page (at the largest limit) tells the total. When the
 * manifests name fewer brands than the remaining pages cost, search them by
 * name instead of listing the rest. `searchOnly` (a targeted plan: a few
 * names, the same cost in any tenant) skips the first page and searches.
 */
export async function readBrands(api: PimApi, reads: StartedReads, desired: Catalogue | undefined, alsoNames: string[], o: BrandReads): Promise<RemoteBrand[]> {
  const { versions, mustList, searchOnly, log, facts, listsDone } = o;
  const names = new Set<string>();
  for (const b of desired?.brands ?? []) for (const n of [b.name, ...(b.previous_names ?? [])]) names.add(n);
  for (const n of alsoNames) names.add(n);
  const wantVersions = desired === undefined || (desired.brands ?? []).some((b) => b.versions && Object.keys(b.versions).length);
  const desiredByName = new Map<string, Catalogue["brands"][number]>();
  for (const d of desired?.brands ?? []) for (const n of [d.name, ...(d.previous_names ?? [])]) desiredByName.set(n, d);
  // By its name in the tenant, else by the name the ledger remembers for its id (renamed by hand).
  const desiredOf = (b: { id: number; name: string }) => desiredByName.get(b.name) ?? desiredByName.get(o.remembered?.[String(b.id)] ?? "");
  const what: BrandDetailReads = {
    versions,
    readVersions: false,
    // Sub-resources only for brands whose manifests declare them.
    assets: (b) => desired === undefined || desiredOf(b)?.assets !== undefined,
    attributes: (b) => {
      const d = desiredOf(b);
      return desired === undefined || d?.attributes !== undefined || d?.assigned_attributes !== undefined;
    },
  };
  // A date that denotes the instant the manifest names reads as the manifest's text: the
  // tenant may write it in another form (zone, milliseconds, SQL), which is no change.
  const normalise = (b: ApiBrand) => N.brand(b, desiredOf(b)) as RemoteBrand;
  const byId = rememberedIds(o.remembered, desired);
  /** A brand by name, else (a miss the ledger remembers) by its remembered id, with its details. */
  const find = async (n: string): Promise<RemoteBrand | undefined> => {
    const id = byId.get(n);
    const raw = (await api.searchBrand(n)) ?? (id === undefined ? undefined : await unlessGone(api.getBrand(id)));
    if (!raw) return undefined;
    const b = normalise(raw);
    await readBrandDetails(api, [b], { ...what, readVersions: wantVersions });
    return b;
  };
  if (searchOnly && !mustList) {
    // Each brand's own reads start when its search answers, not when the last one does.
    const found = await pmap([...names], find);
    log(`brands: search (${names.size} named by the targets; the tenant's size is not read)`);
    return unique(found);
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
  const searched = await pmap(
    [...names].filter((n) => !have.has(n)),
    find,
  );
  await readBrandDetails(api, onPage, { ...what, readVersions: wantVersions });
  return unique([...onPage, ...searched]);
}

/** Each brand once (a brand read by a remembered id may also be found by its name). */
function unique(found: ReadonlyArray<RemoteBrand | undefined>): RemoteBrand[] {
  const seen = new Set<number>();
  return found.filter((b): b is RemoteBrand => b !== undefined && !seen.has(b.id) && seen.add(b.id) !== undefined);
}

/**
 * Desired brand name (or previous name: a rename not applied yet) -> the id the ledger remembers
 * under it (a name held by two ids: neither).
 */
function rememberedIds(remembered: Readonly<Record<string, string>> | undefined, desired: Catalogue | undefined): Map<string, number> {
  const wanted = new Set((desired?.brands ?? []).flatMap((b) => [b.name, ...(b.previous_names ?? [])]));
  const out = new Map<string, number>();
  const twice = new Set<string>();
  for (const [id, name] of Object.entries(remembered ?? {})) {
    if (!wanted.has(name)) continue;
    if (out.has(name)) twice.add(name);
    out.set(name, Number(id));
  }
  for (const n of twice) out.delete(n);
  return out;
}
