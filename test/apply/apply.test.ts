import { beforeEach, describe, expect, it } from "vitest";
import type { Emulator } from "../../src/emulator/index.js";
import { createClient, type PimClient } from "../../src/api/client.js";
import { readState } from "../../src/state/index.js";
import { buildPlan } from "../../src/plan/planner.js";
import { applyPlan } from "../../src/apply/index.js";
import { emptyLedger, type Ledger } from "../../src/state/ledger.js";
import type { Catalogue } from "../../src/model/catalogue.js";
import type { Plan } from "../../src/plan/types.js";
import { createBrand } from "../../src/emulator/kinds/brands.js";
import { typeValuesOf } from "../../src/emulator/kinds/type-values.js";
import { fileEmulator } from "../helpers/emulator.js";

let emu: Emulator;
let api: PimClient;
let ledger: Ledger;
const prune = { attributes: true, type_values: true, brands: true, categories: true, assets: true };

const file = fileEmulator({ client: { retries: { max: 6, baseMs: 2, maxMs: 20 } } });
beforeEach(async () => {
  api = await file.fresh();
  emu = file.emu;
  ledger = emptyLedger("t", file.url);
});

async function planFor(desired: Catalogue, withPrune = true): Promise<Plan> {
  const p = withPrune ? prune : {};
  const remote = await readState(api, { kinds: desired.managed, desired, prune: p });
  const { plan, errors } = buildPlan({ tenant: "t", desired, remote, ledger, prune: p });
  expect(errors.map((e) => e.format())).toEqual([]);
  return plan;
}

const changes = (p: Plan) => p.actions.filter((a) => a.op !== "unsupported");

const v1: Catalogue = {
  managed: ["display_groups", "attributes", "attribute_sets", "blocks", "brands", "categories"],
  versions: ["French"],
  display_groups: [{ name: "Basics", in_navigation: true }],
  attributes: [
    {
      name: "Colour",
      type: "selectbox",
      display_group: "Basics",
      publish: true,
      versions: { French: { name: "Couleur" } },
      values: [{ value: "Red", versions: { French: "Rouge" } }, { value: "Blue" }, { value: "Mauve" }],
    },
    { name: "Legacy", type: "text" },
  ],
  attribute_sets: [{ name: "Apparel", attributes: ["Colour", "Legacy"] }],
  blocks: [{ slug: "footer", name: "Footer", content: "one\ntwo\n" }],
  brands: [
    {
      name: "Acme",
      desc: "Tools",
      web_ids: { Webshop: "acme" },
      assets: [{ image_url: "https://cdn.example.com/acme.png", alttext: "Acme", thumbnail: true }],
      attributes: { Colour: { value: "Red", versions: { French: "Rouge" } } },
      assigned_attributes: ["Colour"],
      attribute_sets: ["Apparel"],
    },
    { name: "Oldco" },
  ],
  categories: [
    { path: ["Apparel"], name: "Apparel", attribute_sets: ["Apparel"], web_ids: { Webshop: "apparel" } },
    { path: ["Apparel", "Tops"], name: "Tops" },
    { path: ["Footwear"], name: "Footwear" },
    { path: ["Footwear", "Shoes"], name: "Shoes", assets: [{ image_url: "https://cdn.example.com/shoes.png", alttext: "Shoes" }] },
  ],
};

/** Every op: updates, renames, a move, deletes, version changes, write-only changes. */
const v2: Catalogue = {
  ...v1,
  display_groups: [{ name: "Essentials", in_navigation: false, previous_names: ["Basics"] }],
  attributes: [
    {
      name: "Color",
      type: "selectbox",
      display_group: "Essentials",
      publish: false,
      previous_names: ["Colour"],
      versions: { French: { name: "Teinte" } },
      values: [
        { value: "Red", versions: { French: "Rouge vif" } },
        { value: "Navy", previous_values: ["Blue"] },
      ],
    },
  ],
  attribute_sets: [{ name: "Clothing", attributes: ["Color"], previous_names: ["Apparel"] }],
  blocks: [{ slug: "footer", name: "Footer", content: "one\nTWO\n" }],
  brands: [
    {
      name: "Acme Tools",
      previous_names: ["Acme"],
      desc: "Tools since 1950",
      web_ids: { Webshop: "acme-tools" },
      assets: [{ image_url: "https://cdn.example.com/acme.png", alttext: "Acme logo", thumbnail: true }],
      attributes: { Color: { value: "Navy", versions: { French: "Marine" } } },
      assigned_attributes: ["Color"],
      attribute_sets: ["Clothing"],
    },
  ],
  categories: [
    { path: ["Apparel"], name: "Apparel", attribute_sets: ["Clothing"], web_ids: { Webshop: "apparel-2" } },
    { path: ["Apparel", "Shirts"], name: "Shirts", previous_names: ["Tops"] },
    {
      path: ["Apparel", "Shoes"],
      name: "Shoes",
      previous_paths: [["Footwear", "Shoes"]],
      assets: [{ image_url: "https://cdn.example.com/shoes.png", alttext: "Shoes!" }],
    },
  ],
};

