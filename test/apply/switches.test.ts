import { describe, expect, it } from "vitest";
import { startEmulator, type EmulatorSwitches } from "../../src/emulator/index.js";
import { createClient } from "../../src/api/client.js";
import { readState } from "../../src/state/index.js";
import { buildPlan } from "../../src/plan/planner.js";
import { applyPlan } from "../../src/apply/index.js";
import { emptyLedger } from "../../src/state/ledger.js";
import type { Catalogue } from "../../src/model/catalogue.js";
import { assetsOf } from "../../src/emulator/kinds/assets.js";

const desired: Catalogue = {
  managed: ["attributes", "attribute_sets", "brands", "categories"],
  versions: ["French"],
  display_groups: [],
  blocks: [],
  attributes: [
    {
      name: "Colour",
      type: "selectbox",
      versions: { French: { name: "Couleur" } },
      values: [{ value: "Red", versions: { French: "Rouge" } }, { value: "Blue" }],
    },
  ],
  attribute_sets: [{ name: "Apparel", attributes: ["Colour"] }],
  brands: [{ name: "Acme", desc: "Tools", assets: [{ image_url: "https://cdn.example.com/acme.png", alttext: "Acme" }], web_ids: { Webshop: "acme" } }],
  categories: [
    { path: ["Apparel"], name: "Apparel", attribute_sets: ["Apparel"] },
    { path: ["Apparel", "Shirts"], name: "Shirts" },
    { path: ["Old"], name: "Old" },
    { path: ["Old", "Child"], name: "Child" },
  ],
};

// Where API v1 is silent the emulator picks a behaviour; the reconciler must converge under either.
const alternatives: Array<Partial<EmulatorSwitches>> = [
  {},
  { categoryAttributeSetsRead: "ids" },
  { assetUri: "echo" },
  { searchCase: "insensitive" },
  { versionFallback: false },
  { categoryDeleteWithChildren: "cascade" },
];

describe("the reconciler does not depend on the emulator's choices", () => {
  for (const switches of alternatives) {
    it(`converges with ${JSON.stringify(switches)}`, async () => {
      const emu = await startEmulator({ port: 0, tenants: [{ hash: "t", token: "tok" }], switches });
      const api = createClient({ tenant: "t", baseUrl: emu.tenantUrl("t"), token: "tok" });
      const ledger = emptyLedger("t", emu.tenantUrl("t"));
      const prune = { categories: true };
      const plan = async (d: Catalogue) =>
        buildPlan({ tenant: "t", desired: d, remote: await readState(api, { kinds: d.managed, desired: d, prune }), ledger, prune }).plan;
      try {
        const first = await plan(desired);
        const r = await applyPlan({ api, plan: first, allowDelete: true, dryRun: false, parallelism: 4, failFast: false, ledger });
        expect(r.counts.failed).toBe(0);
        expect((await plan(desired)).actions.map((a) => a.address)).toEqual([]);
        // Pruning a subtree: children are deleted before their parent, whatever DELETE does with children.
        const smaller = { ...desired, categories: desired.categories.slice(0, 2) };
        const second = await plan(smaller);
        expect(second.actions.map((a) => `${a.op} ${a.address}`)).toEqual(['delete category["Old/Child"]', 'delete category["Old"]']);
        const r2 = await applyPlan({ api, plan: second, allowDelete: true, dryRun: false, parallelism: 4, failFast: false, ledger });
        expect(r2.counts.failed).toBe(0);
        expect((await plan(smaller)).actions).toEqual([]);
        expect(assetsOf(emu.store("t"), "brand", [...emu.store("t").brands.keys()][0]!)).toHaveLength(1);
      } finally {
        await api.close();
        await emu.close();
      }
    });
  }
});
