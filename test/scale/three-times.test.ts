/**
 * Three times the Shopify taxonomy (31,785 categories, 6,897 attributes with 61,905 values in
 * French and German, 78 attribute sets, 600 brands): the manifests generated, the tenant seeded
 * directly (src/bench/seed-tenant.ts, held equal to an apply by seed-fidelity.test.ts), and
 * `pimctl plan --detailed-exitcode`, run as a user runs it, finds nothing to do.
 */
import path from "node:path";
import { performance } from "node:perf_hooks";
import { afterAll, expect, it } from "vitest";
import { child } from "../../src/bench/processes.js";
import { seedProject } from "../../src/bench/seed-tenant.js";
import { writeTaxonomyProject } from "../../src/bench/taxonomy.js";
import { repoRoot, testProject, type TestProject } from "../helpers/project.js";

const projects: TestProject[] = [];
afterAll(async () => Promise.all(projects.map((p) => p.close())));

it("a tenant three times the taxonomy, seeded directly, plans no changes", async () => {
  const t0 = performance.now();
  const p = await testProject({ tenants: ["big"] });
  projects.push(p);
  const summary = await writeTaxonomyProject(p.dir, {
    brands: 200,
    copies: 3,
    tenants: { big: p.emulator.tenantUrl("big") },
    tokenEnv: () => "PIMCTL_BIG_TOKEN",
  });
  expect(summary).toMatch(/^31785 categories, 6897 attributes with 61905 values, 78 attribute sets, 600 brands/);
  const { seeded } = await seedProject(p.emulator.store("big"), { cwd: p.dir, env: p.env, tenant: "big" });
  expect(seeded.owned.categories).toHaveLength(31_785);
  const ready = performance.now();

  const plan = await child([path.join(repoRoot, "dist/cli/main.js"), "plan", "--detailed-exitcode"], p.dir, p.env);
  expect(plan.code, plan.stdout + plan.stderr).toBe(0);
  expect(plan.stdout).toMatch(/No changes/);
  expect(plan.stderr).not.toMatch(/[Ww]arning|no state/);
  console.log(`3×: manifests and seed ${((ready - t0) / 1000).toFixed(1)} s, no-op plan ${(plan.ms / 1000).toFixed(1)} s`);
}, 120_000);
