/**
 * The planner: a pure, synchronous function of (desired catalogue, tenant
 * state, ledger, prune policy) to a Plan. No I/O; reading happens around it.
 */
import { createHash } from "node:crypto";
import {
  TYPES_WITH_VALUES,
  compareText,
  pathKey,
  type Asset,
  type Attribute,
  type Catalogue,
  type Category,
  type Kind,
  type SourceLocation,
} from "../model/catalogue.js";
import type {
  RemoteAsset,
  RemoteAttribute,
  RemoteBrand,
  RemoteCatalogue,
  RemoteCategory,
} from "../model/remote.js";
import { PimctlError, closeNames } from "../errors.js";
import { addr, rootAddress } from "./address.js";
import { FIELDS, createChanges, sameValue, updateChanges } from "./fields.js";
import { orderActions } from "./order.js";
import { recount } from "./filter.js";
import {
  PLAN_FORMAT_VERSION,
  type Action,
  type ActionFlags,
  type FieldChange,
  type Op,
  type Plan,
  type Ref,
  type ResourceType,
  type UnmanagedRecord,
} from "./types.js";

/** What the applier remembers of write-only values (src/state/ledger.ts owns the file). */
export interface LedgerView {
  web_ids: Record<string, Record<string, string>>;
  assets: Record<string, Record<string, { image_url: string }>>;
  brand_attribute_sets: Record<string, string[]>;
}

export type PruneKind =
  | "display_groups"
  | "attributes"
  | "type_values"
  | "attribute_sets"
  | "blocks"
  | "brands"
  | "categories"
  | "assets";

export interface PlanInput {
  tenant: string;
  desired: Catalogue;
  remote: RemoteCatalogue;
  /** Undefined when the tenant has no ledger yet: write-only values are then unknown. */
  ledger?: LedgerView;
  prune?: Partial<Record<PruneKind, boolean>>;
}

export interface PlanOutcome {
  plan: Plan;
  /** Problems that make the plan unusable (unknown references, refused moves). */
  errors: PimctlError[];
}

interface Matched<D, R> {
  desired: D;
  remote?: R;
  /** The remote name this record is renamed from (previous_names). */
  renamedFrom?: string;
}

export function buildPlan(input: PlanInput): PlanOutcome {
  return new Planner(input).build();
}

/** Stable hash of a JSON-able value with sorted keys (for plan fingerprints). */
export function fingerprint(value: unknown): string {
  return createHash("sha256").update(stableJson(value)).digest("hex").slice(0, 16);
}

function stableJson(value: unknown): string {
  if (value === undefined) return "null";
  if (value === null || typeof value !== "object") return JSON.stringify(value);
  if (Array.isArray(value)) return `[${value.map(stableJson).join(",")}]`;
  const keys = Object.keys(value as object)
    .filter((k) => (value as Record<string, unknown>)[k] !== undefined && k !== "source")
    .sort();
  return `{${keys.map((k) => `${JSON.stringify(k)}:${stableJson((value as Record<string, unknown>)[k])}`).join(",")}}`;
}

class Planner {
  private readonly actions = new Map<string, Action>();
  private readonly errors: PimctlError[] = [];
  private readonly warnings: string[] = [];
  private readonly unmanaged: UnmanagedRecord[] = [];
  private readonly fingerprints: Record<string, string> = {};
  private readonly managed: Set<Kind>;
  private readonly channelIds = new Map<string, number>();

  // Name -> Ref for records the plan can point at (existing id, or the address of their create).
  private readonly displayGroupRefs = new Map<string, Ref>();
  private readonly attributeRefs = new Map<string, Ref>();
  private readonly setRefs = new Map<string, Ref>();
  private readonly typeValueRefs = new Map<string, Map<string, Ref>>();
  private readonly categoryRefs = new Map<string, Ref>();
  // Old name -> new name of records renamed in this plan, to read remote references in today's names.
  private readonly renamed = { display_groups: new Map<string, string>(), attributes: new Map<string, string>(), attribute_sets: new Map<string, string>() };

  constructor(private readonly input: PlanInput) {
    this.managed = new Set(input.desired.managed);
    for (const c of input.remote.channels) this.channelIds.set(c.channel_name, c.id);
  }

  build(): PlanOutcome {
    this.checkVersions();
    if (this.managed.has("display_groups")) this.planDisplayGroups();
    else for (const r of this.input.remote.display_groups) this.displayGroupRefs.set(r.name, { id: r.id });
    if (this.managed.has("attributes")) this.planAttributes();
    else this.indexRemoteAttributes();
    if (this.managed.has("attribute_sets")) this.planAttributeSets();
    else for (const r of this.input.remote.attribute_sets) this.setRefs.set(r.name, { id: r.id });
    if (this.managed.has("blocks")) this.planBlocks();
    if (this.managed.has("brands")) this.planBrands();
    if (this.managed.has("categories")) this.planCategories();
    this.linkFreedNames();

    const ordered = orderActions([...this.actions.values()], this.errors);
    const plan: Plan = {
      format_version: PLAN_FORMAT_VERSION,
      tenant: this.input.tenant,
      version_ids: sortedRecord(this.input.remote.version_ids),
      actions: ordered,
      unmanaged: this.unmanaged.sort((a, b) => compareText(a.address, b.address)),
      warnings: this.warnings,
      summary: recount(ordered, this.unmanaged.length),
      fingerprints: sortedRecord(this.fingerprints),
    };
    return { plan, errors: this.errors };
  }

