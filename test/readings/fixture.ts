/**
 * Shared by the tests of test/readings/: a catalogue that touches every kind
 * and sub-resource whose read shape API v1 leaves open, a seed of records that
 * pruning must remove (and ids that make the set-attribute delete ambiguous), a
 * plan/apply round runner over real HTTP, and a pairwise covering set of readings.
 */
import { expect } from "vitest";
import { startEmulator, type Emulator, type EmulatorSwitches, type FaultMode } from "../../src/emulator/index.js";
import { createClient, type PimClient } from "../../src/api/client.js";
import { readState } from "../../src/state/index.js";
import { buildPlan } from "../../src/plan/planner.js";
import { applyPlan, type ApplyReport } from "../../src/apply/index.js";
import { emptyLedger, type Ledger } from "../../src/state/ledger.js";
import type { Catalogue } from "../../src/model/catalogue.js";
import type { Plan } from "../../src/plan/types.js";
import type { CategoryRec, TenantData } from "../../src/emulator/store.js";

export const catalogue: Catalogue = {
  managed: ["display_groups", "attributes", "attribute_sets", "blocks", "brands", "categories"],
  versions: ["French"],
  // More than a page of 25 (--paginate-all-lists) and of 10 (--max-page-size 20 falls back to 10).
  display_groups: [
    { name: "Basics", in_navigation: true },
    { name: "Extras", in_navigation: false },
    ...Array.from({ length: 28 }, (_, i) => ({ name: `Group ${String(i).padStart(2, "0")}`, in_navigation: i % 2 === 0 })),
  ],
  attributes: [
    {
      name: "Colour",
      type: "selectbox",
      display_group: "Basics",
      publish: true,
      versions: { French: { name: "Couleur" } },
      values: [{ value: "Red", versions: { French: "Rouge" } }, { value: "Blue" }],
    },
    { name: "Size", type: "selectbox", display_group: "Extras", publish: false, values: [{ value: "S" }, { value: "M" }] },
    { name: "Other", type: "text" },
    { name: "Legacy", type: "text" },
  ],
  attribute_sets: [
    { name: "Apparel", attributes: ["Colour", "Other"] },
    { name: "Shoes", attributes: ["Size"] },
  ],
  blocks: [{ slug: "footer", name: "Footer", content: "one\ntwo\n" }],
  brands: [
    {
      name: "Acme",
      desc: "Tools",
      excluded: true,
      exclusion_start_date: "2026-01-02T03:04:05Z",
      exclusion_end_date: "2026-02-03T00:00:00+00:00",
      web_ids: { Webshop: "acme" },
      assets: [{ image_url: "https://cdn.example.com/acme.png", alttext: "Acme", thumbnail: true }],
      attributes: { Colour: { value: "Red", versions: { French: "Rouge" } } },
      assigned_attributes: ["Colour"],
      attribute_sets: ["Apparel"],
    },
    {
      name: "Globex",
      desc: "Chemicals",
      excluded: false,
      web_ids: { Webshop: "globex", "Boutique FR": "globex-fr" },
      assets: [{ image_url: "https://cdn.example.com/globex.png", alttext: "Globex" }],
    },
    ...Array.from({ length: 24 }, (_, i) => ({ name: `Brand ${String(i).padStart(2, "0")}`, excluded: i % 3 === 0 })),
  ],
  categories: [
    { path: ["Apparel"], name: "Apparel", attribute_sets: ["Apparel"], is_visible: true, web_ids: { Webshop: "apparel" } },
    { path: ["Apparel", "Tops"], name: "Tops", is_visible: false, attribute_sets: ["Apparel", "Shoes"] },
    { path: ["Apparel", "Tops", "Shirts"], name: "Shirts", assets: [{ image_url: "https://cdn.example.com/shirts.png", alttext: "Shirts" }] },
    { path: ["Footwear"], name: "Footwear", status: "enabled" },
    {
      path: ["Footwear", "Shoes"],
      name: "Shoes",
      assets: [{ image_url: "https://cdn.example.com/shoes.png", alttext: "Shoes", thumbnail: true }],
      web_ids: { Webshop: "shoes" },
    },
  ],
};

const t0 = "2026-01-01T00:00:00Z";

/** A category record as the emulator stores it, every other field at its default. */
export const categoryRec = (id: number, parent_id: number | null, name: string): CategoryRec => ({
  id,
  parent_id,
  name,
  slug: null,
  desc: null,
  status: "enabled",
  is_visible: true,
  sort_order: 0,
  attribute_sets: [],
  seo_meta_desc: null,
  seo_meta_keywords: null,
  seo_meta_title: null,
  search_keywords: null,
  protected: false,
  versions: {},
  created_at: t0,
  updated_at: t0,
});
/**
 * Records that exist before the first plan: "Other" and "Legacy" assigned to "Apparel"
 * (Legacy's assignment must go: attribute id 2, assignment id 5; row 6 holds attribute 1,
 * so only one of the two ids is harmless under both readings), and an unmanaged brand and
 * subtree that pruning removes.
 */
