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
  /** The `pimctl emulator` option (src/cli/commands/emulator.ts). */
  option: string;
  /** Where the switch is consulted. */
  consultedBy: string;
};

export const SWITCHES: { readonly [K in keyof EmulatorSwitches]: SwitchRow<K> } = {
  categoryAttributeSetsRead: {
    default: "objects",
    readings: ["objects", "ids", "csv"],
    option: "--category-attribute-sets-read",
    consultedBy: "kinds/categories.ts",
  },
  assetUri: { default: "rehost", readings: ["rehost", "echo"], option: "--asset-uri", consultedBy: "kinds/assets.ts" },
  searchCase: { default: "sensitive", readings: ["sensitive", "insensitive"], option: "--search-case", consultedBy: "request.ts (same), kinds/brands.ts" },
  versionFallback: {
    default: true,
    readings: [true, false],
    option: "--no-version-fallback",
    consultedBy: "kinds/attributes.ts, kinds/type-values.ts, kinds/brands.ts, kinds/categories.ts",
  },
  categoryDeleteWithChildren: {
    default: "refuse",
    readings: ["refuse", "cascade"],
    option: "--category-delete-with-children",
    consultedBy: "kinds/categories.ts",
  },
  changelogSubtreeDeletes: { default: "each", readings: ["each", "root"], option: "--changelog-subtree-deletes", consultedBy: "kinds/categories.ts" },
  changelogPaging: { default: "links", readings: ["links", "capped"], option: "--changelog-paging", consultedBy: "kinds/changelogs.ts" },
  changelogTotal: {
    default: "matching",
    readings: ["matching", "absent", "tenant", "lagging"],
    option: "--changelog-total",
    consultedBy: "kinds/changelogs.ts",
  },
  boolFormat: {
    default: "document",
    readings: ["document", "int", "string", "bool"],
    option: "--bool-format",
    consultedBy: "api-requests.ts (wire-format.ts)",
  },
  idFormat: { default: "number", readings: ["number", "string"], option: "--id-format", consultedBy: "api-requests.ts (wire-format.ts)" },
  idSequence: { default: "per-table", readings: ["per-table", "global"], option: "--id-sequence", consultedBy: "store-core.ts (id)" },
  setAttributeDeleteId: {
    default: "assignment",
    readings: ["assignment", "attribute"],
    option: "--set-attribute-delete-id",
    consultedBy: "kinds/attribute-sets.ts",
  },
  searchEmpty: {
    default: "empty-body",
    readings: ["empty-body", "404", "empty-array", "null"],
    option: "--search-empty",
    consultedBy: "request.ts (searchMiss)",
  },
  maxPageSize: { default: undefined, option: "--max-page-size", consultedBy: "request.ts (pageParams)" },
  oversizedLimit: { default: "refuse", readings: ["refuse", "clamp"], option: "--oversized-limit", consultedBy: "request.ts (pageParams)" },
  paginateAllLists: { default: false, readings: [false, true], option: "--paginate-all-lists", consultedBy: "api-requests.ts (wire-format.ts paginateList)" },
  dateFormat: {
    default: "document",
    readings: ["document", "iso-z", "iso-offset", "sql"],
    option: "--date-format",
    consultedBy: "api-requests.ts (wire-format.ts)",
  },
  exportDownload: { default: "direct", readings: ["direct", "redirect"], option: "--export-download", consultedBy: "kinds/exports.ts" },
};

export const DEFAULT_SWITCHES: EmulatorSwitches = Object.fromEntries(
  Object.entries(SWITCHES).map(([k, row]) => [k, row.default]),
) as unknown as EmulatorSwitches;
