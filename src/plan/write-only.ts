/**
 * Values API v1 cannot read back: channel web ids, the image_url an asset was
 * created from, and the attribute sets assigned to a brand. The ledger
 * (src/state/ledger.ts) remembers what was applied; without an entry a value
 * is unknown: planned once, flagged write_only, with before_unknown.
 */
import { compareText, type Asset, type Kind, type SourceLocation } from "../model/catalogue.js";
import type { RemoteAsset } from "../model/remote.js";
import { sortedEntries } from "./collections.js";
import type { PlanContext } from "./context.js";
import { FIELDS, createChanges, updateChanges } from "./fields.js";
import { assign, leftover } from "./action-builders.js";
import type { Action, Ref, ResourceType } from "./types.js";

/** The owner of write-only values in the ledger: `brand:<id>` / `category:<id>`; undefined before it exists. */
export type OwnerKey = string | undefined;

export function planWebIds(
  ctx: PlanContext,
  o: {
    kind: Kind;
    type: ResourceType;
    want: Record<string, string> | undefined;
    ownerKey: OwnerKey;
    ownerRef: Ref;
    address: (channel: string) => string;
    ownerLabel: string;
    source?: SourceLocation;
  },
): void {
  // The entries of a record under a remembered id that is another record are not its own: unknown.
  const known = o.ownerKey ? (ctx.trustsLedgerOf(o.ownerKey) ? ctx.ledger?.web_ids[o.ownerKey] : undefined) : {};
  for (const [channel, webId] of sortedEntries(o.want)) {
    const channelRef = ctx.channelRef(channel, o.ownerLabel, o.source);
    if (!channelRef) continue;
    const before = known?.[channel];
    if (before === webId) continue;
    const unknown = known === undefined || (o.ownerKey !== undefined && before === undefined && ctx.ledger === undefined);
    ctx.add(
      {
        address: o.address(channel),
        kind: o.kind,
        type: o.type,
        op: o.ownerKey && (before !== undefined || unknown) ? "update" : "create",
        changes: [{ field: "web_id", ...(before !== undefined ? { before } : {}), ...(unknown ? { before_unknown: true } : {}), after: webId }],
        flags: { write_only: true },
        ...(unknown ? { notes: ["API v1 cannot read web ids back and the ledger has no entry: it will be (re)written"] } : {}),
        refs: { owner: o.ownerRef, channel: channelRef },
        identity: { channel },
        ...(o.source ? { source: o.source } : {}),
      },
      before ?? null,
    );
  }
}

/** What planAssets plans for one owner. */
interface AssetPlanning {
  kind: Kind;
  type: ResourceType;
  want: Asset[] | undefined;
  remote: RemoteAsset[] | undefined;
  ownerKey: OwnerKey;
  ownerRef: Ref;
  address: (imageUrl: string) => string;
  source?: SourceLocation;
}

/** A desired asset matched to the tenant's: unknownUrl when adopted by alt text (its image_url cannot be read back). */
type AssetMatch = { remote: RemoteAsset; unknownUrl: boolean };

/**
 * Assets by image_url: matched through the ledger, then by a tenant that
 * echoes image_url as uri, then (without a record) by alt text, so an
 * existing image is adopted rather than duplicated.
 */
export function planAssets(ctx: PlanContext, o: AssetPlanning): void {
  const want = o.want;
  if (want === undefined) return;
  const remoteAssets = o.remote ?? [];
  const ledger = o.ownerKey && ctx.trustsLedgerOf(o.ownerKey) ? (ctx.ledger?.assets[o.ownerKey] ?? {}) : {};
  // Where the asset's id is unique, and what the ledger remembers it by: its owner.
  const table = o.type === "brand_asset" ? "brand_assets" : "category_assets";
  const matched = matchAssets(want, remoteAssets, ledger);
  const claimed = new Set([...matched.values()].map((m) => m.remote));
  for (const r of claimed) ctx.own(table, r.id, o.ownerKey);
  for (const d of [...want].sort((a, b) => compareText(a.image_url, b.image_url))) planAsset(ctx, o, d, matched.get(d));
  for (const r of remoteAssets) {
    if (claimed.has(r)) continue;
    leftover(ctx, {
      table,
      key: o.ownerKey ?? "",
      kind: o.kind,
      type: o.type,
      address: o.address(ledger[String(r.id)]?.image_url ?? r.uri),
      remote: r,
      change: { field: "uri", before: r.uri },
      refs: { owner: o.ownerRef },
    });
  }
}

/** Each desired asset's match in the tenant, in the order of trust: the ledger, the uri, the alt text. */
function matchAssets(want: Asset[], remoteAssets: RemoteAsset[], ledger: Record<string, { image_url: string }>): Map<Asset, AssetMatch> {
  const byId = new Map(remoteAssets.map((a) => [String(a.id), a]));
  const claimed = new Set<RemoteAsset>();
  const matched = new Map<Asset, AssetMatch>();
  const claim = (d: Asset, r: RemoteAsset, unknownUrl: boolean): void => {
    matched.set(d, { remote: r, unknownUrl });
    claimed.add(r);
  };
  // 1. The ledger knows which image_url each remote asset came from.
  for (const [assetId, entry] of Object.entries(ledger)) {
    const r = byId.get(assetId);
    const d = want.find((w) => w.image_url === entry.image_url && !matched.has(w));
    if (r && d) claim(d, r, false);
  }
  // 2. A tenant that stores image_url as uri lets us match directly.
  for (const d of want) {
    if (matched.has(d)) continue;
    const r = remoteAssets.find((a) => !claimed.has(a) && a.uri === d.image_url);
    if (r) claim(d, r, false);
  }
  // 3. Without a record, adopt an unclaimed asset with the same alt text rather than duplicate it.
  for (const d of want) {
    if (matched.has(d)) continue;
    const r = remoteAssets.find((a) => !claimed.has(a) && (a.alttext ?? "") === (d.alttext ?? "") && !(String(a.id) in ledger));
    if (r) claim(d, r, true);
  }
  return matched;
}

