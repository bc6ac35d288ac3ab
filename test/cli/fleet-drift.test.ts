/**
 * `pimctl drift --tenant '*'` (issue 35, contract 6): one report for the fleet, a row per tenant,
 * then each tenant's items; a tenant that cannot be read is a row with its error; the exit code is
 * the worst of the tenants'.
 */
import { readFileSync } from "node:fs";
import { rm } from "node:fs/promises";
import path from "node:path";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { createClient } from "../../src/api/client.js";
import { ManifestReader } from "../../src/manifest/overlay-load.js";
import { driftFleet } from "../../src/workflows/fleet-drift.js";
import { selectFleet } from "../../src/workflows/fleet-plan.js";
import { schemaValidator, testProject, type TestProject } from "../helpers/project.js";

const TENANTS = ["prod-eu", "prod-us", "staging"];

/** schemas/fleet-drift.schema.json accepts it (its tenants' reports are schemas/drift.schema.json's). */
function expectFleetDriftSchema(stdout: string): void {
  const validate = schemaValidator("fleet-drift", ["drift"]);
  expect(validate(JSON.parse(stdout)), JSON.stringify(validate.errors)).toBe(true);
}

let p: TestProject;
beforeAll(async () => {
  p = await testProject({
    tenants: TENANTS,
    files: { "catalogue/brands.yaml": "brands:\n  - name: Acme\n    desc: Tools\n  - name: Globex\n    desc: Everywhere\n" },
  });
  for (const n of TENANTS) expect((await p.cli(["apply", "--tenant", n, "--auto-approve", "-q"])).code).toBe(0);
  // Someone edits prod-us by hand.
  const api = createClient({ tenant: "prod-us", baseUrl: p.emulator.tenantUrl("prod-us"), token: p.tokens["prod-us"]! });
  const acme = (await api.listBrands()).find((b) => b.name === "Acme")!;
  await api.updateBrand(acme.id, { desc: "Changed by hand" });
  await api.close();
});
afterAll(() => p.close());

