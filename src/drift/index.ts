/**
 * Drift: where the tenant no longer matches the manifests, and when each
 * drifted record changed according to the changelog feed. For scheduled jobs:
 * the plan says what differs, the feed says since when.
 *
 * Which feed entity an action's record is logged under (API v1 lists product,
 * brand, category, product_asset, attribute and attribute_set): a brand's
 * language versions and attribute values under the brand, a category's
 * versions under the category, an attribute's versions and type values under
 * the attribute (for type values that is a guess the document does not
 * confirm, and the item says so), set assignments under the set. Display
 * groups, blocks, assets and web ids are in no entity type.
 */
import type { ApiChangelog, PimApi } from "../api/types.js";
import type { Action, Op, Plan, ResourceType } from "../plan/types.js";
import type { RefreshReport } from "../state/changelog/index.js";
import type { Ledger } from "../state/ledger.js";
import type { RemoteCatalogue } from "../model/remote.js";
import { misunderstood, newest } from "../state/changelog/feed.js";
import { PimctlError } from "../errors.js";
import type { Origin, OriginClaim } from "./origin.js";

export const DRIFT_FORMAT_VERSION = "1.1";

type FeedEntity = "brand" | "category" | "attribute" | "attribute_set";

/** The feed entity an action's record is logged under, the ref that holds its id, and any caveat. */
const LOGGED_AS: Record<ResourceType, { entity: FeedEntity; ref: string; caveat?: string } | { none: string }> = {
  brand: { entity: "brand", ref: "self" },
  brand_version: { entity: "brand", ref: "brand" },
  brand_attribute_value: { entity: "brand", ref: "brand" },
  brand_assigned_attribute: { entity: "brand", ref: "brand" },
  brand_assigned_attribute_set: { entity: "brand", ref: "brand" },
  category: { entity: "category", ref: "self" },
  category_version: { entity: "category", ref: "category" },
  attribute: { entity: "attribute", ref: "self" },
  attribute_version: { entity: "attribute", ref: "attribute" },
  type_value: { entity: "attribute", ref: "attribute", caveat: "via its attribute: API v1 does not say type value changes are logged" },
  type_value_version: { entity: "attribute", ref: "attribute", caveat: "via its attribute: API v1 does not say type value changes are logged" },
  attribute_set: { entity: "attribute_set", ref: "self" },
  attribute_set_attribute: { entity: "attribute_set", ref: "attribute_set" },
  display_group: { none: "display groups are not in the changelog feed" },
  block: { none: "blocks are not in the changelog feed" },
  brand_asset: { none: "assets are not in the changelog feed" },
  category_asset: { none: "assets are not in the changelog feed" },
  brand_web_id: { none: "web ids are not in the changelog feed" },
  category_web_id: { none: "web ids are not in the changelog feed" },
};

export interface DriftItem {
  address: string;
  op: Op;
  /** The fields that differ (for an update), or the field list of a create or delete. */
  fields: string[];
  /** The feed entity and id looked up, when there is one. */
  entity?: { type: FeedEntity; id: number };
  changed_at?: string;
  changelog_id?: number;
  change_type?: ApiChangelog["change_type"];
  /** A caveat on the attribution, or why there is none; for the manifests' differences, what they did. */
  note?: string;
  /**
   * Since 1.1: where the difference comes from, when the ledger can tell (drift/origin.ts): made in the
   * tenant since the last apply, or introduced by the manifests since (not applied yet: no feed entry is
   * looked up for it). Absent: not known.
   */
  origin?: Origin;
}

export interface DriftReport {
  format_version: typeof DRIFT_FORMAT_VERSION;
  tenant: string;
  base_url: string;
  checked_at: string;
  /** The feed window read: every entry, or those since this time. */
  feed: { entity_types: FeedEntity[]; since?: string; entries: number };
  refresh: RefreshReport;
  /** Since 1.1: the items that count as drift (what --detailed-exitcode exits 2 for): all but those API v1 cannot write. */
  drifted: number;
  items: DriftItem[];
}

/**
 * Whether an item is drift a job should act on: a difference API v1 cannot write back (a brand's or a
 * category's language version: op "unsupported") is shown, never counted, or a nightly job would
 * report it every night.
 */
export const countsAsDrift = (i: Pick<DriftItem, "op">): boolean => i.op !== "unsupported";

/** The drifted actions' feed lookups: which entity types to read. */
export function feedTypesOf(actions: readonly Action[]): FeedEntity[] {
  const types = new Set<FeedEntity>();
  for (const a of actions) {
    const how = LOGGED_AS[a.type];
    if ("entity" in how) types.add(how.entity);
  }
  return [...types].sort();
}

/** Reads the feed for those entity types (all pages), refusing entries it cannot understand. */
export async function readDriftFeed(api: PimApi, types: readonly FeedEntity[], since?: string): Promise<ApiChangelog[]> {
  const out: ApiChangelog[] = [];
  for (const entityType of types) {
    for (const e of await api.listChangelogs({ entityType, ...(since ? { updatedAt: since } : {}) })) {
      const why = misunderstood(e);
      if (why) throw new PimctlError("api_protocol", `the changelog feed cannot be read for drift: ${why}`);
      out.push(e);
    }
  }
  return out;
}

