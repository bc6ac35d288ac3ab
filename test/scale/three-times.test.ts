/**
 * Three times the Shopify taxonomy (31,785 categories, 6,897 attributes with 61,905 values in
 * French and German, 78 attribute sets, 600 brands): the manifests generated, the tenant seeded
 * directly (src/bench/seed-tenant.ts, held equal to an apply by seed-fidelity.test.ts), and
 * `pimctl plan --detailed-exitcode`, run as a user runs it, finds nothing to do. A targeted plan
 * there loads, reads and plans only its targets: the same records and requests as once the
 * taxonomy (issue 27).
 */
import { readFile } from "node:fs/promises";
import path from "node:path";
import { performance } from "node:perf_hooks";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { child } from "../../src/bench/processes.js";
import { seedProject } from "../../src/bench/seed-tenant.js";
import { writeTaxonomyProject } from "../../src/bench/taxonomy.js";
import { KINDS, type Catalogue } from "../../src/model/catalogue.js";
import type { Plan } from "../../src/plan/types.js";
import { testProject, type TestProject } from "../helpers/project.js";
import { repoRoot } from "../helpers/paths.js";

/** The taxonomy `copies` times over, seeded into tenant "big" of a project of its own. */
async function seededProject(copies: number): Promise<{ p: TestProject; setupMs: number }> {
  const t0 = performance.now();
  const p = await testProject({ tenants: ["big"] });
  await writeTaxonomyProject(p.dir, { brands: 200, copies, tenants: { big: p.emulator.tenantUrl("big") }, tokenEnv: () => "PIMCTL_BIG_TOKEN" });
  await seedProject(p.emulator.store("big"), { cwd: p.dir, env: p.env, tenant: "big" });
  return { p, setupMs: performance.now() - t0 };
}

/** Records of every kind in a catalogue (a category counts once, not with its subtree). */
const records = (c: Catalogue) => KINDS.reduce((n, k) => n + c[k].length, 0);

const pimctl = (p: TestProject, args: string[]) => child([path.join(repoRoot, "dist/cli/main.js"), ...args], p.dir, p.env);

let once: TestProject;
let thrice: TestProject;
let setupMs = 0;
beforeAll(async () => {
  [{ p: once }, { p: thrice, setupMs }] = await Promise.all([seededProject(1), seededProject(3)]);
}, 120_000);
afterAll(async () => Promise.all([once, thrice].filter(Boolean).map((p) => p.close())));

it("a tenant three times the taxonomy, seeded directly, plans no changes", async () => {
  const third = await readFile(path.join(thrice.dir, "catalogue", "categories-03.yaml"), "utf8");
  expect(third).toMatch(/^categories:\n {2}- name: "Apparel & Accessories #3"\n/);
  const plan = await pimctl(thrice, ["plan", "--detailed-exitcode"]);
  expect(plan.code, plan.stdout + plan.stderr).toBe(0);
  expect(plan.stdout).toMatch(/No changes/);
  expect(plan.stderr).not.toMatch(/[Ww]arning|no state/);
  console.log(`3×: manifests and seed ${(setupMs / 1000).toFixed(1)} s, no-op plan ${(plan.ms / 1000).toFixed(1)} s`);
}, 120_000);

describe("a targeted plan at three times the taxonomy", () => {
  // A brand, a category and an attribute of the last copy: the same records the first copy has once.
  const targets = (suffix: string) => [`brand["Brand 007${suffix}"]`, `category["Apparel & Accessories${suffix}/Clothing"]`, `attribute["Color${suffix}"]`];
  const targeted = async (p: TestProject, suffix: string) => {
    p.emulator.resetStats();
    const out = path.join(p.dir, `targeted${suffix.replace(/\W/g, "")}.json`);
    const r = await pimctl(p, ["plan", "--detailed-exitcode", "--out", out, ...targets(suffix).flatMap((t) => ["--target", t])]);
    expect(r.code, r.stdout + r.stderr).toBe(0);
    const loaded = /loaded ([\d,]+) of ([\d,]+) manifest entries for 3 targets/.exec(r.stderr);
    expect(loaded, r.stderr).not.toBeNull();
    const saved = JSON.parse(await readFile(out, "utf8")) as Plan;
    return {
      loaded: Number(loaded![1]!.replace(/,/g, "")),
      of: Number(loaded![2]!.replace(/,/g, "")),
      // The records the plan was made from (its basis): what it planned.
      planned: records(saved.basis!.desired),
      requests: p.emulator.stats().requests.total,
    };
  };

  it("loads, reads and plans the same records, with the same requests, as once the taxonomy", async () => {
    const one = await targeted(once, "");
    const three = await targeted(thrice, " #3");
    expect(three.of).toBe(3 * one.of);
    expect(three.loaded).toBe(one.loaded);
    expect(three.planned).toBe(one.planned);
    expect(three.requests).toBe(one.requests);
    // Only what the targets touch: a brand, an attribute, and for the category the whole tree of its root (a root is
    // one entry of the manifests: about 570 records here) with its set's attributes; the tenant has 39,360.
    expect(three.planned).toBeLessThan(1_000);
    console.log(`targeted, 1× and 3×: ${three.loaded} of ${one.of} / ${three.of} entries loaded, ${three.planned} records planned, ${three.requests} requests`);
  }, 60_000);
});
