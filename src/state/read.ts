/**
 * Reading a tenant: only the kinds the manifests manage, only the
 * sub-resources they declare, names resolved by search or by listing,
 * whichever costs fewer requests. Independent reads run concurrently (the
 * client bounds how many). The request-count formula is in README.md beside this file.
 */
import type { ApiAttribute, ApiAttributeSet, PimApi } from "../api/types.js";
import { KINDS, compareText, type Catalogue, type Kind, type SourceLocation } from "../model/catalogue.js";
import type { Channel, RemoteAttribute, RemoteAttributeSet, RemoteBlock, RemoteCatalogue, RemoteCategory, RemoteDisplayGroup } from "../model/remote.js";
import {
  attributesNeedingDetails,
  fillAttributeDetails,
  mergeAttributeVersions,
  nameSetAssignments,
  readAttributeDetails,
  readSetAssignmentRows,
  setsNeedingAssignments,
  type SetAssignmentRows,
} from "./attributes.js";
import { readAttributesById, readCategoriesById, readReferencedAttributes, type KnownIds } from "./by-id.js";
import { readBrands, rekeyBrandAttributes } from "./brands.js";
import { readCategories, type CategoryReadFacts } from "./categories.js";
import * as N from "./normalise.js";
import { largeCatalogue, listsFor, masterAttributes, startAttributeVersions, startReads, takeReads, type StartedReads } from "./started.js";
import { resolveVersionIds } from "./versions.js";
import { pmap, settled, started } from "../base/promises.js";

/**
 * How many desired attributes are read by id (1 + one request per language version each, a few
 * KB) before listing them costs less (1 + one per version, whatever their number, but megabytes
 * each in a large tenant): 50, or a twentieth of the attributes the ledger names (the tenant's
 * size, as far as pimctl knows it). The lists grow with the tenant and reads by id do not: a
 * category target whose set has 110 attributes, at ten times the taxonomy, took 1.4 s and
 * 250 MB by id (343 requests, the same at once the taxonomy) against 5.4 s and 850 MB with the
 * lists; at 3x, 26 attributes took 2.4 s and 300 MB by id, 3.6 s and 420 MB listed.
 */
function attributesByIdAtMost(known: KnownIds): number {
  return Math.max(50, Math.floor(Object.keys(known.attributes ?? {}).length / 20));
}

export interface ReadStateOptions {
  kinds: Kind[];
  /** Decides which sub-resources and names to read; undefined reads everything (export). */
  desired?: Catalogue;
  versionMap?: Record<string, number>;
  /** Where each versionMap entry is written in pimctl.yaml: a contradiction with a channel is reported there. */
  versionAt?: Record<string, SourceLocation>;
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
  /**
   * The ledger's ids by name (its `names`), when the desired catalogue is narrowed to targets:
   * its attributes and categories are read by id and checked (src/state/by-id.ts), and listed
   * only when that fails. Ignored for attributes when every set's members are read (pruning
   * attributes: they name every attribute).
   */
  knownIds?: KnownIds;
  /**
   * The ledger's names (table -> id -> name), for any plan: a brand renamed by hand has its
   * sub-records read under its id, and a targeted search that misses a remembered name reads its id.
   */
  remembered?: KnownIds;
}

/** What one readState call decided to read, and the lists it started. */
interface ReadPlan {
  api: PimApi;
  opts: ReadStateOptions;
  full: boolean;
  kinds: Set<Kind>;
  desired: Catalogue | undefined;
  log: (line: string) => void;
  need: ReturnType<typeof listsFor>;
  oneAttributeListAtATime: boolean;
  byId: KnownIds | undefined;
  attributesById: boolean;
  categoriesById: boolean;
  managedAttributes: boolean;
  reads: StartedReads;
}

