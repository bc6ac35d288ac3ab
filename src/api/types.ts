/**
 * Raw record shapes of API v1 (docs/pim-api-v1.md), without their
 * envelopes, as the client returns them. Booleans may arrive as 1/0, nulls
 * where absent: src/state/ normalises; nothing else reads these shapes.
 */
import type { ApiChangelog, ChangelogQuery, ChangelogRead } from "./changelog-types.js";

export type { ApiChangelog, ChangelogQuery, ChangelogRead };

export type Bool01 = boolean | 0 | 1;

export interface ApiTypeValue {
  id: number;
  attribute_id: number;
  value: string;
  slug?: string | null;
  sort_order?: number;
  version_id?: number;
  master_attribute_type_value_id?: number;
  created_at?: string;
  updated_at?: string;
}

export interface ApiAttribute {
  id: number;
  name: string;
  type: string;
  slug?: string;
  note?: string | null;
  length?: number | null;
  display_group_id?: number | null;
  display_group_name?: string;
  sort_order?: number;
  publish?: Bool01;
  version_id?: number;
  typeValuesArray?: ApiTypeValue[];
  created_at?: string;
  updated_at?: string;
}

export interface ApiAttributeSet {
  id: number;
  name: string;
  sort_order?: number;
}

export interface ApiAttributeSetAttribute {
  id: number;
  attribute_id: number;
  attribute_set_id: number;
  sort_order?: number;
  created_at?: string;
  updated_at?: string;
}

export interface ApiBlock {
  id: number;
  name: string;
  slug: string;
  content?: string | null;
}

export interface ApiBlockAsset {
  id: number;
  block_id: number;
  uri: string;
  alttext?: string | null;
  sort_order?: number;
  thumbnail?: Bool01;
}

export interface ApiBrand {
  id: number;
  name: string;
  desc?: string | null;
  excluded?: Bool01;
  exclusion_start_date?: string | null;
  exclusion_end_date?: string | null;
  exclusion_reason?: string | null;
  seo_search_keywords?: string | null;
  seo_meta_desc?: string | null;
  seo_meta_keywords?: string | null;
  seo_title?: string | null;
  product_count?: number;
  created_at?: string;
  updated_at?: string;
}

export interface ApiAsset {
  id: number;
  brand_id?: number;
  category_id?: number;
  uri: string;
  alttext?: string | null;
  thumbnail?: Bool01;
}

export interface ApiBrandAttribute {
  attribute_id: number;
  name: string;
  slug?: string;
  user_defined_key?: string;
  type?: string;
  values: Array<{ id: number; version_id: number; value: string }>;
}

export interface ApiCategoryAttribute {
  id: number;
  name: string;
  slug?: string;
  displayName?: string;
  sortOrder?: number;
  value?: string;
}

export interface ApiCategory {
  id: number;
  parent_id: number | null;
  parent_name?: string | null;
  name: string;
  slug?: string | null;
  desc?: string | null;
  status?: "enabled" | "disabled";
  is_visible?: Bool01;
  sort_order?: number;
  /** Read shape is not documented: ids, or objects with an id (the emulator's default). */
  attribute_sets?: Array<number | { id: number; name?: string }>;
  seo_meta_desc?: string | null;
  seo_meta_keywords?: string | null;
  seo_meta_title?: string | null;
  search_keywords?: string | null;
  is_smart?: Bool01;
  fqn?: string;
  category_attributes?: unknown[];
  channels?: Array<{ id: number; name: string }>;
  assets?: unknown[];
  assets_thumbnail?: unknown;
  image_alttext?: string | null;
  attributes?: ApiCategoryAttribute[];
  created_at?: string;
  updated_at?: string;
}

export interface ApiChannel {
  id: number;
  channel_name: string;
  sync?: Bool01;
  price_base?: string;
  inventory_location?: string;
  version_id: number;
  version_name: string;
}

export interface ApiDisplayGroup {
  id: number;
  name: string;
  sort_order?: number;
  in_navigation?: Bool01;
}

export interface ApiExport {
  id: number;
  profile_id: number;
  status: "queued" | "processing" | "done" | "failed";
  filename: string | null;
  file_url: string;
  created_at: string;
}

export interface ApiGenericEntity {
  id: number;
  name: string;
  description?: string;
  is_tree?: Bool01;
  is_product_attribute?: Bool01;
  priority?: number;
  parent_id?: number | null;
  publishable?: Bool01;
  display_on_navigation?: Bool01;
  options?: unknown[];
}

export interface PageLinks {
  first: string | null;
  last: string | null;
  prev: string | null;
  next: string | null;
}

export interface PageMeta {
  current_page: number;
  from: number | null;
  last_page: number;
  path: string;
  per_page: number;
  to: number | null;
  total: number;
}

export interface Page<T> {
  items: T[];
  links: PageLinks;
  meta: PageMeta;
  /** The page size this page was read with (after any fallback from a refused limit). */
  limit?: number;
}

/**
 * A paged list read whole. `complete: false`: the list kept changing under three
 * reads (another client writing); `items` is the union seen, and a record missing
 * from it may still exist, so nothing may be concluded from its absence.
 */
