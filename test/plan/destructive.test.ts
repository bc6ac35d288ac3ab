/** Every delete that can take data with it is destructive, with its reason on the action. */
import { describe, expect, it } from "vitest";
import { buildPlan } from "../../src/plan/planner.js";
import { desired, ledger, prune, remote } from "../fixtures/plan/every-action.js";

const { plan } = buildPlan({ tenant: "demo", desired, remote, ledger, prune });
const deletes = plan.actions.filter((a) => a.op === "delete");

describe("destructive deletes", () => {
  it("the fixture deletes records of each kind that carries data", () => {
    for (const t of ["attribute", "type_value", "category", "brand"])
      expect(
        deletes.some((a) => a.type === t),
        t,
      ).toBe(true);
  });
  it("attributes of any type, type values, attribute sets and categories are always destructive, with a reason", () => {
    for (const a of deletes.filter((x) => ["attribute", "type_value", "attribute_set", "category"].includes(x.type))) {
      expect(a.flags.destructive, a.address).toBe(true);
      expect(a.notes?.length, a.address).toBeGreaterThan(0);
    }
    const category = deletes.find((a) => a.type === "category")!;
    expect(category.notes).toContain("products classified here lose this category; the API cannot tell how many");
    const attribute = deletes.find((a) => a.type === "attribute")!;
    expect(attribute.notes?.[0]).toMatch(/^products lose their values of this \w+ attribute$/);
  });
  it("a brand is destructive only when products carry it, and says how many", () => {
    for (const a of deletes.filter((x) => x.type === "brand")) {
      const r = remote.brands.find((b) => `brand[${JSON.stringify(b.name)}]` === a.address)!;
      expect(a.flags.destructive === true, a.address).toBe(r.product_count > 0);
      if (r.product_count > 0) expect(a.notes?.[0]).toMatch(/^(1 product carries this brand and loses it|\d+ products carry this brand and lose it)$/);
    }
  });
});