describe("apply against the emulator", () => {
  it("applies every resource to an empty tenant, then converges; then every op, then converges again", async () => {
    const first = await planFor(v1);
    expect(new Set(changes(first).map((a) => a.op))).toEqual(new Set(["create"]));
    const r1 = await applyPlan({ api, plan: first, allowDelete: true, dryRun: false, parallelism: 8, failFast: false, ledger });
    expect(r1.counts).toMatchObject({ failed: 0, skipped: 0 });
    expect(changes(await planFor(v1))).toEqual([]);

    const second = await planFor(v2);
    const ops = new Set(changes(second).map((a) => a.op));
    expect(ops).toEqual(new Set(["create", "update", "rename", "move", "delete"]));
    const r2 = await applyPlan({ api, plan: second, allowDelete: true, dryRun: false, parallelism: 8, failFast: false, ledger });
    expect(r2.results.filter((r) => r.status === "failed")).toEqual([]);
    expect(changes(await planFor(v2)).map((a) => a.address)).toEqual([]);
    const store = emu.store("t");
    expect([...store.brands.values()].map((b) => b.name)).toEqual(["Acme Tools"]);
    expect([...store.attributes.values()].map((a) => a.name)).toEqual(["Color"]);
    expect(typeValuesOf(store, [...store.attributes.values()][0]!.id).map((v) => v.value)).toEqual(["Red", "Navy"]);
  });

  it("runs dependants after their dependencies, with created ids flowing into later requests", async () => {
    const plan = await planFor(v1);
    const order: string[] = [];
    await applyPlan({
      api,
      plan,
      allowDelete: false,
      dryRun: false,
      parallelism: 8,
      failFast: false,
      ledger,
      hooks: { postAction: (a) => order.push(a.address) },
    });
    const pos = new Map(order.map((a, i) => [a, i]));
    for (const a of plan.actions) for (const d of a.depends_on) expect(pos.get(d)!).toBeLessThan(pos.get(a.address)!);
    const colour = [...emu.store("t").attributes.values()].find((a) => a.name === "Colour")!;
    expect(typeValuesOf(emu.store("t"), colour.id)).toHaveLength(3);
  });

  it("a failed action skips only what depends on it; --fail-fast stops the rest", async () => {
    const plan = await planFor(v1);
    emu.injectFaults([{ method: "POST", route: "/attributes", mode: "error500", times: 1000 }]);
    const quick = createClient({ tenant: "t", baseUrl: emu.tenantUrl("t"), token: "tok", retries: { max: 0, baseMs: 1, maxMs: 1 } });
    const r = await applyPlan({ api: quick, plan, allowDelete: false, dryRun: false, parallelism: 4, failFast: false, ledger });
    const by = new Map(r.results.map((x) => [x.address, x]));
    expect(by.get('attribute["Colour"]')!.status).toBe("failed");
    expect(by.get('attribute["Colour"].value["Red"]')).toMatchObject({ status: "skipped", skip_cause: "dependency_failed" });
    expect(by.get('brand["Oldco"]')!.status).toBe("done");
    expect(by.get('category["Apparel/Tops"]')!.status).toBe("done");
    emu.clearFaults();
    emu.resetTenant("t");
    emu.injectFaults([{ method: "POST", route: "/display-groups", mode: "error500", times: 1000 }]);
    const ff = await applyPlan({ api: quick, plan, allowDelete: false, dryRun: false, parallelism: 1, failFast: true, ledger });
    expect(ff.counts.done).toBe(0);
    expect(ff.results.filter((x) => x.skip_cause === "fail_fast").length).toBeGreaterThan(10);
    await quick.close();
  });

  it("a hook that throws stops the run: nothing more starts, what is in flight ends, the error reaches the caller", async () => {
    const plan = await planFor(v1);
    emu.resetStats();
    let started = 0;
    const run = applyPlan({
      api,
      plan,
      allowDelete: true,
      dryRun: false,
      parallelism: 2,
      failFast: false,
      hooks: {
        preAction: () => {
          if (++started === 3) throw new Error("progress display broke");
        },
      },
    });
    await expect(run).rejects.toThrow("progress display broke");
    const writes = (emu.stats().requests.byMethod.POST ?? 0) + (emu.stats().requests.byMethod.PUT ?? 0);
    // The two actions before it (parallelism 2): the rest never started.
    expect(writes).toBeLessThanOrEqual(2);
    expect(changes(plan).length).toBeGreaterThan(10);
  });

  it("refuses a plan with deletes before any write without allowDelete, and dry-run sends no write", async () => {
    const plan = await planFor(v1);
    emu.resetStats();
    const dry = await applyPlan({ api, plan, allowDelete: false, dryRun: true, parallelism: 8, failFast: false });
    const stats = emu.stats().requests.byMethod;
    expect(stats.POST ?? 0).toBe(0);
    expect(stats.PUT ?? 0).toBe(0);
    const valueCreate = dry.results.find((x) => x.address === 'attribute["Colour"].value["Red"]')!;
    expect(valueCreate.request).toEqual({ method: "POST", path: '/attributes/<id of attribute["Colour"]>/type_values', body: { value: "Red" } });
    await applyPlan({ api, plan, allowDelete: true, dryRun: false, parallelism: 8, failFast: false, ledger });
    const pruning = await planFor({ ...v1, brands: [v1.brands[0]!] });
    expect(pruning.actions.some((a) => a.op === "delete")).toBe(true);
    emu.resetStats();
    await expect(applyPlan({ api, plan: pruning, allowDelete: false, dryRun: false, parallelism: 8, failFast: false, ledger })).rejects.toMatchObject({
      code: "policy_refused",
      details: expect.arrayContaining(['blocked delete: brand["Oldco"]']),
    });
    const after = emu.stats().requests.byMethod;
    expect((after.POST ?? 0) + (after.PUT ?? 0) + (after.DELETE ?? 0)).toBe(0);
    expect([...emu.store("t").brands.values()].some((b) => b.name === "Oldco")).toBe(true);
  });
});