/** Only the lists these kinds need, read as planReads decided; one the early scan missed starts now. */
function listsToRead(
  api: PimApi,
  early: StartedReads,
  how: Pick<ReadPlan, "need" | "kinds" | "attributesById" | "categoriesById" | "oneAttributeListAtATime">,
): StartedReads {
  const { need, kinds, attributesById, categoriesById, oneAttributeListAtATime } = how;
  return {
    channels: early.channels,
    attributeVersions: early.attributeVersions,
    ...(early.attributeListsDone ? { attributeListsDone: early.attributeListsDone } : {}),
    ...(need.groups ? { displayGroups: early.displayGroups ?? started(api.listDisplayGroups()) } : {}),
    ...(need.sets ? { sets: early.sets ?? started(api.listAttributeSets()) } : {}),
    ...(need.blocks ? { blocks: early.blocks ?? started(api.listBlocks()) } : {}),
    ...(need.attributes && !attributesById ? (early.attributes ? { attributes: early.attributes } : masterAttributes(api, oneAttributeListAtATime)) : {}),
    ...(kinds.has("brands") && early.brandsFirst ? { brandsFirst: early.brandsFirst } : {}),
    ...(kinds.has("categories") && !categoriesById ? { categories: early.categories ?? started(api.readCategories()) } : {}),
  };
}

/** Decides how each kind is read (listed or by the ledger's ids) and starts the lists it needs. */
function planReads(api: PimApi, opts: ReadStateOptions): ReadPlan {
  const full = opts.desired === undefined;
  const kinds = new Set(opts.kinds);
  const desired = opts.desired;
  const need = listsFor(kinds);
  const oneAttributeListAtATime = largeCatalogue(desired);
  const early = opts.started ? takeReads(opts.started) : startReads(api, opts.kinds, { brandsFirstPage: opts.searchBrands !== true, oneAttributeListAtATime });
  const byId = full ? undefined : opts.knownIds;
  const attributesById =
    byId !== undefined &&
    need.attributes &&
    !early.attributes &&
    desired!.attributes.length <= attributesByIdAtMost(byId) &&
    !(kinds.has("attribute_sets") && opts.prune?.attributes === true);
  const categoriesById = byId !== undefined && kinds.has("categories") && !early.categories;
  const reads = listsToRead(api, early, { need, kinds, attributesById, categoriesById, oneAttributeListAtATime });
  const managedAttributes = kinds.has("attributes");
  // Version ids the config gives need not wait for the channels: a channel that disagrees is an
  // error below (resolveVersionIds), so a list started here is never a list read in vain.
  if (!full && managedAttributes && !attributesById) {
    const fromConfig = (desired?.versions ?? []).map((v) => opts.versionMap?.[v]).filter((id): id is number => id !== undefined && id !== 0);
    startAttributeVersions(api, reads, fromConfig);
  }
  const log = opts.log ?? (() => undefined);
  return { api, opts, full, kinds, desired, log, need, oneAttributeListAtATime, byId, attributesById, categoriesById, managedAttributes, reads };
}

type Versions = [string, number][];

/** The channels, and the language versions read: every one the tenant publishes for export, those the manifests name for a plan. */
async function readChannels(rp: ReadPlan): Promise<{ channels: Channel[]; versionIds: Record<string, number>; versions: Versions }> {
  const { opts } = rp;
  const channels: Channel[] = (await rp.reads.channels).map((c) => ({
    id: c.id,
    channel_name: c.channel_name,
    version_id: c.version_id,
    version_name: c.version_name,
  }));
  // A config entry never names an id a channel publishes under another name (resolveVersionIds refuses it).
  const wantedVersions = rp.full
    ? [...new Set([...channels.filter((c) => c.version_id !== 0).map((c) => c.version_name), ...Object.keys(opts.versionMap ?? {})])].sort()
    : (rp.desired?.versions ?? []);
  const { ids: versionIds } = resolveVersionIds(channels, opts.versionMap, wantedVersions, opts.versionAt);
  const versions = Object.entries(versionIds);
  if (rp.managedAttributes && !rp.attributesById)
    startAttributeVersions(
      rp.api,
      rp.reads,
      versions.map(([, id]) => id),
    );
  return { channels, versionIds, versions };
}

interface AttributesRead {
  attributes: RemoteAttribute[];
  /** Attribute id -> its single reads, when read by id: their details need no second read. */
  detailsById: Map<number, ApiAttribute[]> | undefined;
}