export interface ListRead<T> {
  items: T[];
  complete: boolean;
  problem?: string;
  /** Pages the (last) read took; a one-page read cannot have shifted. */
  pages?: number;
}

/** Write bodies. Fields are the API's own names. */
export type AttributeWrite = Partial<{
  name: string;
  type: string;
  slug: string;
  note: string | null;
  length: number | null;
  display_group_id: number | null;
  sort_order: number;
  publish: boolean;
}>;
export type AttributeVersionWrite = Partial<{ name: string; note: string | null }>;
export type TypeValueWrite = { value: string } & Partial<{ slug: string | null; sort_order: number }>;
export type AttributeSetWrite = Partial<{ name: string; sort_order: number }>;
export type BlockWrite = Partial<{ name: string; slug: string; content: string }>;
export type DisplayGroupWrite = Partial<{ name: string; sort_order: number; in_navigation: boolean }>;
export type BrandWrite = Partial<{
  name: string;
  desc: string;
  excluded: boolean;
  exclusion_start_date: string | null;
  exclusion_end_date: string | null;
  exclusion_reason: string;
  seo_search_keywords: string;
  seo_meta_desc: string;
  seo_meta_keywords: string;
  seo_title: string;
}>;
export type AssetWrite = { image_url: string } & Partial<{ alttext: string; thumbnail: boolean }>;
export interface BrandAttributeWrite {
  attribute_id: number;
  version_id: number;
  values: Array<{ value: string }>;
}
export type CategoryWrite = Partial<{
  parent_id: number;
  name: string;
  slug: string;
  desc: string;
  status: "enabled" | "disabled";
  is_visible: boolean;
  sort_order: number;
  attribute_sets: number[];
  seo_meta_desc: string;
  seo_meta_keywords: string;
  seo_meta_title: string;
  search_keywords: string;
}>;

/**
 * The typed client (src/api/client.ts implements it). Every list method walks
 * all pages; `*Page` methods return one page with links and meta. Search
 * methods return null when the API answers with an empty response.
 */
export interface PimApi {
  ping(): Promise<{ time: string }>;
  /**
   * The applier's circuit breaker opened (the tenant stopped answering): requests
   * in flight end at their next failure instead of retrying (a lost create is
   * adopted by the next run, never duplicated). Later successes are still returned.
   */
  stopRetrying?(): void;

  listAttributes(versionId?: number): Promise<ApiAttribute[]>;
  getAttribute(id: number, versionId?: number): Promise<ApiAttribute>;
  createAttribute(body: AttributeWrite): Promise<ApiAttribute>;
  updateAttribute(id: number, body: AttributeWrite): Promise<ApiAttribute>;
  updateAttributeVersion(id: number, versionId: number, body: AttributeVersionWrite): Promise<ApiAttribute>;
  deleteAttribute(id: number): Promise<void>;
  deleteAttributeVersion(id: number, versionId: number): Promise<void>;
  searchAttribute(name: string): Promise<ApiAttribute | null>;

  listTypeValues(attributeId: number, versionId?: number): Promise<ApiTypeValue[]>;
  getTypeValue(attributeId: number, id: number, versionId?: number): Promise<ApiTypeValue>;
  createTypeValue(attributeId: number, body: TypeValueWrite): Promise<ApiTypeValue>;
  updateTypeValue(attributeId: number, id: number, body: TypeValueWrite): Promise<ApiTypeValue>;
  updateTypeValueVersion(attributeId: number, id: number, versionId: number, body: { value: string }): Promise<ApiTypeValue>;
  deleteTypeValue(attributeId: number, id: number): Promise<void>;
  deleteTypeValueVersion(attributeId: number, id: number, versionId: number): Promise<void>;

  listAttributeSets(): Promise<ApiAttributeSet[]>;
  getAttributeSet(id: number): Promise<ApiAttributeSet>;
  createAttributeSet(body: AttributeSetWrite): Promise<ApiAttributeSet>;
  updateAttributeSet(id: number, body: AttributeSetWrite): Promise<ApiAttributeSet>;
  deleteAttributeSet(id: number): Promise<void>;
  searchAttributeSet(name: string): Promise<ApiAttributeSet | null>;
  /** [] when the API answers 404 for a set without attributes. */
  listAttributeSetAttributes(setId: number): Promise<ApiAttributeSetAttribute[]>;
  getAttributeSetAttribute(setId: number, attributeId: number): Promise<ApiAttributeSetAttribute | null>;
  addAttributeToSet(setId: number, attributeId: number): Promise<void>;
  /**
   * Removes one assignment. API v1 does not say whether the path takes the
   * assignment's id or the attribute's id, so both are given and the client sends
   * the one that cannot remove another assignment under either reading.
   */
  removeAttributeFromSet(setId: number, target: { assignmentId: number; attributeId: number }): Promise<void>;

