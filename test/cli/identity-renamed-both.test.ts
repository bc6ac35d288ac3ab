/**
 * A record renamed in the manifests (previous_names) and, before that rename was applied, renamed
 * by hand in the tenant (issues 33 and 37, found in review). The ledger remembers the id under the
 * name pimctl applied, which is now the entry's previous name: the record is still pimctl's (what
 * it wrote is as it wrote it), so every plan renames it to the entry's new name on its id. Before,
 * the ledger was asked only for the entry's new name: the full and the targeted plan created a
 * second brand whose web ids failed "already been taken", a category was deleted with its children
 * and created again, and export --merge, after following one hand rename, added a second entry for
 * the next one.
 */
import { readFile } from "node:fs/promises";
import path from "node:path";
import { afterEach, describe, expect, it } from "vitest";
import { testProject, type TestProject } from "../helpers/project.js";
import type { Plan } from "../../src/plan/types.js";

const brands = (name: string, previous?: string) =>
  [
    "brands:",
    `  - name: ${name}`,
    ...(previous ? [`    previous_names: [${previous}]`] : []),
    "    desc: Tools",
    "    web_ids: { Webshop: acme-01 }",
    "    assets: [{ image_url: 'https://cdn.example.com/acme.png', alttext: Acme, thumbnail: true }]",
    "",
  ].join("\n");

const categories = (name: string, previous?: string) =>
  [
    "categories:",
    "  - name: Apparel",
    "    children:",
    `      - name: ${name}`,
    ...(previous ? [`        previous_names: [${previous}]`] : []),
    "        desc: Tops",
    "        children:",
    "          - name: Long sleeves",
    "",
  ].join("\n");

const config = (url: string, prune: string) =>
  ["dir: catalogue", "tenants:", "  demo:", `    base_url: ${url}`, "    token_env: PIMCTL_DEMO_TOKEN", `prune: ${prune}`, ""].join("\n");

let p: TestProject | undefined;
afterEach(async () => {
  await p?.close();
  p = undefined;
});

async function planJson(t: TestProject, ...args: string[]): Promise<Plan> {
  const r = await t.cli(["plan", "--format", "json", "--allow-delete", ...args]);
  expect(r.code, r.stderr).toBe(0);
  return JSON.parse(r.stdout) as Plan;
}
const ops = (plan: Plan) => plan.actions.map((a) => `${a.op} ${a.address}`);

