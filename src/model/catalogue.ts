/**
 * The normalised catalogue: the one shape that manifests load into and that a
 * tenant's state is read into, so the planner compares like with like.
 *
 * Identity is by name (see PRODUCT.md "Names are identity"); language versions
 * are named ("French"), never numbered. A field that is `undefined` is not
 * managed: the manifest did not mention it, and the planner leaves it alone.
 * `null` is a managed, explicitly empty value.
 */

import type {
  AttributeType,
  BrandVersion,
  CategoryVersion,
  ManifestAsset,
  ManifestAttribute,
  ManifestAttributeSet,
  ManifestBlock,
  ManifestBrand,
  ManifestCategory,
  ManifestDisplayGroup,
  ManifestTypeValue,
} from "./manifest-types.js";

export type VersionName = string;
export type ChannelName = string;

export interface SourceLocation {
  file: string;
  line: number;
  column: number;
}

/** The kinds a manifest can declare, in the order their top-level keys are documented. */
export const KINDS = ["display_groups", "attributes", "attribute_sets", "blocks", "brands", "categories"] as const;
export type Kind = (typeof KINDS)[number];

/** One record of each kind, as messages name it ("attribute set"). */
export const KIND_NOUN: Readonly<Record<Kind, string>> = {
  display_groups: "display group",
  attributes: "attribute",
  attribute_sets: "attribute set",
  blocks: "block",
  brands: "brand",
  categories: "category",
};

export type { AttributeType, CategoryStatus } from "./manifest-types.js";

/** Kinds (and sub-records) whose undeclared tenant records pruning can delete (config `prune:`). */
export const PRUNE_KINDS = ["display_groups", "attributes", "type_values", "attribute_sets", "blocks", "brands", "categories", "assets"] as const;
export type PruneKind = (typeof PRUNE_KINDS)[number];

/**
 * Where a record's id is unique: the tables the service numbers on their own (with one
 * sequence per table, a brand asset and a category asset may share an id). Ownership and the
 * identities the ledger remembers are kept per table; a prune kind covers one or two of them.
 */
export const OWNED_TABLES = [
  "display_groups",
  "attributes",
  "type_values",
  "attribute_sets",
  "blocks",
  "brands",
  "categories",
  "brand_assets",
  "category_assets",
] as const;
export type OwnedTable = (typeof OWNED_TABLES)[number];

/** Only these attribute types carry selectable type values. */
export const TYPES_WITH_VALUES: readonly AttributeType[] = ["selectbox", "multiselect"];

/*
 * The normalised record types are the manifest's written types
 * (./manifest-types.ts, which the field tables in ./schema.ts are checked against) with what loading adds: the source
 * location, a category's path instead of its children, web ids as text.
 */
type Located<T> = T & { source?: SourceLocation };

export type DisplayGroup = Located<ManifestDisplayGroup>;
export type TypeValue = Located<ManifestTypeValue>;
export type Attribute = Located<Omit<ManifestAttribute, "values"> & { values?: TypeValue[] }>;
export type AttributeSet = Located<ManifestAttributeSet>;
export type Block = Located<ManifestBlock>;
/**
 * An image attached to a brand or category. `image_url` is write-only in API
 * v1 (the tenant returns a stored `uri`), so it is the asset's identity in
 * manifests and the ledger remembers which remote asset it became.
 */
export type Asset = ManifestAsset;
export type BrandTextField = keyof BrandVersion;
export type Brand = Located<Omit<ManifestBrand, "web_ids"> & { web_ids?: Record<ChannelName, string> }>;
export type CategoryTextField = keyof CategoryVersion;
/**
 * A category, flattened: `path` is the list of names from the root to this
 * category (its identity); manifests nest them with `children`.
 */
export type Category = Located<
  Omit<ManifestCategory, "children" | "previous_paths" | "web_ids"> & {
    path: string[];
    web_ids?: Record<ChannelName, string>;
    /** Earlier paths, each a list of names. */
    previous_paths?: string[][];
  }
>;

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
  // Called for every category on every side of a plan: one native join unless a name needs escaping.
  for (const n of path) {
    if (n.includes("/") || n.includes("\\")) return path.map((x) => x.replace(/\\/g, "\\\\").replace(/\//g, "\\/")).join("/");
  }
  return path.join("/");
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