  listBlocks(): Promise<ApiBlock[]>;
  getBlock(id: number): Promise<ApiBlock>;
  createBlock(body: BlockWrite): Promise<ApiBlock>;
  updateBlock(id: number, body: BlockWrite): Promise<ApiBlock>;
  deleteBlock(id: number): Promise<void>;
  listBlockAssets(blockId: number): Promise<ApiBlockAsset[]>;
  getBlockAsset(blockId: number, id: number): Promise<ApiBlockAsset>;

  listBrands(opts?: { versionId?: number; limit?: number }): Promise<ApiBrand[]>;
  listBrandsPage(opts: { page: number; versionId?: number; limit?: number }): Promise<Page<ApiBrand>>;
  /** Every page, checked against meta.total (see ListRead); `first` reuses a page already read. */
  readBrands(opts?: { versionId?: number; first?: Page<ApiBrand> }): Promise<ListRead<ApiBrand>>;
  getBrand(id: number, versionId?: number): Promise<ApiBrand>;
  createBrand(body: BrandWrite): Promise<ApiBrand>;
  updateBrand(id: number, body: BrandWrite): Promise<ApiBrand>;
  deleteBrand(id: number): Promise<void>;
  searchBrand(name: string): Promise<ApiBrand | null>;
  listBrandAssets(brandId: number): Promise<ApiAsset[]>;
  getBrandAsset(brandId: number, id: number): Promise<ApiAsset>;
  createBrandAsset(brandId: number, body: AssetWrite): Promise<ApiAsset>;
  updateBrandAsset(brandId: number, id: number, body: AssetWrite): Promise<ApiAsset>;
  deleteBrandAsset(brandId: number, id: number): Promise<void>;
  setBrandWebId(brandId: number, channelId: number, webId: string): Promise<void>;
  listBrandAttributes(brandId: number): Promise<ApiBrandAttribute[]>;
  getBrandAttribute(brandId: number, attributeId: number): Promise<ApiBrandAttribute[]>;
  createBrandAttribute(brandId: number, body: BrandAttributeWrite): Promise<ApiBrandAttribute>;
  updateBrandAttributeValue(brandId: number, attributeId: number, valueId: number, body: BrandAttributeWrite): Promise<ApiBrandAttribute>;
  deleteBrandAttributeValue(brandId: number, attributeId: number, valueId: number): Promise<void>;
  assignBrandAttribute(brandId: number, attributeId: number): Promise<void>;
  assignBrandAttributeSet(brandId: number, attributeSetId: number): Promise<void>;

  listCategories(opts?: { withAttributes?: boolean; limit?: number }): Promise<ApiCategory[]>;
  listCategoriesPage(opts: { page: number; withAttributes?: boolean; limit?: number }): Promise<Page<ApiCategory>>;
  readCategories(opts?: { withAttributes?: boolean }): Promise<ListRead<ApiCategory>>;
  getCategory(id: number, opts?: { withAttributes?: boolean; versionId?: number }): Promise<ApiCategory>;
  createCategory(body: CategoryWrite & { parent_id: number; name: string }): Promise<ApiCategory>;
  updateCategory(id: number, body: CategoryWrite): Promise<ApiCategory>;
  deleteCategory(id: number): Promise<void>;
  listCategoryAssets(categoryId: number): Promise<ApiAsset[]>;
  getCategoryAsset(categoryId: number, id: number): Promise<ApiAsset>;
  createCategoryAsset(categoryId: number, body: AssetWrite): Promise<ApiAsset>;
  updateCategoryAsset(categoryId: number, id: number, body: AssetWrite): Promise<ApiAsset>;
  deleteCategoryAsset(categoryId: number, id: number): Promise<void>;
  setCategoryWebId(categoryId: number, channelId: number, webId: string): Promise<void>;

  /** Every entry on every page the service links to. */
  listChangelogs(opts?: ChangelogQuery): Promise<ApiChangelog[]>;
  /** The same, with what the pages said about themselves; `firstPage` stops after the first. */
  readChangelogs(opts?: ChangelogQuery & { firstPage?: boolean }): Promise<ChangelogRead>;
  getChangelog(id: number): Promise<ApiChangelog>;

  listChannels(): Promise<ApiChannel[]>;
  getChannel(id: number): Promise<ApiChannel>;

  listDisplayGroups(): Promise<ApiDisplayGroup[]>;
  getDisplayGroup(id: number): Promise<ApiDisplayGroup>;
  createDisplayGroup(body: DisplayGroupWrite): Promise<ApiDisplayGroup>;
  updateDisplayGroup(id: number, body: DisplayGroupWrite): Promise<ApiDisplayGroup>;

  createExport(profileId: number): Promise<ApiExport>;
  getExport(id: number): Promise<ApiExport>;
  /** Downloads an export's file_url (absolute; same tenant auth). */
  downloadExport(fileUrl: string, opts?: { readyTimeoutMs?: number }): Promise<Uint8Array>;

  listGenericEntities(): Promise<ApiGenericEntity[]>;
  listGenericEntitiesPage(page: number): Promise<Page<ApiGenericEntity>>;
  getGenericEntity(id: number): Promise<ApiGenericEntity>;
}
