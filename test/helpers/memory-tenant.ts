/**
 * A tenant in memory, for the planner's property test: records by id with
 * references by id (as the service keeps them), a plan applied to it action
 * by action, and its state read back in the catalogue's terms (names). It
 * knows nothing of HTTP; it stands for what the API's writes mean.
 */
import { compareText, pathKey } from "../../src/model/catalogue.js";
import type { RemoteCatalogue, RemoteCategory } from "../../src/model/remote.js";
import type { Action, Json, Plan, Ref } from "../../src/plan/types.js";

interface Rec {
  id: number;
  [field: string]: unknown;
}
interface Attr extends Rec {
  name: string;
  display_group_id: number | null;
  versions: Record<string, Record<string, unknown>>;
}
interface Value extends Rec {
  attribute_id: number;
  value: string;
  versions: Record<string, string>;
}
interface Cat extends Rec {
  name: string;
  parent_id: number | null;
  set_ids: number[];
}
interface BrandValue {
  id: number;
  brand_id: number;
  attribute_id: number;
  version: string;
  value: string;
}

export class MemoryTenant {
  private nextId = 1000;
  readonly displayGroups = new Map<number, Rec & { name: string }>();
  readonly attributes = new Map<number, Attr>();
  readonly values = new Map<number, Value>();
  readonly sets = new Map<number, Rec & { name: string; attribute_ids: number[] }>();
  readonly blocks = new Map<number, Rec & { slug: string }>();
  readonly brands = new Map<number, Rec & { name: string; product_count: number }>();
  readonly brandValues = new Map<number, BrandValue>();
  readonly categories = new Map<number, Cat>();

  constructor(private readonly versionIds: Record<string, number>) {}

  /** Load a tenant state given in the catalogue's terms (the generator's "current"). */
  static from(remote: RemoteCatalogue): MemoryTenant {
    const t = new MemoryTenant(remote.version_ids);
    const dgId = new Map(remote.display_groups.map((d) => [d.name, d.id]));
    const attrId = new Map(remote.attributes.map((a) => [a.name, a.id]));
    const setId = new Map(remote.attribute_sets.map((s) => [s.name, s.id]));
    for (const d of remote.display_groups) t.displayGroups.set(d.id, { ...d });
    for (const a of remote.attributes) {
      const { values, versions, display_group, ...fields } = a;
      t.attributes.set(a.id, { ...fields, display_group_id: display_group ? dgId.get(display_group)! : null, versions: structuredClone(versions ?? {}) });
      for (const v of values) t.values.set(v.id, { ...v, attribute_id: a.id, versions: { ...(v.versions ?? {}) } });
    }
    for (const s of remote.attribute_sets)
      t.sets.set(s.id, { id: s.id, name: s.name, sort_order: s.sort_order, attribute_ids: s.attributes.map((n) => attrId.get(n)!) });
    for (const b of remote.blocks) t.blocks.set(b.id, { ...b });
    for (const b of remote.brands) {
      const { attributes, ...fields } = b;
      t.brands.set(b.id, { ...fields });
      for (const [name, attr] of Object.entries(attributes ?? {})) {
        for (const [version, rec] of Object.entries(attr.values))
          t.brandValues.set(rec.id, { id: rec.id, brand_id: b.id, attribute_id: attrId.get(name)!, version, value: rec.value });
      }
    }
    for (const c of remote.categories) {
      const { path: _path, child_count: _n, attribute_sets, ...fields } = c;
      t.categories.set(c.id, { ...fields, set_ids: (attribute_sets ?? []).map((n) => setId.get(n)!) });
    }
    for (const r of [...remote.display_groups, ...remote.attributes, ...remote.attribute_sets, ...remote.blocks, ...remote.brands, ...remote.categories]) {
      t.nextId = Math.max(t.nextId, r.id + 1);
    }
    return t;
  }

  /**
   * Apply every action the API can do; `unsupported` ones are skipped, as
   * apply does. With `pick`, actions run in a random order that respects only
   * depends_on (as the concurrent applier may run them), so a missing edge shows.
   */
  apply(plan: Plan, pick?: (n: number) => number): void {
    const created = new Map<string, number>();
    const id = (ref: Ref | undefined): number => {
      if (!ref) throw new Error("missing ref");
      if ("id" in ref) return ref.id;
      const got = created.get(ref.address);
      if (got === undefined) throw new Error(`ref to ${ref.address} before its create`);
      return got;
    };
    const done = new Set<string>();
    const pending = plan.actions.filter((a) => a.op !== "unsupported");
    const inPlan = new Set(pending.map((a) => a.address));
    while (pending.length) {
      const ready = pending.filter((a) => a.depends_on.every((d) => done.has(d) || !inPlan.has(d)));
      if (!ready.length) throw new Error("the plan's dependencies have a cycle");
      const a = pick ? ready[pick(ready.length)]! : ready[0]!;
      pending.splice(pending.indexOf(a), 1);
      const newId = this.applyAction(a, id);
      if (newId !== undefined) created.set(a.address, newId);
      this.checkUnique(a.address);
      done.add(a.address);
    }
  }

