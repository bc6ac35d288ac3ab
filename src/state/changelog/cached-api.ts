/**
 * A PimApi that answers the state reader's reads from a snapshot brought up
 * to date with the changelog feed, so the reader (and so the plan) cannot
 * tell it from the tenant. Writes and every read the feed does not cover go
 * to the tenant.
 *
 * What the feed covers (API v1 lists product, brand, category, product_asset,
 * attribute and attribute_set entries) and so what is kept:
 * - brands: the whole lists (master and each version), single reads, their
 *   attribute values. A brand entry re-reads that brand; any product entry
 *   re-lists brands (a product can change a brand's product_count);
 * - categories: the whole list and single reads. A category entry re-reads it;
 *   a deleted category re-reads everything below it too (the service may take
 *   a subtree with one entry);
 * - attribute sets: the list and each set's assignments;
 * - attributes: single reads (note, length) only.
 * Always read from the tenant: channels, display groups, blocks and block
 * assets, the attribute lists (they carry the type values, which the document
 * does not say the feed covers), brand and category assets (same).
 * An attribute entry also drops the brands' attribute values (they hold value
 * texts) and, when it is a delete, the sets' assignments. A `reset` entry, whose
 * meaning the document does not give, drops everything of its entity type.
 */
import type { ApiAttributeSet, ApiBrand, ApiCategory, ApiChangelog, ListRead, Page, PimApi } from "../../api/types.js";
import type { Snapshot } from "./snapshot.js";

/** Records whose cached lists must be patched before use, by list. */
interface Pending {
  brands: Set<number>;
  categories: Set<number>;
  sets: Set<number>;
}

const isNotFound = (e: unknown) => (e as { code?: string }).code === "api_not_found";
const dropKeys = (table: Record<string, unknown>, id: number) => {
  for (const k of Object.keys(table)) if (k === String(id) || k.startsWith(`${id}:`)) delete table[k];
};

/** Apply the feed to the snapshot: drop what changed, note which list entries to re-read. */
export function invalidate(s: Snapshot, entries: readonly ApiChangelog[]): Pending & { rereads: number } {
  const pending: Pending = { brands: new Set(), categories: new Set(), sets: new Set() };
  const deletedCategories = new Set<number>();
  for (const e of entries) {
    const reset = e.change_type === "reset";
    switch (e.entity_type) {
      case "brand":
        if (reset) ((s.brand_lists = {}), (s.brands = {}), (s.brand_attributes = {}));
        else {
          dropKeys(s.brands, e.entity_id);
          delete s.brand_attributes[e.entity_id];
          pending.brands.add(e.entity_id);
        }
        break;
      case "product":
        s.brand_lists = {};
        s.brands = {};
        break;
      case "product_asset":
        break;
      case "category":
        if (reset) ((s.category_lists = {}), (s.categories = {}));
        else {
          dropKeys(s.categories, e.entity_id);
          pending.categories.add(e.entity_id);
          if (e.change_type === "delete") deletedCategories.add(e.entity_id);
        }
        break;
      case "attribute":
        s.brand_attributes = {};
        if (reset) ((s.attributes = {}), (s.set_attributes = {}));
        else {
          dropKeys(s.attributes, e.entity_id);
          if (e.change_type === "delete") s.set_attributes = {};
        }
        break;
      case "attribute_set":
        if (reset) {
          delete s.attribute_sets;
          s.set_attributes = {};
        } else {
          delete s.set_attributes[e.entity_id];
          pending.sets.add(e.entity_id);
        }
        break;
    }
  }
  // Everything below a deleted category is re-read: it may be gone without entries of its own.
  for (const list of Object.values(s.category_lists)) {
    const parent = new Map(list.map((c) => [c.id, typeof c.parent_id === "number" ? c.parent_id : null]));
    const below = (id: number): boolean => {
      for (let p = parent.get(id), seen = 0; p !== null && p !== undefined && seen < parent.size; p = parent.get(p), seen++)
        if (deletedCategories.has(p)) return true;
      return false;
    };
    for (const c of list)
      if (below(c.id)) {
        pending.categories.add(c.id);
        dropKeys(s.categories, c.id);
      }
  }
  return { ...pending, rereads: pending.brands.size + pending.categories.size + pending.sets.size };
}

