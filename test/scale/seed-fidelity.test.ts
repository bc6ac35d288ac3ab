/**
 * The direct seeder (src/bench/seed-tenant.ts) writes what `pimctl apply` writes: a slice of the
 * vendored taxonomy (two root categories, their attributes with every value, French and German
 * versions, brands) applied for real into one tenant and seeded directly into another, twice
 * (copies: 2, so the suffixed names go through both). The two tenants' stored records, their
 * changelogs and the two ledgers are equal once ids are replaced by names.
 */
import { readFile } from "node:fs/promises";
import path from "node:path";
import { afterAll, expect, it } from "vitest";
import { seedProject } from "../../src/bench/seed-tenant.js";
import { writeTaxonomyProject } from "../../src/bench/taxonomy.js";
import type { TenantData } from "../../src/emulator/record-shapes.js";
import { testProject, type TestProject } from "../helpers/project.js";

const projects: TestProject[] = [];
afterAll(async () => Promise.all(projects.map((p) => p.close())));

/** Without ids, parent ids and timestamps: every reference by name (a category by its path). */
function byNames(d: TenantData) {
  const strip = <T extends object>(r: T, ...keys: string[]) =>
    Object.fromEntries(Object.entries(r).filter(([k]) => !["id", "created_at", "updated_at", ...keys].includes(k)));
  const attr = new Map(d.attributes.map((a) => [a.id, a.name]));
  const set = new Map(d.attributeSets.map((s) => [s.id, s.name]));
  const cats = new Map(d.categories.map((c) => [c.id, c]));
  const pathOf = (id: number | null): string => {
    const c = id === null ? undefined : cats.get(id);
    return c ? `${pathOf(c.parent_id)}/${c.name}` : "";
  };
  const brand = new Map(d.brands.map((b) => [b.id, b.name]));
  const entity: Record<string, Map<number, string>> = {
    attribute: attr,
    attribute_set: set,
    brand,
    category: new Map(d.categories.map((c) => [c.id, pathOf(c.id)])),
  };
  const sorted = <T>(xs: T[]) => xs.sort((a, b) => (JSON.stringify(a) < JSON.stringify(b) ? -1 : 1));
  return {
    attributes: sorted(d.attributes.map((a) => strip(a))),
    typeValues: sorted(
      d.typeValues.map((t) => ({
        ...strip(t, "attribute_id", "versions"),
        attribute: attr.get(t.attribute_id),
        versions: Object.fromEntries(Object.entries(t.versions).map(([v, x]) => [v, x.value])),
      })),
    ),
    attributeSets: sorted(d.attributeSets.map((s) => strip(s))),
    // Apply assigns concurrently, so the order within a set (sort_order) is the order the writes landed in.
    assignments: sorted(d.assignments.map((a) => ({ set: set.get(a.attribute_set_id), attribute: attr.get(a.attribute_id) }))),
    sortOrders: sorted(d.assignments.map((a) => `${set.get(a.attribute_set_id)} ${a.sort_order}`)),
    categories: sorted(
      d.categories.map((c) => ({ ...strip(c, "parent_id", "attribute_sets"), path: pathOf(c.id), sets: c.attribute_sets.map((s) => set.get(s)) })),
    ),
    brands: sorted(d.brands.map((b) => strip(b))),
    changelog: sorted(d.changelogs.map((e) => `${e.entity_type} ${e.change_type} ${entity[e.entity_type]?.get(e.entity_id)}`)),
    rest: { ...strip(d, "attributes", "typeValues", "attributeSets", "assignments", "categories", "brands", "changelogs") },
    /** The ledger's ids, as names. */
    names: (kind: string, id: number) =>
      ({ attributes: attr, attribute_sets: set, brands: brand, categories: entity.category })[kind]?.get(id) ??
      (kind === "type_values"
        ? `${attr.get(d.typeValues.find((t) => t.id === id)!.attribute_id)}: ${d.typeValues.find((t) => t.id === id)!.value}`
        : `? ${id}`),
  };
}

it("seeds exactly what apply writes: records, changelog and ledger", async () => {
  const p = await testProject({ tenants: ["applied", "seeded"] });
  projects.push(p);
  await writeTaxonomyProject(p.dir, {
    brands: 3,
    copies: 2,
    roots: ["Luggage & Bags", "Media"],
    tenants: { applied: p.emulator.tenantUrl("applied"), seeded: p.emulator.tenantUrl("seeded") },
    tokenEnv: (t) => `PIMCTL_${t.toUpperCase()}_TOKEN`,
  });
  const applied = await p.cli(["apply", "--tenant", "applied", "--auto-approve", "--quiet"]);
  expect(applied.code, applied.stderr).toBe(0);
  const { seeded } = await seedProject(p.emulator.store("seeded"), { cwd: p.dir, env: p.env, tenant: "seeded" });
  expect(seeded.owned.categories).toHaveLength(2 * 69);

  const a = byNames(p.emulator.store("applied").toData());
  const s = byNames(p.emulator.store("seeded").toData());
  const { names: namesA, ...recordsA } = a;
  const { names: namesS, ...recordsS } = s;
  expect(recordsS).toEqual(recordsA);

  const ledger = async (tenant: string) => JSON.parse(await readFile(path.join(p.dir, ".pimctl", `${tenant}.json`), "utf8"));
  const [la, ls] = [await ledger("applied"), await ledger("seeded")];
  type Byid = Record<string, Record<string, string>>;
  // Sections keyed by id, read by the records' names (ids differ between the two tenants).
  const byName = (section: Byid, names: typeof namesA) =>
    Object.fromEntries(
      Object.entries(section).map(([k, byId]) => [
        k,
        Object.entries(byId)
          .map(([id, n]) => `${names(k, Number(id))} = ${n}`)
          .sort(),
      ]),
    );
  const named = (
    l: { owned: Record<string, number[]>; names: Byid; fingerprints: Byid; applied: Byid; written: Record<string, Record<string, unknown[]>> },
    names: typeof namesA,
  ) => ({
    owned: Object.fromEntries(Object.entries(l.owned).map(([k, ids]) => [k, ids.map((id) => names(k, id)).sort()])),
    names: byName(l.names, names),
    fingerprints: byName(l.fingerprints, names),
    applied: byName(l.applied, names),
    // Written once (one apply, one seed), at a time of its own: as many entries.
    written: Object.values(l.written).flatMap((bySection) => Object.values(bySection).flat()).length,
  });
  expect({ ...ls, tenant: "", base_url: "", ...named(ls, namesS) }).toEqual({ ...la, tenant: "", base_url: "", ...named(la, namesA) });

  // And pimctl agrees: no changes, and no word of missing state.
  const plan = await p.cli(["plan", "--tenant", "seeded", "--detailed-exitcode"]);
  expect(plan.code, plan.stdout + plan.stderr).toBe(0);
  expect(plan.stderr).not.toMatch(/no state/);
}, 90_000);
