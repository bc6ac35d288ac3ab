/**
 * The three shapes of action every kind repeats, built one way: upsert
 * (create, update or rename of a matched pair), leftover (a tenant record the
 * manifests do not declare: unmanaged, a delete, or what API v1 cannot do),
 * and assign (assignments by name that are not there yet).
 */
import type { Kind, OwnedTable, SourceLocation } from "../model/catalogue.js";
import type { FieldDef } from "../model/schema.js";
import { withLastKey } from "./address.js";
import type { PlanContext } from "./context.js";
import { createChanges, updateChanges, type FieldSpec } from "./fields.js";
import type { Matched } from "./match.js";
import type { Action, ActionFlags, FieldChange, Ref, ResourceType } from "./types.js";

/**
 * A tenant record as its action's fingerprint sees it: without the parts API v1 cannot write (`readOnly` in
 * model/schema.ts: brands' and categories' language versions). No plan writes them, so a hand edit there
 * makes no saved plan stale (src/apply/stale.ts); their own actions are `unsupported`, never carried out.
 */
export function writableView<R extends object>(remote: R, table: Readonly<Record<string, FieldDef>>): R {
  const readOnly = Object.keys(table).filter((k) => table[k]!.readOnly && k in remote);
  return readOnly.length ? { ...remote, ...Object.fromEntries(readOnly.map((k) => [k, undefined])) } : remote;
}

/** create / update / rename for a matched pair of a named kind. */
export function upsert<D extends { name: string; source?: SourceLocation }, R extends { id: number; name: string }>(
  ctx: PlanContext,
  m: Matched<D, R>,
  o: {
    kind: Kind;
    type: ResourceType;
    address: string;
    specs: readonly FieldSpec[];
    /** The table the record belongs to: a create is remembered (name and fingerprint) under the id it gets, a match under its own. */
    table: OwnedTable;
    desired?: object;
    remote?: object;
    refs?: Record<string, Ref>;
    /** The schema table whose read-only parts the action's fingerprint leaves out (writableView). */
    schema?: Readonly<Record<string, FieldDef>>;
  },
): Action | undefined {
  const desiredFields = o.desired ?? m.desired;
  const source = m.desired.source ? { source: m.desired.source } : {};
  if (!m.remote) {
    ctx.ownership.created(o.table, o.address, m.desired.name, desiredFields);
    return ctx.add(
      { address: o.address, kind: o.kind, type: o.type, op: "create", changes: createChanges(desiredFields, o.specs), refs: o.refs ?? {}, ...source },
      null,
    );
  }
  ctx.own(o.table, m.remote.id, m.desired.name, desiredFields);
  const changes = updateChanges(desiredFields, o.remote ?? m.remote, o.specs);
  if (changes.length === 0) return undefined;
  return ctx.add(
    {
      address: o.address,
      kind: o.kind,
      type: o.type,
      op: m.renamedFrom !== undefined ? "rename" : "update",
      changes,
      refs: { ...(o.refs ?? {}), self: { id: m.remote.id } },
      ...(m.renamedFrom !== undefined
        ? { previous: { address: withLastKey(o.address, m.renamedFrom), via: m.renamedVia ?? ("previous_names" as const) } }
        : {}),
      ...source,
    },
    o.schema ? writableView(m.remote, o.schema) : m.remote,
  );
}

/**
 * A remote record the manifests do not declare: unmanaged, or with pruning
 * on a delete (destructive when notes say what data hangs on it), or what
 * API v1 cannot do (`unsupported` gives the reason).
 */
export function leftover(
  ctx: PlanContext,
  o: {
    /** The table the record's id belongs to (ownership and identity are kept per table). */
    table: OwnedTable;
    /** The record's identity key now (its name; a category's path after this plan's renames): checked against the ledger's. */
    key: string;
    /** Its fields for the identity's fingerprint, references by today's names (default: `remote`). */
    view?: object;
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
  },
): void {
  if (!ctx.mayDelete(o.table, o.remote.id, { key: o.key, record: o.view ?? o.remote })) return ctx.noteUnmanaged(o.kind, o.address, o.remote.id);
  const notes = o.unsupported ? [o.unsupported] : (o.notes ?? []);
  const flags: ActionFlags = o.unsupported ? { unsupported: true } : (o.destructive ?? notes.length > 0) ? { destructive: true } : {};
  ctx.add(
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
export function assign(
  ctx: PlanContext,
  o: {
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
  },
): void {
  for (const name of [...new Set(o.wanted ?? [])].sort()) {
    if (o.present(name)) continue;
    const ref = o.resolve(name);
    if (!ref) continue;
    ctx.add(
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

/**
 * Language versions of brands and categories: readable, not writable in API v1 (`readOnly` in
 * model/schema.ts, which translations' isWritable and writableView above follow too).
 */
export function unsupportedVersion(
  ctx: PlanContext,
  o: {
    kind: "brands" | "categories";
    type: ResourceType;
    address: string;
    changes: FieldChange[];
    owner: Ref;
    version: string;
    source?: SourceLocation;
    before: unknown;
  },
): void {
  const versionId = ctx.versionId(o.version);
  if (versionId === undefined) return;
  const record = o.kind === "brands" ? "brand" : "category";
  ctx.add(
    {
      address: o.address,
      kind: o.kind,
      type: o.type,
      op: "unsupported",
      changes: o.changes,
      flags: { unsupported: true },
      notes: [`API v1 cannot write ${record} language versions; set "${o.version}" in the PIM's UI`],
      refs: { [record]: o.owner },
      version_id: versionId,
      ...(o.source ? { source: o.source } : {}),
    },
    o.before,
  );
}
