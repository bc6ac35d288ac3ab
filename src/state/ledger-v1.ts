/**
 * Ledger format 1, read and migrated to the current format (ledger-schema.ts) when a ledger
 * written by an older pimctl is read. Format 1 cannot tell what the current one must know,
 * and where it cannot, the migration forgets rather than guesses:
 *
 * - `owned` was kept per prune kind, and `owned.assets` held brand and category asset ids in
 *   one list although the service numbers them separately. An asset id the ledger's own
 *   `assets` section records under exactly one owner ("brand:12") goes to that owner's table
 *   (`brand_assets`, `category_assets`) with the owner as its identity; any other is forgotten.
 * - An owned id of another kind is kept only where `names` remembers what the record was (its
 *   name, a category's path); type values and blocks had no names: forgotten. A forgotten id is
 *   no longer pimctl's to prune; a record still declared is adopted again by the next apply.
 * - Names carry no fingerprint: a record renamed by hand since cannot be told from another
 *   record under that id, and is not renamed back or pruned until an apply records one.
 * - `applied` (the fingerprints of the manifest entries an apply left records as, for drift) was
 *   kept per prune kind already, for kinds that are each one table: kept as it is.
 * - No entry has a write time: `state migrate` and `state push` cannot tell which of two
 *   differing entries is newer, and list them instead of choosing.
 */
import { optional, required, schema, type Schema } from "../base/json-schema.js";
import { PRUNE_KINDS, type OwnedTable } from "../model/catalogue.js";
import type { LedgerFile } from "./ledger-schema.js";

const RECORD_KEY = "^(brand|category):\\d+$";

const mapOf = <T>(value: Schema<T>, keys: Record<string, unknown>) => schema.record(value, { propertyNames: keys });

/** A format 1 ledger file as JSON: format 2's sections but fingerprints and write times, ownership, names and applied per prune kind. */
export type LedgerFileV1 = Omit<LedgerFile, "fingerprints" | "written">;

/** Format 1, as pimctl wrote it before format 2 (checked before it is migrated). */
export const ledgerSchemaV1 = schema.object<LedgerFileV1>(
  {
    format: required(schema.integer({ const: 1 })),
    min_pimctl_version: optional(schema.string({ pattern: "^\\d+\\.\\d+\\.\\d+" })),
    tenant: required(schema.string()),
    base_url: required(schema.string()),
    web_ids: optional(mapOf(mapOf(schema.string(), { minLength: 1 }), { pattern: RECORD_KEY })),
    assets: optional(
      mapOf(mapOf(schema.object<{ image_url: string }>({ image_url: required(schema.string()) }, { additionalProperties: false }), { pattern: "^\\d+$" }), {
        pattern: RECORD_KEY,
      }),
    ),
    brand_attribute_sets: optional(mapOf(schema.array(schema.string()), { pattern: "^\\d+$" })),
    owned: optional(mapOf(schema.array(schema.integer()), { enum: [...PRUNE_KINDS] })),
    names: optional(mapOf(mapOf(schema.string(), { pattern: "^\\d+$" }), { enum: [...PRUNE_KINDS] })),
    applied: optional(mapOf(mapOf(schema.string({ pattern: "^[0-9a-f]{16}$" }), { pattern: "^\\d+$" }), { enum: [...PRUNE_KINDS] })),
  },
  { $schema: "http://json-schema.org/draft-07/schema#", $id: "https://pimctl.dev/schemas/ledger-v1.schema.json", additionalProperties: false },
);

/** Ownership and identities of a format 1 ledger in the current shape (the sections it shares are unchanged). */
export function migrateV1(v1: LedgerFileV1): {
  owned: Partial<Record<OwnedTable, number[]>>;
  names: Partial<Record<OwnedTable, Record<string, string>>>;
  applied: Partial<Record<OwnedTable, Record<string, string>>>;
} {
  const names: Partial<Record<OwnedTable, Record<string, string>>> = {};
  for (const [kind, byId] of Object.entries(v1.names ?? {})) if (kind !== "assets" && byId) names[kind as OwnedTable] = { ...byId };
  const owned: Partial<Record<OwnedTable, number[]>> = {};
  const keep = (table: OwnedTable, id: number) => (owned[table] ??= []).push(id);
  for (const [kind, ids] of Object.entries(v1.owned ?? {})) {
    for (const id of ids ?? []) {
      if (kind !== "assets") {
        if (names[kind as OwnedTable]?.[String(id)] !== undefined) keep(kind as OwnedTable, id);
        continue;
      }
      const owners = Object.keys(v1.assets ?? {}).filter((owner) => v1.assets![owner]?.[String(id)] !== undefined);
      if (owners.length !== 1) continue;
      const table: OwnedTable = owners[0]!.startsWith("brand:") ? "brand_assets" : "category_assets";
      keep(table, id);
      (names[table] ??= {})[String(id)] = owners[0]!;
    }
  }
  for (const ids of Object.values(owned)) ids?.sort((a, b) => a - b);
  // Recorded only for display groups, attributes, attribute sets, brands and categories (each its own table); never for assets.
  const applied: Partial<Record<OwnedTable, Record<string, string>>> = {};
  for (const [kind, byId] of Object.entries(v1.applied ?? {})) if (kind !== "assets" && byId) applied[kind as OwnedTable] = { ...byId };
  return { owned, names, applied };
}
