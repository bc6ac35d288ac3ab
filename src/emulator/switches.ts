/**
 * The switches: the alternative readings of API v1 where the document is silent or
 * ambiguous (README.md beside this file, "Assumptions"). One table: each switch's
 * readings, its default, its `pimctl emulator` option and the rooms that consult it.
 * A kind reads `c.switches` (RequestContext); the server reads the wire switches.
 */
import type { BoolFormat, DateFormat, IdFormat } from "./wire-format.js";

export interface EmulatorSwitches {
  /** Read shape of category.attribute_sets: [{id,name}] (default), [id] or "1,2". Writes always take ids. */
  categoryAttributeSetsRead: "objects" | "ids" | "csv";
  /** Asset uri: the emulator's own address (default), or the image_url given. */
  assetUri: "rehost" | "echo";
  /** Exact-match search: case-sensitive (default) or not. */
  searchCase: "sensitive" | "insensitive";
  /** Version reads fall back to master text where no translation exists (default true). */
  versionFallback: boolean;
  /** DELETE of a category with children: refuse with 422 (default) or delete the subtree. */
  categoryDeleteWithChildren: "refuse" | "cascade";
  /** A cascaded category delete: a changelog entry for every category (default) or only for the one deleted. */
  changelogSubtreeDeletes: "each" | "root";
  /** The changelog list: paged with links and meta (default), or only the first `limit` entries and no paging at all. */
  changelogPaging: "links" | "capped";
  /**
   * meta.total of the changelog list: the entries the query matches (default), absent, every entry of the tenant
   * whatever the filters, or one less than the entries the query matches (a count one write behind the list).
   */
  changelogTotal: "matching" | "absent" | "tenant" | "lagging";
  /** Booleans on the wire: as the document shows them (default: 1/0 where it says so), or all 1/0, "1"/"0", true/false. */
  boolFormat: BoolFormat;
  /** Ids on the wire: numbers (default) or numeric strings. */
  idFormat: IdFormat;
  /** One id sequence per table (default, as a database) or one for all tables. */
  idSequence: "per-table" | "global";
  /** Which id DELETE /attribute_sets/<S>/attributes/<ID> takes: the assignment row's (default) or the attribute's. */
  setAttributeDeleteId: "assignment" | "attribute";
  /** How an exact-match search says "nothing": an empty 200 body (default), 404, 200 [] or 200 null. */
  searchEmpty: "empty-body" | "404" | "empty-array" | "null";
  /** A `limit` above this answers 422 (or is clamped to it: oversizedLimit); undefined: larger values are clamped to 1000. */
  maxPageSize: number | undefined;
  /** A `limit` above maxPageSize: refused with 422 (default), or clamped to maxPageSize without a word. */
  oversizedLimit: "refuse" | "clamp";
  /** Lists the document shows unpaginated answer 25 a page with links and meta. */
  paginateAllLists: boolean;
  /** Dates on the wire: as stored (default, ISO 8601 with Z, no milliseconds), or iso-z (with ms), iso-offset (+00:00), sql. */
  dateFormat: DateFormat;
  /** file_url serves the file (default) or redirects to a second address (object storage) that refuses the tenant token. */
  exportDownload: "direct" | "redirect";
}

type SwitchRow<K extends keyof EmulatorSwitches> = {
  /** The default reading. */
  default: EmulatorSwitches[K];
  /** Every reading; undefined for a number (maxPageSize). */
  readings?: ReadonlyArray<EmulatorSwitches[K]>;
  /**
   * For a number (maxPageSize): values the tests try beside the default, since there is no
   * list of readings (test/readings/matrix.test.ts, test/emulator/replay.test.ts).
   */
  samples?: ReadonlyArray<EmulatorSwitches[K]>;
  /**
   * The `pimctl emulator` option (generated from this table: src/cli/commands/emulator-switches.ts).
   * `--no-x` for a switch on by default; `--x` takes one of the readings, or a number.
   */
  option: string;
  /** The option's help line, without its default (the generated help adds it from `default`). */
  help: string;
  /** Where the switch is consulted. */
  consultedBy: string;
};

