/**
 * Reading a tenant: only the kinds the manifests manage, only the
 * sub-resources they declare, names resolved by search or by listing,
 * whichever costs fewer requests. Independent reads run concurrently (the
 * client bounds how many). The request-count formula is in README.md beside this file.
 */
import type { ApiAttribute, PimApi } from "../api/types.js";
import { KINDS, compareText, type Catalogue, type Kind, type SourceLocation } from "../model/catalogue.js";
import type { Channel, RemoteAttributeSet, RemoteCatalogue } from "../model/remote.js";
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

export { resolveVersionIds } from "./versions.js";
export { startReads, startVersionLists, type StartedReads } from "./started.js";
export type { KnownIds } from "./by-id.js";

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

export async function readState(api: PimApi, opts: ReadStateOptions): Promise<RemoteCatalogue> {
  const full = opts.desired === undefined;
  const kinds = new Set(opts.kinds);
  const desired = opts.desired;
  const log = opts.log ?? (() => undefined);
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
  // Only the lists these kinds need; one the early scan missed starts now.
  const reads: StartedReads = {
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
  const managedAttributes = kinds.has("attributes");
  // Version ids the config gives need not wait for the channels: a channel that disagrees is an
  // error below (resolveVersionIds), so a list started here is never a list read in vain.
  if (!full && managedAttributes && !attributesById) {
    const fromConfig = (desired?.versions ?? []).map((v) => opts.versionMap?.[v]).filter((id): id is number => id !== undefined && id !== 0);
    startAttributeVersions(api, reads, fromConfig);
  }

  const channels: Channel[] = (await reads.channels).map((c) => ({
    id: c.id,
    channel_name: c.channel_name,
    version_id: c.version_id,
    version_name: c.version_name,
  }));
  // Export reads every version the tenant publishes; a plan only those the manifests name. A config
  // entry never names an id a channel publishes under another name (resolveVersionIds refuses it).
  const wantedVersions = full
    ? [...new Set([...channels.filter((c) => c.version_id !== 0).map((c) => c.version_name), ...Object.keys(opts.versionMap ?? {})])].sort()
    : (desired?.versions ?? []);
  const { ids: versionIds } = resolveVersionIds(channels, opts.versionMap, wantedVersions, opts.versionAt);
  const versions = Object.entries(versionIds);
  if (managedAttributes && !attributesById)
    startAttributeVersions(
      api,
      reads,
      versions.map(([, id]) => id),
    );

  // Per-record reads wait for the category list: they would otherwise fill the client's
  // slots ahead of the category pages, which everything about categories waits for.
  const listsDone = reads.categories ? settled(reads.categories) : Promise.resolve();
  const groupsRead = (reads.displayGroups ?? Promise.resolve([])).then((l) => l.map(N.displayGroup));
  // Attribute id -> its single reads, when read by id: their details need no second read.
  let detailsById: Map<number, ApiAttribute[]> | undefined;
  const attributesRead = (async () => {
    // Only names are wanted of attributes the manifests do not manage here (a brand's values, a set's members).
    const found = attributesById ? await readAttributesById(api, desired!.attributes, byId!, managedAttributes ? versions : []) : undefined;
    if (attributesById && !found) {
      log("attributes: list (the ledger's ids did not check out)");
      Object.assign(reads, masterAttributes(api, oneAttributeListAtATime));
      startAttributeVersions(
        api,
        reads,
        versions.map(([, id]) => id),
      );
    }
    if (!found && !reads.attributes) return [];
    const groupNames = new Map((await groupsRead).map((d) => [d.id, d.name]));
    const listed = (found ? found.listed : await reads.attributes!).map(({ attribute, groupId }) => {
      const name = groupId === null ? undefined : groupNames.get(groupId);
      if (name !== undefined) attribute.display_group = name;
      return attribute;
    });
    if (found) log(`attributes: by id (${listed.length} the ledger names; the tenant's size is not read)`);
    detailsById = found?.details;
    return mergeAttributeVersions(
      listed,
      found
        ? found.perVersion
        : managedAttributes
          ? await Promise.all(versions.map(async ([name, id]) => [name, await reads.attributeVersions.get(id)!] as const))
          : [],
    );
  })();
  let setRows: SetAssignmentRows = [];
  const setsRead = reads.sets ?? Promise.resolve([]);

  const categoryFacts: CategoryReadFacts = { orphans: [] };
  const brandFacts: { doubt?: string } = {};
  const [displayGroups, attributes, attributeSets, brands, categories, blockList] = await Promise.all([
    groupsRead,
    (async () => {
      const attrs = await attributesRead;
      if (managedAttributes) {
        const needing = attributesNeedingDetails(attrs, desired, full);
        for (const a of needing) if (detailsById?.has(a.id)) fillAttributeDetails(a, detailsById.get(a.id)!, versions);
        await listsDone;
        await readAttributeDetails(
          api,
          needing.filter((a) => !detailsById?.has(a.id)),
          versions,
        );
      }
      return attrs;
    })(),
    (async () => {
      const sets = await setsRead;
      if (!need.sets) return [];
      const out: RemoteAttributeSet[] = sets.map((s) => ({
        id: s.id,
        name: s.name,
        ...(s.sort_order !== undefined ? { sort_order: s.sort_order } : {}),
        attributes: [],
        assignment_ids: {},
      }));
      const wanted = setsNeedingAssignments(out, desired, kinds.has("attribute_sets") && (full || opts.prune?.attributes === true));
      if (wanted.length) {
        await listsDone;
        setRows = await readSetAssignmentRows(api, wanted);
      }
      return out;
    })(),
    kinds.has("brands")
      ? readBrands(api, reads, desired, opts.alsoBrands ?? [], {
          versions,
          mustList: opts.prune?.brands === true || full,
          searchOnly: opts.searchBrands === true,
          log,
          facts: brandFacts,
          listsDone,
          ...(opts.remembered?.brands ? { remembered: opts.remembered.brands } : {}),
        })
      : Promise.resolve([]),
    kinds.has("categories")
      ? setsRead.then(async (sets) => {
          const setNames = new Map(sets.map((s) => [s.id, s.name]));
          const found = categoriesById ? await readCategoriesById(api, desired!.categories, byId!, setNames, versions) : undefined;
          if (categoriesById) log(found ? `categories: by id (${found.length} the ledger names)` : "categories: list (the ledger's ids did not check out)");
          return found ?? readCategories(api, reads.categories ?? started(api.readCategories()), desired, versions, setNames, full, categoryFacts);
        })
      : Promise.resolve([]),
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
  // Read by id, the attributes are the desired ones: any other a set or brand refers to is read by id too.
  if (detailsById) {
    const groups = new Map(displayGroups.map((d) => [d.id, d.name]));
    const more = await readReferencedAttributes(api, attributes, setRows, brands, managedAttributes ? versions : [], groups);
    if (more.length) log(`attributes: ${more.length} more by id (assigned to a set or a brand read)`);
    attributes.push(...more);
  }
  const attrNames = new Map(attributes.map((a) => [a.id, a.name]));
  nameSetAssignments(setRows, attrNames);
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