/** Where the ledger's owned ids of a kind are kept (prune kind), and the tenant's records of that kind. */
const OWNED: Partial<Record<ResourceType, { prune: string; remote: (r: RemoteCatalogue) => ReadonlyArray<{ id: number }> }>> = {
  brand: { prune: "brands", remote: (r) => r.brands },
  category: { prune: "categories", remote: (r) => r.categories },
  attribute: { prune: "attributes", remote: (r) => r.attributes },
  attribute_set: { prune: "attribute_sets", remote: (r) => r.attribute_sets },
};

/**
 * Ids the ledger knows for records deleted by hand (the plan creates them
 * again), by the create's address: the ledger's owned ids of the kind that the
 * tenant no longer has. Only one such create and one such id of a kind make an
 * answer; with more, which is which cannot be told, and a guess would name
 * another record's deletion.
 */
export function ledgerIds(actions: readonly Action[], ledger: Ledger, remote: RemoteCatalogue): Map<string, number> {
  const out = new Map<string, number>();
  for (const [type, kind] of Object.entries(OWNED) as Array<[ResourceType, NonNullable<(typeof OWNED)[ResourceType]>]>) {
    const creates = actions.filter((a) => a.type === type && a.op === "create");
    if (creates.length !== 1) continue;
    const present = new Set(kind.remote(remote).map((r) => r.id));
    const gone = (ledger.owned[kind.prune] ?? []).filter((id) => !present.has(id));
    if (gone.length === 1) out.set(creates[0]!.address, gone[0]!);
  }
  return out;
}

/** Fields naming a record of a kind the feed does not cover: they differ without their own record changing. */
const UNLOGGED_REFERENCES = new Set(["display_group"]);

/** The plan's actions that are drift: a write-only value pimctl has no record of (a web id, an image_url) is unknown, not drift. */
export const driftedActions = (plan: Plan): Action[] => plan.actions.filter((a) => !(a.changes.length && a.changes.every((c) => c.before_unknown)));

/**
 * Each drifted action with its origin (drift/origin.ts) and, unless the manifests introduced it, the
 * newest feed entry of its record (pure: the plan, the entries, the ids the ledger gives records
 * deleted by hand, from ledgerIds, and the origins).
 */
export function attribute(
  plan: Plan,
  entries: readonly ApiChangelog[],
  since?: string,
  fromLedger: ReadonlyMap<string, number> = new Map(),
  claims: ReadonlyMap<string, OriginClaim> = new Map(),
): DriftItem[] {
  const byEntity = new Map<string, ApiChangelog[]>();
  for (const e of entries) {
    const key = `${e.entity_type}:${e.entity_id}`;
    (byEntity.get(key) ?? byEntity.set(key, []).get(key)!).push(e);
  }
  return driftedActions(plan).map((a) => {
    const item: DriftItem = { address: a.address, op: a.op, fields: a.changes.map((c) => c.field) };
    const claim = claims.get(a.address);
    // The manifests' own difference is no change of the tenant's: its history is not looked up.
    if (claim?.origin === "manifests") return { ...item, ...(claim.note ? { note: claim.note } : {}), origin: "manifests" };
    const found = fromFeed(a, item, byEntity, since, fromLedger);
    return claim ? { ...found, origin: claim.origin } : found;
  });
}

/** An action's item with the newest feed entry of its record, or why there is none. */
function fromFeed(
  a: Action,
  item: DriftItem,
  byEntity: ReadonlyMap<string, ApiChangelog[]>,
  since: string | undefined,
  fromLedger: ReadonlyMap<string, number>,
): DriftItem {
  const how = LOGGED_AS[a.type];
  if ("none" in how) return { ...item, note: how.none };
  const ref = a.refs[how.ref];
  // A record deleted by hand (or a part of one) has no id in the tenant; the ledger may know the one it had.
  const ledgered = ref && "address" in ref ? fromLedger.get(ref.address) : !ref && how.ref === "self" ? fromLedger.get(a.address) : undefined;
  const id = ref && "id" in ref ? ref.id : ledgered;
  if (id === undefined)
    return { ...item, note: a.op === "create" ? "no id to look up: the record is not in the tenant (deleted, or never created)" : "no id to look up" };
  const entity = { type: how.entity, id };
  // An attribute whose only difference is the display group it names (a group renamed by hand) did not change itself.
  const byReference = item.fields.length > 0 && item.fields.every((f) => UNLOGGED_REFERENCES.has(f));
  const caveats = [
    ...(ledgered !== undefined ? [`id ${id} from the ledger: the record pimctl owned that is gone from the tenant`] : []),
    ...(how.caveat ? [how.caveat] : []),
    ...(byReference ? [`only ${item.fields.join(", ")} differs, which names a record not in the feed: the change may be there, after this entry`] : []),
  ];
  const caveat = caveats.length ? caveats.join("; ") : undefined;
  const last = newest(byEntity.get(`${entity.type}:${entity.id}`) ?? []);
  if (!last)
    return { ...item, entity, note: `no changelog entry${since ? ` since ${since}` : ""} for ${entity.type} ${entity.id}${caveat ? ` (${caveat})` : ""}` };
  return { ...item, entity, changed_at: last.updated_at, changelog_id: last.id, change_type: last.change_type, ...(caveat ? { note: caveat } : {}) };
}