/** Replace, add or remove each pending record of a cached list with a fresh single read. */
async function patch<T extends { id: number }>(list: T[], ids: Iterable<number>, read: (id: number) => Promise<T>): Promise<T[]> {
  const fresh = new Map<number, T | null>();
  await Promise.all(
    [...ids].map(async (id) => {
      try {
        fresh.set(id, await read(id));
      } catch (e) {
        if (!isNotFound(e)) throw e;
        fresh.set(id, null);
      }
    }),
  );
  const out: T[] = [];
  for (const r of list) {
    if (!fresh.has(r.id)) out.push(r);
    else if (fresh.get(r.id)) out.push(fresh.get(r.id)!);
  }
  const known = new Set(list.map((r) => r.id));
  for (const [id, r] of fresh) if (r && !known.has(id)) out.push(r);
  return out.sort((a, b) => a.id - b.id);
}

function onePage<T>(items: T[], path: string): Page<T> {
  return {
    items,
    links: { first: null, last: null, prev: null, next: null },
    meta: {
      current_page: 1,
      from: items.length ? 1 : null,
      last_page: 1,
      path,
      per_page: Math.max(items.length, 1),
      to: items.length || null,
      total: items.length,
    },
  };
}

export interface CachedApi {
  api: PimApi;
  /** The snapshot as this run leaves it: lists patched, lists it could not patch dropped. */
  finish(): Snapshot;
  /** Reads this run answered from the snapshot, for the report. */
  stats(): { hits: number };
}

/**
 * The wrapper. With an empty snapshot it records: each whole list is read
 * whole (brands too, so later runs need no search) and kept.
 */
export function cachedApi(real: PimApi, snapshot: Snapshot, pending: Pending): CachedApi {
  const reads = new SnapshotReads(real, snapshot, pending);
  const overrides = reads.overrides();
  const api = new Proxy(real, {
    get(target, prop, receiver) {
      const own = (overrides as Record<PropertyKey, unknown>)[prop];
      if (own) return own;
      const v = Reflect.get(target, prop, receiver) as unknown;
      return typeof v === "function" ? (v as (...a: unknown[]) => unknown).bind(target) : v;
    },
  });
  return { api, stats: () => ({ hits: reads.hits }), finish: () => reads.finish() };
}

/** The reads cachedApi answers from the snapshot (patched with what changed since), and what it kept and brought up to date. */
class SnapshotReads {
  hits = 0;
  private readonly inflight = new Map<string, Promise<unknown>>();
  /** The lists this run brought up to date. */
  private readonly patched = new Set<string>();

  constructor(
    private readonly real: PimApi,
    private readonly s: Snapshot,
    private readonly pending: Pending,
  ) {}

  /** One read per key at a time; a failed read is not kept. */
  private once<T>(key: string, make: () => Promise<T>): Promise<T> {
    let p = this.inflight.get(key) as Promise<T> | undefined;
    if (!p) {
      p = make();
      this.inflight.set(key, p);
      p.catch(() => this.inflight.delete(key));
    }
    return p;
  }

  /** The whole brand list in a version: patched from the snapshot, or read whole and kept. */
  brandList(versionId: number): Promise<ListRead<ApiBrand>> {
    const { s, real } = this;
    return this.once(`brands:${versionId}`, async () => {
      const key = String(versionId);
      const cached = s.brand_lists[key];
      if (cached) {
        this.hits++;
        s.brand_lists[key] = await patch(cached, this.pending.brands, (id) => real.getBrand(id, versionId || undefined));
        this.patched.add(`brands:${key}`);
        return { items: s.brand_lists[key]!, complete: true, pages: 1 };
      }
      const read = await real.readBrands(versionId ? { versionId } : {});
      if (read.complete) {
        s.brand_lists[key] = read.items;
        this.patched.add(`brands:${key}`);
      }
      return read;
    });
  }