describe("apply converges on a bad network (seeded property test)", () => {
  for (const seed of [1, 2, 3, 4, 5, 6, 7, 8, 9, 10]) {
    it(`seed ${seed}: 25% failures, dropped connections and a rate limit; no duplicates, nothing lost`, async () => {
      const flaky = createClient({ tenant: "t", baseUrl: emu.tenantUrl("t"), token: "tok", retries: { max: 2, baseMs: 1, maxMs: 5 }, random: () => 0.5 });
      // Something that must survive: a brand the manifests do not mention, with pruning off for it.
      createBrand(emu.store("t"), { name: "Keep me" });
      emu.resetStats();
      emu.setFaults({ failRate: 0.25, faultSeed: seed, rateLimit: 400 });
      emu.injectFaults([{ method: "POST", mode: "drop_after_commit", times: 5 }]);
      let rounds = 0;
      for (; rounds < 8; rounds++) {
        let plan: Plan;
        try {
          const remote = await readState(flaky, { kinds: v1.managed, desired: v1 });
          plan = buildPlan({ tenant: "t", desired: v1, remote, ledger }).plan;
        } catch {
          continue; // the read itself failed after its retries: try the round again
        }
        if (!changes(plan).length) break;
        await applyPlan({ api: flaky, plan, allowDelete: false, dryRun: false, parallelism: 8, failFast: false, ledger });
      }
      const injected = Object.values(emu.stats().faults).reduce((n, c) => n + c, 0);
      emu.clearFaults();
      await flaky.close();
      expect(injected).toBeGreaterThan(10);
      expect(rounds).toBeLessThan(8);
      expect(changes(await planFor(v1, false))).toEqual([]);
      const s = emu.store("t");
      const count = (names: string[]) => names.reduce<Record<string, number>>((m, n) => ({ ...m, [n]: (m[n] ?? 0) + 1 }), {});
      expect(Object.values(count([...s.brands.values()].map((b) => b.name))).every((n) => n === 1)).toBe(true);
      expect(Object.values(count([...s.attributes.values()].map((a) => a.name))).every((n) => n === 1)).toBe(true);
      expect(Object.values(count([...s.categories.values()].map((c) => `${c.parent_id}/${c.name}`))).every((n) => n === 1)).toBe(true);
      expect(Object.values(count([...s.typeValues.values()].map((v) => `${v.attribute_id}/${v.value}`))).every((n) => n === 1)).toBe(true);
      expect([...s.brandAssets.values()]).toHaveLength(1);
      expect([...s.brands.values()].some((b) => b.name === "Keep me")).toBe(true);
    });
  }
});
