/**
 * The planner's property: for random desired and current catalogues (over a
 * small universe of names, so they overlap, rename and move), applying the
 * plan to the current state in memory yields the desired state, and planning
 * again finds nothing to do.
 */
import fc from "fast-check";
import { propertyParams } from "../helpers/seed.js";
import { describe, expect, it } from "vitest";
import type { Attribute, Brand, Catalogue, Category } from "../../src/model/catalogue.js";
import type { RemoteCatalogue, RemoteCategory } from "../../src/model/remote.js";
import { buildPlan } from "../../src/plan/planner.js";
import type { PrunePolicy } from "../../src/model/policy.js";
import { MemoryTenant } from "../helpers/memory-tenant.js";
import { prng } from "../helpers/random.js";

const DISPLAY_GROUPS = ["Basics", "Details", "Extra"];
const ATTRIBUTES = ["Colour", "Size", "Material", "Fit"];
const VALUES = ["Red", "Blue", "Green"];
const SETS = ["Apparel", "Shoes"];
const BLOCKS = ["footer", "header"];
const BRANDS = ["Acme", "Zenith", "Orbit"];
const ROOTS = ["Apparel", "Garden"];
const CHILDREN = ["Shirts", "Shoes", "Tools"];
const VERSION_IDS = { French: 2 };

type Rand = () => number;
const pick = <T>(r: Rand, list: readonly T[]): T => list[Math.floor(r() * list.length)]!;
const some = <T>(r: Rand, list: readonly T[], p = 0.6): T[] => list.filter(() => r() < p);
const maybe = <T>(r: Rand, value: () => T, p = 0.5): T | undefined => (r() < p ? value() : undefined);
const word = (r: Rand) => pick(r, ["alpha", "beta", "gamma", ""]);

/** The tenant as it is: records with ids, references by name. */
function current(r: Rand): RemoteCatalogue {
  let id = 1;
  const display_groups = some(r, DISPLAY_GROUPS).map((name) => ({ id: id++, name, sort_order: Math.floor(r() * 3), in_navigation: r() < 0.5 }));
  const attributes = some(r, ATTRIBUTES).map((name) => {
    const selectable = r() < 0.6;
    return {
      id: id++,
      name,
      type: selectable ? ("selectbox" as const) : ("text" as const),
      sort_order: Math.floor(r() * 3),
      publish: r() < 0.5,
      display_group: display_groups.length && r() < 0.5 ? pick(r, display_groups).name : null,
      versions: (r() < 0.5 ? { French: { name: `${name} (fr)` } } : {}) as Record<string, { name: string }>,
      values: selectable
        ? some(r, VALUES).map((value) => ({
            id: id++,
            value,
            sort_order: Math.floor(r() * 3),
            versions: (r() < 0.5 ? { French: `${value} fr` } : {}) as Record<string, string>,
          }))
        : [],
    };
  });
  const attribute_sets = some(r, SETS).map((name) => {
    const members = some(
      r,
      attributes.map((a) => a.name),
    );
    return { id: id++, name, sort_order: 0, attributes: members, assignment_ids: {} as Record<string, number> };
  });
  const blocks = some(r, BLOCKS).map((slug) => ({ id: id++, slug, name: slug, content: word(r), asset_count: 0 }));
  const brands = some(r, BRANDS).map((name) => ({ id: id++, name, desc: word(r) || undefined, excluded: r() < 0.3, product_count: 0, versions: {} }));
  const categories: RemoteCategory[] = [];
  for (const root of some(r, ROOTS, 0.7)) {
    const rid = id++;
    const kids = some(r, CHILDREN, 0.5);
    categories.push({
      id: rid,
      parent_id: null,
      name: root,
      path: [root],
      child_count: kids.length,
      is_visible: r() < 0.5,
      attribute_sets: some(
        r,
        attribute_sets.map((s) => s.name),
        0.3,
      ).sort(),
    });
    for (const kid of kids) categories.push({ id: id++, parent_id: rid, name: kid, path: [root, kid], child_count: 0, sort_order: Math.floor(r() * 3) });
  }
  const tenant = MemoryTenant.from({
    read: [],
    channels: [],
    version_ids: VERSION_IDS,
    display_groups,
    attributes,
    attribute_sets,
    blocks,
    brands,
    categories,
  });
  return tenant.read();
}

