/**
 * A ledger as a flat map of entries, the unit every merge and every write time works on:
 * `web_ids/brand:12` (a record's web ids), `assets/brand:12`, `brand_attribute_sets/12`, and
 * `<table>/<id>` (what pimctl knows of one record: whether it owns it, the identity it applied
 * and its fingerprint, and the fingerprint of the manifest entry an apply left it as: `applied`).
 * `written` keeps, per entry, when it was last written or removed (a removed entry keeps its
 * time: a newer delete is not undone by an older copy that still has it).
 *
 * Two merges: `mergeLedger` (three-way, a compare-and-swap write that lost a race: what this
 * run changed since its read wins, the rest is the newer stored ledger's), and `mergeNewer`
 * (two ledgers with no common read, `state migrate` and `state push`: per entry the newer by
 * write time, and a list of the entries it cannot tell).
 */
import type { OwnedTable } from "../model/catalogue.js";
import type { Ledger } from "./ledger-schema.js";

/** Entry key -> its value (undefined: absent). */
export type Entries = Map<string, unknown>;

export function entriesOf(l: Ledger): Entries {
  const out: Entries = new Map();
  for (const [k, v] of Object.entries(l.web_ids)) out.set(`web_ids/${k}`, v);
  for (const [k, v] of Object.entries(l.assets)) out.set(`assets/${k}`, v);
  for (const [k, v] of Object.entries(l.brand_attribute_sets)) out.set(`brand_attribute_sets/${k}`, v);
  const record = (table: string, id: string): Record<string, unknown> => {
    const key = `${table}/${id}`;
    let r = out.get(key) as Record<string, unknown> | undefined;
    if (!r) out.set(key, (r = {}));
    return r;
  };
  for (const [table, ids] of Object.entries(l.owned)) for (const id of ids ?? []) record(table, String(id)).owned = true;
  for (const [table, byId] of Object.entries(l.names)) {
    for (const [id, name] of Object.entries(byId ?? {})) {
      const r = record(table, id);
      r.name = name;
      const fingerprint = l.fingerprints[table as OwnedTable]?.[id];
      if (fingerprint !== undefined) r.fingerprint = fingerprint;
    }
  }
  // What an apply left the record as (drift's origin, applied.ts): part of the record's entry, written and merged with it.
  for (const [table, byId] of Object.entries(l.applied)) for (const [id, print] of Object.entries(byId ?? {})) record(table, id).applied = print;
  return out;
}

/** Whether an entry key is a record's (`<table>/<id>`) rather than a write-only section's. */
const SECTIONS: ReadonlySet<string> = new Set(["web_ids", "assets", "brand_attribute_sets"]);

/** Set (or with undefined, remove) one entry. */
export function setEntry(l: Ledger, key: string, value: unknown): void {
  const slash = key.indexOf("/");
  const section = key.slice(0, slash);
  const rest = key.slice(slash + 1);
  if (SECTIONS.has(section)) {
    const map = l[section as "web_ids"] as Record<string, unknown>;
    if (value === undefined) delete map[rest];
    else map[rest] = structuredClone(value);
    return;
  }
  const table = section as OwnedTable;
  const v = (value ?? {}) as { owned?: boolean; name?: string; fingerprint?: string; applied?: string };
  const id = Number(rest);
  const ids = new Set(l.owned[table] ?? []);
  if (v.owned) ids.add(id);
  else ids.delete(id);
  l.owned[table] = [...ids].sort((a, b) => a - b);
  const names = (l.names[table] ??= {});
  const fingerprints = (l.fingerprints[table] ??= {});
  if (v.name === undefined) delete names[rest];
  else names[rest] = v.name;
  if (v.fingerprint === undefined) delete fingerprints[rest];
  else fingerprints[rest] = v.fingerprint;
  const applied = (l.applied[table] ??= {});
  if (v.applied === undefined) delete applied[rest];
  else applied[rest] = v.applied;
}

/** The write times as the file keeps them: time -> section or table -> the keys (ids as numbers) written then. */
export function groupWritten(written: Readonly<Record<string, string>>): Record<string, Record<string, Array<string | number>>> {
  const out: Record<string, Record<string, Array<string | number>>> = {};
  for (const [key, at] of Object.entries(written)) {
    const slash = key.indexOf("/");
    const [section, rest] = [key.slice(0, slash), key.slice(slash + 1)];
    ((out[at] ??= {})[section] ??= []).push(section === "web_ids" || section === "assets" ? rest : Number(rest));
  }
  for (const bySection of Object.values(out))
    for (const keys of Object.values(bySection)) keys.sort((a, b) => (typeof a === "number" && typeof b === "number" ? a - b : String(a) < String(b) ? -1 : 1));
  return out;
}

/** The file's grouped write times, flat again (the later time where a key appears twice). */
export function flattenWritten(grouped: Readonly<Record<string, Readonly<Record<string, ReadonlyArray<string | number>>>>>): Record<string, string> {
  const out: Record<string, string> = {};
  for (const [at, bySection] of Object.entries(grouped))
    for (const [section, keys] of Object.entries(bySection))
      for (const k of keys) {
        const key = `${section}/${k}`;
        if (!out[key] || out[key]! < at) out[key] = at;
      }
  return out;
}

