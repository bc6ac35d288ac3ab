/**
 * Brands: by name (renamed through previous_names), with language versions
 * (read-only in API v1), web ids and assets (write-only), attribute values
 * per version, and assigned attributes and attribute sets.
 */
import type { Brand } from "../../model/catalogue.js";
import { BRAND } from "../../model/schema.js";
import type { RemoteBrand } from "../../model/remote.js";
import { addr } from "../address.js";
import { sortedEntries } from "../collections.js";
import type { PlanContext } from "../context.js";
import { FIELDS, createChanges, sameValue, updateChanges } from "../fields.js";
import { assign, leftover, unsupportedVersion, upsert } from "../action-builders.js";
import type { Ref } from "../types.js";
import type { Matched } from "../match.js";
import { planAssets, planBrandAttributeSets, planWebIds } from "../write-only.js";
import type { KindPlanner } from "./kind.js";

export const brands: KindPlanner = {
  kind: "brands",

  plan(ctx: PlanContext): void {
    const { pairs, leftover: undeclared } = ctx.match("brand", ctx.desired.brands, ctx.remote.brands, "brands");
    for (const m of pairs) planBrand(ctx, m);
    planUndeclaredBrands(ctx, undeclared);
  },
};

/** The brand's value of each attribute, in the master version and per language version. */
function planBrandAttributes(ctx: PlanContext, d: Brand, remote: RemoteBrand | undefined, brandRef: Ref): void {
  for (const [attrName, want] of sortedEntries(d.attributes)) {
    const attrRef = ctx.ref("attributes", attrName, d.source);
    if (!attrRef) continue;
    const have = remote?.attributes?.[attrName] ?? remote?.attributes?.[ctx.previous("attributes", attrName)];
    const perVersion: Array<[string | null, string]> = [[null, want.value], ...sortedEntries(want.versions)];
    for (const [version, value] of perVersion) {
      const versionId = version === null ? 0 : ctx.versionId(version);
      if (versionId === undefined) continue;
      const record = have?.values[version ?? ""];
      if (record && sameValue(record.value, value, "text")) continue;
      const refs: Record<string, Ref> = { brand: brandRef, attribute: attrRef };
      if (record) refs.self = { id: record.id };
      const typeValue = ctx.refs.type_values.get(attrName)?.get(want.value);
      if (typeValue && "address" in typeValue) refs.type_value = typeValue;
      ctx.add(
        {
          address: addr.brandAttributeValue(d.name, attrName, version),
          kind: "brands",
          type: "brand_attribute_value",
          op: record ? "update" : "create",
          changes: [{ field: "value", ...(record ? { before: record.value } : {}), after: value }],
          refs,
          version_id: versionId,
          ...(d.source ? { source: d.source } : {}),
        },
        record ?? null,
      );
    }
  }
}

/** One declared brand: the record, its versions (read-only), web ids and assets (write-only), attribute values, assignments and sets. */
function planBrand(ctx: PlanContext, m: Matched<Brand, RemoteBrand>): void {
  const d = m.desired;
  const address = addr.brand(d.name);
  upsert(ctx, m, { kind: "brands", type: "brand", address, specs: FIELDS.brand, table: "brands", schema: BRAND });
  if (m.remote) ctx.checkIdentity("brands", `brand:${m.remote.id}`, m.remote.id, m.remote.name, m.remote);
  const brandRef: Ref = m.remote ? { id: m.remote.id } : { address };
  const source = d.source ? { source: d.source } : {};

  for (const [version, fields] of sortedEntries(d.versions)) {
    const have = m.remote?.versions?.[version] ?? {};
    const changes = m.remote ? updateChanges(fields, have, FIELDS.brand_version) : createChanges(fields, FIELDS.brand_version);
    if (changes.length) {
      unsupportedVersion(ctx, {
        kind: "brands",
        type: "brand_version",
        address: addr.brandVersion(d.name, version),
        changes,
        owner: brandRef,
        version,
        ...source,
        before: have,
      });
    }
  }

  const ownerKey = m.remote ? `brand:${m.remote.id}` : undefined;
  planWebIds(ctx, {
    kind: "brands",
    type: "brand_web_id",
    want: d.web_ids,
    ownerKey,
    ownerRef: brandRef,
    address: (ch) => addr.brandWebId(d.name, ch),
    ownerLabel: `brand "${d.name}"`,
    ...source,
  });
  planAssets(ctx, {
    kind: "brands",
    type: "brand_asset",
    want: d.assets,
    remote: m.remote?.assets,
    ownerKey,
    ownerRef: brandRef,
    address: (u) => addr.brandAsset(d.name, u),
    ...source,
  });
  planBrandAttributes(ctx, d, m.remote, brandRef);

  const assignedRemote = new Set(Object.keys(m.remote?.attributes ?? {}).map((a) => ctx.current("attributes", a)));
  assign(ctx, {
    wanted: d.assigned_attributes,
    present: (name) => assignedRemote.has(name),
    resolve: (name) => ctx.ref("attributes", name, d.source),
    address: (name) => addr.brandAssignedAttribute(d.name, name),
    kind: "brands",
    type: "brand_assigned_attribute",
    field: "attribute",
    refs: { brand: brandRef },
    ...source,
  });
  planBrandAttributeSets(ctx, {
    brand: d.name,
    brandId: m.remote?.id,
    brandRef,
    wanted: d.attribute_sets,
    address: (name) => addr.brandAttributeSet(d.name, name),
    ...source,
  });
}

/** The tenant's brands no manifest declares: deleted where pruning says so, never while the list is in doubt. */
function planUndeclaredBrands(ctx: PlanContext, undeclared: RemoteBrand[]): void {
  // A brand list that kept changing while it was read may lack brands that exist: no deletes on doubt.
  const doubt = ctx.remote.read_doubts?.brands;
  if (doubt && undeclared.length && ctx.prune("brands")) {
    ctx.warnings.push(`brands: no deletes planned, the brand list could not be read consistently (${doubt}); plan again when the tenant is quiet`);
    return;
  }
  for (const r of undeclared) {
    const notes =
      r.product_count > 0
        ? [r.product_count === 1 ? "1 product carries this brand and loses it" : `${r.product_count} products carry this brand and lose it`]
        : [];
    leftover(ctx, {
      table: "brands",
      key: r.name,
      kind: "brands",
      type: "brand",
      address: addr.brand(r.name),
      remote: r,
      change: { field: "name", before: r.name },
      notes,
    });
  }
}
