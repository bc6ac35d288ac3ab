/**
 * The tenant's reads a plan starts before its manifests are parsed (the
 * kinds and version names come from a scan of the files' text), and the
 * shapes the largest answers are reduced to as they arrive. readState takes
 * what is under way here and starts the rest itself: no list is read twice.
 */
import type { ApiAttribute, ApiAttributeSet, ApiBlock, ApiBrand, ApiCategory, ApiChannel, ApiDisplayGroup, ListRead, Page, PimApi } from "../api/types.js";
import type { Catalogue, Kind } from "../model/catalogue.js";
import type { RemoteAttribute } from "../model/remote.js";
import * as N from "./normalise.js";
import { resolveVersionIds } from "./versions.js";
import { settled, started } from "../base/promises.js";

/**
 * The reads that depend on no manifest: started as soon as the kinds are known
 * (the manifests' top-level keys, src/manifest/kinds-scan.ts), so they run
 * while the manifests are parsed. readState takes what is here and starts
 * the rest itself; it never reads a list twice.
 */
export interface StartedReads {
  channels: Promise<ApiChannel[]>;
  displayGroups?: Promise<ApiDisplayGroup[]>;
  sets?: Promise<ApiAttributeSet[]>;
  blocks?: Promise<ApiBlock[]>;
  /** The attribute list in the master version, normalised as it arrives. */
  attributes?: Promise<ListedAttribute[]>;
  /** What each version's attribute list says, by version id, kept as it arrives. */
  attributeVersions: Map<number, Promise<VersionTexts[]>>;
  /**
   * For a large catalogue (`oneAttributeListAtATime`): settles when the attribute list asked for
   * last has arrived (its value is not kept), and the next one is asked for then. The lists are
   * the largest answers (50 MB each at ten times the taxonomy); asked for together they arrive
   * together, and their bodies, texts and parsed records are all alive at once (300 MB more at
   * the peak). One after another, each is decoded while the service writes the next; for a small
   * catalogue the round trips this adds cost more than the memory it saves.
   */
  attributeListsDone?: Promise<void>;
  brandsFirst?: Promise<Page<ApiBrand>>;
  categories?: Promise<ListRead<ApiCategory>>;
}

/**
 * readState takes the reads under way and the caller's handle lets go of them: that handle
 * lives until the plan is made, and through it every raw answer (the category pages, each
 * version's attribute list: a third of the heap at ten times the taxonomy) would too. The
 * version lists stay in the one map both share, since a version list started when the channels
 * answer goes there (startVersionLists); readState empties it once it has merged them.
 */
export function takeReads(reads: StartedReads): StartedReads {
  const taken: StartedReads = { ...reads };
  delete reads.displayGroups;
  delete reads.sets;
  delete reads.blocks;
  delete reads.attributes;
  delete reads.brandsFirst;
  delete reads.categories;
  return taken;
}

/**
 * An attribute of the master list, normalised when the list arrives (the raw
 * answer, megabytes of JSON for a large tenant, is garbage from then on); its
 * display group's name is filled in once the groups are read.
 */
export interface ListedAttribute {
  attribute: RemoteAttribute;
  groupId: number | null;
}

const NO_GROUPS = new Map<number, string>();

export function listedAttributes(list: ApiAttribute[]): ListedAttribute[] {
  return list.map((a) => ({ attribute: N.attribute(a, NO_GROUPS), groupId: a.display_group_id ?? null }));
}

/** A language version's attribute list, reduced to what merging takes from it: the name, and each type value's text by its master id. */
export interface VersionTexts {
  id: number;
  name?: string;
  values: Array<{ master: number; value: string }>;
}

export function versionTexts(list: ApiAttribute[]): VersionTexts[] {
  return list.map((va) => ({
    id: va.id,
    ...(va.name ? { name: va.name } : {}),
    values: (va.typeValuesArray ?? []).flatMap((tv) =>
      tv.value === undefined ? [] : [{ master: tv.master_attribute_type_value_id ?? tv.id, value: tv.value }],
    ),
  }));
}