/** What the manifests say: references only to records they declare; renames and moves through previous_*. */
function desired(r: Rand, now: RemoteCatalogue): Catalogue {
  const renameFrom = (name: string, declared: string[], existing: string[]): string[] | undefined => {
    if (existing.includes(name) || r() < 0.5) return undefined;
    const free = existing.filter((e) => !declared.includes(e));
    return free.length ? [pick(r, free)] : undefined;
  };
  const claim = <T extends { previous_names?: string[] }>(list: T[]): T[] => {
    const claimed = new Set<string>();
    for (const x of list) {
      const prev = x.previous_names?.[0];
      if (prev === undefined) continue;
      if (claimed.has(prev)) delete x.previous_names;
      else claimed.add(prev);
    }
    return list;
  };
  const dgNames = some(r, DISPLAY_GROUPS);
  const display_groups = claim(
    dgNames.map((name) => ({
      name,
      sort_order: Math.floor(r() * 3),
      ...opt(
        "previous_names",
        renameFrom(
          name,
          dgNames,
          now.display_groups.map((d) => d.name),
        ),
      ),
    })),
  );
  const attrNames = some(r, ATTRIBUTES);
  const attributes: Attribute[] = claim(
    attrNames.map((name) => {
      const selectable = r() < 0.6;
      const a: Attribute = {
        name,
        type: selectable ? "selectbox" : "text",
        publish: r() < 0.5,
        display_group: dgNames.length && r() < 0.6 ? pick(r, dgNames) : null,
        ...opt(
          "versions",
          maybe(r, () => ({ French: { name: `${name} ${word(r)}` } })),
        ),
        ...opt(
          "previous_names",
          renameFrom(
            name,
            attrNames,
            now.attributes.map((x) => x.name),
          ),
        ),
      };
      if (selectable && r() < 0.8)
        a.values = some(r, VALUES).map((value) => ({
          value,
          sort_order: Math.floor(r() * 3),
          ...opt(
            "versions",
            maybe(r, () => ({ French: `${value} ${word(r)}` })),
          ),
        }));
      return a;
    }),
  );
  const setNames = some(r, SETS);
  const attribute_sets = claim(
    setNames.map((name) => ({
      name,
      ...opt(
        "attributes",
        maybe(r, () => some(r, attrNames), 0.7),
      ),
      ...opt(
        "previous_names",
        renameFrom(
          name,
          setNames,
          now.attribute_sets.map((s) => s.name),
        ),
      ),
    })),
  );
  const blocks = some(r, BLOCKS).map((slug) => ({ slug, content: word(r) }));
  const brandNames = some(r, BRANDS);
  const brands: Brand[] = claim(
    brandNames.map((name) => ({
      name,
      desc: word(r),
      ...opt(
        "attributes",
        maybe(r, () =>
          Object.fromEntries(
            some(r, attrNames, 0.4).map((a) => [
              a,
              {
                value: pick(r, VALUES),
                ...opt(
                  "versions",
                  maybe(r, () => ({ French: pick(r, VALUES) })),
                ),
              },
            ]),
          ),
        ),
      ),
      ...opt(
        "previous_names",
        renameFrom(
          name,
          brandNames,
          now.brands.map((b) => b.name),
        ),
      ),
    })),
  );
  const categories: Category[] = [];
  const nowPaths = now.categories.map((c) => c.path);
  for (const root of some(r, ROOTS, 0.7)) {
    categories.push({
      path: [root],
      name: root,
      is_visible: r() < 0.5,
      ...opt(
        "attribute_sets",
        maybe(r, () => some(r, setNames, 0.5)),
      ),
    });
    for (const kid of some(r, CHILDREN, 0.5)) {
      const path = [root, kid];
      const c: Category = { path, name: kid, sort_order: Math.floor(r() * 3) };
      // A move: the same name under another root in the tenant, not declared there any more.
      const elsewhere = nowPaths.find((p) => p.length === 2 && p[1] === kid && p[0] !== root);
      if (elsewhere && !nowPaths.some((p) => p.join("/") === path.join("/")) && r() < 0.7) c.previous_paths = [elsewhere];
      categories.push(c);
    }
  }
  const declared = new Set(categories.map((c) => c.path.join("/")));
  const moved = new Set<string>();
  for (const c of categories) {
    const from = c.previous_paths?.[0]?.join("/");
    if (from === undefined) continue;
    if (declared.has(from) || moved.has(from)) delete c.previous_paths;
    else moved.add(from);
  }
  return {
    managed: ["display_groups", "attributes", "attribute_sets", "blocks", "brands", "categories"],
    versions: ["French"],
    display_groups,
    attributes,
    attribute_sets,
    blocks,
    brands,
    categories,
  };
}

