/**
 * Type values of one attribute: by value (renamed through previous_values),
 * with their text per language version. Values are part of the attributes kind.
 */
import { TYPES_WITH_VALUES, type Attribute, type TypeValue } from "../../model/catalogue.js";
import type { RemoteAttribute, RemoteTypeValue } from "../../model/remote.js";
import { addr, withLastKey } from "../address.js";
import { sortedEntries } from "../collections.js";
import type { PlanContext } from "../context.js";
import { FIELDS, createChanges, sameValue, updateChanges } from "../fields.js";
import { matchBy, type Matched } from "../match.js";
import { leftover } from "../action-builders.js";
import type { Ref } from "../types.js";

/** Make an attribute's existing values referable (brand attribute values point at them). */
export function indexTypeValues(ctx: PlanContext, attribute: string, values: readonly RemoteTypeValue[]): void {
  ctx.refs.type_values.set(attribute, new Map(values.map((v) => [v.value, { id: v.id }])));
}

export function planTypeValues(ctx: PlanContext, d: Attribute, remote: RemoteAttribute | undefined, attribute: Ref): void {
  const valueRefs = new Map<string, Ref>();
  ctx.refs.type_values.set(d.name, valueRefs);
  const remoteValues = remote?.values ?? [];
  if (d.values === undefined) {
    for (const v of remoteValues) valueRefs.set(v.value, { id: v.id });
    return;
  }
  if (d.values.length && !TYPES_WITH_VALUES.includes(d.type)) return; // the loader reports this
  const { pairs, leftover: undeclared } = matchBy(
    ctx.errors,
    "type value",
    "previous_values",
    d.values,
    remoteValues,
    (v) => v.value,
    (r) => r.value,
    (v) => v.previous_values,
  );
  for (const vm of pairs) {
    planTypeValue(ctx, d.name, vm, attribute, valueRefs);
    planTypeValueVersions(ctx, d.name, vm, attribute, valueRefs);
  }
  for (const r of undeclared) {
    valueRefs.set(r.value, { id: r.id });
    leftover(ctx, {
      table: "type_values",
      key: r.value,
      kind: "attributes",
      type: "type_value",
      address: addr.typeValue(d.name, r.value),
      remote: r,
      change: { field: "value", before: r.value },
      notes: ["products using this value lose it"],
      refs: { attribute },
    });
  }
}

/** One declared value: created, or matched and renamed or updated where it differs; its ref kept for what refers to it. */
function planTypeValue(ctx: PlanContext, attributeName: string, vm: Matched<TypeValue, RemoteTypeValue>, attribute: Ref, valueRefs: Map<string, Ref>): void {
  const v = vm.desired;
  // Printed only for an action: a no-op plan at scale has 200,000 values and prints none.
  const address = () => addr.typeValue(attributeName, v.value);
  const src = v.source ? { source: v.source } : {};
  if (!vm.remote) {
    const created = address();
    ctx.add(
      { address: created, kind: "attributes", type: "type_value", op: "create", changes: createChanges(v, FIELDS.type_value), refs: { attribute }, ...src },
      null,
    );
    valueRefs.set(v.value, { address: created });
    ctx.ownership.created("type_values", created, v.value);
  } else {
    valueRefs.set(v.value, { id: vm.remote.id });
    ctx.own("type_values", vm.remote.id, v.value);
    const changes = updateChanges(v, vm.remote, FIELDS.type_value);
    if (changes.length) {
      ctx.add(
        {
          address: address(),
          kind: "attributes",
          type: "type_value",
          op: vm.renamedFrom !== undefined ? "rename" : "update",
          changes,
          refs: { attribute, self: { id: vm.remote.id } },
          ...(vm.renamedFrom !== undefined ? { previous: { address: withLastKey(address(), vm.renamedFrom), via: "previous_values" as const } } : {}),
          ...src,
        },
        vm.remote,
      );
    }
  }
}

/** A value's text per language version the tenant has an id for. */
function planTypeValueVersions(
  ctx: PlanContext,
  attributeName: string,
  vm: Matched<TypeValue, RemoteTypeValue>,
  attribute: Ref,
  valueRefs: Map<string, Ref>,
): void {
  const v = vm.desired;
  const src = v.source ? { source: v.source } : {};
  for (const [version, text] of sortedEntries(v.versions)) {
    const versionId = ctx.versionId(version);
    if (versionId === undefined) continue;
    const have = vm.remote?.versions?.[version];
    if (have !== undefined && sameValue(text, have, "text")) continue;
    ctx.add(
      {
        address: addr.typeValueVersion(attributeName, v.value, version),
        kind: "attributes",
        type: "type_value_version",
        op: have === undefined ? "create" : "update",
        changes: [{ field: "value", ...(have === undefined ? {} : { before: have }), after: text }],
        refs: { attribute, value: valueRefs.get(v.value)! },
        version_id: versionId,
        ...src,
      },
      have ?? null,
    );
  }
}
