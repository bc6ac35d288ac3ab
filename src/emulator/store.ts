/**
 * One tenant's data and the rules API v1 states for it (uniqueness, 404s,
 * protected categories, cycles). Handlers in routes.ts translate HTTP to
 * these methods; everything here is synchronous, so concurrent requests see
 * each write whole.
 */

export class HttpError extends Error {
  constructor(
    readonly status: number,
    readonly body: Record<string, unknown>,
  ) {
    super(String(body.message ?? status));
  }
}

export const notFound = (what: string): HttpError => new HttpError(404, { message: `${what} not found.` });
export const unprocessable = (field: string, message: string): HttpError =>
  new HttpError(422, { message, errors: { [field]: [message] } });

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

export function slugify(s: string): string {
  return s
    .normalize("NFKD")
    .replace(/[\u0300-\u036f]/g, "")
    .toLowerCase()
    .replace(/[^a-z0-9]+/g, "-")
    .replace(/^-+|-+$/g, "");
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

const now = (): string => new Date().toISOString().replace(/\.\d{3}Z$/, "Z");

type Changelogged = ChangelogRec["entity_type"];

/** A tenant: Maps by id for O(1) reads, name indexes for search and uniqueness. */
export class TenantStore {
  nextId = 1;
  readonly attributes = new Map<number, AttributeRec>();
  readonly typeValues = new Map<number, TypeValueRec>();
  readonly attributeSets = new Map<number, AttributeSetRec>();
  readonly assignments = new Map<number, AssignmentRec>();
  readonly blocks = new Map<number, BlockRec>();
  readonly blockAssets = new Map<number, AssetRec>();
  readonly brands = new Map<number, BrandRec>();
  readonly brandAssets = new Map<number, AssetRec>();
  /** channel id -> brand id -> web id */
  readonly brandWebIds = new Map<number, Map<number, string>>();
  readonly brandAttrValues = new Map<number, BrandAttrValueRec>();
  readonly brandAssignedAttributes = new Map<number, Set<number>>();
  readonly brandAssignedSets = new Map<number, Set<number>>();
  readonly categories = new Map<number, CategoryRec>();
  readonly categoryAssets = new Map<number, AssetRec>();
  readonly categoryWebIds = new Map<number, Map<number, string>>();
  readonly channels = new Map<number, ChannelRec>();
  readonly displayGroups = new Map<number, DisplayGroupRec>();
  readonly genericEntities = new Map<number, GenericEntityRec>();
  readonly exportProfiles = new Set<number>();
  readonly exports = new Map<number, ExportRec>();
  readonly changelogs: ChangelogRec[] = [];
  // Indexes.
  private readonly brandByName = new Map<string, number>();
  private readonly childrenOf = new Map<number | null, Set<number>>();
  /** Sorted id lists for paging without sorting per request. */
  private brandIds: number[] | null = null;
  private categoryIds: number[] | null = null;
  /** Called after every write (persistence). */
  onChange: () => void = () => undefined;

  constructor(readonly hash: string) {}

  /**
   * Ids come from one sequence per table, as in a database (the default), or from
   * one sequence for every table (`--id-sequence global`), which hides mix-ups of
   * one table's ids with another's.
   */
  idSequence: "per-table" | "global" = "per-table";
  nextIds: Record<string, number> = {};

  id(table: IdTable): number {
    if (this.idSequence === "global") return this.nextId++;
    // The table is scanned once, when its sequence starts (after a load, say); a scan per
    // insert made every create cost the size of the table. Records a test puts into a
    // table by hand are stepped over.
    let next = this.nextIds[table] ?? this.highestId(table) + 1;
    const m = this.tableOf(table);
    while (m?.has(next)) next++;
    this.nextIds[table] = next + 1;
    return next;
  }

  private tableOf(table: IdTable): Map<number, unknown> | undefined {
    return table === "typeValueVersions" || table === "exports" ? (table === "exports" ? this.exports : undefined) : (this[table] as Map<number, unknown>);
  }

  private highestId(table: IdTable): number {
    const m = this.tableOf(table);
    let max = 0;
    if (m) for (const id of m.keys()) if (id > max) max = id;
    if (table === "typeValueVersions") for (const tv of this.typeValues.values()) for (const v of Object.values(tv.versions)) if (v.id > max) max = v.id;
    return max;
  }

  private changed(type: Changelogged | null, id: number, change: ChangelogRec["change_type"] = "full"): void {
    if (type) this.changelogs.push({ id: this.changelogs.length + 1, updated_at: now(), entity_id: id, entity_type: type, change_type: change });
    this.onChange();
  }

  // ------------------------------------------------------------ attributes

  attributeByName(name: string, caseInsensitive = false): AttributeRec | undefined {
    for (const a of this.attributes.values()) if (caseInsensitive ? a.name.toLowerCase() === name.toLowerCase() : a.name === name) return a;
    return undefined;
  }

  getAttribute(id: number): AttributeRec {
    const a = this.attributes.get(id);
    if (!a) throw notFound("Attribute");
    return a;
  }

  createAttribute(body: Partial<AttributeRec> & { name: string; type: string }): AttributeRec {
    if (this.attributeByName(body.name)) throw unprocessable("name", "The name has already been taken.");
    if (body.display_group_id != null && !this.displayGroups.has(body.display_group_id)) throw unprocessable("display_group_id", "The selected display group id is invalid.");
    const t = now();
    const a: AttributeRec = {
      id: this.id("attributes"),
      name: body.name,
      type: body.type,
      slug: body.slug ?? slugify(body.name),
      note: body.note ?? null,
      length: body.length ?? null,
      display_group_id: body.display_group_id ?? null,
      sort_order: body.sort_order ?? 0,
      publish: body.publish ?? false,
      versions: {},
      created_at: t,
      updated_at: t,
    };
    this.attributes.set(a.id, a);
    this.changed("attribute", a.id);
    return a;
  }

  updateAttribute(id: number, body: Partial<AttributeRec>): AttributeRec {
    const a = this.getAttribute(id);
    if (body.name !== undefined && body.name !== a.name && this.attributeByName(body.name)) throw unprocessable("name", "The name has already been taken.");
    if (body.display_group_id != null && !this.displayGroups.has(body.display_group_id)) throw unprocessable("display_group_id", "The selected display group id is invalid.");
    for (const k of ["name", "type", "slug", "note", "length", "display_group_id", "sort_order", "publish"] as const) {
      if (body[k] !== undefined) (a as unknown as Record<string, unknown>)[k] = body[k];
    }
    a.updated_at = now();
    this.changed("attribute", id);
    return a;
  }

  setAttributeVersion(id: number, version: number, body: { name?: string; note?: string | null }): AttributeRec {
    const a = this.getAttribute(id);
    const v = (a.versions[version] ??= {});
    if (body.name !== undefined) v.name = body.name;
    if (body.note !== undefined) v.note = body.note;
    a.updated_at = now();
    this.changed("attribute", id);
    return a;
  }

  deleteAttributeVersion(id: number, version: number): void {
    const a = this.getAttribute(id);
    delete a.versions[version];
    this.changed("attribute", id);
  }

  deleteAttribute(id: number): void {
    this.getAttribute(id);
    this.attributes.delete(id);
    for (const [tid, tv] of this.typeValues) if (tv.attribute_id === id) this.typeValues.delete(tid);
    this.tvByAttribute?.delete(id);
    for (const [sid, s] of this.assignments) if (s.attribute_id === id) this.assignments.delete(sid);
    for (const [vid, v] of this.brandAttrValues) if (v.attribute_id === id) this.brandAttrValues.delete(vid);
    for (const set of this.brandAssignedAttributes.values()) set.delete(id);
    this.changed("attribute", id, "delete");
  }

  /**
   * Type values by attribute: the attribute lists carry every attribute's values, and a
   * scan of all type values per attribute made each list (and each create) grow with the
   * whole tenant. Built on first use, kept up to date by the methods below.
   */
  private tvByAttribute: Map<number, Map<number, TypeValueRec>> | null = null;
  private typeValueIndex(): Map<number, Map<number, TypeValueRec>> {
    if (!this.tvByAttribute) {
      this.tvByAttribute = new Map();
      for (const tv of this.typeValues.values()) this.indexTypeValue(tv);
    }
    return this.tvByAttribute;
  }
  private indexTypeValue(tv: TypeValueRec): void {
    const index = this.tvByAttribute;
    if (!index) return;
    let m = index.get(tv.attribute_id);
    if (!m) index.set(tv.attribute_id, (m = new Map()));
    m.set(tv.id, tv);
  }

  typeValuesOf(attributeId: number): TypeValueRec[] {
    const m = this.typeValueIndex().get(attributeId);
    return m ? [...m.values()].sort((a, b) => a.sort_order - b.sort_order || a.id - b.id) : [];
  }

  getTypeValue(attributeId: number, id: number): TypeValueRec {
    this.getAttribute(attributeId);
    const tv = this.typeValues.get(id);
    if (!tv || tv.attribute_id !== attributeId) throw notFound("Attribute type value");
    return tv;
  }

  createTypeValue(attributeId: number, body: { value: string; slug?: string | null; sort_order?: number }): TypeValueRec {
    this.getAttribute(attributeId);
    if (this.typeValuesOf(attributeId).some((t) => t.value === body.value)) throw unprocessable("value", "The value has already been taken.");
    const t = now();
    const tv: TypeValueRec = {
      id: this.id("typeValues"),
      attribute_id: attributeId,
      value: body.value,
      slug: body.slug === undefined ? slugify(body.value) : body.slug,
      sort_order: body.sort_order ?? 0,
      versions: {},
      created_at: t,
      updated_at: t,
    };
    this.typeValues.set(tv.id, tv);
    this.indexTypeValue(tv);
    this.changed("attribute", attributeId);
    return tv;
  }

  updateTypeValue(attributeId: number, id: number, body: { value?: string; slug?: string | null; sort_order?: number }): TypeValueRec {
    const tv = this.getTypeValue(attributeId, id);
    if (body.value !== undefined && body.value !== tv.value && this.typeValuesOf(attributeId).some((t) => t.value === body.value)) {
      throw unprocessable("value", "The value has already been taken.");
    }
    if (body.value !== undefined) tv.value = body.value;
    if (body.slug !== undefined) tv.slug = body.slug;
    if (body.sort_order !== undefined) tv.sort_order = body.sort_order;
    tv.updated_at = now();
    this.changed("attribute", attributeId);
    return tv;
  }

  setTypeValueVersion(attributeId: number, id: number, version: number, value: string): TypeValueRec {
    const tv = this.getTypeValue(attributeId, id);
    const existing = tv.versions[version];
    if (existing) existing.value = value;
    else tv.versions[version] = { id: this.id("typeValueVersions"), value };
    tv.updated_at = now();
    this.changed("attribute", attributeId);
    return tv;
  }

  deleteTypeValueVersion(attributeId: number, id: number, version: number): void {
    const tv = this.getTypeValue(attributeId, id);
    delete tv.versions[version];
    this.changed("attribute", attributeId);
  }

  deleteTypeValue(attributeId: number, id: number): void {
    this.getTypeValue(attributeId, id);
    this.typeValues.delete(id);
    this.tvByAttribute?.get(attributeId)?.delete(id);
    this.changed("attribute", attributeId);
  }

  // -------------------------------------------------------- attribute sets

  setByName(name: string, caseInsensitive = false): AttributeSetRec | undefined {
    for (const s of this.attributeSets.values()) if (caseInsensitive ? s.name.toLowerCase() === name.toLowerCase() : s.name === name) return s;
    return undefined;
  }

  getSet(id: number): AttributeSetRec {
    const s = this.attributeSets.get(id);
    if (!s) throw notFound("Attribute set");
    return s;
  }

  createSet(body: { name: string; sort_order?: number }): AttributeSetRec {
    if (this.setByName(body.name)) throw unprocessable("name", "The name has already been taken.");
    const s = { id: this.id("attributeSets"), name: body.name, sort_order: body.sort_order ?? 0 };
    this.attributeSets.set(s.id, s);
    this.changed("attribute_set", s.id);
    return s;
  }

  updateSet(id: number, body: { name?: string; sort_order?: number }): AttributeSetRec {
    const s = this.getSet(id);
    if (body.name !== undefined && body.name !== s.name && this.setByName(body.name)) throw unprocessable("name", "The name has already been taken.");
    if (body.name !== undefined) s.name = body.name;
    if (body.sort_order !== undefined) s.sort_order = body.sort_order;
    this.changed("attribute_set", id);
    return s;
  }

  deleteSet(id: number): void {
    this.getSet(id);
    this.attributeSets.delete(id);
    for (const [aid, a] of this.assignments) if (a.attribute_set_id === id) this.assignments.delete(aid);
    for (const c of this.categories.values()) c.attribute_sets = c.attribute_sets.filter((s) => s !== id);
    for (const set of this.brandAssignedSets.values()) set.delete(id);
    this.changed("attribute_set", id, "delete");
  }

  assignmentsOf(setId: number): AssignmentRec[] {
    const out: AssignmentRec[] = [];
    for (const a of this.assignments.values()) if (a.attribute_set_id === setId) out.push(a);
    return out.sort((a, b) => a.sort_order - b.sort_order || a.id - b.id);
  }

  assign(setId: number, attributeId: number): AssignmentRec {
    this.getSet(setId);
    if (!this.attributes.has(attributeId)) throw unprocessable("attribute_id", "The selected attribute id is invalid.");
    const existing = this.assignmentsOf(setId).find((a) => a.attribute_id === attributeId);
    if (existing) return existing;
    const t = now();
    const a: AssignmentRec = { id: this.id("assignments"), attribute_id: attributeId, attribute_set_id: setId, sort_order: this.assignmentsOf(setId).length, created_at: t, updated_at: t };
    this.assignments.set(a.id, a);
    this.changed("attribute_set", setId);
    return a;
  }

  unassign(setId: number, assignmentId: number): void {
    this.getSet(setId);
    const a = this.assignments.get(assignmentId);
    if (!a || a.attribute_set_id !== setId) throw notFound("Attribute set attribute");
    this.assignments.delete(assignmentId);
    this.changed("attribute_set", setId);
  }

  // ---------------------------------------------------------------- blocks

  getBlock(id: number): BlockRec {
    const b = this.blocks.get(id);
    if (!b) throw notFound("Block");
    return b;
  }

  createBlock(body: { name: string; slug: string; content?: string }): BlockRec {
    for (const b of this.blocks.values()) if (b.slug === body.slug) throw unprocessable("slug", "The slug has already been taken.");
    const b = { id: this.id("blocks"), name: body.name, slug: body.slug, content: body.content ?? "" };
    this.blocks.set(b.id, b);
    this.changed(null, b.id);
    return b;
  }

  updateBlock(id: number, body: { name?: string; slug?: string; content?: string }): BlockRec {
    const b = this.getBlock(id);
    if (body.slug !== undefined && body.slug !== b.slug) for (const o of this.blocks.values()) if (o.slug === body.slug) throw unprocessable("slug", "The slug has already been taken.");
    if (body.name !== undefined) b.name = body.name;
    if (body.slug !== undefined) b.slug = body.slug;
    if (body.content !== undefined) b.content = body.content;
    this.changed(null, id);
    return b;
  }

  // ---------------------------------------------------------------- brands

  brandByNameLookup(name: string, caseInsensitive = false): BrandRec | undefined {
    if (!caseInsensitive) {
      const id = this.brandByName.get(name);
      return id === undefined ? undefined : this.brands.get(id);
    }
    for (const b of this.brands.values()) if (b.name.toLowerCase() === name.toLowerCase()) return b;
    return undefined;
  }

  getBrand(id: number): BrandRec {
    const b = this.brands.get(id);
    if (!b) throw notFound("Brand");
    return b;
  }

  sortedBrandIds(): number[] {
    return (this.brandIds ??= [...this.brands.keys()].sort((a, b) => a - b));
  }

  createBrand(body: Partial<BrandRec> & { name: string }): BrandRec {
    if (this.brandByName.has(body.name)) throw unprocessable("name", "The name has already been taken.");
    const t = now();
    const b: BrandRec = {
      id: this.id("brands"),
      name: body.name,
      desc: body.desc ?? null,
      excluded: body.excluded ?? false,
      exclusion_start_date: body.exclusion_start_date ?? null,
      exclusion_end_date: body.exclusion_end_date ?? null,
      exclusion_reason: body.exclusion_reason ?? null,
      seo_search_keywords: body.seo_search_keywords ?? null,
      seo_meta_desc: body.seo_meta_desc ?? null,
      seo_meta_keywords: body.seo_meta_keywords ?? null,
      seo_title: body.seo_title ?? null,
      product_count: body.product_count ?? 0,
      versions: body.versions ?? {},
      created_at: t,
      updated_at: t,
    };
    this.brands.set(b.id, b);
    this.brandByName.set(b.name, b.id);
    this.brandIds = null;
    this.changed("brand", b.id);
    return b;
  }

  updateBrand(id: number, body: Partial<BrandRec>): BrandRec {
    const b = this.getBrand(id);
    if (body.name !== undefined && body.name !== b.name) {
      if (this.brandByName.has(body.name)) throw unprocessable("name", "The name has already been taken.");
      this.brandByName.delete(b.name);
      this.brandByName.set(body.name, id);
      b.name = body.name;
    }
    for (const k of [...BRAND_FIELDS, "excluded"] as const) if (body[k] !== undefined) (b as unknown as Record<string, unknown>)[k] = body[k];
    b.updated_at = now();
    this.changed("brand", id);
    return b;
  }

  deleteBrand(id: number): void {
    const b = this.getBrand(id);
    this.brands.delete(id);
    this.brandByName.delete(b.name);
    this.brandIds = null;
    for (const [aid, a] of this.brandAssets) if (a.owner_id === id) this.brandAssets.delete(aid);
    for (const m of this.brandWebIds.values()) m.delete(id);
    for (const [vid, v] of this.brandAttrValues) if (v.brand_id === id) this.brandAttrValues.delete(vid);
    this.brandAssignedAttributes.delete(id);
    this.brandAssignedSets.delete(id);
    this.changed("brand", id, "delete");
  }

  setWebId(kind: "brand" | "category", ownerId: number, channelId: number, webId: string): void {
    if (kind === "brand") this.getBrand(ownerId);
    else this.getCategory(ownerId);
    if (!this.channels.has(channelId)) throw notFound("Channel");
    const all = kind === "brand" ? this.brandWebIds : this.categoryWebIds;
    let m = all.get(channelId);
    if (!m) all.set(channelId, (m = new Map()));
    for (const [other, w] of m) if (w === webId && other !== ownerId) throw unprocessable("web_id", "The web id has already been taken in this channel.");
    m.set(ownerId, webId);
    this.changed(kind, ownerId);
  }

  brandAttributeValues(brandId: number): BrandAttrValueRec[] {
    const out: BrandAttrValueRec[] = [];
    for (const v of this.brandAttrValues.values()) if (v.brand_id === brandId) out.push(v);
    return out.sort((a, b) => a.attribute_id - b.attribute_id || a.version_id - b.version_id);
  }

  createBrandAttributeValue(brandId: number, attributeId: number, versionId: number, value: string): void {
    this.getBrand(brandId);
    if (!this.attributes.has(attributeId)) throw unprocessable("attribute_id", "The selected attribute id is invalid.");
    if (this.brandAttributeValues(brandId).some((v) => v.attribute_id === attributeId && v.version_id === versionId)) {
      throw unprocessable("values", "The attribute already holds a value for this version.");
    }
    const v = { id: this.id("brandAttrValues"), brand_id: brandId, attribute_id: attributeId, version_id: versionId, value };
    this.brandAttrValues.set(v.id, v);
    this.changed("brand", brandId);
  }

  updateBrandAttributeValue(brandId: number, attributeId: number, valueId: number, value: string): void {
    this.getBrand(brandId);
    const v = this.brandAttrValues.get(valueId);
    if (!v || v.brand_id !== brandId || v.attribute_id !== attributeId) throw notFound("Brand attribute value");
    v.value = value;
    this.changed("brand", brandId);
  }

  deleteBrandAttributeValue(brandId: number, attributeId: number, valueId: number): void {
    this.getBrand(brandId);
    const v = this.brandAttrValues.get(valueId);
    if (!v || v.brand_id !== brandId || v.attribute_id !== attributeId) throw notFound("Brand attribute value");
    this.brandAttrValues.delete(valueId);
    this.changed("brand", brandId);
  }

  assignBrandAttribute(brandId: number, attributeId: number): void {
    this.getBrand(brandId);
    if (!this.attributes.has(attributeId)) throw unprocessable("attribute_id", "The selected attribute id is invalid.");
    let s = this.brandAssignedAttributes.get(brandId);
    if (!s) this.brandAssignedAttributes.set(brandId, (s = new Set()));
    s.add(attributeId);
    this.changed("brand", brandId);
  }

  assignBrandSet(brandId: number, setId: number): void {
    this.getBrand(brandId);
    if (!this.attributeSets.has(setId)) throw unprocessable("attribute_set_id", "The selected attribute set id is invalid.");
    let s = this.brandAssignedSets.get(brandId);
    if (!s) this.brandAssignedSets.set(brandId, (s = new Set()));
    s.add(setId);
    this.changed("brand", brandId);
  }

  // ---------------------------------------------------------------- assets

  assetMap(kind: "brand" | "category"): Map<number, AssetRec> {
    return kind === "brand" ? this.brandAssets : this.categoryAssets;
  }

  assetsOf(kind: "brand" | "category", ownerId: number): AssetRec[] {
    const out: AssetRec[] = [];
    for (const a of this.assetMap(kind).values()) if (a.owner_id === ownerId) out.push(a);
    return out.sort((a, b) => a.sort_order - b.sort_order || a.id - b.id);
  }

  getAsset(kind: "brand" | "category", ownerId: number, id: number): AssetRec {
    const a = this.assetMap(kind).get(id);
    if (!a || a.owner_id !== ownerId) throw notFound(`${kind === "brand" ? "Brand" : "Category"} asset`);
    return a;
  }

  createAsset(kind: "brand" | "category", ownerId: number, uri: (id: number) => string, body: { alttext?: string; thumbnail?: boolean }): AssetRec {
    if (kind === "brand") this.getBrand(ownerId);
    else this.getCategory(ownerId);
    const id = this.id(kind === "brand" ? "brandAssets" : "categoryAssets");
    const a: AssetRec = { id, owner_id: ownerId, uri: uri(id), alttext: body.alttext ?? "", thumbnail: body.thumbnail ?? false, sort_order: this.assetsOf(kind, ownerId).length };
    this.assetMap(kind).set(id, a);
    this.changed(kind, ownerId);
    return a;
  }

  updateAsset(kind: "brand" | "category", ownerId: number, id: number, uri: string | undefined, body: { alttext?: string; thumbnail?: boolean }): AssetRec {
    const a = this.getAsset(kind, ownerId, id);
    if (uri !== undefined) a.uri = uri;
    if (body.alttext !== undefined) a.alttext = body.alttext;
    if (body.thumbnail !== undefined) a.thumbnail = body.thumbnail;
    this.changed(kind, ownerId);
    return a;
  }

  deleteAsset(kind: "brand" | "category", ownerId: number, id: number): void {
    this.getAsset(kind, ownerId, id);
    this.assetMap(kind).delete(id);
    this.changed(kind, ownerId);
  }

  // ------------------------------------------------------------ categories

  getCategory(id: number): CategoryRec {
    const c = this.categories.get(id);
    if (!c) throw notFound("Category");
    return c;
  }

  sortedCategoryIds(): number[] {
    return (this.categoryIds ??= [...this.categories.keys()].sort((a, b) => a - b));
  }

  children(parentId: number | null): Set<number> {
    return this.childrenOf.get(parentId) ?? new Set();
  }

  private siblingNamed(parentId: number | null, name: string, except?: number): boolean {
    for (const id of this.children(parentId)) if (id !== except && this.categories.get(id)?.name === name) return true;
    return false;
  }

  private link(id: number, parentId: number | null): void {
    let s = this.childrenOf.get(parentId);
    if (!s) this.childrenOf.set(parentId, (s = new Set()));
    s.add(id);
  }

  pathOf(c: CategoryRec): string[] {
    const names: string[] = [];
    let cur: CategoryRec | undefined = c;
    const seen = new Set<number>();
    while (cur && !seen.has(cur.id)) {
      seen.add(cur.id);
      names.unshift(cur.name);
      cur = cur.parent_id === null ? undefined : this.categories.get(cur.parent_id);
    }
    return names;
  }

  private checkSets(ids: unknown): number[] {
    if (!Array.isArray(ids) || ids.some((i) => typeof i !== "number" || !this.attributeSets.has(i))) {
      throw unprocessable("attribute_sets", "The attribute sets must be an array of existing attribute set ids.");
    }
    return ids as number[];
  }

  createCategory(body: Partial<CategoryRec> & { parent_id: number | null; name: string }): CategoryRec {
    const parent = body.parent_id === 0 || body.parent_id === null ? null : body.parent_id;
    if (parent !== null && !this.categories.has(parent)) throw unprocessable("parent_id", "The selected parent id is invalid.");
    if (this.siblingNamed(parent, body.name)) throw unprocessable("name", "The name has already been taken within this parent.");
    const t = now();
    const c: CategoryRec = {
      id: this.id("categories"),
      parent_id: parent,
      name: body.name,
      slug: body.slug ?? slugify(body.name),
      desc: body.desc ?? null,
      status: body.status ?? "enabled",
      is_visible: body.is_visible ?? true,
      sort_order: body.sort_order ?? 0,
      attribute_sets: body.attribute_sets === undefined ? [] : this.checkSets(body.attribute_sets),
      seo_meta_desc: body.seo_meta_desc ?? null,
      seo_meta_keywords: body.seo_meta_keywords ?? null,
      seo_meta_title: body.seo_meta_title ?? null,
      search_keywords: body.search_keywords ?? null,
      protected: body.protected ?? false,
      versions: body.versions ?? {},
      created_at: t,
      updated_at: t,
    };
    this.categories.set(c.id, c);
    this.link(c.id, parent);
    this.categoryIds = null;
    this.changed("category", c.id);
    return c;
  }

  updateCategory(id: number, body: Partial<CategoryRec>): CategoryRec {
    const c = this.getCategory(id);
    // The document says a protected category "cannot be updated" and names no status: 422, like its other refusals.
    if (c.protected) throw new HttpError(422, { message: "This category is protected and cannot be updated.", errors: { id: ["This category is protected and cannot be updated."] } });
    let parent = c.parent_id;
    if (body.parent_id !== undefined) {
      parent = body.parent_id === 0 || body.parent_id === null ? null : body.parent_id;
      if (parent !== null) {
        if (!this.categories.has(parent)) throw unprocessable("parent_id", "The selected parent id is invalid.");
        for (let cur: number | null = parent; cur !== null; cur = this.categories.get(cur)?.parent_id ?? null) {
          if (cur === id) throw unprocessable("parent_id", "A category cannot be moved under itself or one of its descendants.");
        }
      }
    }
    const name = body.name ?? c.name;
    if ((name !== c.name || parent !== c.parent_id) && this.siblingNamed(parent, name, id)) {
      throw unprocessable("name", "The name has already been taken within this parent.");
    }
    const sets = body.attribute_sets === undefined ? undefined : this.checkSets(body.attribute_sets);
    if (parent !== c.parent_id) {
      this.childrenOf.get(c.parent_id)?.delete(id);
      this.link(id, parent);
      c.parent_id = parent;
    }
    c.name = name;
    if (sets) c.attribute_sets = sets;
    for (const k of [...CATEGORY_TEXT, "status", "is_visible", "sort_order"] as const) {
      if (body[k] !== undefined) (c as unknown as Record<string, unknown>)[k] = body[k];
    }
    c.updated_at = now();
    this.changed("category", id);
    return c;
  }

  /** `logDescendants: false`: a cascade writes one changelog entry, for the category deleted (a reading the document allows). */
  deleteCategory(id: number, cascade: boolean, logDescendants = true, top = true): void {
    const c = this.getCategory(id);
    const kids = [...this.children(id)];
    if (kids.length && !cascade) throw unprocessable("id", "The category has child categories; delete or move them first.");
    for (const k of kids) this.deleteCategory(k, true, logDescendants, false);
    this.categories.delete(id);
    this.childrenOf.get(c.parent_id)?.delete(id);
    this.childrenOf.delete(id);
    this.categoryIds = null;
    for (const [aid, a] of this.categoryAssets) if (a.owner_id === id) this.categoryAssets.delete(aid);
    for (const m of this.categoryWebIds.values()) m.delete(id);
    if (top || logDescendants) this.changed("category", id, "delete");
  }

  // -------------------------------------------------------- display groups

  getDisplayGroup(id: number): DisplayGroupRec {
    const d = this.displayGroups.get(id);
    if (!d) throw notFound("Display group");
    return d;
  }

  createDisplayGroup(body: { name: string; sort_order?: number; in_navigation?: boolean }): DisplayGroupRec {
    const d = { id: this.id("displayGroups"), name: body.name, sort_order: body.sort_order ?? 0, in_navigation: body.in_navigation ?? false };
    this.displayGroups.set(d.id, d);
    this.changed(null, d.id);
    return d;
  }

  updateDisplayGroup(id: number, body: { name?: string; sort_order?: number; in_navigation?: boolean }): DisplayGroupRec {
    const d = this.getDisplayGroup(id);
    if (body.name !== undefined) d.name = body.name;
    if (body.sort_order !== undefined) d.sort_order = body.sort_order;
    if (body.in_navigation !== undefined) d.in_navigation = body.in_navigation;
    this.changed(null, id);
    return d;
  }

  // ------------------------------------------------------- seeding helpers

  /** Bulk-load brands without HTTP (benchmarks, request-count tests). */
  seedBrands(count: number, prefix = "Brand"): void {
    for (let i = 0; i < count; i++) this.createBrand({ name: `${prefix} ${String(i).padStart(6, "0")}` });
  }

  setProductCount(brandId: number, n: number): void {
    this.getBrand(brandId).product_count = n;
  }

  protectCategory(id: number): void {
    this.getCategory(id).protected = true;
  }

  // ------------------------------------------------------------ persistence

  toData(): TenantData {
    const flat = <T>(m: Map<number, Map<number, string>>, f: (channel: number, owner: number, w: string) => T): T[] =>
      [...m].flatMap(([ch, inner]) => [...inner].map(([o, w]) => f(ch, o, w)));
    return {
      nextId: this.nextId,
      nextIds: { ...this.nextIds },
      attributes: [...this.attributes.values()],
      typeValues: [...this.typeValues.values()],
      attributeSets: [...this.attributeSets.values()],
      assignments: [...this.assignments.values()],
      blocks: [...this.blocks.values()],
      blockAssets: [...this.blockAssets.values()],
      brands: [...this.brands.values()],
      brandAssets: [...this.brandAssets.values()],
      brandWebIds: flat(this.brandWebIds, (channel_id, brand_id, web_id) => ({ brand_id, channel_id, web_id })),
      brandAttrValues: [...this.brandAttrValues.values()],
      brandAssignedAttributes: [...this.brandAssignedAttributes].flatMap(([b, s]) => [...s].map((a) => ({ brand_id: b, attribute_id: a }))),
      brandAssignedSets: [...this.brandAssignedSets].flatMap(([b, s]) => [...s].map((a) => ({ brand_id: b, attribute_set_id: a }))),
      categories: [...this.categories.values()],
      categoryAssets: [...this.categoryAssets.values()],
      categoryWebIds: flat(this.categoryWebIds, (channel_id, category_id, web_id) => ({ category_id, channel_id, web_id })),
      channels: [...this.channels.values()],
      displayGroups: [...this.displayGroups.values()],
      genericEntities: [...this.genericEntities.values()],
      exportProfiles: [...this.exportProfiles],
      exports: [...this.exports.values()],
      changelogs: [...this.changelogs],
    };
  }

  load(d: Partial<TenantData>): void {
    const put = <T extends { id: number }>(m: Map<number, T>, list: T[] | undefined) => {
      for (const r of list ?? []) {
        m.set(r.id, r);
        if (r.id >= this.nextId) this.nextId = r.id + 1;
      }
    };
    put(this.attributes, d.attributes?.map((a) => ({ ...a, versions: a.versions ?? {} })));
    put(this.typeValues, d.typeValues?.map((t) => ({ ...t, versions: t.versions ?? {} })));
    this.tvByAttribute = null;
    // Loaded records carry their own ids: a started sequence moves above them (never back).
    for (const t of Object.keys(this.nextIds)) this.nextIds[t] = Math.max(this.nextIds[t]!, this.highestId(t as IdTable) + 1);
    put(this.attributeSets, d.attributeSets);
    put(this.assignments, d.assignments);
    put(this.blocks, d.blocks);
    put(this.blockAssets, d.blockAssets);
    put(this.brands, d.brands?.map((b) => ({ ...b, versions: b.versions ?? {}, product_count: b.product_count ?? 0 })));
    for (const b of d.brands ?? []) this.brandByName.set(b.name, b.id);
    put(this.brandAssets, d.brandAssets);
    for (const w of d.brandWebIds ?? []) (this.brandWebIds.get(w.channel_id) ?? this.brandWebIds.set(w.channel_id, new Map()).get(w.channel_id)!).set(w.brand_id, w.web_id);
    put(this.brandAttrValues, d.brandAttrValues);
    for (const a of d.brandAssignedAttributes ?? []) (this.brandAssignedAttributes.get(a.brand_id) ?? this.brandAssignedAttributes.set(a.brand_id, new Set()).get(a.brand_id)!).add(a.attribute_id);
    for (const a of d.brandAssignedSets ?? []) (this.brandAssignedSets.get(a.brand_id) ?? this.brandAssignedSets.set(a.brand_id, new Set()).get(a.brand_id)!).add(a.attribute_set_id);
    put(this.categories, d.categories?.map((c) => ({ ...c, versions: c.versions ?? {}, protected: c.protected ?? false, attribute_sets: c.attribute_sets ?? [], parent_id: c.parent_id === 0 ? null : c.parent_id })));
    for (const c of d.categories ?? []) this.link(c.id, c.parent_id === 0 ? null : c.parent_id);
    put(this.categoryAssets, d.categoryAssets);
    for (const w of d.categoryWebIds ?? []) (this.categoryWebIds.get(w.channel_id) ?? this.categoryWebIds.set(w.channel_id, new Map()).get(w.channel_id)!).set(w.category_id, w.web_id);
    put(this.channels, d.channels);
    put(this.displayGroups, d.displayGroups);
    put(this.genericEntities, d.genericEntities);
    for (const p of d.exportProfiles ?? []) this.exportProfiles.add(p);
    put(this.exports, d.exports);
    if (d.changelogs) this.changelogs.push(...d.changelogs);
    if (d.nextId && d.nextId > this.nextId) this.nextId = d.nextId;
    for (const [t, n] of Object.entries(d.nextIds ?? {})) if (n > (this.nextIds[t] ?? 0)) this.nextIds[t] = n;
    this.brandIds = null;
    this.categoryIds = null;
  }

  /** Every new tenant's starting point: three channels, generic entities, export profiles. */
  seedDefaults(): void {
    this.load({
      channels: [
        { id: 1, channel_name: "Webshop", sync: true, price_base: "EUR", inventory_location: "MAIN", version_id: 0, version_name: "Master" },
        { id: 2, channel_name: "Boutique FR", sync: true, price_base: "EUR", inventory_location: "PARIS", version_id: 2, version_name: "French" },
        { id: 3, channel_name: "Shop DE", sync: false, price_base: "EUR", inventory_location: "BERLIN", version_id: 3, version_name: "German" },
      ],
      genericEntities: [
        { id: 4, name: "Materials", description: "Material catalogue", is_tree: false, is_product_attribute: true, priority: 1, parent_id: null, publishable: true, display_on_navigation: false, options: [] },
        { id: 5, name: "Collections", description: "Seasonal collections", is_tree: true, is_product_attribute: false, priority: 2, parent_id: null, publishable: true, display_on_navigation: true, options: [] },
        { id: 6, name: "Summer", description: "Summer collection", is_tree: true, is_product_attribute: false, priority: 3, parent_id: 5, publishable: true, display_on_navigation: true, options: [] },
      ],
      exportProfiles: [1, 2],
    });
    this.nextId = Math.max(this.nextId, 100);
  }
}
