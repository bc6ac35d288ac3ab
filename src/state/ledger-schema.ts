/**
 * The ledger file, described once: this schema checks every ledger read (from
 * a state backend, or `pimctl state push FILE`), is checked by the compiler
 * against the `LedgerFile` type below (the same keys, the same required ones,
 * schemas of the same types), and is published as schemas/ledger.schema.json by
 * `npm run schemas` (a test keeps the file in step). A format 1 ledger is read
 * through ledger-v1.ts and migrated.
 */
import { optional, required, schema, type Schema } from "../base/json-schema.js";
import { OWNED_TABLES } from "../model/catalogue.js";

/** The format this pimctl reads and writes; a ledger in a higher one is refused, never rewritten. */
export const LEDGER_FORMAT = 2;

/**
 * The first pimctl version that reads each format: written into every ledger,
 * so an older pimctl that meets a newer format can name the version it needs.
 */
export const LEDGER_FORMAT_SINCE: Record<number, string> = { 1: "0.1.0", 2: "0.1.0" };

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
  /** Table -> record ids. */
  owned?: Record<string, number[]>;
  /** Table -> record id -> the identity key pimctl last applied. */
  names?: Record<string, Record<string, string>>;
  /** Table -> record id -> "field=hash,..." of what pimctl wrote besides the name. */
  fingerprints?: Record<string, Record<string, string>>;
  /** Table -> record id -> fingerprint of its manifest entry as last applied. */
  applied?: Record<string, Record<string, string>>;
  /** Write time -> section or table -> the record keys or ids written or removed then. */
  written?: Record<string, Record<string, Array<string | number>>>;
}

const RECORD_KEY = "^(brand|category):\\d+$";

/** A map keyed by pattern, typed as a Record. */
const mapOf = <T>(value: Schema<T>, keys: Record<string, unknown>, description: string) => schema.record(value, { description, propertyNames: keys });

const byTable = <T>(value: Schema<T>, description: string) => mapOf(value, { enum: [...OWNED_TABLES] }, description);

export const ledgerSchema = schema.object<LedgerFile>(
  {
    format: required(
      schema.integer({
        minimum: 1,
        description:
          `The ledger's format; this pimctl reads and writes ${LEDGER_FORMAT} (and reads 1, migrating it). ` +
          "A pimctl that meets a higher one refuses it and leaves it as it is.",
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
      byTable(
        schema.array(schema.integer()),
        'Table (where the id is unique: brand and category assets apart) -> ids of records pimctl created or adopted (what prune "owned" may delete, ' +
          "while their identity checks out).",
      ),
    ),
    names: optional(
      byTable(
        mapOf(schema.string(), { pattern: "^\\d+$" }, "Record id -> its identity when pimctl last applied it."),
        "Table -> record id -> the identity pimctl last applied: a name (display groups, attributes, attribute sets, brands), a category's path key, " +
          "a type value's value, a block's slug, an asset's owner (\"brand:12\"). A record renamed by hand in the PIM is renamed back on its id, " +
          "and a targeted plan reads these records by id; a record under a remembered id with another identity is checked against `fingerprints`.",
      ),
    ),
    fingerprints: optional(
      byTable(
        mapOf(
          schema.string({ pattern: "^([a-z_]+=[0-9a-f]{8}(,[a-z_]+=[0-9a-f]{8})*)?$" }),
          { pattern: "^\\d+$" },
          'Record id -> "field=hash,..." ("": nothing but the name).',
        ),
        "Table -> record id -> a hash of each field pimctl wrote besides the name: a record under a remembered id with another name is that " +
          "record renamed by hand only while these still match.",
      ),
    ),
    applied: optional(
      byTable(
        mapOf(schema.string({ pattern: "^[0-9a-f]{16}$" }), { pattern: "^\\d+$" }, "Record id -> fingerprint of its manifest entry as last applied."),
        "Table (display groups, attributes, attribute sets, brands, categories) -> record id -> a fingerprint of the record's manifest entry " +
          "(its fields, versions and parts; not where it is written, nor its previous names) when an apply last left the tenant's record as " +
          "that entry says: drift tells a difference the manifests introduced since (the entry changed) from one made in the tenant.",
      ),
    ),
    written: optional(
      mapOf(
        mapOf(
          schema.array(schema.oneOf(schema.string({ pattern: RECORD_KEY }), schema.integer())),
          { enum: ["web_ids", "assets", "brand_attribute_sets", ...OWNED_TABLES] },
          'Section ("web_ids", "assets", "brand_attribute_sets") or table -> the record keys ("brand:12") or ids (a record\'s ownership, identity, ' +
            "fingerprints and applied entry together) written or removed then.",
        ),
        { pattern: "^\\d{4}-\\d{2}-\\d{2}T\\d{2}:\\d{2}:\\d{2}(\\.\\d+)?Z$" },
        "Write time (ISO 8601) -> the entries an apply, push or migration wrote or removed then: state migrate and state push keep the newer " +
          "of two differing entries by it, and refuse where it cannot tell.",
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

/**
 * The ledger in memory: the file's sections, each present, with `written` per entry (the file
 * groups it by time). web_ids: "brand:<id>" | "category:<id>" -> channel -> web id; assets: the
 * same keys -> asset id -> the image_url it was written from; brand_attribute_sets: brand id ->
 * set names; owned: table -> ids of records pimctl created or adopted; names and fingerprints:
 * table -> id -> the identity pimctl last applied and a hash of what it wrote (what a remembered
 * id proves: src/plan/identity.ts); applied: table -> id -> a fingerprint of the record's manifest
 * entry as last applied (drift's origin: src/state/applied.ts); written: entry key
 * (ledger-entries.ts) -> when it was last written or removed.
 */
export type Ledger = Required<Omit<LedgerFile, "format" | "min_pimctl_version" | "written">> & { written: Record<string, string> };