  /**
   * Ordering that no single reference expresses: a create that takes a name a
   * rename frees waits for the rename; deleting an attribute or a set waits
   * for the actions that stop using it.
   */
  private linkFreedNames(): void {
    const scope = (a: Action): string =>
      a.type === "category" ? JSON.stringify(a.identity?.parent ?? a.changes.find((c) => c.field === "parent")?.after ?? null) : rootAddress(a.address);
    const nameOf = (c: FieldChange | undefined, side: "before" | "after"): string | undefined =>
      typeof c?.[side] === "string" ? (c[side] as string) : undefined;
    const freedBy = new Map<string, string>();
    for (const a of this.actions.values()) {
      if (a.op !== "rename" && a.op !== "move") continue;
      const old = nameOf(a.changes.find((c) => c.field === "name" || c.field === "value"), "before");
      if (old !== undefined) freedBy.set(`${a.type}\0${a.type === "type_value" ? rootAddress(a.address) : ""}\0${old}`, a.address);
    }
    const removedFromSets = new Map<string, string[]>();
    const setsDroppedBy = new Map<string, string[]>();
    for (const a of this.actions.values()) {
      if (a.type === "attribute_set_attribute" && a.op === "delete") push(removedFromSets, nameOf(a.changes[0], "before") ?? "", a.address);
      const sets = a.type === "category" ? a.changes.find((c) => c.field === "attribute_sets") : undefined;
      if (sets && Array.isArray(sets.before)) for (const s of sets.before) if (typeof s === "string") push(setsDroppedBy, s, a.address);
    }
    for (const a of this.actions.values()) {
      if (a.op === "create") {
        const name = nameOf(a.changes.find((c) => c.field === "name" || c.field === "value"), "after");
        const by = name === undefined ? undefined : freedBy.get(`${a.type}\0${a.type === "type_value" ? rootAddress(a.address) : ""}\0${name}`);
        if (by && (a.type !== "category" || scope(a) === scope(this.actions.get(by)!))) a.depends_on.push(by);
      }
      if (a.op === "delete" && a.type === "attribute") a.depends_on.push(...(removedFromSets.get(nameOf(a.changes[0], "before") ?? "") ?? []));
      if (a.op === "delete" && a.type === "attribute_set") a.depends_on.push(...(setsDroppedBy.get(nameOf(a.changes[0], "before") ?? "") ?? []));
    }
  }

  // ---------------------------------------------------------------- helpers

  private prune(kind: PruneKind): boolean {
    return this.input.prune?.[kind] === true;
  }

  private add(
    a: Omit<Action, "flags" | "depends_on" | "refs"> & {
      flags?: ActionFlags;
      depends_on?: string[];
      refs?: Record<string, Ref>;
    },
    before: unknown,
  ): Action {
    const action: Action = {
      address: a.address,
      kind: a.kind,
      type: a.type,
      op: a.op,
      changes: a.changes,
      depends_on: a.depends_on ?? [],
      flags: a.flags ?? {},
      refs: a.refs ?? {},
    };
    if (a.notes?.length) action.notes = a.notes;
    if (a.version_id !== undefined) action.version_id = a.version_id;
    if (a.identity) action.identity = a.identity;
    if (a.source) action.source = a.source;
    // Dependencies follow from references to records this plan creates.
    for (const ref of Object.values(action.refs)) {
      if ("address" in ref && !action.depends_on.includes(ref.address)) action.depends_on.push(ref.address);
    }
    if (this.actions.has(action.address)) {
      this.errors.push(new PimctlError("internal", `two plan actions share the address ${action.address}`));
      return action;
    }
    this.actions.set(action.address, action);
    this.fingerprints[action.address] = fingerprint(before ?? null);
    return action;
  }

  private unknownRef(kindLabel: string, name: string, candidates: Iterable<string>, source?: SourceLocation): void {
    const close = closeNames(name, candidates);
    this.errors.push(
      new PimctlError(
        "unknown_reference",
        `${kindLabel} "${name}" is not declared in the manifests and does not exist in the tenant`,
        {
          ...(source ? { location: source } : {}),
          details: close.length ? [`did you mean: ${close.map((c) => `"${c}"`).join(", ")}?`] : [],
        },
      ),
    );
  }

  private versionId(name: string): number | undefined {
    return this.input.remote.version_ids[name];
  }

  private checkVersions(): void {
    const known = Object.keys(this.input.remote.version_ids);
    for (const v of this.input.desired.versions) {
      if (this.versionId(v) === undefined) {
        const close = closeNames(v, known);
        this.errors.push(
          new PimctlError(
            "unknown_version",
            `language version "${v}" is not published by any channel of tenant "${this.input.tenant}" and not mapped in the config`,
            {
              details: [
                ...(close.length ? [`did you mean: ${close.map((c) => `"${c}"`).join(", ")}?`] : []),
                `known versions: ${known.join(", ") || "(none)"}; map it under versions: in pimctl.yaml`,
              ],
            },
          ),
        );
      }
    }
  }

  private channelRef(channel: string, owner: string, source?: SourceLocation): Ref | undefined {
    const id = this.channelIds.get(channel);
    if (id === undefined) {
      this.unknownRef(`channel (in ${owner})`, channel, this.channelIds.keys(), source);
      return undefined;
    }
    return { id };
  }

  /**
   * Match desired records to remote ones by name, then by previous_names.
   * Returns the pairs and the remote records nobody claimed.
   */
  private match<D extends { name: string; previous_names?: string[]; source?: SourceLocation }, R extends { name: string }>(
    label: string,
    desired: readonly D[],
    remote: readonly R[],
  ): { pairs: Matched<D, R>[]; leftover: R[] } {
    return this.matchBy(label, "previous_names", desired, remote, (d) => d.name, (r) => r.name, (d) => d.previous_names);
  }

