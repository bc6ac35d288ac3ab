/**
 * The store core: one tenant's tables (Maps by id), the indexes that keep reads O(1), the
 * id sequences, the changelog and what persistence needs (toData, load, the defaults).
 * The rules of each kind's records are plain functions of the store beside its routes, in
 * kinds/<kind>.ts. Everything is synchronous, so concurrent requests see each write whole.
 */
import { notFound } from "./errors.js";
import type {
  AssetRec,
  AssignmentRec,
  AttributeRec,
  AttributeSetRec,
  BlockRec,
  BrandAttrValueRec,
  BrandRec,
  CategoryRec,
  ChangelogRec,
  ChannelRec,
  DisplayGroupRec,
  ExportRec,
  GenericEntityRec,
  IdTable,
  TenantData,
  TypeValueRec,
} from "./record-shapes.js";

export function slugify(s: string): string {
  return s
    .normalize("NFKD")
    .replace(/[\u0300-\u036f]/g, "")
    .toLowerCase()
    .replace(/[^a-z0-9]+/g, "-")
    .replace(/^-+|-+$/g, "");
}

/** Record times: ISO 8601, Z, to the second. */
export const now = (): string => new Date().toISOString().replace(/\.\d{3}Z$/, "Z");

type Changelogged = ChangelogRec["entity_type"];

/** `m`'s entry for `key`, made first when there is none. */
function entryOf<K, V>(m: Map<K, V>, key: K, make: () => V): V {
  let v = m.get(key);
  if (v === undefined) m.set(key, (v = make()));
  return v;
}

/** A tenant's tables: Maps by id for O(1) reads, name indexes for search and uniqueness. */
export class StoreCore {
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
  // Indexes, kept up to date by the kinds' rules (kinds/<kind>.ts).
  readonly brandByName = new Map<string, number>();
  readonly childrenOf = new Map<number | null, Set<number>>();
  /** Sorted id lists for paging without sorting per request; null: to be rebuilt. */
  brandIds: number[] | null = null;
  categoryIds: number[] | null = null;
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

  /** A write happened: a changelog entry for the kinds that have one, and a save soon (--data). */
  changed(type: Changelogged | null, id: number, change: ChangelogRec["change_type"] = "full"): void {
    if (type) this.changelogs.push({ id: this.changelogs.length + 1, updated_at: now(), entity_id: id, entity_type: type, change_type: change });
    this.onChange();
  }

  // -------------------------------------------------- lookups (404 when absent)

  getAttribute(id: number): AttributeRec {
    const a = this.attributes.get(id);
    if (!a) throw notFound("Attribute");
    return a;
  }

  getSet(id: number): AttributeSetRec {
    const s = this.attributeSets.get(id);
    if (!s) throw notFound("Attribute set");
    return s;
  }

  getBlock(id: number): BlockRec {
    const b = this.blocks.get(id);
    if (!b) throw notFound("Block");
    return b;
  }

  getBrand(id: number): BrandRec {
    const b = this.brands.get(id);
    if (!b) throw notFound("Brand");
    return b;
  }

  getCategory(id: number): CategoryRec {
    const c = this.categories.get(id);
    if (!c) throw notFound("Category");
    return c;
  }

  getDisplayGroup(id: number): DisplayGroupRec {
    const d = this.displayGroups.get(id);
    if (!d) throw notFound("Display group");
    return d;
  }

  // ------------------------------------------------------- ordered and trees

  sortedBrandIds(): number[] {
    return (this.brandIds ??= [...this.brands.keys()].sort((a, b) => a - b));
  }

  sortedCategoryIds(): number[] {
    return (this.categoryIds ??= [...this.categories.keys()].sort((a, b) => a - b));
  }

  children(parentId: number | null): Set<number> {
    return this.childrenOf.get(parentId) ?? new Set();
  }

