/**
 * `pimctl apply plan-a.json plan-b.json`: the saved plans of a CI matrix's jobs (one tenant each)
 * rolled out as a saved fleet file is, over HTTP against two emulator tenants: each tenant applied
 * exactly as reviewed, a tenant changed since refused as stale (exit 5 for it), in the config's
 * waves, with the same table, resume command and exit codes.
 */
import { afterEach, describe, expect, it } from "vitest";
import { testProject, type TestProject } from "../helpers/project.js";
import { createBrand } from "../../src/emulator/kinds/brands.js";
import { BRANDS, brandNames, row } from "./rollout-fixture.js";

const TENANTS = ["prod", "staging"];

let p: TestProject | undefined;
afterEach(async () => {
  await p?.close();
  p = undefined;
});

/** Two tenants, staging's wave first; each planned by its own job into plan-<tenant>.json. */
async function matrixPlans(): Promise<TestProject> {
  p = await testProject({ tenants: TENANTS, files: { "catalogue/brands.yaml": BRANDS }, configLines: ["rollout:", "  - [staging]", "  - [prod]"] });
  for (const t of TENANTS) expect((await p.cli(["plan", "--tenant", t, "--out", `plan-${t}.json`])).code).toBe(0);
  return p;
}

describe("apply FILE FILE...: several saved plans rolled out", () => {
  it("applies each tenant's plan as reviewed, in the config's waves, whatever the order of the files; again, every tenant is already applied", async () => {
    const project = await matrixPlans();
    const r = await project.cli(["apply", "plan-prod.json", "plan-staging.json"]);
    expect(r.code, r.stderr).toBe(0);
    expect(r.stderr).toContain("Rollout: 2 applied (2 tenants, 2 waves).");
    expect(row(r.stderr, "staging").slice(0, 4)).toEqual(["1", "staging", "applied", "0"]);
    expect(row(r.stderr, "prod").slice(0, 4)).toEqual(["2", "prod", "applied", "0"]);
    for (const t of TENANTS) expect(brandNames(project, t)).toEqual(["Acme", "Zenith"]);
    const again = await project.cli(["apply", "plan-prod.json", "plan-staging.json"]);
    expect(again.code, again.stderr).toBe(0);
    for (const t of TENANTS) expect(row(again.stderr, t)[2]).toBe("already applied");
  });

  it("refuses a tenant changed since its review as stale (exit 5 for it, named by its file), stops the rollout, and says to plan that file again before the same apply", async () => {
    const project = await matrixPlans();
    createBrand(project.emulator.store("staging"), { name: "Acme", desc: "Hand-made" });
    const r = await project.cli(["apply", "plan-staging.json", "plan-prod.json", "--format", "json"]);
    expect(r.code, r.stderr).toBe(4);
    const stale = row(r.stderr, "staging");
    expect(stale.slice(0, 4)).toEqual(["1", "staging", "stale", "5"]);
    expect(stale[4]).toContain("plan-staging.json (tenant staging) is not what a plan made now from its own basis gives");
    expect(row(r.stderr, "prod").slice(0, 3)).toEqual(["2", "prod", "not started"]);
    expect(brandNames(project, "prod")).toEqual([]);
    // Only staging's file is planned again (the other file still holds prod's reviewed plan), then the same apply.
    expect(r.stderr).toContain("Plan again: pimctl plan --tenant staging --out plan-staging.json, then run: pimctl apply plan-staging.json plan-prod.json\n");
    const json = JSON.parse(r.stdout) as { kind: string; tenants: Array<{ tenant: string; outcome: string; exit: number }> };
    expect(json.tenants.map((t) => [t.tenant, t.outcome, t.exit])).toEqual([
      ["staging", "stale", 5],
      ["prod", "not started", 4],
    ]);
  });

  it("plans a stale file again with the target and permission to delete it was made with, not the apply's: the next step covers what the review did", async () => {
    p = await testProject({ tenants: TENANTS, files: { "catalogue/brands.yaml": BRANDS }, configLines: ["rollout:", "  - [staging]", "  - [prod]"] });
    const project = p;
    for (const t of TENANTS) {
      const planned = await project.cli(["plan", "--tenant", t, "--target", 'brand["Acme"]', "--allow-delete", "--out", `plan-${t}.json`]);
      expect(planned.code, planned.stderr).toBe(0);
    }
    // The line after a saved plan is a command a shell reads back: a name with a space is quoted, --config kept.
    const spaced = await project.cli(["plan", "--tenant", "prod", "--config", "pimctl.yaml", "--out", "my plan.json"]);
    expect(spaced.stderr).toContain("Apply it with: pimctl apply --config pimctl.yaml 'my plan.json'");
    createBrand(project.emulator.store("staging"), { name: "Acme", desc: "Hand-made" });
    const r = await project.cli(["apply", "plan-staging.json", "plan-prod.json"]);
    expect(r.code, r.stderr).toBe(4);
    const replan = "pimctl plan --tenant staging --target 'brand[\"Acme\"]' --allow-delete --out plan-staging.json";
    expect(r.stderr).toContain(`Plan again: ${replan}, then run: pimctl apply plan-staging.json plan-prod.json\n`);
    // Following it applies Acme alone, as reviewed: Zenith, outside the target, is not written.
    expect((await project.cli(["plan", "--tenant", "staging", "--target", 'brand["Acme"]', "--allow-delete", "--out", "plan-staging.json"])).code).toBe(0);
    const done = await project.cli(["apply", "plan-staging.json", "plan-prod.json"]);
    expect(done.code, done.stderr).toBe(0);
    for (const t of TENANTS) expect(brandNames(project, t)).toEqual(["Acme"]);
  });

  it("refuses two plans of the same tenant, naming both files, --tenant beside the files and --dry-run; nothing is written", async () => {
    const project = await matrixPlans();
    expect((await project.cli(["plan", "--tenant", "prod", "--out", "plan-prod-2.json"])).code).toBe(0);
    const twice = await project.cli(["apply", "plan-prod.json", "plan-staging.json", "plan-prod-2.json"]);
    expect(twice.code).toBe(1);
    expect(twice.stderr).toContain('tenant "prod" has a plan in both plan-prod.json and plan-prod-2.json');
    const narrowed = await project.cli(["apply", "plan-prod.json", "plan-staging.json", "--tenant", "prod"]);
    expect(narrowed.code).toBe(1);
    expect(narrowed.stderr).toContain("the 2 saved plans are applied whole, each to the tenant it was made for (drop --tenant)");
    const dry = await project.cli(["apply", "plan-prod.json", "plan-staging.json", "--dry-run"]);
    expect(dry.code).toBe(1);
    expect(dry.stderr).toContain("--dry-run shows the requests of one tenant: give one tenant's saved plan");
    for (const t of TENANTS) expect(brandNames(project, t)).toEqual([]);
  });
});
