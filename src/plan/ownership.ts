/**
 * What a plan may do through the ledger's memory of ids: which records pimctl owns (prune
 * "owned" may delete only those, and only while their identity checks out: identity.ts),
 * which declared records it found or creates (apply records them, with their identity), and
 * the one line a plan says for each record under a remembered id that is not pimctl's any more.
 * Kept per table (where an id is unique): a brand asset and a category asset may share an id.
 */
import type { OwnedTable, PruneKind } from "../model/catalogue.js";
import { fingerprintOf, judgeIdentity, otherRecordLine, type IdentityVerdict, type RememberedIdentities } from "./identity.js";
import type { PrunePolicy } from "../model/policy.js";
import { plural } from "../plural.js";

/** What the ledger remembers that ownership reads (src/state/ledger.ts owns the file). */
export interface OwnershipLedger extends RememberedIdentities {
  /** Table -> ids pimctl created or adopted: all prune "owned" may delete. */
  owned?: Partial<Record<string, number[]>>;
}

/** What apply records of a record: the key it has once applied, and the fingerprint of what pimctl wrote. */
export interface AppliedIdentity {
  key: string;
  fingerprint?: string;
}

/** Per table, id -> the identity of a declared record found in the tenant. */
export type IdentitiesById = Partial<Record<OwnedTable, Record<string, AppliedIdentity>>>;
/** Per address of a create: its table and identity (apply learns the id). */
export type IdentitiesByAddress = Record<string, AppliedIdentity & { table: OwnedTable }>;

/** The prune kind (config `prune:`) a table's records are pruned under. */
export function pruneKindOf(table: OwnedTable): PruneKind {
  return table === "brand_assets" || table === "category_assets" ? "assets" : table;
}

export class Ownership {
  private readonly ownedSets = new Map<OwnedTable, Set<number>>();
  private readonly verdicts = new Map<string, IdentityVerdict>();
  private readonly deletable = new Map<string, boolean>();
  /** Table -> ids of declared records found in the tenant (adopted by apply). */
  readonly declared = new Map<OwnedTable, Set<number>>();
  /**
   * What apply records of each declared record found, and of each create: the key, and the record
   * the fingerprint is made of when apply asks (identitiesById, identitiesByAddress): a plan that is
   * not applied computes none (100,000 records a plan at scale).
   */
  private readonly byId = new Map<OwnedTable, Map<number, Pending>>();
  private readonly byAddress = new Map<string, Pending & { table: OwnedTable }>();
  /** One line per record under a remembered id that is another record. */
  private readonly lines = new Set<string>();
  /** Owned records not pruned for want of proof, per table and reason. */
  private readonly unproven = new Map<string, number>();

  constructor(
    private readonly ledger: OwnershipLedger | undefined,
    private readonly prune: PrunePolicy | undefined,
  ) {}

  /** Table -> identity key -> the ids the ledger remembers under it. */
  private readonly holders = new Map<OwnedTable, Map<string, number[]>>();

  /**
   * Whether the ledger remembers `key` for a record other than `id`: a tenant record now named
   * like another record pimctl applied (ids given again after a restore, names swapped by hand)
   * is never taken through the ledger's memory. A full plan would match that record by name to
   * the declared one; a targeted plan may not have that one in its scope, and must decide the same.
   */
  heldByAnother(table: OwnedTable, id: number, key: string): boolean {
    let byKey = this.holders.get(table);
    if (!byKey) {
      this.holders.set(table, (byKey = new Map()));
      for (const [rid, k] of Object.entries(this.ledger?.names?.[table] ?? {})) byKey.set(k, [...(byKey.get(k) ?? []), Number(rid)]);
    }
    return (byKey.get(key) ?? []).some((other) => other !== id);
  }

  /** The identity decision for one tenant record, made once per plan (src/plan/identity.ts). */
  judge(table: OwnedTable, id: number, key: string, record: object): IdentityVerdict {
    const at = `${table}:${id}`;
    let v = this.verdicts.get(at);
    if (!v) this.verdicts.set(at, (v = judgeIdentity(this.ledger, table, id, key, record)));
    if (v.is === "other") this.lines.add(otherRecordLine(table, key, id, v));
    return v;
  }

