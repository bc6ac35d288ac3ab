/**
 * Readings only a write reveals (`--write-probes`, for a staging tenant), on the probe fixture
 * (probe-records.ts): what a category delete does to its children and what the changelog says of
 * it, which id a set member's DELETE takes, whether an asset's uri is the image_url given, how ids
 * are numbered, and how an export file is handed out. Records a probe makes are tracked for the
 * cleanup the moment their answer comes.
 */
import { rawCategory, rawChangelogSince, rawDeleteCategory, rawDeleteSetMember, type RawAnswer } from "../../api/probes.js";
import { coerceId } from "../../api/wire.js";
import { evidence, quote, recordsOf, type DoctorContext } from "../context.js";
import type { ProbeFixture } from "../probe-records.js";
import type { Evidence, Verdict } from "../types.js";

export const NOT_PROBED = { outcome: "not-probed", why: "only a write shows it: run pimctl doctor --write-probes against a staging tenant" } as const;

function fixtureOf(ctx: DoctorContext): ProbeFixture | undefined {
  return ctx.fixture;
}

export async function detectIdSequence(ctx: DoctorContext): Promise<Verdict<"per-table" | "global">> {
  const f = fixtureOf(ctx);
  if (!f) return NOT_PROBED;
  const [a, s, b] = [f.brand.id, f.set.id, f.secondBrand.id];
  const ev: Evidence[] = [
    { request: "POST /brands", shows: `brand id ${a}` },
    { request: "POST /attribute_sets", shows: `attribute set id ${s}` },
    { request: "POST /brands", shows: `next brand id ${b}` },
  ];
  if (b === a + 1) return { outcome: "known", reading: "per-table", evidence: ev };
  if (s === a + 1 && b === s + 1) return { outcome: "known", reading: "global", evidence: ev };
  return {
    outcome: "undetermined",
    why: `ids ${a}, ${s}, ${b} fit neither (another writer between the probes, or ids that step by more than one)`,
    evidence: ev,
  };
}

