/**
 * The shape of every record a tenant holds, and of the whole tenant as saved by --data
 * and loaded from --seed (TenantData). The store core (store-core.ts) keeps them in its
 * tables; each kind's rules and routes (kinds/<kind>.ts) read and write them.
 */

export interface AttributeRec {
  id: number;
  name: string;
  type: string;
  slug: string;
  note: string | null;
  length: number | null;
  display_group_id: number | null;
  sort_order: number;
  publish: boolean;
  versions: Record<string, { name?: string; note?: string | null }>;
  created_at: string;
  updated_at: string;
}
export interface TypeValueRec {
  id: number;
  attribute_id: number;
  value: string;
  slug: string | null;
  sort_order: number;
  versions: Record<string, { id: number; value: string }>;
  created_at: string;
  updated_at: string;
}
export interface AttributeSetRec {
  id: number;
  name: string;
  sort_order: number;
}
export interface AssignmentRec {
  id: number;
  attribute_id: number;
  attribute_set_id: number;
  sort_order: number;
  created_at: string;
  updated_at: string;
}
export interface BlockRec {
  id: number;
  name: string;
  slug: string;
  content: string;
}
export interface AssetRec {
  id: number;
  owner_id: number;
  uri: string;
  alttext: string;
  thumbnail: boolean;
  sort_order: number;
}
export const BRAND_FIELDS = [
  "desc",
  "exclusion_start_date",
  "exclusion_end_date",
  "exclusion_reason",
  "seo_search_keywords",
  "seo_meta_desc",
  "seo_meta_keywords",
  "seo_title",
] as const;
export interface BrandRec {
  id: number;
  name: string;
  desc: string | null;
  excluded: boolean;
  exclusion_start_date: string | null;
  exclusion_end_date: string | null;
  exclusion_reason: string | null;
  seo_search_keywords: string | null;
  seo_meta_desc: string | null;
  seo_meta_keywords: string | null;
  seo_title: string | null;
  product_count: number;
  versions: Record<string, Record<string, string>>;
  created_at: string;
  updated_at: string;
}
export interface BrandAttrValueRec {
  id: number;
  brand_id: number;
  attribute_id: number;
  version_id: number;
  value: string;
}
export const CATEGORY_TEXT = ["slug", "desc", "seo_meta_desc", "seo_meta_keywords", "seo_meta_title", "search_keywords"] as const;
export interface CategoryRec {
  id: number;
  parent_id: number | null;
  name: string;
  slug: string | null;
  desc: string | null;
  status: "enabled" | "disabled";
  is_visible: boolean;
  sort_order: number;
  attribute_sets: number[];
  seo_meta_desc: string | null;
  seo_meta_keywords: string | null;
  seo_meta_title: string | null;
  search_keywords: string | null;
  protected: boolean;
  versions: Record<string, Record<string, string>>;
  created_at: string;
  updated_at: string;
}
export interface ChannelRec {
  id: number;
  channel_name: string;
  sync: boolean;
  price_base: string;
  inventory_location: string;
  version_id: number;
  version_name: string;
}
export interface DisplayGroupRec {
  id: number;
  name: string;
  sort_order: number;
  in_navigation: boolean;
}
export interface GenericEntityRec {
  id: number;
  name: string;
  description: string;
  is_tree: boolean;
  is_product_attribute: boolean;
  priority: number;
  parent_id: number | null;
  publishable: boolean;
  display_on_navigation: boolean;
  options: unknown[];
}
export interface ExportRec {
  id: number;
  profile_id: number;
  created_ms: number;
  failed: boolean;
}
export interface ChangelogRec {
  id: number;
  updated_at: string;
  entity_id: number;
  entity_type: "product" | "brand" | "category" | "product_asset" | "attribute" | "attribute_set";
  change_type: "full" | "delete" | "reset";
}

/** Everything a tenant holds; JSON-serialisable for --data persistence. */
export interface TenantData {
  nextId: number;
  /** Per-table sequences (`--id-sequence per-table`): table -> next id. */
  nextIds?: Record<string, number>;
  attributes: AttributeRec[];
  typeValues: TypeValueRec[];
  attributeSets: AttributeSetRec[];
  assignments: AssignmentRec[];
  blocks: BlockRec[];
  blockAssets: AssetRec[];
  brands: BrandRec[];
  brandAssets: AssetRec[];
  brandWebIds: Array<{ brand_id: number; channel_id: number; web_id: string }>;
  brandAttrValues: BrandAttrValueRec[];
  brandAssignedAttributes: Array<{ brand_id: number; attribute_id: number }>;
  brandAssignedSets: Array<{ brand_id: number; attribute_set_id: number }>;
  categories: CategoryRec[];
  categoryAssets: AssetRec[];
  categoryWebIds: Array<{ category_id: number; channel_id: number; web_id: string }>;
  channels: ChannelRec[];
  displayGroups: DisplayGroupRec[];
  genericEntities: GenericEntityRec[];
  exportProfiles: number[];
  exports: ExportRec[];
  changelogs: ChangelogRec[];
}

export type IdTable =
  | "attributes"
  | "typeValues"
  | "typeValueVersions"
  | "attributeSets"
  | "assignments"
  | "blocks"
  | "brands"
  | "brandAssets"
  | "brandAttrValues"
  | "categories"
  | "categoryAssets"
  | "displayGroups"
  | "exports";
