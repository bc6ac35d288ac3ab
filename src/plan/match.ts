/**
 * The matching routine every named kind uses: a desired record matches the
 * remote record with the same identity, else the first of its previous
 * identities (previous_names, previous_values) that names an unclaimed remote
 * record. A previous identity that is still declared, or claimed twice, is an
 * error rather than a guess.
 */
import { PimctlError } from "../errors.js";
import type { SourceLocation } from "../model/catalogue.js";
import type { IdentityVerdict } from "./identity.js";

export interface Matched<D, R> {
  desired: D;
  remote?: R;
  /** The remote identity this record is renamed from (previous_names / previous_values, or the ledger). */
  renamedFrom?: string;
  /** Set when the ledger, not a manifest field, said which record this is (renamed by hand in the PIM). */
  renamedVia?: "ledger";
}

/**
 * Records renamed by hand in the PIM: a desired record that matched nothing by
 * name or previous names takes the undeclared remote record whose id the ledger
 * remembers under its name, or under one of its previous names (the name pimctl
 * applied, which the manifests renamed before the rename was applied), when `judge`
 * finds it is that record renamed (src/plan/identity.ts): another record under the
 * id is left alone. A name the ledger holds for two ids is ambiguous and matches neither.
 */
export function matchByLedger<D extends { name: string; previous_names?: readonly string[] }, R extends { id: number; name: string }>(
  matched: { pairs: Matched<D, R>[]; leftover: R[] },
  names: Readonly<Record<string, string>> | undefined,
  judge: (r: R) => IdentityVerdict,
): { pairs: Matched<D, R>[]; leftover: R[] } {
  if (!names || !matched.leftover.length) return matched;
  const idOf = new Map<string, number | null>();
  for (const [id, name] of Object.entries(names)) idOf.set(name, idOf.has(name) ? null : Number(id));
  const free = new Map(matched.leftover.map((r) => [r.id, r]));
  for (const p of matched.pairs) {
    if (p.remote) continue;
    const r = [p.desired.name, ...(p.desired.previous_names ?? [])]
      .map((n) => idOf.get(n))
      .map((id) => (id == null ? undefined : free.get(id)))
      .find((c) => c !== undefined && judge(c).is === "renamed");
    if (!r) continue;
    free.delete(r.id);
    p.remote = r;
    p.renamedFrom = r.name;
    p.renamedVia = "ledger";
  }
  return { pairs: matched.pairs, leftover: matched.leftover.filter((r) => free.has(r.id)) };
}

export function matchBy<D extends { source?: SourceLocation }, R>(
  errors: PimctlError[],
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
        errors.push(
          new PimctlError("invalid_value", `${label} "${keyOf(p.desired)}" lists "${prev}" in ${previousField}, but "${prev}" is still declared`, at),
        );
        break;
      }
      if (claimed.has(r)) {
        errors.push(
          new PimctlError("invalid_value", `${label} "${prev}" is claimed as a previous name by more than one record (again by "${keyOf(p.desired)}")`, at),
        );
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