  /** The matching itself, for any identity: a name, or a type value's value. */
  private matchBy<D extends { source?: SourceLocation }, R>(
    label: string,
    previousField: string,
    desired: readonly D[],
    remote: readonly R[],
    keyOf: (d: D) => string,
    remoteKeyOf: (r: R) => string,
    previousOf: (d: D) => readonly string[] | undefined,
  ): { pairs: Matched<D, R>[]; leftover: R[] } {
    const byKey = new Map(remote.map((r) => [remoteKeyOf(r), r]));
    const desiredKeys = new Set(desired.map(keyOf));
    const claimed = new Set<R>();
    const pairs: Matched<D, R>[] = desired.map((d) => {
      const r = byKey.get(keyOf(d));
      if (r) {
        claimed.add(r);
        return { desired: d, remote: r };
      }
      return { desired: d };
    });
    for (const p of pairs) {
      if (p.remote) continue;
      for (const prev of previousOf(p.desired) ?? []) {
        const r = byKey.get(prev);
        if (!r) continue;
        const at = p.desired.source ? { location: p.desired.source } : {};
        if (desiredKeys.has(prev)) {
          this.errors.push(new PimctlError("invalid_value", `${label} "${keyOf(p.desired)}" lists "${prev}" in ${previousField}, but "${prev}" is still declared`, at));
          break;
        }
        if (claimed.has(r)) {
          this.errors.push(new PimctlError("invalid_value", `${label} "${prev}" is claimed as a previous name by more than one record (again by "${keyOf(p.desired)}")`, at));
          break;
        }
        claimed.add(r);
        p.remote = r;
        p.renamedFrom = prev;
        break;
      }
    }
    return { pairs, leftover: remote.filter((r) => !claimed.has(r)) };
  }

  private current(kind: keyof Planner["renamed"], name: string): string;
  private current(kind: keyof Planner["renamed"], name: string | null | undefined): string | null | undefined;
  private current(kind: keyof Planner["renamed"], name: string | null | undefined): string | null | undefined {
    return name === null || name === undefined ? name : (this.renamed[kind].get(name) ?? name);
  }

  private recordRenames(kind: keyof Planner["renamed"], pairs: Array<Matched<{ name: string }, { name: string }>>): void {
    for (const p of pairs) if (p.renamedFrom !== undefined) this.renamed[kind].set(p.renamedFrom, p.desired.name);
  }

  /** create / update / rename for a matched pair of a named kind. */
  private upsert<D extends { name: string; source?: SourceLocation }, R extends { id: number; name: string }>(
    m: Matched<D, R>,
    o: { kind: Kind; type: ResourceType; address: string; specs: Parameters<typeof createChanges>[1]; desired?: object; remote?: object; refs?: Record<string, Ref> },
  ): Action | undefined {
    const desiredFields = o.desired ?? m.desired;
    if (!m.remote) {
      return this.add(
        {
          address: o.address,
          kind: o.kind,
          type: o.type,
          op: "create",
          changes: createChanges(desiredFields, o.specs),
          refs: o.refs ?? {},
          ...(m.desired.source ? { source: m.desired.source } : {}),
        },
        null,
      );
    }
    const changes = updateChanges(desiredFields, o.remote ?? m.remote, o.specs);
    if (changes.length === 0) return undefined;
    return this.add(
      {
        address: o.address,
        kind: o.kind,
        type: o.type,
        op: m.renamedFrom !== undefined ? "rename" : "update",
        changes,
        refs: { ...(o.refs ?? {}), self: { id: m.remote.id } },
        ...(m.renamedFrom !== undefined ? { notes: [`renamed from "${m.renamedFrom}" (previous_names)`] } : {}),
        ...(m.desired.source ? { source: m.desired.source } : {}),
      },
      m.remote,
    );
  }

  private noteUnmanaged(kind: Kind, address: string, id: number): void {
    this.unmanaged.push({ address, kind, id });
  }

  /**
   * A remote record the manifests do not declare: unmanaged, or with pruning
   * on a delete (destructive when notes say what data hangs on it), or what
   * API v1 cannot do (`unsupported` gives the reason).
   */
  private leftover(o: {
    prune: PruneKind;
    kind: Kind;
    type: ResourceType;
    address: string;
    remote: { id: number };
    change: FieldChange;
    notes?: string[];
    unsupported?: string;
    destructive?: boolean;
    refs?: Record<string, Ref>;
    depends_on?: string[];
  }): void {
    if (!this.prune(o.prune)) return this.noteUnmanaged(o.kind, o.address, o.remote.id);
    const notes = o.unsupported ? [o.unsupported] : (o.notes ?? []);
    const flags: ActionFlags = o.unsupported ? { unsupported: true } : (o.destructive ?? notes.length > 0) ? { destructive: true } : {};
    this.add(
      {
        address: o.address,
        kind: o.kind,
        type: o.type,
        op: o.unsupported ? "unsupported" : "delete",
        changes: [o.change],
        flags,
        notes,
        refs: { ...o.refs, self: { id: o.remote.id } },
        ...(o.depends_on ? { depends_on: o.depends_on } : {}),
      },
      o.remote,
    );
  }

  /**
   * Assignments by name (attributes of a set, attributes or sets of a brand):
   * one create per wanted name that is not there yet, its reference resolved.
   */
  private assign(o: {
    wanted: readonly string[] | undefined;
    present: (name: string) => boolean;
    resolve: (name: string) => Ref | undefined;
    address: (name: string) => string;
    kind: Kind;
    type: ResourceType;
    field: "attribute" | "attribute_set";
    refs: Record<string, Ref>;
    unknownBefore?: boolean;
    flags?: ActionFlags;
    notes?: string[];
    source?: SourceLocation;
  }): void {
    for (const name of [...new Set(o.wanted ?? [])].sort()) {
      if (o.present(name)) continue;
      const ref = o.resolve(name);
      if (!ref) continue;
      this.add(
        {
          address: o.address(name),
          kind: o.kind,
          type: o.type,
          op: "create",
          changes: [{ field: o.field, after: name, ...(o.unknownBefore ? { before_unknown: true } : {}) }],
          refs: { ...o.refs, [o.field]: ref },
          ...(o.flags ? { flags: o.flags } : {}),
          ...(o.notes?.length ? { notes: o.notes } : {}),
          ...(o.field === "attribute_set" && o.flags?.write_only ? { identity: { attribute_set: name } } : {}),
          ...(o.source ? { source: o.source } : {}),
        },
        null,
      );
    }
  }

