/**
 * The manifest's written shapes, as plain TypeScript types: what a manifest entry
 * may hold once it has passed the JSON Schema. The field tables in ./schema.ts are
 * checked against these by the compiler (each table has exactly these keys, the
 * same required ones, with schemas of these types), so the types and the published
 * schema cannot drift apart; what each field means is said once, in the table's
 * descriptions (schemas/README.md). src/model/catalogue.ts derives the normalised
 * record types from these. The language versions' fields are type aliases, not
 * interfaces, so that code reading any version's fields by name
 * (src/plan/texts.ts) can take them as a Record<string, unknown>.
 */

/** Attribute types that the API accepts for reference attributes. */
export const ATTRIBUTE_TYPES = ["selectbox", "date", "datetime", "text", "textarea", "multiselect", "json", "markdown"] as const;
export type AttributeType = (typeof ATTRIBUTE_TYPES)[number];
export const CATEGORY_STATUSES = ["enabled", "disabled"] as const;
export type CategoryStatus = (typeof CATEGORY_STATUSES)[number];

export interface ManifestDisplayGroup {
  name: string;
  sort_order?: number;
  in_navigation?: boolean;
  previous_names?: string[];
}

export interface ManifestTypeValue {
  value: string;
  slug?: string | null;
  sort_order?: number;
  /** Version name -> the value's text in that version. */
  versions?: Record<string, string>;
  previous_values?: string[];
}

/** The fields of an attribute that exist per language version. */
export type AttributeVersion = {
  name?: string;
  note?: string | null;
};

export interface ManifestAttribute {
  name: string;
  type: AttributeType;
  slug?: string;
  note?: string | null;
  length?: number | null;
  display_group?: string | null;
  sort_order?: number;
  publish?: boolean;
  versions?: Record<string, AttributeVersion>;
  values?: ManifestTypeValue[];
  previous_names?: string[];
}

export interface ManifestAttributeSet {
  name: string;
  sort_order?: number;
  attributes?: string[];
  previous_names?: string[];
}

export interface ManifestBlock {
  name?: string;
  slug: string;
  content?: string;
}

export interface ManifestAsset {
  image_url: string;
  alttext?: string;
  thumbnail?: boolean;
}

/** A brand's value of one attribute: the master version's, and per version. */
export interface BrandAttributeValue {
  value: string;
  versions?: Record<string, string>;
}

/** The text fields of a brand that exist per language version. */
export type BrandVersion = {
  desc?: string;
  exclusion_reason?: string;
  seo_search_keywords?: string;
  seo_meta_desc?: string;
  seo_meta_keywords?: string;
  seo_title?: string;
};

export interface ManifestBrand {
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
  /** Channel name -> web id. */
  web_ids?: Record<string, string | number>;
  assets?: ManifestAsset[];
  attributes?: Record<string, BrandAttributeValue>;
  assigned_attributes?: string[];
  attribute_sets?: string[];
  versions?: Record<string, BrandVersion>;
  previous_names?: string[];
}

/** The fields of a category that exist per language version. */
export type CategoryVersion = {
  name?: string;
  desc?: string;
  seo_meta_desc?: string;
  seo_meta_keywords?: string;
  seo_meta_title?: string;
  search_keywords?: string;
};

export interface ManifestCategory {
  name: string;
  slug?: string;
  desc?: string;
  status?: CategoryStatus;
  is_visible?: boolean;
  sort_order?: number;
  attribute_sets?: string[];
  seo_meta_desc?: string;
  seo_meta_keywords?: string;
  seo_meta_title?: string;
  search_keywords?: string;
  assets?: ManifestAsset[];
  /** Channel name -> web id. */
  web_ids?: Record<string, string | number>;
  versions?: Record<string, CategoryVersion>;
  previous_names?: string[];
  /** Earlier paths, each "Parent/Child" or a list of names. */
  previous_paths?: Array<string | string[]>;
  children?: ManifestCategory[];
}

/** The manifest schema's definitions, by name: what `$ref: "#/definitions/<name>"` stands for. */
export interface ManifestDefinitions {
  display_group: ManifestDisplayGroup;
  attribute: ManifestAttribute;
  type_value: ManifestTypeValue;
  attribute_set: ManifestAttributeSet;
  block: ManifestBlock;
  brand: ManifestBrand;
  category: ManifestCategory;
}