export const seed: Partial<TenantData> = {
  attributes: [
    {
      id: 1,
      name: "Other",
      type: "text",
      slug: "other",
      note: null,
      length: null,
      display_group_id: null,
      sort_order: 0,
      publish: false,
      versions: {},
      created_at: t0,
      updated_at: t0,
    },
    {
      id: 2,
      name: "Legacy",
      type: "text",
      slug: "legacy",
      note: null,
      length: null,
      display_group_id: null,
      sort_order: 0,
      publish: false,
      versions: {},
      created_at: t0,
      updated_at: t0,
    },
  ],
  attributeSets: [{ id: 1, name: "Apparel", sort_order: 0 }],
  assignments: [
    { id: 5, attribute_id: 2, attribute_set_id: 1, sort_order: 0, created_at: t0, updated_at: t0 },
    { id: 6, attribute_id: 1, attribute_set_id: 1, sort_order: 1, created_at: t0, updated_at: t0 },
  ],
  brands: [
    {
      id: 7,
      name: "Stale",
      desc: null,
      excluded: false,
      exclusion_start_date: null,
      exclusion_end_date: null,
      exclusion_reason: null,
      seo_search_keywords: null,
      seo_meta_desc: null,
      seo_meta_keywords: null,
      seo_title: null,
      product_count: 0,
      versions: {},
      created_at: t0,
      updated_at: t0,
    },
  ],
  categories: [categoryRec(3, null, "Stale"), categoryRec(4, 3, "Child")],
};

export const prune = { attributes: false, type_values: true, brands: true, categories: true, assets: true };

export interface Tenant {
  emu: Emulator;
  api: PimClient;
  ledger: Ledger;
  plan(): Promise<Plan>;
  apply(plan: Plan): Promise<ApplyReport>;
  close(): Promise<void>;
}

export async function tenant(switches: Partial<EmulatorSwitches>, faults?: { failRate: number; faultSeed: number; modes: FaultMode[] }): Promise<Tenant> {
  const emu = await startEmulator({ port: 0, tenants: [{ hash: "t", token: "tok" }], switches, exportStepMs: 10, seed: { tenants: { t: seed } } });
  const api = createClient({
    tenant: "t",
    baseUrl: emu.tenantUrl("t"),
    token: "tok",
    parallelism: 4,
    retries: { max: 8, baseMs: 1, maxMs: 10 },
    timeoutMs: 5_000,
  });
  if (faults) emu.setFaults({ failRate: faults.failRate, faultSeed: faults.faultSeed, faultModes: faults.modes });
  const ledger = emptyLedger("t", emu.tenantUrl("t"));
  return {
    emu,
    api,
    ledger,
    async plan() {
      const remote = await readState(api, { kinds: catalogue.managed, desired: catalogue, prune });
      const { plan, errors } = buildPlan({ tenant: "t", desired: catalogue, remote, ledger, prune });
      expect(errors.map((e) => e.format())).toEqual([]);
      return plan;
    },
    apply: (plan) => applyPlan({ api, plan, allowDelete: true, dryRun: false, parallelism: 4, failFast: false, ledger }),
    async close() {
      await api.close();
      await emu.close();
    },
  };
}

/** Actions that change something (API v1's impossible ones are reported, not sent). */
export const changes = (p: Plan) => p.actions.filter((a) => a.op !== "unsupported").map((a) => `${a.op} ${a.address}`);

/**
 * A covering set for pairwise testing: every pair of levels of every two factors
 * appears in some row. Greedy and deterministic (each row maximises newly covered
 * pairs, levels tried in order), which is plenty for 15 factors of 2-4 levels.
 */
export function pairwise(factors: Array<readonly unknown[]>): number[][] {
  const uncovered = new Set<string>();
  const key = (i: number, a: number, j: number, b: number) => `${i}:${a}|${j}:${b}`;
  for (let i = 0; i < factors.length; i++)
    for (let j = i + 1; j < factors.length; j++)
      for (let a = 0; a < factors[i]!.length; a++) for (let b = 0; b < factors[j]!.length; b++) uncovered.add(key(i, a, j, b));
  const rows: number[][] = [];
  while (uncovered.size) {
    // Seed the row with the first uncovered pair, then fill each other factor greedily.
    const [first] = uncovered;
    const m = first!.match(/^(\d+):(\d+)\|(\d+):(\d+)$/)!;
    const row: number[] = factors.map(() => -1);
    row[Number(m[1])] = Number(m[2]);
    row[Number(m[3])] = Number(m[4]);
    for (let f = 0; f < factors.length; f++) {
      if (row[f] !== -1) continue;
      let best = 0;
      let bestGain = -1;
      for (let l = 0; l < factors[f]!.length; l++) {
        let gain = 0;
        for (let g = 0; g < factors.length; g++) {
          if (g === f || row[g] === -1) continue;
          if (uncovered.has(g < f ? key(g, row[g]!, f, l) : key(f, l, g, row[g]!))) gain++;
        }
        if (gain > bestGain) [best, bestGain] = [l, gain];
      }
      row[f] = best;
    }
    for (let i = 0; i < row.length; i++) for (let j = i + 1; j < row.length; j++) uncovered.delete(key(i, row[i]!, j, row[j]!));
    rows.push(row);
  }
  return rows;
}
