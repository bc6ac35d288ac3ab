/**
 * The ledger file, described once: this schema checks every ledger read (from
 * a state backend, or `pimctl state push FILE`), gives the `Ledger` type
 * (Static<...>), and is published as schemas/ledger.schema.json by
 * `npm run schemas` (a test keeps the file in step).
 */
import type { Static, TSchema } from "@sinclair/typebox";
import { Type } from "../model/json-schema.js";
import { PRUNE_KINDS } from "../model/catalogue.js";

/** The format this pimctl reads and writes; a ledger in a higher one is refused, never rewritten. */
export const LEDGER_FORMAT = 1;

/**
 * The first pimctl version that reads each format: written into every ledger,
 * so an older pimctl that meets a newer format can name the version it needs.
 */
export const LEDGER_FORMAT_SINCE: Record<number, string> = { 1: "0.1.0" };

const RECORD_KEY = "^(brand|category):\\d+$";

/** A map keyed by pattern, typed as a Record. */
const mapOf = <S extends TSchema>(value: S, keys: Record<string, unknown>, description: string) =>
  Type.Unsafe<Record<string, Static<S>>>({ type: "object", description, propertyNames: keys, additionalProperties: value });

export const ledgerSchema = Type.Object(
  {
    format: Type.Integer({
      minimum: 1,
      description: `The ledger's format; this pimctl reads and writes ${LEDGER_FORMAT}. A pimctl that meets a higher one refuses it and leaves it as it is.`,
    }),
    min_pimctl_version: Type.Optional(
      Type.String({ pattern: "^\\d+\\.\\d+\\.\\d+", description: "The first pimctl version that reads this format (named when an older one refuses it)." }),
    ),
    tenant: Type.String({ description: "The tenant name in pimctl.yaml the ledger belongs to." }),
    base_url: Type.String({ description: "The tenant's base URL (normalised, never with credentials): a ledger of another tenant is refused." }),
    web_ids: Type.Optional(
      mapOf(
        mapOf(Type.String(), { minLength: 1 }, "Channel name -> web id."),
        { pattern: RECORD_KEY },
        '"brand:ID" | "category:ID" -> the web ids pimctl wrote, per channel (API v1 cannot read them back).',
      ),
    ),
    assets: Type.Optional(
      mapOf(
        mapOf(
          Type.Object({ image_url: Type.String() }, { additionalProperties: false }),
          { pattern: "^\\d+$" },
          "Asset id -> the image_url it was written from.",
        ),
        { pattern: RECORD_KEY },
        '"brand:ID" | "category:ID" -> its assets pimctl wrote (API v1 cannot read image_url back).',
      ),
    ),
    brand_attribute_sets: Type.Optional(mapOf(Type.Array(Type.String()), { pattern: "^\\d+$" }, "Brand id -> the attribute set names pimctl assigned to it.")),
    owned: Type.Optional(
      mapOf(Type.Array(Type.Integer()), { enum: [...PRUNE_KINDS] }, 'Prune kind -> ids of records pimctl created or adopted (what prune "owned" may delete).'),
    ),
    names: Type.Optional(
      mapOf(
        mapOf(Type.String(), { pattern: "^\\d+$" }, "Record id -> the name pimctl last applied to it."),
        { enum: [...PRUNE_KINDS] },
        "Prune kind (named kinds: display groups, attributes, attribute sets, brands; and categories, by path key) -> the names pimctl applied, " +
          "by record id: a record renamed by hand in the PIM is renamed back on its id, and a targeted plan reads these records by id.",
      ),
    ),
    applied: Type.Optional(
      mapOf(
        mapOf(Type.String({ pattern: "^[0-9a-f]{16}$" }), { pattern: "^\\d+$" }, "Record id -> fingerprint of its manifest entry as last applied."),
        { enum: [...PRUNE_KINDS] },
        "Prune kind (display groups, attributes, attribute sets, brands, categories) -> by record id, a fingerprint of the record's manifest " +
          "entry (its fields, versions and parts; not where it is written, nor its previous names) when an apply last left the tenant's record " +
          "as that entry says: drift tells a difference the manifests introduced since (the entry changed) from one made in the tenant.",
      ),
    ),
  },
  {
    $schema: "http://json-schema.org/draft-07/schema#",
    $id: "https://pimctl.dev/schemas/ledger.schema.json",
    title: "pimctl ledger (state of one tenant)",
    description:
      "What pimctl wrote to a tenant that API v1 cannot read back, and which records it owns; kept by the state backend (a file in ledger_dir, or " +
      "refs/pimctl/state/TENANT on a Git remote). pimctl state pull writes it, state push reads it back.",
    additionalProperties: false,
  },
);

export type LedgerFile = Static<typeof ledgerSchema>;