  /** Whether pruning may delete this undeclared record: always with prune true; with "owned" only what pimctl owns and can prove. */
  mayDelete(table: OwnedTable, id: number, identity: { key: string; record: object }): boolean {
    const at = `${table}:${id}`;
    let may = this.deletable.get(at);
    if (may === undefined) this.deletable.set(at, (may = this.decideDelete(table, id, identity)));
    return may;
  }

  private decideDelete(table: OwnedTable, id: number, identity: { key: string; record: object }): boolean {
    const p = this.prune?.[pruneKindOf(table)];
    if (p === true) return true;
    if (p !== "owned") return false;
    let ids = this.ownedSets.get(table);
    if (!ids) this.ownedSets.set(table, (ids = new Set(this.ledger?.owned?.[table] ?? [])));
    if (!ids.has(id)) return false;
    const v = this.judge(table, id, identity.key, identity.record);
    if (v.is === "same" || (v.is === "renamed" && v.proof === "fingerprint")) return true;
    if (v.is === "unknown") this.count(table, "the ledger does not remember what they were (recorded by an older pimctl)");
    else if (v.is === "renamed") this.count(table, "renamed in the tenant, and pimctl wrote nothing but the name to prove they are its records");
    return false;
  }

  private count(table: OwnedTable, why: string): void {
    const at = `${table}\u0000${why}`;
    this.unproven.set(at, (this.unproven.get(at) ?? 0) + 1);
  }

  /** A declared record matched in the tenant: applying the plan adopts it and records its identity. */
  own(table: OwnedTable, id: number, key?: string, declared?: object): void {
    let ids = this.declared.get(table);
    if (!ids) this.declared.set(table, (ids = new Set()));
    ids.add(id);
    if (key === undefined) return;
    let m = this.byId.get(table);
    if (!m) this.byId.set(table, (m = new Map()));
    m.set(id, { key, ...(declared ? { declared } : {}) });
  }

  /** A record this plan creates: apply records its identity under the id the tenant gives it. */
  created(table: OwnedTable, address: string, key: string, declared?: object): void {
    this.byAddress.set(address, { table, key, ...(declared ? { declared } : {}) });
  }

  /** The lines the plan says about identity, sorted. */
  warnings(): string[] {
    const counted = [...this.unproven].map(([at, n]) => {
      const [table, why] = at.split("\u0000") as [string, string];
      return `${table.replace("_", " ")}: ${plural(n, "record")} pimctl owned ${n === 1 ? "is" : "are"} not pruned: ${why}`;
    });
    return [...this.lines, ...counted].sort();
  }

  /** Table -> ids, sorted. */
  declaredIds(): Partial<Record<OwnedTable, number[]>> {
    return Object.fromEntries([...this.declared].map(([t, ids]) => [t, [...ids].sort((a, b) => a - b)]));
  }

  identitiesById(): IdentitiesById {
    return Object.fromEntries(
      [...this.byId].map(([t, m]) => [
        t,
        Object.fromEntries([...m].sort(([a], [b]) => a - b).map(([id, p]) => [String(id), withFingerprint(t, p.key, p.declared)])),
      ]),
    );
  }

  identitiesByAddress(): IdentitiesByAddress {
    return Object.fromEntries([...this.byAddress].map(([address, p]) => [address, { table: p.table, ...withFingerprint(p.table, p.key, p.declared) }]));
  }
}

/** An identity not yet fingerprinted: the key and the declared record. */
interface Pending {
  key: string;
  declared?: object;
}

function withFingerprint(table: OwnedTable, key: string, declared: object | undefined): AppliedIdentity {
  const fingerprint = declared ? fingerprintOf(table, declared) : undefined;
  return fingerprint === undefined ? { key } : { key, fingerprint };
}