for (const idSequence of ["per-table", "global"] as const) {
  describe(`ids read ${idSequence}`, () => {
    it("a brand renamed in the manifests and by hand meanwhile: renamed on its id by the full and the targeted plan, no second brand", async () => {
      p = await testProject({
        files: { "catalogue/a.yaml": brands("Acme") },
        config: (u) => config(u.demo!, "{ brands: owned }"),
        emulator: { switches: { idSequence } },
      });
      expect((await p.cli(["apply", "--auto-approve"])).code).toBe(0);
      const store = p.emulator.store("demo");
      const acme = store.brandByName.get("Acme")!;
      await p.write("catalogue/a.yaml", brands("Acme Tools", "Acme"));
      store.updateBrand(acme, { name: "ACME Corp" });

      const full = await planJson(p);
      expect(ops(full)).toEqual(['rename brand["Acme Tools"]']);
      expect(full.actions[0]).toMatchObject({ refs: { self: { id: acme } }, previous: { via: "ledger" } });
      expect(ops(await planJson(p, "--target", 'brand["Acme Tools"]'))).toEqual(['rename brand["Acme Tools"]']);
      const diff = await p.cli(["diff", "--from", "catalogue", "--to", "demo", "--format", "json"]);
      expect(ops(JSON.parse(diff.stdout) as Plan)).toEqual(['rename brand["Acme Tools"]']);

      const applied = await p.cli(["apply", "--auto-approve", "--allow-delete"]);
      expect(applied.code, applied.stderr + applied.stdout).toBe(0);
      expect([...store.brands.values()].map((b) => [b.id, b.name])).toEqual([[acme, "Acme Tools"]]);
      expect(store.brandAssets.size).toBe(1);
      expect((await p.cli(["plan", "--detailed-exitcode"])).code).toBe(0);
    }, 30_000);

    it("a category renamed in the manifests and by hand meanwhile, pruning on: renamed on its id, never deleted with its children", async () => {
      p = await testProject({
        files: { "catalogue/a.yaml": categories("Shirts") },
        config: (u) => config(u.demo!, "{ categories: true }"),
        emulator: { switches: { idSequence } },
      });
      expect((await p.cli(["apply", "--auto-approve"])).code).toBe(0);
      const store = p.emulator.store("demo");
      const shirts = [...store.categories.values()].find((c) => c.name === "Shirts")!.id;
      await p.write("catalogue/a.yaml", categories("Tops", "Shirts"));
      store.updateCategory(shirts, { name: "Tees" });

      const full = await planJson(p);
      expect(ops(full)).toEqual(['rename category["Apparel/Tops"]']);
      expect(full.actions[0]).toMatchObject({ refs: { self: { id: shirts } }, previous: { via: "ledger" } });
      expect(ops(await planJson(p, "--target", 'category["Apparel/Tops"]'))).toEqual(['rename category["Apparel/Tops"]']);
    }, 30_000);

    it("a category moved in the manifests (previous_paths) and renamed by hand meanwhile: moved on its id, never deleted", async () => {
      const shirts = (at: string) => [`      - name: Shirts`, ...(at === "Sale" ? ["        previous_paths: [[Apparel, Shirts]]"] : []), "        desc: Tops"];
      const tree = (at: string) =>
        ["categories:", "  - name: Apparel", "    children:", ...(at === "Apparel" ? shirts(at) : ["      - name: Coats"])]
          .concat(["  - name: Sale", "    children:", ...(at === "Sale" ? shirts(at) : ["      - name: Old"])])
          .join("\n") + "\n";
      p = await testProject({
        files: { "catalogue/a.yaml": tree("Apparel") },
        config: (u) => config(u.demo!, "{ categories: true }"),
        emulator: { switches: { idSequence } },
      });
      expect((await p.cli(["apply", "--auto-approve"])).code).toBe(0);
      const store = p.emulator.store("demo");
      const id = [...store.categories.values()].find((c) => c.name === "Shirts")!.id;
      await p.write("catalogue/a.yaml", tree("Sale"));
      store.updateCategory(id, { name: "Tees" });

      const full = await planJson(p);
      expect(ops(full).filter((a) => /Shirts|Tees/.test(a))).toEqual(['move category["Sale/Shirts"]']);
      expect(full.actions.find((a) => a.address === 'category["Sale/Shirts"]')).toMatchObject({ refs: { self: { id } } });
    }, 30_000);
  });
}

describe("export --merge after a hand rename it followed, then another one", () => {
  it("the entry follows again (its name and previous_names), never a second entry", async () => {
    p = await testProject({ files: { "catalogue/a.yaml": brands("Acme") }, config: (u) => config(u.demo!, "{}") });
    expect((await p.cli(["apply", "--auto-approve"])).code).toBe(0);
    const store = p.emulator.store("demo");
    const acme = store.brandByName.get("Acme")!;
    store.updateBrand(acme, { name: "ACME Corp" });
    expect((await p.cli(["export", "--merge", "--out", "catalogue"])).code).toBe(0);
    store.updateBrand(acme, { name: "Acme International" });

    const merged = await p.cli(["export", "--merge", "--out", "catalogue"]);
    expect(merged.code, merged.stderr).toBe(0);
    expect(merged.stderr).not.toMatch(/added: /);
    expect(await readFile(path.join(p.dir, "catalogue/a.yaml"), "utf8")).toContain("  - name: Acme International\n");
    const loaded = await p.cli(["validate", "--format", "json"]);
    expect(loaded.code, loaded.stdout).toBe(0);
    const plan = await p.cli(["plan", "--detailed-exitcode"]);
    expect(plan.code, plan.stdout + plan.stderr).toBe(0);
    expect([...store.brands.values()].map((b) => b.name)).toEqual(["Acme International"]);
  }, 30_000);
});