/** One desired asset: created when unmatched, updated where its fields differ. */
function planAsset(ctx: PlanContext, o: AssetPlanning, d: Asset, m: AssetMatch | undefined): void {
  const src = o.source ? { source: o.source } : {};
  if (!m) {
    ctx.add(
      {
        address: o.address(d.image_url),
        kind: o.kind,
        type: o.type,
        op: "create",
        changes: [{ field: "image_url", after: d.image_url }, ...createChanges(d, FIELDS.asset)],
        flags: { write_only: true },
        refs: { owner: o.ownerRef },
        ...src,
      },
      null,
    );
    return;
  }
  const changes = updateChanges(d, m.remote, FIELDS.asset);
  if (m.unknownUrl) changes.unshift({ field: "image_url", before_unknown: true, after: d.image_url });
  if (!changes.length) return;
  ctx.add(
    {
      address: o.address(d.image_url),
      kind: o.kind,
      type: o.type,
      op: "update",
      changes,
      flags: { write_only: true },
      ...(m.unknownUrl ? { notes: [`adopts asset ${m.remote.id} (same alt text); its image_url cannot be read back`] } : {}),
      refs: { owner: o.ownerRef, self: { id: m.remote.id } },
      identity: { image_url: d.image_url },
      ...src,
    },
    m.remote,
  );
}

/** Attribute sets assigned to a brand: only the ledger knows which were assigned. */
export function planBrandAttributeSets(
  ctx: PlanContext,
  o: { brand: string; brandId: number | undefined; brandRef: Ref; wanted: string[] | undefined; address: (set: string) => string; source?: SourceLocation },
): void {
  const trusted = o.brandId === undefined || ctx.trustsLedgerOf(`brand:${o.brandId}`);
  const applied = o.brandId !== undefined ? (trusted ? ctx.ledger?.brand_attribute_sets[String(o.brandId)] : undefined) : [];
  const unknown = o.brandId !== undefined && !applied;
  assign(ctx, {
    wanted: o.wanted,
    present: (name) => applied?.includes(name) === true,
    resolve: (name) => ctx.ref("attribute_sets", name, o.source),
    address: o.address,
    kind: "brands",
    type: "brand_assigned_attribute_set",
    field: "attribute_set",
    refs: { brand: o.brandRef },
    unknownBefore: unknown,
    flags: { write_only: true },
    notes: unknown ? ["API v1 cannot read brand attribute-set assignments; no ledger entry records it"] : [],
    ...(o.source ? { source: o.source } : {}),
  });
}

/**
 * Unknown write-only values, as a post-pass over plan data: an action whose
 * every change is a value nobody can read back and no ledger entry records.
 * A tenant without state has one per web id; plans say so once per field kind
 * and `--write-only` decides whether they count for --detailed-exitcode.
 */
const UNKNOWN_LABELS: Record<string, [string, string]> = {
  web_id: ["web id", "web ids"],
  image_url: ["asset image_url", "asset image_urls"],
  attribute_set: ["brand attribute-set assignment", "brand attribute-set assignments"],
};

export function isUnknownWriteOnly(a: Action): boolean {
  return a.flags.write_only === true && a.op !== "delete" && a.changes.length > 0 && a.changes.every((c) => c.before_unknown === true);
}

export interface UnknownWriteOnly {
  field: string;
  count: number;
  /** "12 web ids" */
  label: string;
}

export function unknownWriteOnly(actions: readonly Action[]): UnknownWriteOnly[] {
  const counts = new Map<string, number>();
  for (const a of actions) if (isUnknownWriteOnly(a)) counts.set(a.changes[0]!.field, (counts.get(a.changes[0]!.field) ?? 0) + 1);
  return [...counts]
    .sort(([a], [b]) => a.localeCompare(b))
    .map(([field, count]) => {
      const [one, many] = UNKNOWN_LABELS[field] ?? [field, `${field}s`];
      return { field, count, label: `${count} ${count === 1 ? one : many}` };
    });
}

/** Above this many of one field kind in one kind, renderers show one line instead of each action. */
export const UNKNOWN_LIST_LIMIT = 3;

/** Split a kind's actions into those shown one by one and the unknown write-only ones summed up per field. */
export function collapseUnknown(actions: readonly Action[], limit = UNKNOWN_LIST_LIMIT): { listed: Action[]; collapsed: UnknownWriteOnly[] } {
  const collapsed = unknownWriteOnly(actions).filter((u) => u.count > limit);
  const hidden = new Set(collapsed.map((u) => u.field));
  return { listed: actions.filter((a) => !(isUnknownWriteOnly(a) && hidden.has(a.changes[0]!.field))), collapsed };
}

/** --write-only: whether unknown write-only values count as changes for --detailed-exitcode. */
export type WriteOnlyMode = "always" | "when-unknown" | "never";
export const WRITE_ONLY_MODES: readonly WriteOnlyMode[] = ["always", "when-unknown", "never"];

/**
 * always (default): they count, so a plan exits 2 until an apply has written and recorded them.
 * when-unknown: they count only while the tenant has no state at all (so the first apply runs).
 * never: they never count; apply still writes them.
 * Known write-only differences (the ledger has a different value) always count.
 */
export function countsAsChanges(plan: { actions: readonly Action[] }, mode: WriteOnlyMode, stateExisted: boolean): boolean {
  return plan.actions.some((a) => a.op !== "unsupported" && (!isUnknownWriteOnly(a) || mode === "always" || (mode === "when-unknown" && !stateExisted)));
}
