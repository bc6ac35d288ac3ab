import { readFileSync } from "node:fs";
import path from "node:path";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { Ajv } from "ajv";
import { testProject, repoRoot, type TestProject } from "../helpers/project.js";
import type { Plan } from "../../src/plan/types.js";
import { plan } from "../../src/index.js";

const schema = JSON.parse(readFileSync(path.join(repoRoot, "schemas/plan.schema.json"), "utf8"));
const validatePlan = new Ajv({ strict: false }).compile(schema);

describe("plan and apply the examples against an empty tenant (CLI, end to end)", () => {
  let p: TestProject;
  beforeAll(async () => {
    p = await testProject();
    await p.copyExamples(path.join(repoRoot, "examples/catalogue"));
  });
  afterAll(async () => p.close());

  it("an empty tenant plans as all creates, in JSON that matches the schema", async () => {
    const r = await p.cli(["plan", "--format", "json", "--detailed-exitcode"]);
    expect(r.code, r.stderr).toBe(2);
    const plan = JSON.parse(r.stdout) as Plan;
    expect(validatePlan(plan), JSON.stringify(validatePlan.errors)).toBe(true);
    expect(plan.actions.length).toBeGreaterThan(50);
    expect(new Set(plan.actions.filter((a) => a.op !== "unsupported").map((a) => a.op))).toEqual(new Set(["create"]));
    expect(plan.basis).toBeUndefined();
  });

  it("refuses to apply without a terminal unless approved", async () => {
    const r = await p.cli(["apply"]);
    expect(r.code).toBe(1);
    expect(r.stderr).toMatch(/--auto-approve/);
  });

  it("applies, then plans no changes (exit 0 with --detailed-exitcode)", async () => {
    const a = await p.cli(["apply", "--auto-approve"]);
    expect(a.code, a.stderr).toBe(0);
    expect(a.stderr).toMatch(/Apply: \d+ done, 0 failed, 0 skipped/);
    const r = await p.cli(["plan", "--detailed-exitcode"]);
    expect(r.code, r.stdout + r.stderr).toBe(0);
    expect(r.stdout).toContain("No changes. The tenant matches the manifests.");
  });

  it("a saved plan applies while fresh, and is refused (exit 5) once the tenant changed", async () => {
    await p.write("catalogue/zz-extra.yaml", "brands:\n  - name: Saved Plan Brand\n    desc: first\n");
    const saved = await p.cli(["plan", "--out", "fresh.json", "--quiet"]);
    expect(saved.code, saved.stderr).toBe(0);
    const ok = await p.cli(["apply", "fresh.json"]);
    expect(ok.code, ok.stderr).toBe(0);

    await p.write("catalogue/zz-extra.yaml", "brands:\n  - name: Saved Plan Brand\n    desc: second\n");
    const stale = await p.cli(["plan", "--out", "stale.json", "--quiet"]);
    expect(stale.code).toBe(0);
    // Someone edits the brand after the plan was made.
    const api = await import("../../src/api/client.js");
    const client = api.createClient({ tenant: "demo", baseUrl: p.emulator.tenantUrl("demo"), token: p.tokens.demo! });
    const brand = await client.searchBrand("Saved Plan Brand");
    await client.updateBrand(brand!.id, { desc: "edited out of band" });
    await client.close();
    const refused = await p.cli(["apply", "stale.json"]);
    expect(refused.code).toBe(5);
    expect(refused.stderr).toContain('changed: brand["Saved Plan Brand"]');
  });

  it("--fail-on-delete exits 3 when pruning would delete", async () => {
    await p.write("pimctl.yaml", readFileSync(path.join(p.dir, "pimctl.yaml"), "utf8") + "prune:\n  brands: true\n");
    await p.write("catalogue/zz-extra.yaml", "brands: []\n");
    const r = await p.cli(["plan", "--fail-on-delete"]);
    expect(r.code).toBe(3);
    expect(r.stdout).toContain('- brand["Saved Plan Brand"]');
    expect(r.stderr).toMatch(/--fail-on-delete/);
    // The policy is part of the library's result: a program calling plan() gets it without the CLI.
    const asked = await plan({ cwd: p.dir, env: p.env, failOnDelete: true });
    expect(asked.policyViolation).toBe("the plan deletes 1 record and --fail-on-delete is set");
    expect((await plan({ cwd: p.dir, env: p.env, failOnDestructive: false })).policyViolation).toBeUndefined();
  });

  it("never shows the token, even with --log-http", async () => {
    const r = await p.cli(["plan", "--log-http", "--format", "json"]);
    expect(r.stderr).toMatch(/http: GET /);
    expect(r.stdout + r.stderr).not.toContain(p.tokens.demo!);
  });
});