export const SWITCHES: { readonly [K in keyof EmulatorSwitches]: SwitchRow<K> } = {
  categoryAttributeSetsRead: {
    default: "objects",
    readings: ["objects", "ids", "csv"],
    option: "--category-attribute-sets-read",
    help: "Read shape of category.attribute_sets",
    consultedBy: "kinds/categories.ts",
  },
  assetUri: {
    default: "rehost",
    readings: ["rehost", "echo"],
    option: "--asset-uri",
    help: "Asset uri: the emulator's own address, or the image_url given",
    consultedBy: "kinds/assets.ts",
  },
  searchCase: {
    default: "sensitive",
    readings: ["sensitive", "insensitive"],
    option: "--search-case",
    help: "Case of the exact-match search endpoints",
    consultedBy: "request.ts (same), kinds/brands.ts",
  },
  versionFallback: {
    default: true,
    readings: [true, false],
    option: "--no-version-fallback",
    help: "Version reads fall back to master text (--no-version-fallback: null)",
    consultedBy: "kinds/attributes.ts, kinds/type-values.ts, kinds/brands.ts, kinds/categories.ts",
  },
  categoryDeleteWithChildren: {
    default: "refuse",
    readings: ["refuse", "cascade"],
    option: "--category-delete-with-children",
    help: "DELETE of a category with children",
    consultedBy: "kinds/categories.ts",
  },
  changelogSubtreeDeletes: {
    default: "each",
    readings: ["each", "root"],
    option: "--changelog-subtree-deletes",
    help: "A cascaded category delete: a changelog entry per category, or only for the one deleted",
    consultedBy: "kinds/categories.ts",
  },
  changelogPaging: {
    default: "links",
    readings: ["links", "capped"],
    option: "--changelog-paging",
    help: "GET /changelogs: paged with links and meta, or only the first `limit` entries",
    consultedBy: "kinds/changelogs.ts",
  },
  changelogTotal: {
    default: "matching",
    readings: ["matching", "absent", "tenant", "lagging"],
    option: "--changelog-total",
    help: "GET /changelogs meta.total: the entries matched, none, every entry of the tenant, or one less than matched",
    consultedBy: "kinds/changelogs.ts",
  },
  boolFormat: {
    default: "document",
    readings: ["document", "int", "string", "bool"],
    option: "--bool-format",
    help: 'Booleans on the wire: as the document shows them, or all 1/0, "1"/"0", true/false',
    consultedBy: "api-requests.ts (wire-format.ts)",
  },
  idFormat: {
    default: "number",
    readings: ["number", "string"],
    option: "--id-format",
    help: "Ids on the wire: numbers or numeric strings",
    consultedBy: "api-requests.ts (wire-format.ts)",
  },
  idSequence: {
    default: "per-table",
    readings: ["per-table", "global"],
    option: "--id-sequence",
    help: "One id sequence per table (as a database) or one for all",
    consultedBy: "store-core.ts (id)",
  },
  setAttributeDeleteId: {
    default: "assignment",
    readings: ["assignment", "attribute"],
    option: "--set-attribute-delete-id",
    help: "Which id DELETE /attribute_sets/<S>/attributes/<ID> takes",
    consultedBy: "kinds/attribute-sets.ts",
  },
  searchEmpty: {
    default: "empty-body",
    readings: ["empty-body", "404", "empty-array", "null"],
    option: "--search-empty",
    help: "How a search says nothing found: an empty 200 body, 404, 200 [] or 200 null",
    consultedBy: "request.ts (searchMiss)",
  },
  maxPageSize: {
    default: undefined,
    samples: [20],
    option: "--max-page-size",
    help: "A limit above N answers 422, or is clamped to N under --oversized-limit clamp (default: a larger limit is clamped to 1000)",
    consultedBy: "request.ts (pageParams)",
  },
  oversizedLimit: {
    default: "refuse",
    readings: ["refuse", "clamp"],
    option: "--oversized-limit",
    help: "A limit above --max-page-size: 422, or clamped to it without a word",
    consultedBy: "request.ts (pageParams)",
  },
  paginateAllLists: {
    default: false,
    readings: [false, true],
    option: "--paginate-all-lists",
    help: "Lists the document shows unpaginated answer 25 a page, with links and meta",
    consultedBy: "api-requests.ts (wire-format.ts paginateList)",
  },
  dateFormat: {
    default: "document",
    readings: ["document", "iso-z", "iso-offset", "sql"],
    option: "--date-format",
    help: "Dates on the wire: as stored (ISO 8601 with Z, no milliseconds), with milliseconds, with +00:00, or SQL's",
    consultedBy: "api-requests.ts (wire-format.ts)",
  },
  exportDownload: {
    default: "direct",
    readings: ["direct", "redirect"],
    option: "--export-download",
    help: "file_url serves the file, or redirects to a second address that refuses the token",
    consultedBy: "kinds/exports.ts",
  },
};

/**
 * What the tests try of each switch: every reading, or for a number its default and samples.
 * The readings matrix and the replay's recorded subset are built from this, so a switch added to
 * the table is exercised there by itself.
 */
export function switchReadings<K extends keyof EmulatorSwitches>(name: K): ReadonlyArray<EmulatorSwitches[K]> {
  const row = SWITCHES[name] as SwitchRow<K>;
  return row.readings ?? [row.default, ...(row.samples ?? [])];
}

export const DEFAULT_SWITCHES: EmulatorSwitches = Object.fromEntries(
  Object.entries(SWITCHES).map(([k, row]) => [k, row.default]),
) as unknown as EmulatorSwitches;