/** The attributes, by the ledger's ids or listed (the lists when the ids do not check out), each in its display group. */
async function readAttributeList(rp: ReadPlan, versions: Versions, groupsRead: Promise<RemoteDisplayGroup[]>): Promise<AttributesRead> {
  const { api, reads } = rp;
  // Only names are wanted of attributes the manifests do not manage here (a brand's values, a set's members).
  const found = rp.attributesById ? await readAttributesById(api, rp.desired!.attributes, rp.byId!, rp.managedAttributes ? versions : []) : undefined;
  if (rp.attributesById && !found) {
    rp.log("attributes: list (the ledger's ids did not check out)");
    Object.assign(reads, masterAttributes(api, rp.oneAttributeListAtATime));
    startAttributeVersions(
      api,
      reads,
      versions.map(([, id]) => id),
    );
  }
  if (!found && !reads.attributes) return { attributes: [], detailsById: undefined };
  const groupNames = new Map((await groupsRead).map((d) => [d.id, d.name]));
  const listed = (found ? found.listed : await reads.attributes!).map(({ attribute, groupId }) => {
    const name = groupId === null ? undefined : groupNames.get(groupId);
    if (name !== undefined) attribute.display_group = name;
    return attribute;
  });
  if (found) rp.log(`attributes: by id (${listed.length} the ledger names; the tenant's size is not read)`);
  const perVersion = found
    ? found.perVersion
    : rp.managedAttributes
      ? await Promise.all(versions.map(async ([name, id]) => [name, await reads.attributeVersions.get(id)!] as const))
      : [];
  return { attributes: mergeAttributeVersions(listed, perVersion), detailsById: found?.details };
}

/** The attributes with the details the manifests compare (options, per-version texts), read after the category list. */
async function readAttributeKind(
  rp: ReadPlan,
  versions: Versions,
  groupsRead: Promise<RemoteDisplayGroup[]>,
  listsDone: Promise<unknown>,
): Promise<AttributesRead> {
  const read = await readAttributeList(rp, versions, groupsRead);
  if (rp.managedAttributes) {
    const { detailsById } = read;
    const needing = attributesNeedingDetails(read.attributes, rp.desired, rp.full);
    for (const a of needing) if (detailsById?.has(a.id)) fillAttributeDetails(a, detailsById.get(a.id)!, versions);
    await listsDone;
    await readAttributeDetails(
      rp.api,
      needing.filter((a) => !detailsById?.has(a.id)),
      versions,
    );
  }
  return read;
}

/** The attribute sets, and the member rows of those whose members the plan compares. */
async function readSetKind(
  rp: ReadPlan,
  setsRead: Promise<ApiAttributeSet[]>,
  listsDone: Promise<unknown>,
): Promise<{ sets: RemoteAttributeSet[]; rows: SetAssignmentRows }> {
  const listed = await setsRead;
  if (!rp.need.sets) return { sets: [], rows: [] };
  const sets: RemoteAttributeSet[] = listed.map((s) => ({
    id: s.id,
    name: s.name,
    ...(s.sort_order !== undefined ? { sort_order: s.sort_order } : {}),
    attributes: [],
    assignment_ids: {},
  }));
  const wanted = setsNeedingAssignments(sets, rp.desired, rp.kinds.has("attribute_sets") && (rp.full || rp.opts.prune?.attributes === true));
  if (!wanted.length) return { sets, rows: [] };
  await listsDone;
  return { sets, rows: await readSetAssignmentRows(rp.api, wanted) };
}

/** The categories, by the ledger's ids or read as a tree (the tree when the ids do not check out). */
async function readCategoryKind(rp: ReadPlan, setsRead: Promise<ApiAttributeSet[]>, versions: Versions, facts: CategoryReadFacts): Promise<RemoteCategory[]> {
  const { api } = rp;
  const setNames = new Map((await setsRead).map((s) => [s.id, s.name]));
  const found = rp.categoriesById ? await readCategoriesById(api, rp.desired!.categories, rp.byId!, setNames, versions) : undefined;
  if (rp.categoriesById) rp.log(found ? `categories: by id (${found.length} the ledger names)` : "categories: list (the ledger's ids did not check out)");
  return found ?? readCategories(api, rp.reads.categories ?? started(api.readCategories()), rp.desired, versions, setNames, rp.full, facts);
}