/** Empty text and absent are the same value to the API. */
function blank(v: unknown): unknown {
  return v === "" || v === undefined ? null : v;
}

function opt<K extends string, V>(key: K, value: V | undefined): Partial<Record<K, V>> {
  return value === undefined ? {} : ({ [key]: value } as Record<K, V>);
}

function pendingActions(desiredCatalogue: Catalogue, remote: RemoteCatalogue, prune: PrunePolicy) {
  const { plan, errors } = buildPlan({
    tenant: "memory",
    desired: desiredCatalogue,
    remote,
    prune,
    ledger: { web_ids: {}, assets: {}, brand_attribute_sets: {} },
  });
  return { plan, errors, pending: plan.actions.filter((a) => a.op !== "unsupported") };
}

describe("the planner's property: plan, apply in memory, plan again", () => {
  it("reaches the desired state and then plans nothing, for random catalogues", () => {
    let planned = 0;
    let actions = 0;
    fc.assert(
      fc.property(fc.integer({ min: 1, max: 2 ** 31 - 1 }), fc.boolean(), (seed, pruneAll) => {
        const r = prng(seed);
        const now = current(r);
        const want = desired(r, now);
        const prune: PrunePolicy = pruneAll ? { attributes: true, type_values: true, attribute_sets: true, brands: true, categories: true } : {};
        const first = pendingActions(want, now, prune);
        expect(first.errors.map((e) => e.format())).toEqual([]);
        const tenant = MemoryTenant.from(now);
        // Any order the dependencies allow, as the concurrent applier may choose.
        tenant.apply(first.plan, (n) => Math.floor(r() * n));
        const after = tenant.read();
        const second = pendingActions(want, after, prune);
        expect(second.pending.map((a) => `${a.op} ${a.address} ${JSON.stringify(a.changes)}`)).toEqual([]);
        // What was declared exists; with pruning on, what was not declared is gone (display groups and blocks cannot be deleted).
        const names = (list: Array<{ name: string }>) => list.map((x) => x.name).sort();
        expect(names(after.attributes).filter((n) => pruneAll || want.attributes.some((a) => a.name === n))).toEqual(names(want.attributes));
        expect(names(after.brands).filter((n) => pruneAll || want.brands.some((b) => b.name === n))).toEqual(names(want.brands));
        const paths = (list: Array<{ path: string[] }>) => list.map((c) => c.path.join("/")).sort();
        expect(paths(after.categories).filter((p) => pruneAll || want.categories.some((c) => c.path.join("/") === p))).toEqual(paths(want.categories));
        // Checked without the planner too: every declared scalar field holds the declared value.
        for (const [kind, key] of [
          ["display_groups", "name"],
          ["attributes", "name"],
          ["attribute_sets", "name"],
          ["blocks", "slug"],
          ["brands", "name"],
        ] as const) {
          for (const d of want[kind] as Array<Record<string, unknown>>) {
            const got = (after[kind] as unknown as Array<Record<string, unknown>>).find((x) => x[key] === d[key]);
            expect(got, `${kind} ${String(d[key])}`).toBeDefined();
            for (const [field, value] of Object.entries(d)) {
              if (value === null || typeof value !== "object") expect(blank(got![field]), `${kind} ${String(d[key])}.${field}`).toEqual(blank(value));
            }
          }
        }
        for (const d of want.attributes) {
          const got = after.attributes.find((a) => a.name === d.name)!;
          const values = got.values.map((v) => v.value).filter((v) => pruneAll || d.values?.some((x) => x.value === v));
          if (d.values) expect(values.sort()).toEqual(d.values.map((v) => v.value).sort());
          for (const [version, fields] of Object.entries(d.versions ?? {})) expect(got.versions?.[version]?.name).toBe(fields.name);
        }
        for (const d of want.attribute_sets)
          if (d.attributes) expect([...after.attribute_sets.find((x) => x.name === d.name)!.attributes].sort()).toEqual([...d.attributes].sort());
        for (const d of want.categories) {
          const got = after.categories.find((c) => c.path.join("/") === d.path.join("/"))!;
          for (const field of ["is_visible", "sort_order"] as const) if (d[field] !== undefined) expect(got[field]).toBe(d[field]);
          if (d.attribute_sets) expect(got.attribute_sets).toEqual([...d.attribute_sets].sort());
        }
        planned++;
        actions += first.pending.length;
      }),
      propertyParams({ numRuns: 300, seed: 20261124 }),
    );
    // The generator must produce real work, not empty plans.
    expect(planned).toBe(300);
    expect(actions).toBeGreaterThan(300 * 5);
  });
});
