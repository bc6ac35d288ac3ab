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
import type { Static, TSchema } from "@sinclair/typebox";
import { Type } from "../model/json-schema.js";
import { PRUNE_KINDS, type OwnedTable } from "../model/catalogue.js";

const RECORD_KEY = "^(brand|category):\\d+$";

const mapOf = <S extends TSchema>(value: S, keys: Record<string, unknown>) =>
  Type.Unsafe<Record<string, Static<S>>>({ type: "object", propertyNames: keys, additionalProperties: value });

/** Format 1, as pimctl wrote it before format 2 (checked before it is migrated). */
export const ledgerSchemaV1 = Type.Object(
  {
    format: Type.Unsafe<1>({ const: 1 }),
    min_pimctl_version: Type.Optional(Type.String({ pattern: "^\\d+\\.\\d+\\.\\d+" })),
    tenant: Type.String(),
    base_url: Type.String(),
    web_ids: Type.Optional(mapOf(mapOf(Type.String(), { minLength: 1 }), { pattern: RECORD_KEY })),
    assets: Type.Optional(
      mapOf(mapOf(Type.Object({ image_url: Type.String() }, { additionalProperties: false }), { pattern: "^\\d+$" }), { pattern: RECORD_KEY }),
    ),
    brand_attribute_sets: Type.Optional(mapOf(Type.Array(Type.String()), { pattern: "^\\d+$" })),
    owned: Type.Optional(mapOf(Type.Array(Type.Integer()), { enum: [...PRUNE_KINDS] })),
    names: Type.Optional(mapOf(mapOf(Type.String(), { pattern: "^\\d+$" }), { enum: [...PRUNE_KINDS] })),
    applied: Type.Optional(mapOf(mapOf(Type.String({ pattern: "^[0-9a-f]{16}$" }), { pattern: "^\\d+$" }), { enum: [...PRUNE_KINDS] })),
  },
  { $schema: "http://json-schema.org/draft-07/schema#", $id: "https://pimctl.dev/schemas/ledger-v1.schema.json", additionalProperties: false },
);

export type LedgerFileV1 = Static<typeof ledgerSchemaV1>;

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