  // ---------------------------------------------------------- display groups

  private planDisplayGroups(): void {
    const { pairs, leftover } = this.match("display group", this.input.desired.display_groups, this.input.remote.display_groups);
    this.recordRenames("display_groups", pairs);
    for (const m of pairs) {
      const address = addr.displayGroup(m.desired.name);
      const a = this.upsert(m, { kind: "display_groups", type: "display_group", address, specs: FIELDS.display_group });
      this.displayGroupRefs.set(m.desired.name, m.remote ? { id: m.remote.id } : { address: a!.address });
    }
    for (const r of leftover) {
      this.displayGroupRefs.set(r.name, { id: r.id });
      this.leftover({
        prune: "display_groups",
        kind: "display_groups",
        type: "display_group",
        address: addr.displayGroup(r.name),
        remote: r,
        change: { field: "name", before: r.name },
        unsupported: "API v1 cannot delete display groups; remove it in the PIM's UI",
      });
    }
  }

  // -------------------------------------------------------------- attributes

  private indexRemoteAttributes(): void {
    for (const r of this.input.remote.attributes) {
      this.attributeRefs.set(r.name, { id: r.id });
      this.typeValueRefs.set(r.name, new Map(r.values.map((v) => [v.value, { id: v.id }])));
    }
  }

  private displayGroupRef(name: string | null | undefined, source?: SourceLocation): Ref | null | undefined {
    if (name === undefined || name === null) return name;
    const ref = this.displayGroupRefs.get(name);
    if (!ref) {
      const candidates = new Set([...this.displayGroupRefs.keys(), ...this.input.remote.display_groups.map((d) => d.name)]);
      this.unknownRef("display group", name, candidates, source);
    }
    return ref;
  }

  private planAttributes(): void {
    const remoteAttrs = this.input.remote.attributes;
    const { pairs, leftover } = this.match("attribute", this.input.desired.attributes, remoteAttrs);
    this.recordRenames("attributes", pairs);
    // Refs first, so attributes referenced from anywhere resolve regardless of order.
    for (const m of pairs) {
      this.attributeRefs.set(m.desired.name, m.remote ? { id: m.remote.id } : { address: addr.attribute(m.desired.name) });
    }
    for (const r of leftover) this.attributeRefs.set(r.name, { id: r.id });

    for (const m of pairs) this.planAttribute(m);

    const assignedSets = new Map<string, string[]>();
    for (const s of this.input.remote.attribute_sets) for (const a of s.attributes) push(assignedSets, a, s.name);
    for (const r of leftover) {
      const address = addr.attribute(r.name);
      this.typeValueRefs.set(r.name, new Map(r.values.map((v) => [v.value, { id: v.id }])));
      const notes: string[] = [];
      if (r.values.length) notes.push(`deletes its ${r.values.length} type value(s)`);
      const sets = assignedSets.get(r.name) ?? [];
      if (sets.length) notes.push(`assigned to attribute set(s): ${sets.sort().join(", ")}`);
      this.leftover({ prune: "attributes", kind: "attributes", type: "attribute", address, remote: r, change: { field: "name", before: r.name }, notes });
    }
  }

  private planAttribute(m: Matched<Attribute, RemoteAttribute>): void {
    const d = m.desired;
    const address = addr.attribute(d.name);
    const refs: Record<string, Ref> = {};
    const dg = this.displayGroupRef(d.display_group, d.source);
    if (dg) refs.display_group = dg;
    const remoteView = m.remote ? { ...m.remote, display_group: this.current("display_groups", m.remote.display_group ?? null) } : undefined;
    this.upsert(m, {
      kind: "attributes",
      type: "attribute",
      address,
      specs: FIELDS.attribute,
      refs,
      ...(remoteView ? { remote: remoteView } : {}),
    });
    const selfRef = this.attributeRefs.get(d.name)!;

    // Language versions of the attribute itself.
    for (const [version, fields] of sortedEntries(d.versions)) {
      const versionId = this.versionId(version);
      if (versionId === undefined) continue;
      const have = m.remote?.versions?.[version];
      const changes = have ? updateChanges(fields, have, FIELDS.attribute_version) : createChanges(fields, FIELDS.attribute_version);
      if (!changes.length) continue;
      this.add(
        {
          address: addr.attributeVersion(d.name, version),
          kind: "attributes",
          type: "attribute_version",
          op: have ? "update" : "create",
          changes,
          refs: { attribute: selfRef },
          version_id: versionId,
          ...(d.source ? { source: d.source } : {}),
        },
        have ?? null,
      );
    }

    // Type values.
    const valueRefs = new Map<string, Ref>();
    this.typeValueRefs.set(d.name, valueRefs);
    const remoteValues = m.remote?.values ?? [];
    if (d.values === undefined) {
      for (const v of remoteValues) valueRefs.set(v.value, { id: v.id });
      return;
    }
    if (d.values.length && !TYPES_WITH_VALUES.includes(d.type)) return; // the loader reports this
    const { pairs, leftover } = this.matchBy("type value", "previous_values", d.values, remoteValues, (v) => v.value, (r) => r.value, (v) => v.previous_values);
    for (const vm of pairs) {
      const v = vm.desired;
      const vAddress = addr.typeValue(d.name, v.value);
      if (!vm.remote) {
        this.add(
          {
            address: vAddress,
            kind: "attributes",
            type: "type_value",
            op: "create",
            changes: createChanges(v, FIELDS.type_value),
            refs: { attribute: selfRef },
            ...(v.source ? { source: v.source } : {}),
          },
          null,
        );
        valueRefs.set(v.value, { address: vAddress });
      } else {
        valueRefs.set(v.value, { id: vm.remote.id });
        const changes = updateChanges(v, vm.remote, FIELDS.type_value);
        if (changes.length) {
          this.add(
            {
              address: vAddress,
              kind: "attributes",
              type: "type_value",
              op: vm.renamedFrom !== undefined ? "rename" : "update",
              changes,
              refs: { attribute: selfRef, self: { id: vm.remote.id } },
              ...(vm.renamedFrom !== undefined ? { notes: [`renamed from "${vm.renamedFrom}" (previous_values)`] } : {}),
              ...(v.source ? { source: v.source } : {}),
            },
            vm.remote,
          );
        }
      }
      for (const [version, text] of sortedEntries(v.versions)) {
        const versionId = this.versionId(version);
        if (versionId === undefined) continue;
        const have = vm.remote?.versions?.[version];
        if (have !== undefined && sameValue(text, have, "text")) continue;
        this.add(
          {
            address: addr.typeValueVersion(d.name, v.value, version),
            kind: "attributes",
            type: "type_value_version",
            op: have === undefined ? "create" : "update",
            changes: [{ field: "value", ...(have === undefined ? {} : { before: have }), after: text }],
            refs: { attribute: selfRef, value: valueRefs.get(v.value)! },
            version_id: versionId,
            ...(v.source ? { source: v.source } : {}),
          },
          have ?? null,
        );
      }
    }
    for (const r of leftover) {
      valueRefs.set(r.value, { id: r.id });
      this.leftover({
        prune: "type_values",
        kind: "attributes",
        type: "type_value",
        address: addr.typeValue(d.name, r.value),
        remote: r,
        change: { field: "value", before: r.value },
        notes: ["products using this value lose it"],
        refs: { attribute: selfRef },
      });
    }
  }