/** Which lists a read of these kinds needs (the request-count table in README.md). */
export function listsFor(kinds: ReadonlySet<Kind>) {
  return {
    attributes: kinds.has("attributes") || kinds.has("attribute_sets") || kinds.has("brands"),
    sets: kinds.has("attribute_sets") || kinds.has("categories") || kinds.has("brands"),
    groups: kinds.has("display_groups") || kinds.has("attributes"),
    blocks: kinds.has("blocks"),
  };
}

/**
 * Start the lists a read of `kinds` needs whatever the manifests say, all at
 * once with the channels: none of them waits for another. `brandsFirstPage`
 * false leaves the brands to a search by name (a targeted plan).
 */
export function startReads(api: PimApi, kinds: readonly Kind[], opts: { brandsFirstPage?: boolean; oneAttributeListAtATime?: boolean } = {}): StartedReads {
  const k = new Set(kinds);
  const need = listsFor(k);
  return {
    channels: started(api.listChannels()),
    ...(need.groups ? { displayGroups: started(api.listDisplayGroups()) } : {}),
    ...(need.sets ? { sets: started(api.listAttributeSets()) } : {}),
    ...(need.blocks ? { blocks: started(api.listBlocks()) } : {}),
    ...(need.attributes ? masterAttributes(api, opts.oneAttributeListAtATime === true) : {}),
    attributeVersions: new Map(),
    ...(k.has("brands") && opts.brandsFirstPage !== false ? { brandsFirst: started(api.listBrandsPage({ page: 1 })) } : {}),
    ...(k.has("categories") ? { categories: started(api.readCategories()) } : {}),
  };
}

/**
 * The attribute list of each language version the manifests appear to write
 * (`names`, from a scan of their text), started as soon as the channels (or
 * the config's map) give its id instead of after the manifests are parsed:
 * these are the largest answers a plan reads. Call it before readState, which
 * then reuses them; a name no channel publishes is not read.
 */
export function startVersionLists(api: PimApi, reads: StartedReads, names: readonly string[], versionMap: Record<string, number> | undefined): void {
  if (!names.length || !reads.attributes) return;
  // Registered before readState's own wait on the channels, so it runs first.
  reads.channels.then(
    (channels) => {
      let ids: Record<string, number>;
      try {
        ids = resolveVersionIds(channels, versionMap, [...names]).ids;
      } catch {
        return; // a conflict is readState's to report
      }
      startAttributeVersions(
        api,
        reads,
        Object.values(ids).filter((id) => id !== 0),
      );
    },
    () => undefined,
  );
}

/**
 * Start the attribute list of each version id not already under way: called
 * with the config's ids before the channels answer, and with the channels'
 * ids after.
 */
export function startAttributeVersions(api: PimApi, reads: StartedReads, ids: number[]): void {
  for (const id of ids) {
    if (reads.attributeVersions.has(id)) continue;
    const gate = reads.attributeListsDone;
    const list = gate ? gate.then(() => api.listAttributes(id)) : api.listAttributes(id);
    if (gate) reads.attributeListsDone = settled(list);
    reads.attributeVersions.set(id, started(list.then(versionTexts)));
  }
}

/** The master attribute list, normalised as it arrives, and the gate the version lists wait on. */
export function masterAttributes(api: PimApi, oneAtATime: boolean): Pick<StartedReads, "attributes" | "attributeListsDone"> {
  const list = api.listAttributes();
  return { attributes: started(list.then(listedAttributes)), ...(oneAtATime ? { attributeListsDone: settled(list) } : {}) };
}

/**
 * When the attribute lists are read one at a time: manifests of more than 16 MB (ten times the
 * taxonomy is 30 MB, once is 3 MB), or, when the reader starts the lists itself, more than 50,000
 * type values declared (once the taxonomy is 20,635) or an export (every version, of any size).
 */
export const LARGE_MANIFEST_BYTES = 16 * 1024 * 1024;
export function largeCatalogue(desired: Catalogue | undefined): boolean {
  if (!desired) return true;
  let values = 0;
  for (const a of desired.attributes) values += a.values?.length ?? 0;
  return values > 50_000;
}
