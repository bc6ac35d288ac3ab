/**
 * What a remembered id proves. The ledger remembers, per table and id, the identity key pimctl
 * last applied to the record (a name; a category's path key; a type value's value; a block's
 * slug; an asset's owner, "brand:12") and, for display groups, attributes, attribute sets,
 * brands and categories, a fingerprint of the fields it wrote besides the name. A tenant record
 * under a remembered id is the record pimctl applied only while it still matches:
 *
 * - the same key: the id and the name agree (`same`);
 * - another key, and every field the fingerprint covers as pimctl wrote it: renamed by hand in
 *   the PIM (`renamed`, proof "fingerprint"): renamed back, its sub-records planned under its id;
 * - another key, and pimctl wrote nothing but the name (an empty fingerprint): taken as renamed
 *   for a rename back, which only changes the name back and shows in the plan (proof "name
 *   only"), but never pruned through the memory: a delete needs more than an id;
 * - another key, and a field differs, or the ledger holds no fingerprint (recorded by an older
 *   pimctl): another record (`other`: a restore that reused ids, a record deleted and its id
 *   given to a new one). Never renamed, updated or pruned through that memory, and the plan says
 *   so in one line.
 *
 * `judgeIdentity` is the one decision; the planner (rename back, prune "owned", write-only
 * values) and export --merge (a record renamed in the tenant) call it. Pure: no I/O.
 */
import { createHash } from "node:crypto";
import type { OwnedTable } from "../model/catalogue.js";
import { wireTypesOfManifestFields } from "../model/schema.js";
import { canonicalJson } from "./canonical-json.js";
import { FIELDS, canonical, type FieldSpec } from "./fields.js";

/** What the ledger remembers of the records pimctl applied, by table and id (src/state/ledger.ts). */
export interface RememberedIdentities {
  /** Table -> id -> the identity key pimctl last applied. */
  names?: Partial<Record<string, Record<string, string>>>;
  /** Table -> id -> the fingerprint of what pimctl wrote ("field=hash,..."; "" when nothing but the name). */
  fingerprints?: Partial<Record<string, Record<string, string>>>;
}

export type IdentityVerdict =
  /** The ledger remembers nothing of this id. */
  | { is: "unknown" }
  /** The record still has the key pimctl applied. */
  | { is: "same" }
  /** Another key, and what pimctl wrote is still there: renamed in the tenant. */
  | { is: "renamed"; remembered: string; proof: "fingerprint" | "name only" }
  /** Another record under a remembered id. */
  | { is: "other"; remembered: string; why: string };

/** The fields each table's fingerprint may cover: those compared field by field. */
const FINGERPRINTED: Partial<Record<OwnedTable, readonly FieldSpec[]>> = {
  display_groups: FIELDS.display_group,
  attributes: FIELDS.attribute,
  attribute_sets: FIELDS.attribute_set,
  brands: FIELDS.brand,
  categories: FIELDS.category,
};

/**
 * Never in a fingerprint: the identity itself, a slug the tenant may derive again from a new
 * name, and what a plan reads only for the records whose manifests manage it (an attribute's
 * note and length: a second read per attribute).
 */
const NOT_FINGERPRINTED: ReadonlySet<string> = new Set(["name", "slug", "note", "length"]);

const DATES: ReadonlySet<string> = new Set(
  Object.entries(wireTypesOfManifestFields())
    .filter(([, w]) => w === "date")
    .map(([f]) => f),
);

/** A field's value as the fingerprint sees it: as comparison does, and a date as the instant it denotes. */
function valueOf(field: string, value: unknown, spec: FieldSpec): unknown {
  if (DATES.has(field) && typeof value === "string" && !Number.isNaN(Date.parse(value))) return new Date(Date.parse(value)).toISOString();
  return canonical(value, spec.kind);
}

const hash = (value: unknown) => createHash("sha256").update(canonicalJson(value)).digest("hex").slice(0, 8);

/**
 * The fingerprint of a record: `field=hash` for each field, sorted, comma-separated ("" when no
 * field). Without `fields`, the fields the record declares (a desired record: what pimctl
 * writes); with them, those fields of the record (a tenant record, checked against what was
 * recorded). References are names as the caller gives them (today's names, after this plan's
 * renames). Undefined for a table without fingerprints.
 */
export function fingerprintOf(table: OwnedTable, record: object, fields?: readonly string[]): string | undefined {
  const specs = FINGERPRINTED[table];
  if (!specs) return undefined;
  const r = record as Record<string, unknown>;
  const parts: string[] = [];
  for (const spec of specs) {
    if (NOT_FINGERPRINTED.has(spec.field)) continue;
    if (fields ? !fields.includes(spec.field) : r[spec.field] === undefined) continue;
    parts.push(`${spec.field}=${hash(valueOf(spec.field, r[spec.field], spec))}`);
  }
  return parts.sort().join(",");
}

/** The fields a recorded fingerprint covers, with their hashes. */
function recorded(fingerprint: string): Map<string, string> {
  return new Map(
    fingerprint
      .split(",")
      .filter(Boolean)
      .map((p) => {
        const at = p.indexOf("=");
        return [p.slice(0, at), p.slice(at + 1)] as const;
      }),
  );
}

/**
 * Whether the tenant's record `id` of `table`, known now by `key` (its name; a category's path
 * after this plan's renames), is the record the ledger remembers under that id. `record` gives
 * its fields (references by today's names) for the fingerprint.
 */
export function judgeIdentity(ledger: RememberedIdentities | undefined, table: OwnedTable, id: number, key: string, record: object): IdentityVerdict {
  const remembered = ledger?.names?.[table]?.[String(id)];
  if (remembered === undefined) return { is: "unknown" };
  if (remembered === key) return { is: "same" };
  const fingerprint = ledger?.fingerprints?.[table]?.[String(id)];
  if (fingerprint === undefined || !FINGERPRINTED[table]) {
    return { is: "other", remembered, why: "the ledger holds no fingerprint of what pimctl wrote to prove it is the same record" };
  }
  if (fingerprint === "") return { is: "renamed", remembered, proof: "name only" };
  const want = recorded(fingerprint);
  const have = recorded(fingerprintOf(table, record, [...want.keys()]) ?? "");
  const differ = [...want].filter(([field, h]) => have.get(field) !== h).map(([field]) => field);
  if (!differ.length) return { is: "renamed", remembered, proof: "fingerprint" };
  return { is: "other", remembered, why: `${differ.join(", ")} ${differ.length === 1 ? "differs" : "differ"} from what pimctl wrote` };
}

/** One line for the plan: a record under a remembered id that is not the record pimctl applied. */
export function otherRecordLine(table: OwnedTable, key: string, id: number, verdict: { remembered: string; why: string }): string {
  return (
    `${table.replace("_", " ")}: "${key}" (id ${id}) holds the id the ledger remembers for "${verdict.remembered}", but it is another record ` +
    `(${verdict.why}): not renamed, updated or pruned through that memory`
  );
}
