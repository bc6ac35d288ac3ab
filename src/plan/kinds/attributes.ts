/**
 * Attributes: by name (renamed through previous_names), with their language
 * versions; their selectable values are planned by type-values.ts.
 */
import { plural } from "../../plural.js";
import type { Attribute } from "../../model/catalogue.js";
import type { RemoteAttribute } from "../../model/remote.js";
import { addr } from "../address.js";
import { push, sortedEntries } from "../collections.js";
import type { PlanContext } from "../context.js";
import { FIELDS, createChanges, updateChanges } from "../fields.js";
import type { Matched } from "../match.js";
import { leftover, upsert } from "../action-builders.js";
import type { Ref } from "../types.js";
import type { KindPlanner } from "./kind.js";
import { indexTypeValues, planTypeValues } from "./type-values.js";

export const attributes: KindPlanner = {
  kind: "attributes",

  index(ctx: PlanContext): void {
    for (const r of ctx.remote.attributes) {
      ctx.refs.attributes.set(r.name, { id: r.id });
      indexTypeValues(ctx, r.name, r.values);
    }
  },

  plan(ctx: PlanContext): void {
    const { pairs, leftover: undeclared } = ctx.match("attribute", ctx.desired.attributes, ctx.remote.attributes, "attributes", (r) => attributeView(ctx, r));
    ctx.recordRenames("attributes", pairs);
    // Refs first, so attributes referenced from anywhere resolve regardless of order.
    for (const m of pairs) {
      ctx.refs.attributes.set(m.desired.name, m.remote ? { id: m.remote.id } : { address: addr.attribute(m.desired.name) });
    }
    for (const r of undeclared) ctx.refs.attributes.set(r.name, { id: r.id });

    for (const m of pairs) planAttribute(ctx, m);

    const assignedSets = new Map<string, string[]>();
    for (const s of ctx.remote.attribute_sets) for (const a of s.attributes) push(assignedSets, a, s.name);
    for (const r of undeclared) {
      indexTypeValues(ctx, r.name, r.values);
      // Always destructive: products lose their values of the attribute, whatever its type.
      const notes: string[] = [`products lose their values of this ${r.type} attribute`];
      if (r.values.length) notes.push(`deletes its ${plural(r.values.length, "type value")}`);
      const sets = assignedSets.get(r.name) ?? [];
      if (sets.length) notes.push(`assigned to ${sets.length === 1 ? "attribute set" : "attribute sets"}: ${sets.sort().join(", ")}`);
      leftover(ctx, {
        table: "attributes",
        key: r.name,
        view: attributeView(ctx, r),
        kind: "attributes",
        type: "attribute",
        address: addr.attribute(r.name),
        remote: r,
        change: { field: "name", before: r.name },
        notes,
      });
    }
  },
};

/** A tenant attribute with its display group by today's name (after this plan's renames). */
function attributeView(ctx: PlanContext, r: RemoteAttribute): RemoteAttribute {
  return { ...r, display_group: ctx.current("display_groups", r.display_group ?? null) };
}

function displayGroupRef(ctx: PlanContext, d: Attribute): Ref | null | undefined {
  const name = d.display_group;
  if (name === undefined || name === null) return name;
  const ref = ctx.refs.display_groups.get(name);
  if (!ref) {
    const candidates = new Set([...ctx.refs.display_groups.keys(), ...ctx.remote.display_groups.map((g) => g.name)]);
    ctx.unknownRef("display group", name, candidates, d.source);
  }
  return ref;
}

function planAttribute(ctx: PlanContext, m: Matched<Attribute, RemoteAttribute>): void {
  const d = m.desired;
  const refs: Record<string, Ref> = {};
  const dg = displayGroupRef(ctx, d);
  if (dg) refs.display_group = dg;
  const remoteView = m.remote ? attributeView(ctx, m.remote) : undefined;
  upsert(ctx, m, {
    kind: "attributes",
    type: "attribute",
    address: addr.attribute(d.name),
    specs: FIELDS.attribute,
    table: "attributes",
    refs,
    ...(remoteView ? { remote: remoteView } : {}),
  });
  const self = ctx.refs.attributes.get(d.name)!;

  for (const [version, fields] of sortedEntries(d.versions)) {
    const versionId = ctx.versionId(version);
    if (versionId === undefined) continue;
    const have = m.remote?.versions?.[version];
    const changes = have ? updateChanges(fields, have, FIELDS.attribute_version) : createChanges(fields, FIELDS.attribute_version);
    if (!changes.length) continue;
    ctx.add(
      {
        address: addr.attributeVersion(d.name, version),
        kind: "attributes",
        type: "attribute_version",
        op: have ? "update" : "create",
        changes,
        refs: { attribute: self },
        version_id: versionId,
        ...(d.source ? { source: d.source } : {}),
      },
      have ?? null,
    );
  }

  planTypeValues(ctx, d, m.remote, self);
}