  /** Names are unique as the service keeps them (422 otherwise): a plan that reuses a name before freeing it fails here. */
  private checkUnique(after: string): void {
    const dup = (what: string, keys: string[]): void => {
      const seen = new Set<string>();
      for (const k of keys) {
        if (seen.has(k)) throw new Error(`after ${after}: two ${what} named ${k}`);
        seen.add(k);
      }
    };
    dup(
      "display groups",
      [...this.displayGroups.values()].map((d) => d.name),
    );
    dup(
      "attributes",
      [...this.attributes.values()].map((a) => a.name),
    );
    dup(
      "type values",
      [...this.values.values()].map((v) => `${v.attribute_id}/${v.value}`),
    );
    dup(
      "attribute sets",
      [...this.sets.values()].map((x) => x.name),
    );
    dup(
      "brands",
      [...this.brands.values()].map((b) => b.name),
    );
    dup(
      "categories",
      [...this.categories.values()].map((c) => `${c.parent_id}/${c.name}`),
    );
  }

  private applyAction(a: Action, id: (ref: Ref | undefined) => number): number | undefined {
    const v = afterValues(a);
    const version = Object.entries(this.versionIds).find(([, vid]) => vid === a.version_id)?.[0];
    const set = <T extends Rec>(rec: T | undefined, fields: Record<string, unknown>): undefined => {
      if (!rec) throw new Error(`${a.address}: no record`);
      Object.assign(rec, fields);
      return undefined;
    };
    const fresh = (): number => this.nextId++;
    switch (`${a.type}:${a.op === "rename" || a.op === "move" ? "update" : a.op}`) {
      case "display_group:create": {
        const n = fresh();
        this.displayGroups.set(n, { id: n, name: v.name as string, ...v });
        return n;
      }
      case "display_group:update":
        return set(this.displayGroups.get(id(a.refs.self)), v);
      case "attribute:create": {
        const n = fresh();
        const { display_group, ...fields } = v;
        this.attributes.set(n, { id: n, name: v.name as string, ...fields, display_group_id: display_group ? id(a.refs.display_group) : null, versions: {} });
        return n;
      }
      case "attribute:update": {
        const { display_group, ...fields } = v;
        const rec = this.attributes.get(id(a.refs.self));
        set(rec, fields);
        if ("display_group" in v) rec!.display_group_id = display_group ? id(a.refs.display_group) : null;
        return;
      }
      case "attribute:delete": {
        const aid = id(a.refs.self);
        this.attributes.delete(aid);
        for (const [vid, val] of this.values) if (val.attribute_id === aid) this.values.delete(vid);
        for (const s of this.sets.values()) s.attribute_ids = s.attribute_ids.filter((x) => x !== aid);
        return;
      }
      case "attribute_version:create":
      case "attribute_version:update": {
        const rec = this.attributes.get(id(a.refs.attribute))!;
        rec.versions[version!] = { ...rec.versions[version!], ...v };
        return;
      }
      case "type_value:create": {
        const n = fresh();
        this.values.set(n, { id: n, attribute_id: id(a.refs.attribute), value: v.value as string, ...v, versions: {} });
        return n;
      }
      case "type_value:update":
        return set(this.values.get(id(a.refs.self)), v);
      case "type_value:delete":
        this.values.delete(id(a.refs.self));
        return;
      case "type_value_version:create":
      case "type_value_version:update":
        this.values.get(id(a.refs.value))!.versions[version!] = v.value as string;
        return;
      case "attribute_set:create": {
        const n = fresh();
        this.sets.set(n, { id: n, name: v.name as string, ...v, attribute_ids: [] });
        return n;
      }
      case "attribute_set:update":
        return set(this.sets.get(id(a.refs.self)), v);
      case "attribute_set:delete":
        this.sets.delete(id(a.refs.self));
        for (const c of this.categories.values()) c.set_ids = c.set_ids.filter((x) => x !== id(a.refs.self));
        return;
      case "attribute_set_attribute:create":
        this.sets.get(id(a.refs.attribute_set))!.attribute_ids.push(id(a.refs.attribute));
        return;
      case "attribute_set_attribute:delete": {
        // The planner's self ref is the assignment id; in memory an assignment's id is its attribute's.
        const s = this.sets.get(id(a.refs.attribute_set))!;
        const gone = id(a.refs.self);
        s.attribute_ids = s.attribute_ids.filter((x) => x !== gone);
        return;
      }
      case "block:create": {
        const n = fresh();
        this.blocks.set(n, { id: n, slug: v.slug as string, name: v.slug, ...v });
        return n;
      }
      case "block:update":
        return set(this.blocks.get(id(a.refs.self)), v);
      case "brand:create": {
        const n = fresh();
        this.brands.set(n, { id: n, name: v.name as string, product_count: 0, ...v });
        return n;
      }
      case "brand:update":
        return set(this.brands.get(id(a.refs.self)), v);
      case "brand:delete": {
        const bid = id(a.refs.self);
        this.brands.delete(bid);
        for (const [k, bv] of this.brandValues) if (bv.brand_id === bid) this.brandValues.delete(k);
        return;
      }
      case "brand_attribute_value:create": {
        const n = fresh();
        this.brandValues.set(n, { id: n, brand_id: id(a.refs.brand), attribute_id: id(a.refs.attribute), version: version ?? "", value: v.value as string });
        return;
      }
      case "brand_attribute_value:update":
        this.brandValues.get(id(a.refs.self))!.value = v.value as string;
        return;
      case "category:create": {
        const n = fresh();
        const { parent: _p, attribute_sets, ...fields } = v;
        this.categories.set(n, {
          id: n,
          name: v.name as string,
          ...fields,
          parent_id: a.refs.parent ? id(a.refs.parent) : null,
          set_ids: ((attribute_sets as string[] | undefined) ?? []).map((s) => id(a.refs[`attribute_set:${s}`])),
        });
        return n;
      }
      case "category:update": {
        const { parent: _p, attribute_sets, ...fields } = v;
        const rec = this.categories.get(id(a.refs.self))!;
        Object.assign(rec, fields);
        if (a.changes.some((c) => c.field === "parent")) rec.parent_id = a.refs.parent ? id(a.refs.parent) : null;
        if (attribute_sets !== undefined) rec.set_ids = (attribute_sets as string[]).map((s) => id(a.refs[`attribute_set:${s}`]));
        return;
      }
      case "category:delete": {
        const cid = id(a.refs.self);
        if ([...this.categories.values()].some((c) => c.parent_id === cid)) throw new Error(`${a.address}: deleted before its children`);
        this.categories.delete(cid);
        return;
      }
      default:
        throw new Error(`the memory tenant cannot apply ${a.type} ${a.op}`);
    }
  }