/** The blocks; their asset counts only for export (a plan never compares them). */
async function readBlockKind(rp: ReadPlan): Promise<RemoteBlock[]> {
  const blocks = await (rp.reads.blocks ?? Promise.resolve([]));
  return pmap(blocks, async (b) => ({
    id: b.id,
    slug: b.slug,
    ...(N.text(b.name) !== undefined ? { name: b.name } : {}),
    ...(N.text(b.content) !== undefined ? { content: b.content! } : {}),
    asset_count: rp.full ? (await rp.api.listBlockAssets(b.id)).length : 0,
  }));
}

export async function readState(api: PimApi, opts: ReadStateOptions): Promise<RemoteCatalogue> {
  const rp = planReads(api, opts);
  const { kinds, reads } = rp;
  const { channels, versionIds, versions } = await readChannels(rp);
  // Per-record reads wait for the category list: they would otherwise fill the client's
  // slots ahead of the category pages, which everything about categories waits for.
  const listsDone = reads.categories ? settled(reads.categories) : Promise.resolve();
  const groupsRead = (reads.displayGroups ?? Promise.resolve([])).then((l) => l.map(N.displayGroup));
  const setsRead = reads.sets ?? Promise.resolve([]);
  const categoryFacts: CategoryReadFacts = { orphans: [] };
  const brandFacts: { doubt?: string } = {};
  const [displayGroups, attributeRead, setRead, brands, categories, blocks] = await Promise.all([
    groupsRead,
    readAttributeKind(rp, versions, groupsRead, listsDone),
    readSetKind(rp, setsRead, listsDone),
    kinds.has("brands")
      ? readBrands(api, reads, rp.desired, opts.alsoBrands ?? [], {
          versions,
          mustList: opts.prune?.brands === true || rp.full,
          searchOnly: opts.searchBrands === true,
          log: rp.log,
          facts: brandFacts,
          listsDone,
          ...(opts.remembered?.brands ? { remembered: opts.remembered.brands } : {}),
        })
      : Promise.resolve([]),
    kinds.has("categories") ? readCategoryKind(rp, setsRead, versions, categoryFacts) : Promise.resolve([]),
    readBlockKind(rp),
  ]);
  const { attributes } = attributeRead;
  // Read by id, the attributes are the desired ones: any other a set or brand refers to is read by id too.
  if (attributeRead.detailsById) {
    const groups = new Map(displayGroups.map((d) => [d.id, d.name]));
    const more = await readReferencedAttributes(api, attributes, setRead.rows, brands, rp.managedAttributes ? versions : [], groups);
    if (more.length) rp.log(`attributes: ${more.length} more by id (assigned to a set or a brand read)`);
    attributes.push(...more);
  }
  const attrNames = new Map(attributes.map((a) => [a.id, a.name]));
  nameSetAssignments(setRead.rows, attrNames);
  // Brand attributes are read keyed by attribute id; re-key by name.
  for (const b of brands) if (b.attributes) b.attributes = rekeyBrandAttributes(b.attributes, attrNames);
  // Merged into the attributes: the version lists' texts are garbage now (see takeReads).
  reads.attributeVersions.clear();

  return {
    read: KINDS.filter((k) => kinds.has(k)),
    channels,
    version_ids: versionIds,
    display_groups: displayGroups.sort((a, b) => compareText(a.name, b.name)),
    attributes: attributes.sort((a, b) => compareText(a.name, b.name)),
    attribute_sets: setRead.sets.sort((a, b) => compareText(a.name, b.name)),
    blocks: blocks.sort((a, b) => compareText(a.slug, b.slug)),
    brands: brands.sort((a, b) => compareText(a.name, b.name)),
    categories,
    ...readFacts(brandFacts, categoryFacts),
  };
}

/** What the read could not be sure of: doubted lists and categories whose parent vanished. */
function readFacts(brandFacts: { doubt?: string }, categoryFacts: CategoryReadFacts): Pick<RemoteCatalogue, "read_doubts" | "orphan_categories"> {
  return {
    ...(brandFacts.doubt || categoryFacts.doubt
      ? { read_doubts: { ...(brandFacts.doubt ? { brands: brandFacts.doubt } : {}), ...(categoryFacts.doubt ? { categories: categoryFacts.doubt } : {}) } }
      : {}),
    ...(categoryFacts.orphans.length ? { orphan_categories: categoryFacts.orphans.sort((a, b) => a.id - b.id) } : {}),
  };
}
