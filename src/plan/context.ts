/**
 * What every kind's planner receives and fills: the inputs (desired catalogue,
 * tenant state, ledger, prune policy), the name -> reference tables kinds
 * share (an attribute set refers to attributes, a category to sets), the
 * matching routine, and the growing list of actions with their fingerprints.
 * Kind planners add actions here; edges.ts and order.ts finish the plan.
 */
import type { Catalogue, Kind, OwnedTable, SourceLocation } from "../model/catalogue.js";
import type { RemoteCatalogue } from "../model/remote.js";
import { PimctlError, closeNames } from "../errors.js";
import { fingerprint } from "./fingerprint.js";
import { matchBy, matchByLedger, type Matched } from "./match.js";
import { Ownership, type OwnershipLedger } from "./ownership.js";
import type { PruneKind } from "../model/catalogue.js";
import type { PrunePolicy } from "../model/policy.js";
import type { Action, ActionFlags, Ref, UnmanagedRecord } from "./types.js";

/**
 * What the applier remembers (src/state/ledger.ts owns the file): write-only values (write-only.ts
 * reads them), and per table the ids pimctl owns and the identity it applied to each (ownership.ts,
 * identity.ts: a remembered id is used only while the record behind it still matches).
 */
export interface LedgerView extends OwnershipLedger {
  web_ids: Record<string, Record<string, string>>;
  assets: Record<string, Record<string, { image_url: string }>>;
  brand_attribute_sets: Record<string, string[]>;
}

export interface PlanInput {
  tenant: string;
  desired: Catalogue;
  remote: RemoteCatalogue;
  /** Undefined when the tenant has no ledger yet: write-only values are then unknown. */
  ledger?: LedgerView;
  prune?: PrunePolicy;
}

/** The kinds whose renames other kinds must see (they refer to them by name). */
export type RenamedKind = "display_groups" | "attributes" | "attribute_sets";

/** An action as a kind planner writes it: flags, edges and refs may be left out. */
export type NewAction = Omit<Action, "flags" | "depends_on" | "refs"> & {
  flags?: ActionFlags;
  depends_on?: string[];
  refs?: Record<string, Ref>;
};

export class PlanContext {
  readonly actions = new Map<string, Action>();
  readonly errors: PimctlError[] = [];
  readonly warnings: string[] = [];
  readonly unmanaged: UnmanagedRecord[] = [];
  readonly fingerprints: Record<string, string> = {};
  readonly managed: ReadonlySet<Kind>;

  /** Name -> Ref for records the plan can point at (an existing id, or the address of their create). */
  readonly refs = {
    display_groups: new Map<string, Ref>(),
    attributes: new Map<string, Ref>(),
    attribute_sets: new Map<string, Ref>(),
    /** Attribute name -> value -> Ref. */
    type_values: new Map<string, Map<string, Ref>>(),
    /** Category path key -> Ref. */
    categories: new Map<string, Ref>(),
  };
  /** Old name -> new name of records renamed in this plan, to read remote references in today's names. */
  private readonly renamed: Record<RenamedKind, Map<string, string>> = {
    display_groups: new Map(),
    attributes: new Map(),
    attribute_sets: new Map(),
  };
  private readonly channelIds = new Map<string, number>();
  /** Owned ids, identities, and what the plan says about ids it cannot prove (ownership.ts). */
  readonly ownership: Ownership;
  /** Ledger keys ("brand:12") of records under a remembered id that are other records: their write-only entries are not theirs. */
  private readonly distrusted = new Set<string>();

  constructor(readonly input: PlanInput) {
    this.managed = new Set(input.desired.managed);
    for (const c of input.remote.channels) this.channelIds.set(c.channel_name, c.id);
    this.ownership = new Ownership(input.ledger, input.prune);
  }

  get desired(): Catalogue {
    return this.input.desired;
  }

  get remote(): RemoteCatalogue {
    return this.input.remote;
  }

  get ledger(): LedgerView | undefined {
    return this.input.ledger;
  }

  prune(kind: PruneKind): boolean {
    const p = this.input.prune?.[kind];
    return p === true || p === "owned";
  }

  /**
   * Whether pruning may delete this undeclared record: always with prune true; with "owned" only a
   * record pimctl owns whose identity (`key`, and `record` for the fingerprint) still checks out.
   */
  mayDelete(table: OwnedTable, id: number, identity: { key: string; record: object }): boolean {
    return this.ownership.mayDelete(table, id, identity);
  }

  /** A declared record matched in the tenant: applying this plan adopts it and remembers `key` (and what the manifests write) under its id. */
  own(table: OwnedTable, id: number, key?: string, declared?: object): void {
    this.ownership.own(table, id, key, declared);
  }

  /**
   * The ledger's write-only entries of a record ("brand:12"), unless the record under that id is
   * another record than the one pimctl wrote them for: then they are unknown, written again.
   */
  trustsLedgerOf(ownerKey: string | undefined): boolean {
    return ownerKey === undefined || !this.distrusted.has(ownerKey);
  }

  /** A matched tenant record whose id the ledger remembers for another record: its write-only entries are not trusted. */
  checkIdentity(table: OwnedTable, ownerKey: string, id: number, key: string, record: object): void {
    if (this.ownership.judge(table, id, key, record).is === "other") this.distrusted.add(ownerKey);
  }