export async function detectAssetUri(ctx: DoctorContext): Promise<Verdict<"rehost" | "echo">> {
  const f = fixtureOf(ctx);
  if (!f || !ctx.probes) return NOT_PROBED;
  const request = `POST /brands/${f.brand.id}/assets {"image_url":${JSON.stringify(ctx.probeImage)}}`;
  const probes = ctx.probes;
  const body = { image_url: ctx.probeImage, alttext: probes.name("asset"), thumbnail: false };
  const asset = await probes
    .make(ctx.api.createBrandAsset(f.brand.id, body), (x) => ({ kind: "brand_asset", name: String(x.alttext ?? ""), owner: f.brand.id }))
    .catch((e: unknown) => e as Error);
  if (asset instanceof Error)
    return {
      outcome: "undetermined",
      why:
        `the tenant refused the probe asset (${asset.message}); a tenant that re-hosts images fetches image_url: ` +
        "name one it can reach with --probe-image URL",
      evidence: [{ request, shows: asset.message }],
    };
  const ev = [{ request, shows: `uri: ${quote(asset.uri)}` }];
  if (asset.uri === ctx.probeImage) return { outcome: "known", reading: "echo", evidence: ev };
  if (typeof asset.uri === "string" && /^https?:\/\//.test(asset.uri)) return { outcome: "known", reading: "rehost", evidence: ev };
  return {
    outcome: "unknown",
    seen: `an asset's uri read as ${quote(asset.uri)}`,
    pimctl: "pimctl never compares uri (it remembers the image_url it wrote in the ledger), so plans are unaffected; no emulator reading answers this way",
    evidence: ev,
  };
}

/** The category delete probe, shared by the two readings it shows: its answer, and what became of the child. */
function deleteParent(ctx: DoctorContext, f: ProbeFixture): Promise<{ del: RawAnswer; child?: RawAnswer }> {
  return ctx.memo("category-delete", async () => {
    const del = await rawDeleteCategory(ctx.api, f.parent.id);
    if (del.status >= 300) return { del };
    ctx.probes?.gone("category", f.parent.id);
    const child = await rawCategory(ctx.api, f.child.id);
    if (child.status === 404) ctx.probes?.gone("category", f.child.id);
    return { del, child };
  });
}

export async function detectCategoryDeleteWithChildren(ctx: DoctorContext): Promise<Verdict<"refuse" | "cascade">> {
  const f = fixtureOf(ctx);
  if (!f) return NOT_PROBED;
  const { del, child } = await deleteParent(ctx, f);
  const ev = [evidence(del, `status ${del.status}${del.text.trim() ? `, ${quote(del.text.trim())}` : ""} (category ${f.parent.id} has child ${f.child.id})`)];
  if (child) ev.push(evidence(child, `the child: status ${child.status}`));
  if (del.status === 422) return { outcome: "known", reading: "refuse", evidence: ev };
  if (child?.status === 404) return { outcome: "known", reading: "cascade", evidence: ev };
  return {
    outcome: "unknown",
    seen: child ? "the parent was deleted and its child stayed (an orphan)" : `the delete answered ${del.status}`,
    pimctl: "pimctl deletes children before their parents and never plans a delete of a category whose children stay, so it does not ask for this",
    evidence: ev,
  };
}

export async function detectChangelogSubtreeDeletes(ctx: DoctorContext): Promise<Verdict<"each" | "root">> {
  const f = fixtureOf(ctx);
  if (!f) return NOT_PROBED;
  const { del, child } = await deleteParent(ctx, f);
  if (del.status >= 300 || child?.status !== 404)
    return {
      outcome: "undetermined",
      why: "the tenant did not delete a subtree in one request (see categoryDeleteWithChildren), so it logs none",
      evidence: [],
    };
  const since = String(f.parent.created_at ?? "");
  const feed = await rawChangelogSince(ctx.api, since, "category");
  const deleted = new Set(
    recordsOf(feed.json, "changelogs")
      .filter((e) => e.change_type === "delete")
      .map((e) => coerceId(e.entity_id)),
  );
  const ev = [evidence(feed, `delete entries for ${[...deleted].map(String).join(", ") || "no category"} (parent ${f.parent.id}, child ${f.child.id})`)];
  if (deleted.has(f.parent.id) && deleted.has(f.child.id)) return { outcome: "known", reading: "each", evidence: ev };
  if (deleted.has(f.parent.id)) return { outcome: "known", reading: "root", evidence: ev };
  return {
    outcome: "unknown",
    seen: deleted.has(f.child.id) ? "the child's delete was logged, not the parent's" : "the feed logged no delete of the subtree",
    pimctl: "--refresh=changelog would not see this delete: use the default full read (--refresh full) with this tenant",
    evidence: ev,
  };
}

export async function detectSetAttributeDeleteId(ctx: DoctorContext): Promise<Verdict<"assignment" | "attribute">> {
  const f = fixtureOf(ctx);
  if (!f) return NOT_PROBED;
  const before = await ctx.api.listAttributeSetAttributes(f.set.id);
  const row = before.find((r) => r.id !== r.attribute_id);
  if (!row) return { outcome: "undetermined", why: `every assignment of set ${f.set.id} has the id of its attribute`, evidence: [] };
  const vanished = async () => {
    const now = new Set((await ctx.api.listAttributeSetAttributes(f.set.id)).map((r) => r.id));
    return before.filter((r) => !now.has(r.id));
  };
  const first = await rawDeleteSetMember(ctx.api, f.set.id, row.attribute_id);
  const gone = await vanished();
  const ev = [evidence(first, `status ${first.status}; assignments removed: ${gone.map((r) => `${r.id} (attribute ${r.attribute_id})`).join(", ") || "none"}`)];
  ev[0]!.shows += `; the assignment ${row.id} holds attribute ${row.attribute_id}`;
  if (gone.some((r) => r.id === row.id)) return { outcome: "known", reading: "attribute", evidence: ev };
  if (gone.some((r) => r.id === row.attribute_id)) return { outcome: "known", reading: "assignment", evidence: ev };
  const second = await rawDeleteSetMember(ctx.api, f.set.id, row.id);
  const after = await vanished();
  ev.push(evidence(second, `status ${second.status}; assignments removed: ${after.map((r) => String(r.id)).join(", ") || "none"}`));
  if (after.some((r) => r.id === row.id)) return { outcome: "known", reading: "assignment", evidence: ev };
  return {
    outcome: "unknown",
    seen: "neither the attribute's id nor the assignment's removed the assignment",
    pimctl: "pimctl cannot remove attributes from sets here: it answers each such removal with an error after trying both ids (set-assignments.ts)",
    evidence: ev,
  };
}