describe("drift --tenant GLOB", () => {
  it("is one report with a row per tenant, then each tenant's items; exit 2 with --detailed-exitcode when one drifted", async () => {
    const r = await p.cli(["drift", "--tenant", "*", "--detailed-exitcode"]);
    expect(r.code, r.stderr).toBe(2);
    expect(r.stdout).toContain("Drift across 3 tenants");
    expect(r.stdout).toMatch(/^prod-us\s+1\s+1\s+0\s+0$/m);
    expect(r.stdout).toMatch(/^prod-eu\s+0\s+0\s+0\s+0$/m);
    expect(r.stdout).toContain('brand["Acme"]: desc changed');
    expect(r.stdout).toContain('No drift: tenant "staging" matches the manifests');
    expect(r.stdout).toContain("Drift across 3 tenants: 1 drifted, 2 without drift.");
  });

  it("prints JSON of kind fleet-drift, which the fleet drift schema accepts, with each tenant's report and exit code", async () => {
    const r = await p.cli(["drift", "--tenant", "prod-*", "--format", "json"]);
    expect(r.code).toBe(0);
    expectFleetDriftSchema(r.stdout);
    const report = JSON.parse(r.stdout) as { kind: string; tenants: Array<{ tenant: string; exit: number; report: { drifted: number; tenant: string } }> };
    expect(report.kind).toBe("fleet-drift");
    expect(report.tenants.map((t) => [t.tenant, t.exit, t.report.drifted])).toEqual([
      ["prod-eu", 0, 0],
      ["prod-us", 2, 1],
    ]);
  });

  it("writes markdown for one issue for the fleet", async () => {
    const r = await p.cli(["drift", "--tenant", "*", "--format", "markdown"]);
    expect(r.stdout).toMatch(/^# Catalogue drift across 3 tenants\n/);
    expect(r.stdout).toContain("| `prod-us` | 1 | 1 | 0 | 0 |  |");
    expect(r.stdout).toContain("## `prod-us`");
  });

  it("keeps one tenant's report as today", async () => {
    const r = await p.cli(["drift", "--tenant", "prod-u*", "--format", "json"]);
    expect((JSON.parse(r.stdout) as { tenant: string }).tenant).toBe("prod-us");
  });

  it("with --target, loads only what the targets need, as drift --tenant NAME --target does: an error elsewhere fails no tenant (plan alike)", async () => {
    await p.write("catalogue/groups.yaml", "display_groups:\n  - name: Basics\n    colour: red\n");
    try {
      const one = await p.cli(["drift", "--tenant", "prod-us", "--target", 'brand["Acme"]', "--format", "json"]);
      expect(one.code, one.stderr).toBe(0);
      const r = await p.cli(["drift", "--tenant", "*", "--target", 'brand["Acme"]', "--format", "json"]);
      expect(r.code, r.stdout).toBe(0);
      const fleet = JSON.parse(r.stdout) as { tenants: Array<{ tenant: string; report: { drifted: number } }> };
      expect(fleet.tenants.map((t) => [t.tenant, t.report.drifted])).toEqual([
        ["prod-eu", 0],
        ["prod-us", 1],
        ["staging", 0],
      ]);
      // The fleet plan loads its tenants' manifests the same way (fleetLoads).
      const planned = await p.cli(["plan", "--tenant", "*", "--target", 'brand["Acme"]']);
      expect(planned.code, planned.stdout).toBe(0);
    } finally {
      await rm(path.join(p.dir, "catalogue/groups.yaml"));
    }
  });

  it("makes a tenant that cannot be read a row with its error; the others are read; exit 1", async () => {
    const config = readFileSync(path.join(p.dir, "pimctl.yaml"), "utf8");
    await p.write("pimctl.yaml", `${config}  down:\n    base_url: http://127.0.0.1:9/api/v1\n    token_env: PIMCTL_DOWN_TOKEN\n`);
    try {
      const r = await p.cli(["drift", "--tenant", "*"], { env: { PIMCTL_DOWN_TOKEN: "x" } });
      expect(r.code).toBe(1);
      expect(r.stdout).toMatch(/^down\s+api_connection: /m);
      expect(r.stdout).toMatch(/^prod-us\s+1\s+1\s+0\s+0$/m);
      expect(r.stderr).toContain('error: tenant "down" could not be read');
      // The error row is in the schema too.
      const json = await p.cli(["drift", "--tenant", "*", "--format", "json"], { env: { PIMCTL_DOWN_TOKEN: "x" } });
      expect(json.code).toBe(1);
      expectFleetDriftSchema(json.stdout);
      expect((JSON.parse(json.stdout) as { tenants: Array<{ tenant: string; error?: { code: string } }> }).tenants[0]).toMatchObject({
        tenant: "down",
        error: { code: "api_connection" },
      });
    } finally {
      await p.write("pimctl.yaml", config);
    }
  }, 60_000);
});

describe("drift --tenant GLOB with overlays and variables", () => {
  let q: TestProject;
  beforeAll(async () => {
    q = await testProject({
      tenants: TENANTS,
      configLines: ["overlays: overlays"],
      tenantLines: (n) => [`    variables: { region: ${n === "prod-us" ? "US" : "EU"} }`],
      files: {
        "catalogue/groups.yaml": "display_groups:\n  - name: Basics\n",
        "catalogue/brands.yaml": "brands:\n  - name: Acme\n    desc: Tools for ${region}\n  - name: Globex\n    desc: Everywhere\n",
        // prod-us sells Globex under another text, and has a brand of its own.
        "overlays/prod-us/brands.yaml": "brands:\n  - name: Globex\n    desc: Everywhere in the US\n  - name: Initech\n    desc: US only\n",
      },
    });
    for (const n of TENANTS) expect((await q.cli(["apply", "--tenant", n, "--auto-approve", "-q"])).code).toBe(0);
    // Someone edits the overlay's brand in prod-us by hand, and the shared one in staging.
    for (const [tenant, brand] of [
      ["prod-us", "Initech"],
      ["staging", "Acme"],
    ] as const) {
      const api = createClient({ tenant, baseUrl: q.emulator.tenantUrl(tenant), token: q.tokens[tenant]! });
      await api.updateBrand((await api.listBrands()).find((b) => b.name === brand)!.id, { desc: "Changed by hand" });
      await api.close();
    }
  });
  afterAll(() => q.close());

  const withoutClock = (report: object) => JSON.stringify(report).replace(/"checked_at":"[^"]+"/, "");

  it("gives each tenant the report drift --tenant NAME gives it", async () => {
    const r = await q.cli(["drift", "--tenant", "*", "--format", "json"]);
    expect(r.code, r.stderr).toBe(0);
    expectFleetDriftSchema(r.stdout);
    const fleet = JSON.parse(r.stdout) as { tenants: Array<{ tenant: string; report: { drifted: number } }> };
    expect(fleet.tenants.map((t) => [t.tenant, t.report.drifted])).toEqual([
      ["prod-eu", 0],
      ["prod-us", 1],
      ["staging", 1],
    ]);
    for (const t of fleet.tenants) {
      const one = await q.cli(["drift", "--tenant", t.tenant, "--format", "json"]);
      expect(withoutClock(t.report), t.tenant).toBe(withoutClock(JSON.parse(one.stdout) as object));
    }
  });

  it("parses each manifest file once per run, not once per tenant", async () => {
    const selection = (await selectFleet({ cwd: q.dir, tenant: "*" }))!;
    const reader = new ManifestReader(q.dir);
    const report = await driftFleet({ cwd: q.dir, env: q.env, reader }, selection);
    expect(report.tenants.map((t) => t.report?.drifted)).toEqual([0, 1, 1]);
    // groups.yaml once; brands.yaml (it has \${region}) once per value, EU and US; the overlay once.
    expect(reader.parsed).toBe(1 + 2 + 1);
  });
});