  link(id: number, parentId: number | null): void {
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

  /**
   * Type values by attribute: the attribute lists carry every attribute's values, and a
   * scan of all type values per attribute made each list (and each create) grow with the
   * whole tenant. Built on first use, kept up to date by the methods below.
   */
  tvByAttribute: Map<number, Map<number, TypeValueRec>> | null = null;
  typeValueIndex(): Map<number, Map<number, TypeValueRec>> {
    if (!this.tvByAttribute) {
      this.tvByAttribute = new Map();
      for (const tv of this.typeValues.values()) this.indexTypeValue(tv);
    }
    return this.tvByAttribute;
  }
  indexTypeValue(tv: TypeValueRec): void {
    const index = this.tvByAttribute;
    if (!index) return;
    let m = index.get(tv.attribute_id);
    if (!m) index.set(tv.attribute_id, (m = new Map()));
    m.set(tv.id, tv);
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

  /** Adds the records of `d` (a --seed file's, a --data file's) to the tables, with their indexes and id sequences. */
  load(d: Partial<TenantData>): void {
    this.put(
      this.attributes,
      d.attributes?.map((a) => ({ ...a, versions: a.versions ?? {} })),
    );
    this.put(
      this.typeValues,
      d.typeValues?.map((t) => ({ ...t, versions: t.versions ?? {} })),
    );
    this.tvByAttribute = null;
    // Loaded records carry their own ids: a started sequence moves above them (never back).
    for (const t of Object.keys(this.nextIds)) this.nextIds[t] = Math.max(this.nextIds[t]!, this.highestId(t as IdTable) + 1);
    this.put(this.attributeSets, d.attributeSets);
    this.put(this.assignments, d.assignments);
    this.put(this.blocks, d.blocks);
    this.put(this.blockAssets, d.blockAssets);
    this.loadBrands(d);
    this.loadCategories(d);
    this.put(this.channels, d.channels);
    this.put(this.displayGroups, d.displayGroups);
    this.put(this.genericEntities, d.genericEntities);
    for (const p of d.exportProfiles ?? []) this.exportProfiles.add(p);
    this.put(this.exports, d.exports);
    // One at a time: push(...list) passes every entry as an argument, and a state with more than
    // about 150,000 entries (ten times the taxonomy applied holds 800,000) overflowed the stack.
    for (const e of d.changelogs ?? []) this.changelogs.push(e);
    if (d.nextId && d.nextId > this.nextId) this.nextId = d.nextId;
    for (const [t, n] of Object.entries(d.nextIds ?? {})) if (n > (this.nextIds[t] ?? 0)) this.nextIds[t] = n;
    this.brandIds = null;
    this.categoryIds = null;
  }

  private put<T extends { id: number }>(m: Map<number, T>, list: T[] | undefined): void {
    for (const r of list ?? []) {
      m.set(r.id, r);
      if (r.id >= this.nextId) this.nextId = r.id + 1;
    }
  }

  private loadBrands(d: Partial<TenantData>): void {
    this.put(
      this.brands,
      d.brands?.map((b) => ({ ...b, versions: b.versions ?? {}, product_count: b.product_count ?? 0 })),
    );
    for (const b of d.brands ?? []) this.brandByName.set(b.name, b.id);
    this.put(this.brandAssets, d.brandAssets);
    for (const w of d.brandWebIds ?? []) entryOf(this.brandWebIds, w.channel_id, () => new Map()).set(w.brand_id, w.web_id);
    this.put(this.brandAttrValues, d.brandAttrValues);
    for (const a of d.brandAssignedAttributes ?? []) entryOf(this.brandAssignedAttributes, a.brand_id, () => new Set()).add(a.attribute_id);
    for (const a of d.brandAssignedSets ?? []) entryOf(this.brandAssignedSets, a.brand_id, () => new Set()).add(a.attribute_set_id);
  }

  private loadCategories(d: Partial<TenantData>): void {
    const parentOf = (c: CategoryRec) => (c.parent_id === 0 ? null : c.parent_id);
    this.put(
      this.categories,
      d.categories?.map((c) => ({
        ...c,
        versions: c.versions ?? {},
        protected: c.protected ?? false,
        attribute_sets: c.attribute_sets ?? [],
        parent_id: parentOf(c),
      })),
    );
    for (const c of d.categories ?? []) this.link(c.id, parentOf(c));
    this.put(this.categoryAssets, d.categoryAssets);
    for (const w of d.categoryWebIds ?? []) entryOf(this.categoryWebIds, w.channel_id, () => new Map()).set(w.category_id, w.web_id);
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
        {
          id: 4,
          name: "Materials",
          description: "Material catalogue",
          is_tree: false,
          is_product_attribute: true,
          priority: 1,
          parent_id: null,
          publishable: true,
          display_on_navigation: false,
          options: [],
        },
        {
          id: 5,
          name: "Collections",
          description: "Seasonal collections",
          is_tree: true,
          is_product_attribute: false,
          priority: 2,
          parent_id: null,
          publishable: true,
          display_on_navigation: true,
          options: [],
        },
        {
          id: 6,
          name: "Summer",
          description: "Summer collection",
          is_tree: true,
          is_product_attribute: false,
          priority: 3,
          parent_id: 5,
          publishable: true,
          display_on_navigation: true,
          options: [],
        },
      ],
      exportProfiles: [1, 2],
    });
    this.nextId = Math.max(this.nextId, 100);
  }
}