  /** Add an action; references to records this plan creates become dependencies. */
  add(a: NewAction, before: unknown): Action {
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
    if (a.previous) action.previous = a.previous;
    if (a.notes?.length) action.notes = a.notes;
    if (a.version_id !== undefined) action.version_id = a.version_id;
    if (a.identity) action.identity = a.identity;
    if (a.source) action.source = a.source;
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

  noteUnmanaged(kind: Kind, address: string, id: number): void {
    this.unmanaged.push({ address, kind, id });
  }

  unknownRef(kindLabel: string, name: string, candidates: Iterable<string>, source?: SourceLocation): void {
    const close = closeNames(name, candidates);
    this.errors.push(
      new PimctlError("unknown_reference", `${kindLabel} "${name}" is not declared in the manifests and does not exist in the tenant`, {
        ...(source ? { location: source } : {}),
        details: close.length ? [`did you mean: ${close.map((c) => `"${c}"`).join(", ")}?`] : [],
      }),
    );
  }

  /** A reference by name to a record of a kind other kinds point at; an error when there is none. */
  ref(kind: "attributes" | "attribute_sets", name: string, source?: SourceLocation): Ref | undefined {
    const ref = this.refs[kind].get(name);
    if (!ref) this.unknownRef(kind === "attributes" ? "attribute" : "attribute set", name, this.refs[kind].keys(), source);
    return ref;
  }

  versionId(name: string): number | undefined {
    return this.input.remote.version_ids[name];
  }

  /** Every language version the manifests name must have an id in this tenant. */
  checkVersions(): void {
    this.errors.push(...unknownVersions(this.input.desired, this.input.remote.channels, this.input.remote.version_ids, this.input.tenant));
  }

  channelRef(channel: string, owner: string, source?: SourceLocation): Ref | undefined {
    const id = this.channelIds.get(channel);
    if (id === undefined) {
      this.unknownRef(`channel (in ${owner})`, channel, this.channelIds.keys(), source);
      return undefined;
    }
    return { id };
  }

  /**
   * Match desired records to remote ones by name, then by previous_names, then
   * (with `table`) by the id the ledger remembers under the name, when that record's
   * identity checks out (identity.ts; `view` gives its fields by today's names): a
   * record renamed by hand in the PIM is renamed back, keeping its id.
   */
  match<D extends { name: string; previous_names?: string[]; source?: SourceLocation }, R extends { id: number; name: string }>(
    label: string,
    desired: readonly D[],
    remote: readonly R[],
    table?: OwnedTable,
    view: (r: R) => object = (r) => r,
  ): { pairs: Matched<D, R>[]; leftover: R[] } {
    const matched = matchBy(
      this.errors,
      label,
      "previous_names",
      desired,
      remote,
      (d) => d.name,
      (r) => r.name,
      (d) => d.previous_names,
    );
    if (!table) return matched;
    return matchByLedger(matched, this.input.ledger?.names?.[table], (r) =>
      this.ownership.heldByAnother(table, r.id, r.name) ? { is: "unknown" } : this.ownership.judge(table, r.id, r.name, view(r)),
    );
  }

  /** The name a remote reference has after this plan's renames. */
  current(kind: RenamedKind, name: string): string;
  current(kind: RenamedKind, name: string | null | undefined): string | null | undefined;
  current(kind: RenamedKind, name: string | null | undefined): string | null | undefined {
    return name === null || name === undefined ? name : (this.renamed[kind].get(name) ?? name);
  }

  /** The name a record had in the tenant before this plan renames it (itself when not renamed). */
  previous(kind: RenamedKind, name: string): string {
    return [...this.renamed[kind]].find(([, now]) => now === name)?.[0] ?? name;
  }

  recordRenames(kind: RenamedKind, pairs: ReadonlyArray<Matched<{ name: string }, { name: string }>>): void {
    for (const p of pairs) if (p.renamedFrom !== undefined) this.renamed[kind].set(p.renamedFrom, p.desired.name);
  }
}

/**
 * The language versions the manifests name that have no id in this tenant: one error each, at the
 * entry that first names it. The workflows run it on the channels alone, before the lists are read.
 */
export function unknownVersions(
  desired: Catalogue,
  channels: ReadonlyArray<{ version_id: number; version_name?: string | null }>,
  versionIds: Record<string, number>,
  tenant: string,
): PimctlError[] {
  // The names the channels publish (every one, not only those the manifests asked for) and those the config maps.
  const published = channels.filter((c) => c.version_id !== 0 && c.version_name).map((c) => c.version_name!);
  const known = [...new Set([...published, ...Object.keys(versionIds)])].sort();
  const errors: PimctlError[] = [];
  for (const v of desired.versions) {
    if (versionIds[v] !== undefined) continue;
    const close = closeNames(v, known);
    const at = firstUseOfVersion(desired, v);
    errors.push(
      new PimctlError("unknown_version", `language version "${v}" is not published by any channel of tenant "${tenant}" and not mapped in the config`, {
        ...(at ? { location: at } : {}),
        details: [
          ...(close.length ? [`did you mean: ${close.map((c) => `"${c}"`).join(", ")}?`] : []),
          `known versions: ${known.join(", ") || "(none)"}; map it under versions: in pimctl.yaml`,
        ],
      }),
    );
  }
  return errors;
}

/** The first entry that names a language version (its own versions, its values', a brand's attribute values'): where an unknown name is reported. */
function firstUseOfVersion(c: Catalogue, version: string): SourceLocation | undefined {
  const has = (versions: object | undefined) => versions !== undefined && Object.hasOwn(versions, version);
  for (const a of c.attributes) {
    if (has(a.versions)) return a.source;
    const value = a.values?.find((x) => has(x.versions));
    if (value) return value.source ?? a.source;
  }
  for (const b of c.brands) if (has(b.versions) || Object.values(b.attributes ?? {}).some((x) => has(x.versions))) return b.source;
  for (const cat of c.categories) if (has(cat.versions)) return cat.source;
  return undefined;
}