  /** The state in the catalogue's terms, as src/state/ would read it. */
  read(): RemoteCatalogue {
    const dgName = new Map([...this.displayGroups.values()].map((d) => [d.id, d.name]));
    const attrName = new Map([...this.attributes.values()].map((a) => [a.id, a.name]));
    const setName = new Map([...this.sets.values()].map((s) => [s.id, s.name]));
    const versionName = (v: string) => v;
    const pathOf = (c: Cat): string[] => {
      const out: string[] = [];
      for (let cur: Cat | undefined = c; cur; cur = cur.parent_id === null ? undefined : this.categories.get(cur.parent_id)) out.unshift(cur.name);
      return out;
    };
    const categories: RemoteCategory[] = [...this.categories.values()].map((c) => {
      const { set_ids, ...fields } = c;
      return {
        ...(fields as unknown as RemoteCategory),
        path: pathOf(c),
        child_count: [...this.categories.values()].filter((x) => x.parent_id === c.id).length,
        attribute_sets: set_ids.map((s) => setName.get(s)!).sort(),
      };
    });
    return {
      read: ["display_groups", "attributes", "attribute_sets", "blocks", "brands", "categories"],
      channels: [],
      version_ids: this.versionIds,
      display_groups: [...this.displayGroups.values()].map((d) => ({ ...(d as object) }) as RemoteCatalogue["display_groups"][number]),
      attributes: [...this.attributes.values()].map((a) => {
        const { display_group_id, versions, ...fields } = a;
        return {
          ...(fields as unknown as Omit<RemoteCatalogue["attributes"][number], "display_group" | "versions" | "values">),
          display_group: display_group_id === null ? null : dgName.get(display_group_id)!,
          versions: structuredClone(versions),
          values: [...this.values.values()]
            .filter((v) => v.attribute_id === a.id)
            .map(({ attribute_id: _a, ...v }) => v as unknown as RemoteCatalogue["attributes"][number]["values"][number]),
        };
      }),
      attribute_sets: [...this.sets.values()].map((s) => ({
        id: s.id,
        name: s.name,
        ...(s.sort_order !== undefined ? { sort_order: s.sort_order as number } : {}),
        attributes: s.attribute_ids.map((x) => attrName.get(x)!),
        assignment_ids: Object.fromEntries(s.attribute_ids.map((x) => [attrName.get(x)!, x])),
      })),
      blocks: [...this.blocks.values()].map((b) => ({ ...(b as unknown as RemoteCatalogue["blocks"][number]), asset_count: 0 })),
      brands: [...this.brands.values()].map((b) => {
        const attributes: Record<string, { attribute_id: number; values: Record<string, { id: number; value: string }> }> = {};
        for (const bv of this.brandValues.values()) {
          if (bv.brand_id !== b.id) continue;
          const name = attrName.get(bv.attribute_id)!;
          const entry = (attributes[name] ??= { attribute_id: bv.attribute_id, values: {} });
          entry.values[versionName(bv.version)] = { id: bv.id, value: bv.value };
        }
        return { ...(b as unknown as RemoteCatalogue["brands"][number]), attributes };
      }),
      categories: categories.sort((x, y) => x.path.length - y.path.length || compareText(pathKey(x.path), pathKey(y.path))),
    };
  }
}

function afterValues(a: Action): Record<string, Json> {
  const out: Record<string, Json> = {};
  for (const c of a.changes) if (c.after !== undefined) out[c.field] = c.after;
  return out;
}