  private attributeRef(name: string, source?: SourceLocation): Ref | undefined {
    const ref = this.attributeRefs.get(name);
    if (!ref) this.unknownRef("attribute", name, this.attributeRefs.keys(), source);
    return ref;
  }

  private setRef(name: string, source?: SourceLocation): Ref | undefined {
    const ref = this.setRefs.get(name);
    if (!ref) this.unknownRef("attribute set", name, this.setRefs.keys(), source);
    return ref;
  }

  // ---------------------------------------------------------- attribute sets

  private planAttributeSets(): void {
    const { pairs, leftover } = this.match("attribute set", this.input.desired.attribute_sets, this.input.remote.attribute_sets);
    this.recordRenames("attribute_sets", pairs);
    for (const m of pairs) {
      this.setRefs.set(m.desired.name, m.remote ? { id: m.remote.id } : { address: addr.attributeSet(m.desired.name) });
    }
    for (const r of leftover) this.setRefs.set(r.name, { id: r.id });

    for (const m of pairs) {
      const d = m.desired;
      this.upsert(m, { kind: "attribute_sets", type: "attribute_set", address: addr.attributeSet(d.name), specs: FIELDS.attribute_set });
      if (d.attributes === undefined) continue;
      const setRef = this.setRefs.get(d.name)!;
      const have = new Set((m.remote?.attributes ?? []).map((a) => this.current("attributes", a)));
      const want = new Set(d.attributes);
      this.assign({
        wanted: d.attributes,
        present: (name) => have.has(name),
        resolve: (name) => this.attributeRef(name, d.source),
        address: (name) => addr.setAttribute(d.name, name),
        kind: "attribute_sets",
        type: "attribute_set_attribute",
        field: "attribute",
        refs: { attribute_set: setRef },
        ...(d.source ? { source: d.source } : {}),
      });
      for (const name of [...have].sort()) {
        if (want.has(name) || !m.remote) continue;
        const oldName = [...this.renamed.attributes].find(([, now]) => now === name)?.[0] ?? name;
        const assignment = m.remote.assignment_ids[name] ?? m.remote.assignment_ids[oldName];
        this.add(
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
              ...(this.attributeRefs.get(name) ? { attribute: this.attributeRefs.get(name)! } : {}),
            },
            ...(d.source ? { source: d.source } : {}),
          },
          { set: m.remote.id, attribute: name },
        );
      }
    }

    const usedBy = new Map<string, string[]>();
    for (const c of this.input.remote.categories) for (const s of c.attribute_sets ?? []) push(usedBy, s, pathKey(c.path));
    for (const r of leftover) {
      const address = addr.attributeSet(r.name);
      const notes: string[] = [];
      if (r.attributes.length) notes.push(`holds ${r.attributes.length} attribute assignment(s)`);
      const cats = usedBy.get(r.name) ?? [];
      if (cats.length) notes.push(`used by ${cats.length} categor${cats.length === 1 ? "y" : "ies"}`);
      this.leftover({ prune: "attribute_sets", kind: "attribute_sets", type: "attribute_set", address, remote: r, change: { field: "name", before: r.name }, notes });
    }
  }

  // ------------------------------------------------------------------ blocks

  private planBlocks(): void {
    const remoteBySlug = new Map(this.input.remote.blocks.map((b) => [b.slug, b]));
    const declared = new Set<string>();
    for (const d of this.input.desired.blocks) {
      declared.add(d.slug);
      const r = remoteBySlug.get(d.slug);
      const address = addr.block(d.slug);
      const src = d.source ? { source: d.source } : {};
      if (!r) {
        this.add({ address, kind: "blocks", type: "block", op: "create", changes: createChanges(d, FIELDS.block), ...src }, null);
        continue;
      }
      const changes = updateChanges(d, r, FIELDS.block);
      if (changes.length)
        this.add({ address, kind: "blocks", type: "block", op: "update", changes, refs: { self: { id: r.id } }, ...src }, r);
    }
    for (const r of this.input.remote.blocks) {
      if (declared.has(r.slug)) continue;
      this.leftover({
        prune: "blocks",
        kind: "blocks",
        type: "block",
        address: addr.block(r.slug),
        remote: r,
        change: { field: "slug", before: r.slug },
        unsupported: "API v1 cannot delete blocks (DELETE /blocks/<ID> answers 501)",
      });
    }
  }

  // ------------------------------------------------------------------ brands

  private planBrands(): void {
    const { pairs, leftover } = this.match("brand", this.input.desired.brands, this.input.remote.brands);
    for (const m of pairs) {
      const d = m.desired;
      const address = addr.brand(d.name);
      this.upsert(m, { kind: "brands", type: "brand", address, specs: FIELDS.brand });
      const brandRef: Ref = m.remote ? { id: m.remote.id } : { address };
      const src = d.source ? { source: d.source } : {};

      for (const [version, fields] of sortedEntries(d.versions)) {
        const have = m.remote?.versions?.[version] ?? {};
        const changes = m.remote ? updateChanges(fields, have, FIELDS.brand_version) : createChanges(fields, FIELDS.brand_version);
        if (changes.length) this.unsupportedVersion("brands", "brand_version", addr.brandVersion(d.name, version), changes, brandRef, version, src, have);
      }

      const ownerKey = m.remote ? `brand:${m.remote.id}` : undefined;
      this.planWebIds("brands", "brand_web_id", d.web_ids, ownerKey, brandRef, (ch) => addr.brandWebId(d.name, ch), `brand "${d.name}"`, d.source);
      this.planAssets("brands", "brand_asset", d.assets, m.remote?.assets, ownerKey, brandRef, (u) => addr.brandAsset(d.name, u), d.source);
      this.planBrandAttributes(d.name, d, m.remote, brandRef, src);

      const assignedRemote = new Set(Object.keys(m.remote?.attributes ?? {}).map((a) => this.current("attributes", a)));
      this.assign({
        wanted: d.assigned_attributes,
        present: (name) => assignedRemote.has(name),
        resolve: (name) => this.attributeRef(name, d.source),
        address: (name) => addr.brandAssignedAttribute(d.name, name),
        kind: "brands",
        type: "brand_assigned_attribute",
        field: "attribute",
        refs: { brand: brandRef },
        ...src,
      });
      const setsApplied = m.remote ? this.input.ledger?.brand_attribute_sets[String(m.remote.id)] : [];
      const unknownSets = m.remote !== undefined && !setsApplied;
      this.assign({
        wanted: d.attribute_sets,
        present: (name) => setsApplied?.includes(name) === true,
        resolve: (name) => this.setRef(name, d.source),
        address: (name) => addr.brandAttributeSet(d.name, name),
        kind: "brands",
        type: "brand_assigned_attribute_set",
        field: "attribute_set",
        refs: { brand: brandRef },
        unknownBefore: unknownSets,
        flags: { write_only: true },
        notes: unknownSets ? ["API v1 cannot read brand attribute-set assignments; no ledger entry records it"] : [],
        ...src,
      });
    }
    for (const r of leftover) {
      const address = addr.brand(r.name);
      const notes = r.product_count > 0 ? [`${r.product_count} product(s) carry this brand`] : [];
      this.leftover({ prune: "brands", kind: "brands", type: "brand", address, remote: r, change: { field: "name", before: r.name }, notes });
    }
  }

  private planBrandAttributes(
    brandName: string,
    d: Catalogue["brands"][number],
    remote: RemoteBrand | undefined,
    brandRef: Ref,
    src: { source?: SourceLocation },
  ): void {
    for (const [attrName, want] of sortedEntries(d.attributes)) {
      const attrRef = this.attributeRef(attrName, d.source);
      if (!attrRef) continue;
      const have = remote?.attributes?.[attrName] ?? remote?.attributes?.[[...this.renamed.attributes].find(([, now]) => now === attrName)?.[0] ?? ""];
      const perVersion: Array<[string | null, string]> = [[null, want.value], ...sortedEntries(want.versions)];
      for (const [version, value] of perVersion) {
        const versionId = version === null ? 0 : this.versionId(version);
        if (versionId === undefined) continue;
        const record = have?.values[version ?? ""];
        if (record && sameValue(record.value, value, "text")) continue;
        const refs: Record<string, Ref> = { brand: brandRef, attribute: attrRef };
        if (record) refs.self = { id: record.id };
        const tv = this.typeValueRefs.get(attrName)?.get(want.value);
        if (tv && "address" in tv) refs.type_value = tv;
        this.add(
          {
            address: addr.brandAttributeValue(brandName, attrName, version),
            kind: "brands",
            type: "brand_attribute_value",
            op: record ? "update" : "create",
            changes: [{ field: "value", ...(record ? { before: record.value } : {}), after: value }],
            refs,
            version_id: versionId,
            ...src,
          },
          record ?? null,
        );
      }
    }
  }

  /** Language versions of brands and categories: readable, not writable in API v1. */
  private unsupportedVersion(
    kind: Kind,
    type: ResourceType,
    address: string,
    changes: FieldChange[],
    owner: Ref,
    version: string,
    src: { source?: SourceLocation },
    before: unknown,
  ): void {
    const versionId = this.versionId(version);
    if (versionId === undefined) return;
    this.add(
      {
        address,
        kind,
        type,
        op: "unsupported",
        changes,
        flags: { unsupported: true },
        notes: [`API v1 cannot write ${kind === "brands" ? "brand" : "category"} language versions; set "${version}" in the PIM's UI`],
        refs: { [kind === "brands" ? "brand" : "category"]: owner },
        version_id: versionId,
        ...src,
      },
      before,
    );
  }

  private planWebIds(
    kind: Kind,
    type: ResourceType,
    want: Record<string, string> | undefined,
    ownerKey: string | undefined,
    ownerRef: Ref,
    address: (channel: string) => string,
    ownerLabel: string,
    source?: SourceLocation,
  ): void {
    const known = ownerKey ? this.input.ledger?.web_ids[ownerKey] : {};
    for (const [channel, webId] of sortedEntries(want)) {
      const channelRef = this.channelRef(channel, ownerLabel, source);
      if (!channelRef) continue;
      const before = known?.[channel];
      if (before === webId) continue;
      const unknown = known === undefined || (ownerKey !== undefined && before === undefined && this.input.ledger === undefined);
      this.add(
        {
          address: address(channel),
          kind,
          type,
          op: ownerKey && (before !== undefined || unknown) ? "update" : "create",
          changes: [{ field: "web_id", ...(before !== undefined ? { before } : {}), ...(unknown ? { before_unknown: true } : {}), after: webId }],
          flags: { write_only: true },
          ...(unknown ? { notes: ["API v1 cannot read web ids back and the ledger has no entry: it will be (re)written"] } : {}),
          refs: { owner: ownerRef, channel: channelRef },
          identity: { channel },
          ...(source ? { source } : {}),
        },
        before ?? null,
      );
    }
  }

  private planAssets(
    kind: Kind,
    type: ResourceType,
    want: Asset[] | undefined,
    remote: RemoteAsset[] | undefined,
    ownerKey: string | undefined,
    ownerRef: Ref,
    address: (imageUrl: string) => string,
    source?: SourceLocation,
  ): void {
    if (want === undefined) return;
    const remoteAssets = remote ?? [];
    const ledger = ownerKey ? (this.input.ledger?.assets[ownerKey] ?? {}) : {};
    const byId = new Map(remoteAssets.map((a) => [String(a.id), a]));
    const claimed = new Set<RemoteAsset>();
    const matched = new Map<Asset, { remote: RemoteAsset; unknownUrl: boolean }>();
    // 1. The ledger knows which image_url each remote asset came from.
    for (const [assetId, entry] of Object.entries(ledger)) {
      const r = byId.get(assetId);
      const d = want.find((w) => w.image_url === entry.image_url && !matched.has(w));
      if (r && d) {
        matched.set(d, { remote: r, unknownUrl: false });
        claimed.add(r);
      }
    }
    // 2. A tenant that stores image_url as uri lets us match directly.
    for (const d of want) {
      if (matched.has(d)) continue;
      const r = remoteAssets.find((a) => !claimed.has(a) && a.uri === d.image_url);
      if (r) {
        matched.set(d, { remote: r, unknownUrl: false });
        claimed.add(r);
      }
    }
    // 3. Without a record, adopt an unclaimed asset with the same alt text rather than duplicate it.
    for (const d of want) {
      if (matched.has(d)) continue;
      const r = remoteAssets.find((a) => !claimed.has(a) && (a.alttext ?? "") === (d.alttext ?? "") && !(String(a.id) in ledger));
      if (r) {
        matched.set(d, { remote: r, unknownUrl: true });
        claimed.add(r);
      }
    }
    for (const d of [...want].sort((a, b) => compareText(a.image_url, b.image_url))) {
      const m = matched.get(d);
      const src = source ? { source } : {};
      if (!m) {
        this.add(
          {
            address: address(d.image_url),
            kind,
            type,
            op: "create",
            changes: [{ field: "image_url", after: d.image_url }, ...createChanges(d, FIELDS.asset)],
            flags: { write_only: true },
            refs: { owner: ownerRef },
            ...src,
          },
          null,
        );
        continue;
      }
      const changes = updateChanges(d, m.remote, FIELDS.asset);
      if (m.unknownUrl) changes.unshift({ field: "image_url", before_unknown: true, after: d.image_url });
      if (!changes.length) continue;
      this.add(
        {
          address: address(d.image_url),
          kind,
          type,
          op: "update",
          changes,
          flags: { write_only: true },
          ...(m.unknownUrl ? { notes: [`adopts asset ${m.remote.id} (same alt text); its image_url cannot be read back`] } : {}),
          refs: { owner: ownerRef, self: { id: m.remote.id } },
          identity: { image_url: d.image_url },
          ...src,
        },
        m.remote,
      );
    }
    for (const r of remoteAssets) {
      if (claimed.has(r)) continue;
      this.leftover({
        prune: "assets",
        kind,
        type,
        address: address(ledger[String(r.id)]?.image_url ?? r.uri),
        remote: r,
        change: { field: "uri", before: r.uri },
        refs: { owner: ownerRef },
      });
    }
  }

  // -------------------------------------------------------------- categories

  private planCategories(): void {
    const remote = this.input.remote.categories;
    const byId = new Map(remote.map((c) => [c.id, c]));
    const children = new Map<number | null, Map<string, RemoteCategory>>();
    for (const c of remote) {
      let m = children.get(c.parent_id);
      if (!m) children.set(c.parent_id, (m = new Map()));
      m.set(c.name, c);
    }
    const byPath = new Map(remote.map((c) => [pathKey(c.path), c]));
    const claimed = new Set<RemoteCategory>();
    const matchedRemote = new Map<string, RemoteCategory>(); // desired path key -> remote

    const desired = this.input.desired.categories; // pre-order: parents first
    const desiredKeys = new Set(desired.map((c) => pathKey(c.path)));
    for (const d of desired) {
      const key = pathKey(d.path);
      const parentKey = d.path.length > 1 ? pathKey(d.path.slice(0, -1)) : null;
      const parentRemote = parentKey === null ? null : matchedRemote.get(parentKey);
      let r: RemoteCategory | undefined;
      let via: string | undefined;
      // 1. Same name under the matched parent (follows renames of ancestors).
      if (parentRemote !== undefined) {
        const sib = children.get(parentRemote === null ? null : parentRemote.id);
        const same = sib?.get(d.name);
        if (same && !claimed.has(same)) r = same;
        // 2. previous_names within the same parent.
        if (!r) {
          for (const prev of d.previous_names ?? []) {
            const c = sib?.get(prev);
            if (c && !claimed.has(c) && !desiredKeys.has(pathKey(c.path))) {
              r = c;
              via = `renamed from "${prev}" (previous_names)`;
              break;
            }
          }
        }
      }
      // 3. previous_paths anywhere in the tree (a move).
      if (!r) {
        for (const prev of d.previous_paths ?? []) {
          const c = byPath.get(pathKey(prev));
          if (c && !claimed.has(c) && !desiredKeys.has(pathKey(c.path))) {
            r = c;
            via = `moved from "${pathKey(prev)}" (previous_paths)`;
            break;
          }
        }
      }
      if (r) {
        claimed.add(r);
        matchedRemote.set(key, r);
      }
      this.planCategory(d, r, via, parentKey, parentRemote, byId);
    }

    // Deletes: children before parents (reverse pre-order of the remote tree).
    const leftovers = remote.filter((c) => !claimed.has(c)).sort((a, b) => b.path.length - a.path.length || compareText(pathKey(a.path), pathKey(b.path)));
    for (const r of leftovers) {
      const address = addr.category(r.path);
      if (!this.prune("categories")) {
        this.noteUnmanaged("categories", address, r.id);
        continue;
      }
      const depends = [...(children.get(r.id)?.values() ?? [])].filter((c) => !claimed.has(c)).map((c) => addr.category(c.path));
      // Children that stay must move out first.
      for (const kept of [...(children.get(r.id)?.values() ?? [])].filter((c) => claimed.has(c))) {
        const a = [...this.actions.values()].find((x) => x.type === "category" && x.refs.self && "id" in x.refs.self && x.refs.self.id === kept.id);
        if (a) depends.push(a.address);
        else this.errors.push(new PimctlError("plan_refused", `category "${pathKey(kept.path)}" is declared, but its parent "${pathKey(r.path)}" would be deleted`));
      }
      const notes = r.child_count > 0 ? [`has ${r.child_count} child categor${r.child_count === 1 ? "y" : "ies"}`] : [];
      this.leftover({ prune: "categories", kind: "categories", type: "category", address, remote: r, change: { field: "name", before: r.name }, notes, depends_on: depends });
    }
  }

  private planCategory(
    d: Category,
    r: RemoteCategory | undefined,
    via: string | undefined,
    parentKey: string | null,
    parentRemote: RemoteCategory | null | undefined,
    byId: Map<number, RemoteCategory>,
  ): void {
    const key = pathKey(d.path);
    const address = addr.category(d.path);
    const src = d.source ? { source: d.source } : {};
    const refs: Record<string, Ref> = {};
    if (parentKey !== null) {
      const p = this.categoryRefs.get(parentKey);
      if (p) refs.parent = p;
    }
    for (const s of d.attribute_sets ?? []) {
      const ref = this.setRef(s, d.source);
      if (ref) refs[`attribute_set:${s}`] = ref;
    }
    if (!r) {
      this.categoryRefs.set(key, { address });
      this.add(
        {
          address,
          kind: "categories",
          type: "category",
          op: "create",
          changes: [{ field: "parent", after: parentKey }, ...createChanges(d, FIELDS.category)],
          refs,
          identity: { parent: parentKey },
          ...src,
        },
        null,
      );
    } else {
      this.categoryRefs.set(key, { id: r.id });
      const changes = updateChanges(d, { ...r, attribute_sets: r.attribute_sets?.map((s) => this.current("attribute_sets", s)) }, FIELDS.category);
      const newParentId = parentRemote === undefined ? undefined : parentRemote === null ? null : parentRemote.id;
      const moved = newParentId === undefined || newParentId !== r.parent_id;
      if (moved) {
        // Moving under one of its own descendants would make a cycle: refuse now, not halfway through apply.
        if (newParentId !== undefined && newParentId !== null && isDescendant(byId, newParentId, r.id)) {
          this.errors.push(
            new PimctlError("cycle", `category "${key}" cannot move into its own subtree ("${pathKey(r.path)}" is an ancestor of its new parent)`, d.source ? { location: d.source } : {}),
          );
        }
        changes.unshift({ field: "parent", before: r.path.length > 1 ? pathKey(r.path.slice(0, -1)) : null, after: parentKey });
      }
      if (changes.length) {
        const op: Op = moved ? "move" : via ? "rename" : "update";
        this.add(
          {
            address,
            kind: "categories",
            type: "category",
            op,
            changes,
            refs: { ...refs, self: { id: r.id } },
            ...(via ? { notes: [via] } : {}),
            ...(moved ? { identity: { parent: parentKey } } : {}),
            ...src,
          },
          r,
        );
      }
    }
    const catRef = this.categoryRefs.get(key)!;
    for (const [version, fields] of sortedEntries(d.versions)) {
      const have = r?.versions?.[version] ?? {};
      const changes = r ? updateChanges(fields, have, FIELDS.category_version) : createChanges(fields, FIELDS.category_version);
      if (changes.length) this.unsupportedVersion("categories", "category_version", addr.categoryVersion(d.path, version), changes, catRef, version, src, have);
    }
    const ownerKey = r ? `category:${r.id}` : undefined;
    this.planWebIds("categories", "category_web_id", d.web_ids, ownerKey, catRef, (ch) => addr.categoryWebId(d.path, ch), `category "${key}"`, d.source);
    this.planAssets("categories", "category_asset", d.assets, r?.assets, ownerKey, catRef, (u) => addr.categoryAsset(d.path, u), d.source);
  }
}

// ------------------------------------------------------------------ helpers

function isDescendant(byId: Map<number, RemoteCategory>, candidate: number, ancestor: number): boolean {
  let cur: RemoteCategory | undefined = byId.get(candidate);
  const seen = new Set<number>();
  while (cur && !seen.has(cur.id)) {
    if (cur.id === ancestor) return true;
    seen.add(cur.id);
    cur = cur.parent_id === null ? undefined : byId.get(cur.parent_id);
  }
  return false;
}

function push<K, V>(map: Map<K, V[]>, key: K, value: V): void {
  const list = map.get(key);
  if (list) list.push(value);
  else map.set(key, [value]);
}

function sortedEntries<V>(record: Record<string, V> | undefined): Array<[string, V]> {
  return record ? Object.entries(record).sort(([a], [b]) => compareText(a, b)) : [];
}

function sortedRecord<V>(record: Record<string, V>): Record<string, V> {
  return Object.fromEntries(sortedEntries(record));
}



