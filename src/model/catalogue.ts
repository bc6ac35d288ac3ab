/**
 * The normalised catalogue: the one shape that manifests load into and that a
 * tenant's state is read into, so the planner compares like with like.
 *
 * Identity is by name (see PRODUCT.md "Names are identity"); language versions
 * are named ("French"), never numbered. A field that is `undefined` is not
 * managed: the manifest did not mention it, and the planner leaves it alone.
 * `null` is a managed, explicitly empty value.
 */

export type VersionName = string;
export type ChannelName = string;

export interface SourceLocation {
  file: string;
  line: number;
  column: number;
}

/** The kinds a manifest can declare, in the order their top-level keys are documented. */
export const KINDS = [
  "display_groups",
  "attributes",
  "attribute_sets",
  "blocks",
  "brands",
  "categories",
] as const;
export type Kind = (typeof KINDS)[number];

/** Attribute types that the API accepts for reference attributes. */
export const ATTRIBUTE_TYPES = [
  "selectbox",
  "date",
  "datetime",
  "text",
  "textarea",
  "multiselect",
  "json",
  "markdown",
] as const;
export type AttributeType = (typeof ATTRIBUTE_TYPES)[number];

/** Only these attribute types carry selectable type values. */
export const TYPES_WITH_VALUES: readonly AttributeType[] = ["selectbox", "multiselect"];

export interface DisplayGroup {
  name: string;
  sort_order?: number;
  in_navigation?: boolean;
  previous_names?: string[];
  source?: SourceLocation;
}

/** Fields of an attribute that a language version can carry. */
export interface AttributeVersionFields {
  name?: string;
  note?: string | null;
}

export interface TypeValue {
  value: string;
  slug?: string | null;
  sort_order?: number;
  /** Version name -> the value's text in that version. */
  versions?: Record<VersionName, string>;
  previous_values?: string[];
  source?: SourceLocation;
}

export interface Attribute {
  name: string;
  type: AttributeType;
  slug?: string;
  note?: string | null;
  length?: number | null;
  /** Display group by name; null detaches it. */
  display_group?: string | null;
  sort_order?: number;
  publish?: boolean;
  versions?: Record<VersionName, AttributeVersionFields>;
  /** Type values; undefined leaves the tenant's values alone. */
  values?: TypeValue[];
  previous_names?: string[];
  source?: SourceLocation;
}

export interface AttributeSet {
  name: string;
  sort_order?: number;
  /** Attribute names assigned to the set; undefined leaves assignments alone. */
  attributes?: string[];
  previous_names?: string[];
  source?: SourceLocation;
}

export interface Block {
  slug: string;
  name?: string;
  content?: string;
  source?: SourceLocation;
}

/**
 * An image attached to a brand or category. `image_url` is write-only in API
 * v1 (the tenant returns a stored `uri`), so it is the asset's identity in
 * manifests and the ledger remembers which remote asset it became.
 */
export interface Asset {
  image_url: string;
  alttext?: string;
  thumbnail?: boolean;
}

/** Brand text fields that exist per language version. */
export const BRAND_TEXT_FIELDS = [
  "desc",
  "exclusion_reason",
  "seo_search_keywords",
  "seo_meta_desc",
  "seo_meta_keywords",
  "seo_title",
] as const;
export type BrandTextField = (typeof BRAND_TEXT_FIELDS)[number];

export interface BrandAttributeValue {
  /** The master-version value. */
  value: string;
  versions?: Record<VersionName, string>;
}

export interface Brand {
  name: string;
  desc?: string;
  excluded?: boolean;
  exclusion_start_date?: string | null;
  exclusion_end_date?: string | null;
  exclusion_reason?: string;
  seo_search_keywords?: string;
  seo_meta_desc?: string;
  seo_meta_keywords?: string;
  seo_title?: string;
  /** Channel name -> web id. Write-only in API v1. */
  web_ids?: Record<ChannelName, string>;
  assets?: Asset[];
  /** Attribute name -> value (master) and per-version values. */
  attributes?: Record<string, BrandAttributeValue>;
  /** Attributes assigned to the brand (write-only in API v1). */
  assigned_attributes?: string[];
  /** Attribute sets assigned to the brand (write-only in API v1). */
  attribute_sets?: string[];
  /** Per-version text fields; API v1 can read but not write them. */
  versions?: Record<VersionName, Partial<Record<BrandTextField, string>>>;
  previous_names?: string[];
  source?: SourceLocation;
}

export const CATEGORY_TEXT_FIELDS = [
  "name",
  "desc",
  "seo_meta_desc",
  "seo_meta_keywords",
  "seo_meta_title",
  "search_keywords",
] as const;
export type CategoryTextField = (typeof CATEGORY_TEXT_FIELDS)[number];

export type CategoryStatus = "enabled" | "disabled";

/**
 * A category, flattened: `path` is the list of names from the root to this
 * category (its identity); manifests nest them with `children`.
 */
export interface Category {
  path: string[];
  name: string;
  slug?: string;
  desc?: string;
  status?: CategoryStatus;
  is_visible?: boolean;
  sort_order?: number;
  /** Attribute sets by name. */
  attribute_sets?: string[];
  seo_meta_desc?: string;
  seo_meta_keywords?: string;
  seo_meta_title?: string;
  search_keywords?: string;
  assets?: Asset[];
  web_ids?: Record<ChannelName, string>;
  versions?: Record<VersionName, Partial<Record<CategoryTextField, string>>>;
  /** Earlier paths (each a list of names) or earlier names within the same parent. */
  previous_names?: string[];
  previous_paths?: string[][];
  source?: SourceLocation;
}

/** A desired catalogue, as loaded from manifests. Lists are sorted by identity. */
export interface Catalogue {
  /** The kinds the manifests declare (a top-level key present in some file). */
  managed: Kind[];
  /** Language versions the manifests mention, by name (sorted). */
  versions: VersionName[];
  display_groups: DisplayGroup[];
  attributes: Attribute[];
  attribute_sets: AttributeSet[];
  blocks: Block[];
  brands: Brand[];
  /** Pre-order: parents before children; siblings sorted by name. */
  categories: Category[];
}

export function emptyCatalogue(): Catalogue {
  return {
    managed: [],
    versions: [],
    display_groups: [],
    attributes: [],
    attribute_sets: [],
    blocks: [],
    brands: [],
    categories: [],
  };
}

/** Code-unit order: the same on every machine and locale, so plans and exports sort identically. */
export function compareText(a: string, b: string): number {
  return a < b ? -1 : a > b ? 1 : 0;
}

/** Parents before children, siblings by name. */
export function comparePaths(a: readonly string[], b: readonly string[]): number {
  for (let i = 0; i < Math.min(a.length, b.length); i++) {
    const c = compareText(a[i]!, b[i]!);
    if (c) return c;
  }
  return a.length - b.length;
}

/** Category paths as one string key; "/" inside a name is escaped so keys stay unambiguous. */
export function pathKey(path: readonly string[]): string {
  return path.map((n) => (n.includes("/") || n.includes("\\") ? n.replace(/\\/g, "\\\\").replace(/\//g, "\\/") : n)).join("/");
}

export function parsePathKey(key: string): string[] {
  const out: string[] = [];
  let cur = "";
  for (let i = 0; i < key.length; i++) {
    const ch = key[i]!;
    if (ch === "\\" && i + 1 < key.length) {
      cur += key[++i];
    } else if (ch === "/") {
      out.push(cur);
      cur = "";
    } else {
      cur += ch;
    }
  }
  out.push(cur);
  return out;
}