const text = (v: unknown): string => (v === undefined ? "" : JSON.stringify(sorted(v)));
const sorted = (v: unknown): unknown =>
  Array.isArray(v)
    ? v.map(sorted)
    : v && typeof v === "object"
      ? Object.fromEntries(
          Object.keys(v)
            .sort()
            .map((k) => [k, sorted((v as Record<string, unknown>)[k])]),
        )
      : v;
export const sameEntry = (a: unknown, b: unknown): boolean => text(a) === text(b);

/** Every entry `mine` changed (added, changed, removed) since `base` is marked written at `at`. */
export function stampChanges(base: Ledger, mine: Ledger, at: string): number {
  const [b, m] = [entriesOf(base), entriesOf(mine)];
  let n = 0;
  for (const key of new Set([...b.keys(), ...m.keys()])) {
    if (sameEntry(b.get(key), m.get(key))) continue;
    mine.written[key] = at;
    n++;
  }
  return n;
}

/**
 * Three-way merge per entry: what this run changed since it read `base` wins (with its write
 * time), every other entry is taken from `theirs` (the newer stored ledger). So a concurrent
 * writer's entries survive, and so do ours: nothing is lost.
 */
export function mergeLedger(base: Ledger, mine: Ledger, theirs: Ledger): Ledger {
  const out = structuredClone(theirs);
  const [b, m] = [entriesOf(base), entriesOf(mine)];
  for (const key of new Set([...b.keys(), ...m.keys()])) {
    if (sameEntry(b.get(key), m.get(key))) continue;
    setEntry(out, key, m.get(key));
    if (mine.written[key] !== undefined) out.written[key] = mine.written[key];
  }
  return out;
}

/** An entry two ledgers hold differently where no write time says which is newer. */
export interface Unsure {
  key: string;
  stored: { value: unknown; written?: string };
  incoming: { value: unknown; written?: string };
}

/** How mergeNewer settles what write times cannot. */
export interface NewerOptions {
  /**
   * Two differing entries with the same write time: "incoming" takes the incoming one (a pushed
   * file edited by hand after it was pulled: no apply wrote the stored entry since), "unsure"
   * lists it (a migration: either copy may have been edited).
   */
  tie: "incoming" | "unsure";
  /** Where it cannot tell, take this side instead of listing the entry as unsure. */
  prefer?: "incoming" | "stored";
}

/**
 * `incoming` merged into `stored`, entry by entry, for two ledgers with no common read (a
 * migration between backends, a pushed file): equal entries stay; an entry only one side has
 * and the other never removed is kept (nothing either side holds is lost); of two that differ
 * (a value against another, or against a removal), the one written later wins. Where a side has
 * no write time (format 1, an entry never written since) the merge cannot tell: the entry is
 * listed in `unsure`, unless `prefer` says which side to take. `taken`: entries taken from
 * `incoming`; `kept`: differing entries where the stored one was newer.
 */
export function mergeNewer(stored: Ledger, incoming: Ledger, o: NewerOptions): { ledger: Ledger; unsure: Unsure[]; taken: number; kept: number } {
  const out = structuredClone(stored);
  const [s, i] = [entriesOf(stored), entriesOf(incoming)];
  const keys = [...new Set([...s.keys(), ...i.keys(), ...Object.keys(stored.written), ...Object.keys(incoming.written)])].sort();
  const unsure: Unsure[] = [];
  let taken = 0;
  let kept = 0;
  for (const key of keys) {
    const [sv, iv, st, it] = [s.get(key), i.get(key), stored.written[key], incoming.written[key]];
    if (sameEntry(sv, iv)) {
      if (it !== undefined && (st === undefined || it > st)) out.written[key] = it;
      continue;
    }
    let take: boolean;
    if (iv !== undefined && sv === undefined && st === undefined) take = true;
    else if (sv !== undefined && iv === undefined && it === undefined) take = false;
    else if (st !== undefined && it !== undefined && st !== it) take = it > st;
    else if (st !== undefined && st === it && o.tie === "incoming") take = true;
    else {
      unsure.push({ key, stored: { value: sv, ...(st ? { written: st } : {}) }, incoming: { value: iv, ...(it ? { written: it } : {}) } });
      if (!o.prefer) continue;
      take = o.prefer === "incoming";
    }
    if (!take) {
      if (sv !== undefined) kept++;
      continue;
    }
    setEntry(out, key, iv);
    if (it !== undefined) out.written[key] = it;
    taken++;
  }
  return { ledger: out, unsure, taken, kept };
}

/** One line per entry a merge cannot tell, for the refusal: both values and their write times. */
export function describeUnsure(u: Unsure, names: { stored: string; incoming: string }): string {
  const side = (v: { value: unknown; written?: string }) =>
    `${v.value === undefined ? "(removed)" : JSON.stringify(v.value)} (${v.written ? `written ${v.written}` : "no write time"})`;
  return `${u.key}: ${names.stored} ${side(u.stored)}, ${names.incoming} ${side(u.incoming)}`;
}
