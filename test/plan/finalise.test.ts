/**
 * The one pure step from the full plan to the final one (src/plan/finalise.ts): a plan made from
 * the catalogue narrowed to the selectors (plan/read-scope.ts), finalised, equals the full plan
 * finalised with the same selectors; finalising twice is finalising once; the plan given is not
 * changed. The same promise against a tenant, read narrowed: test/cli/identity-property.test.ts.
 */
import fc from "fast-check";
import { describe, expect, it } from "vitest";
import { buildPlan } from "../../src/plan/planner.js";
import { finalisePlan, type FinalOptions } from "../../src/plan/finalise.js";
import { readScope } from "../../src/plan/read-scope.js";
import { knownAddresses } from "../../src/plan/selectors.js";
import { canonicalJson } from "../../src/plan/canonical-json.js";
import { KINDS, type Catalogue } from "../../src/model/catalogue.js";
import { PimctlErrors } from "../../src/errors.js";
import type { Plan } from "../../src/plan/types.js";
import { desired, ledger, prune, remote } from "../fixtures/plan/every-action.js";

const facts = { desired, remote, ledger };
const planOf = (d: Catalogue): Plan => buildPlan({ tenant: "demo", desired: d, remote, ledger, prune }).plan;
const full = planOf(desired);
const options = (o: Partial<FinalOptions> = {}): FinalOptions => ({ scope: {}, targets: [], excludes: [], allowDelete: false, prune, ...o });
const actions = (p: Plan) => p.actions.map((a) => canonicalJson(a));

describe("finalisePlan, the one step from the full plan to the final one", () => {
  // Records' addresses (an assignment's address names no record: a narrowed plan may not hold it, and refuses it as matching nothing).
  const addresses = [...knownAddresses(desired, remote)].sort();
  const selector = fc.oneof(fc.constantFrom(...addresses), fc.constantFrom(...KINDS.filter((k) => full.actions.some((a) => a.kind === k))));

  it("gives the full plan finalised for a plan of the catalogue narrowed to the selectors", () => {
    fc.assert(
      fc.property(fc.uniqueArray(selector, { maxLength: 3 }), fc.uniqueArray(selector, { maxLength: 2 }), fc.boolean(), (targets, excludes, allowDelete) => {
        const o = options({ targets, excludes, allowDelete });
        let whole: Plan;
        try {
          whole = finalisePlan(full, facts, o);
        } catch (e) {
          // An exclude that leaves a target nothing to match is refused alike either way.
          if (e instanceof PimctlErrors) return;
          throw e;
        }
        const scope = readScope(desired, { targets, excludes });
        const narrowed = finalisePlan(planOf(scope?.desired ?? desired), facts, { ...o, narrowedRead: scope !== undefined });
        expect(actions(narrowed)).toEqual(actions(whole));
        // Unmanaged records are counted on the tenant as read: a narrowed read sees fewer (as the CLI tests, not compared).
        expect({ ...narrowed.summary, unmanaged: 0 }).toEqual({ ...whole.summary, unmanaged: 0 });
        expect(narrowed.fingerprints).toEqual(whole.fingerprints);
        // Narrowing a final plan again by the same selectors changes none of its actions.
        expect(actions(finalisePlan(finalisePlan(full, facts, options({ allowDelete })), facts, o))).toEqual(actions(whole));
      }),
      { seed: 34, numRuns: 200 },
    );
  });

  it("records the permission to delete and adds move hints, and leaves the plan it was given as it was", () => {
    const before = JSON.stringify(full);
    const blocked = finalisePlan(full, facts, options());
    const allowed = finalisePlan(full, facts, options({ allowDelete: true }));
    expect(JSON.stringify(full)).toBe(before);
    expect(blocked.deletes_allowed).toBe(false);
    expect(blocked.actions.filter((a) => a.op === "delete").every((a) => a.flags.blocked)).toBe(true);
    expect(allowed.actions.some((a) => a.flags.blocked)).toBe(false);
    expect(blocked.actions.some((a) => a.op === "delete")).toBe(true);
  });

  it("applies ignore: and refuses a protected delete, naming the rule", () => {
    const ignored = finalisePlan(full, facts, options({ scope: { ignore: ["brands"] } }));
    expect(ignored.actions.some((a) => a.kind === "brands")).toBe(false);
    expect(ignored.warnings.join("\n")).toMatch(/left out by the ignore rules/);
    const del = full.actions.find((a) => a.op === "delete")!;
    const refusal = (() => {
      try {
        finalisePlan(full, facts, options({ scope: { protect: [del.address] } }));
      } catch (e) {
        return e instanceof PimctlErrors ? e.errors.map((x) => x.message).join("\n") : String(e);
      }
      return "no refusal";
    })();
    expect(refusal).toContain(`${del.address} is protected by the rule protect: ${del.address}`);
  });

  it("refuses a target that matches nothing, before anything is narrowed", () => {
    expect(() => finalisePlan(full, facts, options({ targets: ['brand["No such brand"]'] }))).toThrow(PimctlErrors);
  });
});
