/**
 * The records write probes make, each named with one prefix (`pimctl-doctor-<run id> ...`), kept
 * in a list as they are made and deleted at the end, children before parents, whatever
 * happened: a probe that failed, a signal. What could not be deleted is returned with its id;
 * a later run finds such records by the prefix (findLeftovers) and lists or removes them.
 */
import type { PimClient } from "../api/client.js";
import type * as T from "../api/types.js";
import { PimctlError } from "../errors.js";
import type { ProbeRecord } from "./types.js";

/** Every probe record's name starts with this; nothing else pimctl writes does. */
export const PROBE_PREFIX = "pimctl-doctor-";

/** A run's id: its start time to the second and a random tail (two runs in one second stay apart). */
export function newRunId(now = new Date()): string {
  return `${now
    .toISOString()
    .replace(/[-:]/g, "")
    .replace(/\.\d+Z$/, "Z")}-${Math.random().toString(36).slice(2, 6)}`;
}

/** The records made before the probes proper, in this order (the id sequence probe reads it). */
export interface ProbeFixture {
  brand: T.ApiBrand;
  set: T.ApiAttributeSet;
  secondBrand: T.ApiBrand;
  attributes: T.ApiAttribute[];
  parent: T.ApiCategory;
  child: T.ApiCategory;
}

const DELETE_ORDER: Record<ProbeRecord["kind"], number> = { brand_asset: 0, brand: 1, category: 2, attribute_set: 3, attribute: 4 };

export class ProbeRecords {
  /** Records made and not yet known to be gone, in the order they were made. */
  readonly live: ProbeRecord[] = [];
  /** Creates sent and not yet answered: a cleanup waits for them (a signal can land while one is in flight). */
  private readonly pending = new Set<Promise<unknown>>();

  constructor(
    private readonly api: PimClient,
    readonly runId: string,
  ) {}

  name(what: string): string {
    return `${PROBE_PREFIX}${this.runId} ${what}`;
  }

  track(r: ProbeRecord): void {
    this.live.push(r);
  }

  /** A create whose record is tracked the moment its answer comes, and waited for by any cleanup meanwhile. */
  async make<R extends { id: number }>(create: Promise<R>, record: (r: R) => Omit<ProbeRecord, "id">): Promise<R> {
    const made = create.then((r) => {
      this.track({ ...record(r), id: r.id } as ProbeRecord);
      return r;
    });
    this.pending.add(made);
    try {
      return await made;
    } finally {
      this.pending.delete(made);
    }
  }

  gone(kind: ProbeRecord["kind"], id: number): void {
    const i = this.live.findIndex((r) => r.kind === kind && r.id === id);
    if (i >= 0) this.live.splice(i, 1);
  }

  /**
   * Two brands with an attribute set made between them (what the id sequence probe compares),
   * two attributes assigned to the set in the reverse order (so assignment and attribute ids
   * differ), and a category with a child. Each is tracked the moment its answer comes.
   */
  async makeFixture(stop: () => void): Promise<ProbeFixture> {
    const brand = await this.make(this.api.createBrand({ name: this.name("brand") }), (r) => ({ kind: "brand", name: r.name }));
    stop();
    const set = await this.make(this.api.createAttributeSet({ name: this.name("set"), sort_order: 0 }), (r) => ({ kind: "attribute_set", name: r.name }));
    const secondBrand = await this.make(this.api.createBrand({ name: this.name("brand 2") }), (r) => ({ kind: "brand", name: r.name }));
    stop();
    const attributes: T.ApiAttribute[] = [];
    for (const n of [1, 2]) {
      const body = { name: this.name(`attribute ${n}`), type: "text", sort_order: 0, publish: false };
      attributes.push(await this.make(this.api.createAttribute(body), (r) => ({ kind: "attribute", name: r.name })));
    }
    for (const a of [...attributes].reverse()) await this.api.addAttributeToSet(set.id, a.id);
    stop();
    const parent = await this.make(this.api.createCategory({ parent_id: 0, name: this.name("category"), attribute_sets: [set.id] }), (r) => ({
      kind: "category",
      name: r.name,
    }));
    const child = await this.make(this.api.createCategory({ parent_id: parent.id, name: this.name("child") }), (r) => ({
      kind: "category",
      name: r.name,
      owner: parent.id,
    }));
    return { brand, set, secondBrand, attributes, parent, child };
  }

  /** Deletes every live record: assets, brands, categories children first, sets, attributes. A 404 means already gone. */
  async cleanup(): Promise<{ removed: ProbeRecord[]; left: Array<ProbeRecord & { error: string }> }> {
    const removed: ProbeRecord[] = [];
    const left: Array<ProbeRecord & { error: string }> = [];
    // A create answered while this runs adds a record: go round until none is live or in flight.
    for (let round = 0; round < 10; round++) {
      await Promise.allSettled([...this.pending]);
      if (!this.live.length) break;
      for (const r of deleteOrder(this.live)) {
        try {
          await deleteProbeRecord(this.api, r);
          removed.push(r);
        } catch (e) {
          if (e instanceof PimctlError && e.code === "api_not_found") removed.push(r);
          else left.push({ ...r, error: e instanceof Error ? e.message : String(e) });
        }
        this.gone(r.kind, r.id);
      }
    }
    return { removed, left };
  }
}

/** Kinds in delete order; categories deepest first (a child's owner is its parent). */
export function deleteOrder(records: readonly ProbeRecord[]): ProbeRecord[] {
  const depth = (r: ProbeRecord): number => {
    let d = 0;
    for (let p = r.owner; p !== undefined && d < 100; d++) p = records.find((x) => x.kind === "category" && x.id === p)?.owner;
    return d;
  };
  return [...records].sort((a, b) => DELETE_ORDER[a.kind] - DELETE_ORDER[b.kind] || (a.kind === "category" ? depth(b) - depth(a) : 0) || a.id - b.id);
}

function deleteProbeRecord(api: PimClient, r: ProbeRecord): Promise<void> {
  switch (r.kind) {
    case "brand_asset":
      return api.deleteBrandAsset(r.owner!, r.id);
    case "brand":
      return api.deleteBrand(r.id);
    case "category":
      return api.deleteCategory(r.id);
    case "attribute_set":
      return api.deleteAttributeSet(r.id);
    case "attribute":
      return api.deleteAttribute(r.id);
  }
}

/** Records of earlier doctor runs, by their name's prefix: brands, categories, attributes and sets, read in full. */
export async function findLeftovers(api: PimClient): Promise<ProbeRecord[]> {
  const named = (n: unknown) => typeof n === "string" && n.startsWith(PROBE_PREFIX);
  const [brands, categories, attributes, sets] = [
    await api.listBrands(),
    await api.listCategories(),
    await api.listAttributes(),
    await api.listAttributeSets(),
  ];
  return [
    ...brands.filter((b) => named(b.name)).map((b): ProbeRecord => ({ kind: "brand", id: b.id, name: b.name })),
    ...categories
      .filter((c) => named(c.name))
      .map((c): ProbeRecord => ({ kind: "category", id: c.id, name: c.name, ...(c.parent_id ? { owner: c.parent_id } : {}) })),
    ...attributes.filter((a) => named(a.name)).map((a): ProbeRecord => ({ kind: "attribute", id: a.id, name: a.name })),
    ...sets.filter((s) => named(s.name)).map((s): ProbeRecord => ({ kind: "attribute_set", id: s.id, name: s.name })),
  ];
}
