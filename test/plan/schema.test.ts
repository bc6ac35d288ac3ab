import { readFileSync } from "node:fs";
import { describe, expect, it } from "vitest";
import { Ajv } from "ajv";
import { buildPlan } from "../../src/plan/planner.js";
import { parsePlan, serialisePlan } from "../../src/planfile/file.js";
import { sealPlan } from "../../src/planfile/integrity.js";
import type { PlanBasis } from "../../src/plan/types.js";
import { desired, ledger, prune, remote } from "../fixtures/plan/every-action.js";
import { configSchema } from "../../src/manifest/schema-source.js";

const schema = JSON.parse(readFileSync(new URL("../../schemas/plan.schema.json", import.meta.url), "utf8"));
const validate = new Ajv({ allErrors: true, strict: false }).compile(schema);

describe("schemas/plan.schema.json", () => {
  it("accepts every plan the planner makes, saved with its basis too", () => {
    const { plan } = buildPlan({ tenant: "demo", desired, remote, ledger, prune });
    expect(validate(plan), JSON.stringify(validate.errors)).toBe(true);
    const basis = { desired, prune, base_url: "http://127.0.0.1:4010/demo/api/v1", targets: [], excludes: [], allow_delete: false };
    const saved = JSON.parse(serialisePlan(sealPlan({ ...plan, deletes_allowed: false, hints: [], basis }, "key")));
    expect(validate(saved), JSON.stringify(validate.errors)).toBe(true);
    // A saved plan (one with a basis) must carry its permission, hints and digest.
    const { integrity: _i, ...unsealed } = saved;
    expect(validate(unsealed)).toBe(false);
  });

  it('a saved plan\'s basis.prune takes exactly the prune forms pimctl.yaml takes (true, false, "owned", per kind)', () => {
    type S = { properties: Record<string, { $ref?: string; oneOf?: unknown }> };
    const inPlan = (schema.properties.basis.properties.prune as S).properties;
    const inConfig = (configSchema.properties as Record<string, S>).prune!.properties;
    expect(Object.keys(inPlan).sort()).toEqual(Object.keys(inConfig).sort());
    const form = (s: { $ref?: string; oneOf?: unknown }) => (s.$ref ? schema.definitions[s.$ref.split("/").pop()!].oneOf : s.oneOf);
    for (const [kind, s] of Object.entries(inConfig)) expect(form(inPlan[kind]!), kind).toEqual(s.oneOf);
    const { plan } = buildPlan({ tenant: "demo", desired, remote, ledger, prune });
    const basis: PlanBasis = {
      desired,
      prune: { brands: "owned", assets: "owned", categories: true, attributes: false },
      base_url: "http://127.0.0.1:4010/demo/api/v1",
      targets: [],
      excludes: [],
      allow_delete: true,
    };
    const saved = JSON.parse(serialisePlan(sealPlan({ ...plan, deletes_allowed: true, hints: [], basis }, undefined)));
    expect(validate(saved), JSON.stringify(validate.errors)).toBe(true);
    expect(parsePlan(serialisePlan(saved), "p.json").basis?.prune).toEqual(basis.prune);
    expect(validate({ ...saved, basis: { ...basis, prune: { brands: "all" } } })).toBe(false);
    expect(validate({ ...saved, basis: { ...basis, prune: { brand: true } } })).toBe(false);
  });

  it("rejects fields it does not know, so the schema cannot drift from the code", () => {
    const { plan } = buildPlan({ tenant: "demo", desired, remote, ledger, prune });
    expect(validate({ ...plan, extra: 1 })).toBe(false);
    expect(validate({ ...plan, actions: [{ ...plan.actions[0], surprise: true }] })).toBe(false);
  });
});

describe("saved plan files", () => {
  it("round-trip and refuse an unknown major format version", () => {
    const { plan } = buildPlan({ tenant: "demo", desired, remote, ledger, prune });
    expect(parsePlan(serialisePlan(plan), "p.json")).toEqual(plan);
    expect(() => parsePlan(JSON.stringify({ ...plan, format_version: "2.0" }), "p.json")).toThrow(/plan format 2.0; this pimctl reads format 1.x/);
    expect(() => parsePlan("{", "p.json")).toThrow(/not a pimctl plan/);
    expect(() => parsePlan(JSON.stringify({ ...plan, actions: [{ ...plan.actions[0], op: "obliterate" }] }), "p.json")).toThrow(
      /does not match the plan schema .* at actions\[0\]\.op/,
    );
    const { fingerprints: _f, ...noFingerprints } = plan;
    expect(() => parsePlan(JSON.stringify(noFingerprints), "p.json")).toThrow(/at \(top level\): missing "fingerprints"/);
  });
});
