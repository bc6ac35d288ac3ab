/**
 * The ledger file, described once: this schema checks every ledger read (from
 * a state backend, or `pimctl state push FILE`), is checked by the compiler
 * against the `LedgerFile` type below (the same keys, the same required ones,
 * schemas of the same types), and is published as schemas/ledger.schema.json by
 * `npm run schemas` (a test keeps the file in step).
 */
import { optional, required, schema, type Schema } from "../base/json-schema.js";
import { PRUNE_KINDS } from "../model/catalogue.js";

/** The format this pimctl reads and writes; a ledger in a higher one is refused, never rewritten. */
export const LEDGER_FORMAT = 1;

/**
 * The first pimctl version that reads each format: written into every ledger,
 * so an older pimctl that meets a newer format can name the version it needs.
 */
export const LEDGER_FORMAT_SINCE: Record<number, string> = { 1: "0.1.0" };

/** A ledger file as JSON: what the sections mean is said in the schema's descriptions below. */
export interface LedgerFile {
  format: number;
  min_pimctl_version?: string;
  tenant: string;
  base_url: string;
  /** "brand:ID" | "category:ID" -> channel name -> web id. */
  web_ids?: Record<string, Record<string, string>>;
  /** "brand:ID" | "category:ID" -> asset id -> the image_url it was written from. */
  assets?: Record<string, Record<string, { image_url: string }>>;
  /** Brand id -> attribute set names. */
  brand_attribute_sets?: Record<string, string[]>;
  /** Prune kind -> record ids. */
  owned?: Record<string, number[]>;
  /** Prune kind -> record id -> name. */
  names?: Record<string, Record<string, string>>;
  /** Prune kind -> record id -> fingerprint of its manifest entry as last applied. */
  applied?: Record<string, Record<string, string>>;
}

const RECORD_KEY = "^(brand|category):\\d+$";

/** A map keyed by pattern, typed as a Record. */
const mapOf = <T>(value: Schema<T>, keys: Record<string, unknown>, description: string) => schema.record(value, { description, propertyNames: keys });

export const ledgerSchema = schema.object<LedgerFile>(
  {
    format: required(
      schema.integer({
        minimum: 1,
        description: `The ledger's format; this pimctl reads and writes ${LEDGER_FORMAT}. A pimctl that meets a higher one refuses it and leaves it as it is.`,
      }),
    ),
    min_pimctl_version: optional(
      schema.string({ pattern: "^\\d+\\.\\d+\\.\\d+", description: "The first pimctl version that reads this format (named when an older one refuses it)." }),
    ),
    tenant: required(schema.string({ description: "The tenant name in pimctl.yaml the ledger belongs to." })),
    base_url: required(schema.string({ description: "The tenant's base URL (normalised, never with credentials): a ledger of another tenant is refused." })),
    web_ids: optional(
      mapOf(
        mapOf(schema.string(), { minLength: 1 }, "Channel name -> web id."),
        { pattern: RECORD_KEY },
        '"brand:ID" | "category:ID" -> the web ids pimctl wrote, per channel (API v1 cannot read them back).',
      ),
    ),
    assets: optional(
      mapOf(
        mapOf(
          schema.object<{ image_url: string }>({ image_url: required(schema.string()) }, { additionalProperties: false }),
          { pattern: "^\\d+$" },
          "Asset id -> the image_url it was written from.",
        ),
        { pattern: RECORD_KEY },
        '"brand:ID" | "category:ID" -> its assets pimctl wrote (API v1 cannot read image_url back).',
      ),
    ),
    brand_attribute_sets: optional(mapOf(schema.array(schema.string()), { pattern: "^\\d+$" }, "Brand id -> the attribute set names pimctl assigned to it.")),
    owned: optional(
      mapOf(
        schema.array(schema.integer()),
        { enum: [...PRUNE_KINDS] },
        'Prune kind -> ids of records pimctl created or adopted (what prune "owned" may delete).',
      ),
    ),
    names: optional(
      mapOf(
        mapOf(schema.string(), { pattern: "^\\d+$" }, "Record id -> the name pimctl last applied to it."),
        { enum: [...PRUNE_KINDS] },
        "Prune kind (named kinds: display groups, attributes, attribute sets, brands; and categories, by path key) -> the names pimctl applied, " +
          "by record id: a record renamed by hand in the PIM is renamed back on its id, and a targeted plan reads these records by id.",
      ),
    ),
    applied: optional(
      mapOf(
        mapOf(schema.string({ pattern: "^[0-9a-f]{16}$" }), { pattern: "^\\d+$" }, "Record id -> fingerprint of its manifest entry as last applied."),
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
