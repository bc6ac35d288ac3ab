import path from "node:path";
import { describe, expect, it } from "vitest";
import * as pimctl from "../../src/index.js";
import type { FleetDriftReport, FleetPlan, RolloutResult, Selection } from "../../src/index.js";
import { testProject } from "../helpers/project.js";

describe("the library entry point", () => {
  it("exports the workflows and every stage", () => {
    for (const name of [
      "plan",
      "apply",
      "diff",
      "exportTenant",
      "ping",
      "loadConfig",
      "loadManifests",
      "createClient",
      "readState",
      "buildPlan",
      "applyPlan",
      "renderPlan",
      "startEmulator",
      "PimctlError",
    ]) {
      expect(typeof (pimctl as Record<string, unknown>)[name], name).toBe("function");
    }
  });
});

describe("the emulator subpath export (pimctl/emulator)", () => {
  it("resolves through package.json exports and starts a tenant that answers over HTTP", async () => {
    // Self-reference by package name goes through "exports", as an installed package would.
    const { startEmulator } = (await import("pimctl/emulator" as string)) as typeof import("../../src/emulator/index.js");
    const emu = await startEmulator({ port: 0, tenants: [{ hash: "lib", token: "t" }], latencyMs: 0 });
    try {
      const res = await fetch(`${emu.tenantUrl("lib")}/ping`, { headers: { authorization: "Bearer t" } });
      expect(res.status).toBe(200);
      expect(typeof ((await res.json()) as { time: unknown }).time).toBe("string");
    } finally {
      await emu.close();
    }
  });
});

describe("the fleet through the package entry (pimctl)", () => {
  it("exports the fleet's workflows, file readers and renderers; they plan two tenants, save, read back and render the same review", async () => {
    // Self-reference by package name goes through "exports" to the build, as an installed package would.
    const lib = (await import("pimctl" as string)) as typeof import("../../src/index.js");
    for (const name of ["selectTenants", "rolloutWaves", "loadFleetCatalogues", "planFleet", "selectFleet", "driftFleet", "showPlans", "rollout"] as const)
      expect(typeof lib[name], name).toBe("function");
    for (const name of ["readPlanFiles", "writeFleetFile", "worstExit", "renderFleet", "renderFleetDrift"] as const)
      expect(typeof lib[name], name).toBe("function");
    const p = await testProject({ tenants: ["eu", "us"], files: { "catalogue/brands.yaml": "brands:\n  - name: Acme\n" } });
    try {
      const opts = { cwd: p.dir, env: p.env };
      const selection: Selection = (await lib.selectFleet({ ...opts, tenant: "*" }))!;
      expect(selection.tenants).toEqual(["eu", "us"]);
      const { fleet } = await lib.planFleet(opts, selection);
      const file = path.join(p.dir, "fleet.json");
      await lib.writeFleetFile(file, fleet);
      const read: FleetPlan = await lib.readPlanFiles([file]);
      expect(read.tenants.map((t) => [t.tenant, t.exit])).toEqual([
        ["eu", 2],
        ["us", 2],
      ]);
      expect(lib.renderFleet(read, "markdown", { color: false })).toBe(lib.renderFleet(fleet, "markdown", { color: false }));
      const result: RolloutResult = await lib.rollout(read, { ...opts, sourceOf: () => "fleet.json" });
      expect(result.tenants.map((t) => [t.tenant, t.outcome])).toEqual([
        ["eu", "applied"],
        ["us", "applied"],
      ]);
      const drift: FleetDriftReport = await lib.driftFleet(opts, selection);
      expect(lib.worstExit(drift.tenants.map((t) => t.exit))).toBe(0);
      expect(lib.renderFleetDrift(drift, "text")).toContain("Drift across 2 tenants");
    } finally {
      await p.close();
    }
  });
});
