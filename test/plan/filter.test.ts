import { describe, expect, it } from "vitest";
import { buildPlan } from "../../src/plan/planner.js";
import { filterPlan } from "../../src/plan/filter.js";
import { desired, ledger, prune, remote } from "../fixtures/plan/every-action.js";

const { plan } = buildPlan({ tenant: "demo", desired, remote, ledger, prune });

describe("--target and --exclude", () => {
  it("a target keeps its record, what is under it, and what it depends on", () => {
    const p = filterPlan(plan, { targets: ['attribute_set["Apparel"]'] });
    expect(p.actions.map((a) => a.address)).toEqual([
      'display_group["Technical"]',
      'attribute["Material"]',
      'attribute_set["Apparel"].attribute["Material"]',
      'attribute_set["Apparel"].attribute["Legacy"]',
    ]);
    expect(p.summary.create).toBe(3);
    expect(p.summary.delete).toBe(1);
  });
  it("an exclude drops a kind, or a record, and what depends on it", () => {
    const p = filterPlan(plan, { excludes: ["brands", 'attribute["Material"]'] });
    expect(p.actions.some((a) => a.kind === "brands")).toBe(false);
    expect(p.actions.some((a) => a.address.includes("Material"))).toBe(false);
    expect(p.actions.some((a) => a.address === 'attribute["Colour"]')).toBe(true);
  });
});
