/**
 * Attribute sets: by name (renamed through previous_names), and the
 * attributes assigned to each (added by name, removed when the manifest's
 * list leaves them out).
 */
import { plural } from "../../plural.js";
import { pathKey, type AttributeSet } from "../../model/catalogue.js";
import type { RemoteAttributeSet } from "../../model/remote.js";
import { addr } from "../address.js";
import { push } from "../collections.js";
import type { PlanContext } from "../context.js";
import { FIELDS } from "../fields.js";
import type { Matched } from "../match.js";
import { assign, leftover, upsert } from "../action-builders.js";
import type { KindPlanner } from "./kind.js";

export const attributeSets: KindPlanner = {
  kind: "attribute_sets",

  index(ctx: PlanContext): void {
    for (const r of ctx.remote.attribute_sets) ctx.refs.attribute_sets.set(r.name, { id: r.id });
  },

  plan(ctx: PlanContext): void {
    const { pairs, leftover: undeclared } = ctx.match("attribute set", ctx.desired.attribute_sets, ctx.remote.attribute_sets, "attribute_sets");
    ctx.recordRenames("attribute_sets", pairs);
    for (const m of pairs) {
      ctx.refs.attribute_sets.set(m.desired.name, m.remote ? { id: m.remote.id } : { address: addr.attributeSet(m.desired.name) });
    }
    for (const r of undeclared) ctx.refs.attribute_sets.set(r.name, { id: r.id });

    for (const m of pairs) {
      upsert(ctx, m, {
        kind: "attribute_sets",
        type: "attribute_set",
        address: addr.attributeSet(m.desired.name),
        specs: FIELDS.attribute_set,
        table: "attribute_sets",
      });
      planAssignments(ctx, m);
    }

    const usedBy = new Map<string, string[]>();
    for (const c of ctx.remote.categories) for (const s of c.attribute_sets ?? []) push(usedBy, s, pathKey(c.path));
    for (const r of undeclared) {
      // Always destructive: products and categories using the set lose the attributes it brings.
      const notes: string[] = ["products and categories using this set lose the attributes it brings"];
      if (r.attributes.length) notes.push(`holds ${plural(r.attributes.length, "attribute assignment")}`);
      const cats = usedBy.get(r.name) ?? [];
      if (cats.length) notes.push(`used by ${plural(cats.length, "category")}`);
      leftover(ctx, {
        table: "attribute_sets",
        key: r.name,
        kind: "attribute_sets",
        type: "attribute_set",
        address: addr.attributeSet(r.name),
        remote: r,
        change: { field: "name", before: r.name },
        notes,
      });
    }
  },
};

/** Attributes of one set: assign the missing ones, remove the ones the manifest leaves out. */
function planAssignments(ctx: PlanContext, m: Matched<AttributeSet, RemoteAttributeSet>): void {
  const d = m.desired;
  if (d.attributes === undefined) return;
  const setRef = ctx.refs.attribute_sets.get(d.name)!;
  const have = new Set((m.remote?.attributes ?? []).map((a) => ctx.current("attributes", a)));
  const want = new Set(d.attributes);
  assign(ctx, {
    wanted: d.attributes,
    present: (name) => have.has(name),
    resolve: (name) => ctx.ref("attributes", name, d.source),
    address: (name) => addr.setAttribute(d.name, name),
    kind: "attribute_sets",
    type: "attribute_set_attribute",
    field: "attribute",
    refs: { attribute_set: setRef },
    ...(d.source ? { source: d.source } : {}),
  });
  if (!m.remote) return;
  for (const name of [...have].sort()) {
    if (want.has(name)) continue;
    const assignment = m.remote.assignment_ids[name] ?? m.remote.assignment_ids[ctx.previous("attributes", name)];
    const attribute = ctx.refs.attributes.get(name);
    ctx.add(
      {
        address: addr.setAttribute(d.name, name),
        kind: "attribute_sets",
        type: "attribute_set_attribute",
        op: "delete",
        changes: [{ field: "attribute", before: name }],
        notes: ["removes the attribute from the set (the attribute itself stays)"],
        refs: {
          attribute_set: setRef,
          ...(assignment !== undefined ? { self: { id: assignment } } : {}),
          ...(attribute ? { attribute } : {}),
        },
        ...(d.source ? { source: d.source } : {}),
      },
      { set: m.remote.id, attribute: name },
    );
  }
}