  categoryList(withAttributes: boolean): Promise<ListRead<ApiCategory>> {
    const { s, real } = this;
    return this.once(`categories:${withAttributes}`, async () => {
      const key = withAttributes ? "1" : "0";
      const cached = s.category_lists[key];
      if (cached) {
        this.hits++;
        s.category_lists[key] = await patch(cached, this.pending.categories, (id) => real.getCategory(id, withAttributes ? { withAttributes } : {}));
        this.patched.add(`categories:${key}`);
        return { items: s.category_lists[key]!, complete: true, pages: 1 };
      }
      const read = await real.readCategories(withAttributes ? { withAttributes } : {});
      if (read.complete) {
        s.category_lists[key] = read.items;
        this.patched.add(`categories:${key}`);
      }
      return read;
    });
  }

  setList(): Promise<ApiAttributeSet[]> {
    const { s, real } = this;
    return this.once("sets", async () => {
      if (s.attribute_sets) {
        this.hits++;
        s.attribute_sets = await patch(s.attribute_sets, this.pending.sets, (id) => real.getAttributeSet(id));
      } else s.attribute_sets = await real.listAttributeSets();
      this.patched.add("sets");
      return s.attribute_sets;
    });
  }

  /** A single read kept by key; errors are not kept. */
  async kept<T>(table: Record<string, T>, key: string, read: () => Promise<T>): Promise<T> {
    if (key in table) {
      this.hits++;
      return table[key]!;
    }
    const v = await read();
    table[key] = v;
    return v;
  }

  /** The client's methods answered from the snapshot; every other goes to the real client. */
  overrides(): Partial<PimApi> {
    const { s, real } = this;
    return {
      listBrandsPage: async (o) => {
        if (o.page !== 1) return real.listBrandsPage(o);
        const read = await this.brandList(o.versionId ?? 0);
        return onePage(read.items, "/brands");
      },
      readBrands: async (o = {}) => this.brandList(o.versionId ?? 0),
      listBrands: async (o = {}) => (await this.brandList(o.versionId ?? 0)).items,
      getBrand: (id, versionId) => this.kept(s.brands, `${id}:${versionId ?? 0}`, () => real.getBrand(id, versionId)),
      listBrandAttributes: (id) => this.kept(s.brand_attributes, String(id), () => real.listBrandAttributes(id)),
      readCategories: (o = {}) => this.categoryList(o.withAttributes === true),
      listCategories: async (o = {}) => (await this.categoryList(o.withAttributes === true)).items,
      getCategory: (id, o = {}) => this.kept(s.categories, `${id}:${o.versionId ?? 0}:${o.withAttributes ? 1 : 0}`, () => real.getCategory(id, o)),
      listAttributeSets: () => this.setList(),
      listAttributeSetAttributes: (id) => this.kept(s.set_attributes, String(id), () => real.listAttributeSetAttributes(id)),
      getAttribute: (id, versionId) => this.kept(s.attributes, `${id}:${versionId ?? 0}`, () => real.getAttribute(id, versionId)),
    };
  }

  /** The snapshot as this run leaves it: a list this run did not bring up to date is stale, kept only if nothing in it changed. */
  finish(): Snapshot {
    const { s, pending, patched } = this;
    for (const key of Object.keys(s.brand_lists)) if (!patched.has(`brands:${key}`) && pending.brands.size) delete s.brand_lists[key];
    for (const key of Object.keys(s.category_lists)) if (!patched.has(`categories:${key}`) && pending.categories.size) delete s.category_lists[key];
    if (s.attribute_sets && !patched.has("sets") && pending.sets.size) delete s.attribute_sets;
    return s;
  }
}
