/**
 * The saved fleet plan and `pimctl show` (issue 35, part B): the review of a CI matrix's plan
 * files, shown together, is byte for byte the review of the one-run fleet plan; the fleet file
 * seals each tenant's plan and the list of them, and an edit is refused.
 */
import { readFileSync, writeFileSync } from "node:fs";
import path from "node:path";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { testProject, type TestProject } from "../helpers/project.js";
import { fleetDigest } from "../../src/planfile/fleet-file.js";
import type { FleetPlan } from "../../src/plan/fleet.js";

const TENANTS = ["prod-eu", "prod-us", "staging"];

let p: TestProject;
beforeAll(async () => {
  p = await testProject({
    tenants: TENANTS,
    configLines: ["rollout: [[staging], ['prod-*']]"],
    tenantLines: (n) => [`    variables: { region: ${n} }`],
    files: {
      "catalogue/groups.yaml": "display_groups:\n  - name: Shared\n    sort_order: 1\n",
      "catalogue/brands.yaml": "brands:\n  - name: Acme\n    desc: Tools for ${region}\n  - name: Globex\n    desc: Everywhere\n",
    },
  });
  p.env.SOURCE_DATE_EPOCH = "1790000000";
  // prod-us already has Globex with another text: that change is not the others'.
  const seeded = await p.cli(["apply", "--tenant", "prod-us", "--auto-approve", "--target", 'brand["Globex"]']);
  expect(seeded.code).toBe(0);
});
afterAll(() => p.close());

const file = (name: string) => path.join(p.dir, name);

describe("pimctl show FILE...", () => {
  it("gives the one-run fleet review byte for byte from each tenant's own plan file, in every format", async () => {
    for (const n of TENANTS) expect((await p.cli(["plan", "--tenant", n, "--out", `plan-${n}.json`, "--quiet"])).code).toBe(0);
    for (const format of ["text", "markdown", "json", "html"]) {
      const once = await p.cli(["plan", "--tenant", "*", "--format", format, "--out", "fleet.json"]);
      const shown = await p.cli(["show", ...TENANTS.map((n) => `plan-${n}.json`), "--format", format]);
      expect(shown.stderr).toBe("");
      expect(shown.code, format).toBe(0);
      expect(shown.stdout.length).toBeGreaterThan(200);
      expect(shown.stdout, format).toBe(once.stdout);
      // The fleet file shows the same review too.
      expect((await p.cli(["show", "fleet.json", "--format", format])).stdout, format).toBe(once.stdout);
    }
  });

  it("folds across the files as the one run does, and keeps the waves of the config", async () => {
    const r = await p.cli(["show", "plan-staging.json", "plan-prod-us.json", "plan-prod-eu.json", "--format", "json", "--detailed-exitcode"]);
    expect(r.code).toBe(2);
    const fleet = JSON.parse(r.stdout) as { tenants: Array<{ tenant: string }>; waves: string[][] };
    expect(fleet.tenants.map((t) => t.tenant)).toEqual(TENANTS);
    expect(fleet.waves).toEqual([["staging"], ["prod-eu", "prod-us"]]);
    const text = await p.cli(["show", "plan-staging.json", "plan-prod-us.json", "plan-prod-eu.json"]);
    expect(text.stdout).toContain("Changes in all 3 tenants");
    expect(text.stdout).toContain("Changes in 2 of 3 tenants: all but prod-us");
  });

  it("renders one saved plan again in another format, as plan printed it", async () => {
    const planned = await p.cli(["plan", "--tenant", "staging", "--format", "markdown"]);
    const shown = await p.cli(["show", "plan-staging.json", "--format", "markdown"]);
    expect(shown.stdout).toBe(planned.stdout);
    const json = await p.cli(["show", "plan-staging.json", "--format", "json"]);
    expect(json.stdout).toBe((await p.cli(["plan", "--tenant", "staging", "--format", "json"])).stdout);
  });

  it("refuses a tenant twice, naming both files", async () => {
    const r = await p.cli(["show", "fleet.json", "plan-staging.json"]);
    expect(r.code).toBe(1);
    expect(r.stderr).toContain('tenant "staging" has a plan in both fleet.json and plan-staging.json');
  });
});

describe("the saved fleet file", () => {
  const fleetJson = () =>
    JSON.parse(readFileSync(file("fleet.json"), "utf8")) as {
      tenants: Array<{ tenant: string; plan: { actions: Array<{ changes: Array<{ after?: unknown }> }>; integrity: { digest: string } } }>;
      waves: string[][];
    };
  const tampered = (edit: (f: ReturnType<typeof fleetJson>) => void) => {
    const f = fleetJson();
    edit(f);
    writeFileSync(file("tampered.json"), JSON.stringify(f, null, 2));
  };

  it("holds each tenant's plan as plan --out saves it (basis, digest), and the waves", () => {
    const f = fleetJson();
    expect(f.tenants.map((t) => t.tenant)).toEqual(TENANTS);
    for (const t of f.tenants) expect(t.plan.integrity.digest).toMatch(/^sha256:/);
    expect(f.waves).toEqual([["staging"], ["prod-eu", "prod-us"]]);
  });

  it("refuses a tenant's plan removed", async () => {
    tampered((f) => f.tenants.splice(1, 1));
    const r = await p.cli(["show", "tampered.json"]);
    expect(r.code).toBe(1);
    expect(r.stderr).toContain("tampered.json was edited after it was saved: its list of tenants");
  });

  it("refuses a tenant's plan swapped for another tenant's file", async () => {
    const other = JSON.parse(readFileSync(file("plan-prod-us.json"), "utf8")) as unknown;
    tampered((f) => (f.tenants[0]!.plan = other as never));
    const r = await p.cli(["show", "tampered.json"]);
    expect(r.code).toBe(1);
    expect(r.stderr).toMatch(/tampered\.json (was edited after it was saved|: the plan under tenant "prod-eu" was made for "prod-us")/);
  });

  it("refuses an edited action, by the tenant's own digest", async () => {
    tampered((f) => {
      const plan = f.tenants[0]!.plan;
      plan.actions[0]!.changes[0]!.after = "edited";
    });
    const r = await p.cli(["show", "tampered.json"]);
    expect(r.code).toBe(1);
    expect(r.stderr).toContain("tampered.json (tenant prod-eu) was edited after it was saved");
  });

  it("refuses waves moved", async () => {
    tampered((f) => (f.waves = [["prod-eu", "prod-us", "staging"]]));
    const r = await p.cli(["show", "tampered.json"]);
    expect(r.code).toBe(1);
    expect(r.stderr).toContain("was edited after it was saved");
  });

  it("signs each tenant's plan with the key, and verifies it", async () => {
    const env = { PIMCTL_PLAN_HMAC_KEY: "k1" };
    expect((await p.cli(["plan", "--tenant", "*", "--out", "signed.json", "--quiet"], { env })).code).toBe(0);
    expect((await p.cli(["show", "signed.json"], { env })).code).toBe(0);
    const wrong = await p.cli(["show", "signed.json"], { env: { PIMCTL_PLAN_HMAC_KEY: "k2" } });
    expect(wrong.code).toBe(1);
    expect(wrong.stderr).toContain("signed.json: the fleet's signature does not verify");
  });

  /** The file edited by someone who recomputes its digest (which needs no key). */
  const reDigested = (from: string, edit: (f: FleetPlan) => void) => {
    const f = JSON.parse(readFileSync(file(from), "utf8")) as FleetPlan;
    edit(f);
    delete f.integrity!.hmac;
    f.integrity = { ...f.integrity, digest: fleetDigest(f) };
    writeFileSync(file("tampered.json"), JSON.stringify(f, null, 2));
  };

  it("refuses waves that leave a tenant out, or name one twice, even with the digest recomputed: a rollout applies what the waves list", async () => {
    reDigested("fleet.json", (f) => (f.waves = [["staging"], ["prod-eu"]]));
    const left = await p.cli(["apply", "tampered.json", "--auto-approve"]);
    expect(left.code).toBe(1);
    expect(left.stderr).toContain('tampered.json: its waves leave out "prod-us": a rollout would never apply that tenant');
    reDigested(
      "fleet.json",
      (f) =>
        (f.waves = [
          ["staging", "prod-eu"],
          ["prod-eu", "prod-us"],
        ]),
    );
    expect((await p.cli(["show", "tampered.json"])).stderr).toContain('its waves name tenant "prod-eu" twice');
  });

  it("with the key, signs the fleet file itself: waves reordered and the digest recomputed without the key are refused", async () => {
    const env = { PIMCTL_PLAN_HMAC_KEY: "k1" };
    const signed = JSON.parse(readFileSync(file("signed.json"), "utf8")) as FleetPlan;
    expect(signed.integrity!.hmac).toMatch(/^hmac-sha256:[0-9a-f]{64}$/);
    // Production first, the canary skipped: every tenant still listed once, each plan's own signature intact.
    reDigested("signed.json", (f) => (f.waves = [["prod-eu", "prod-us"], ["staging"]]));
    const r = await p.cli(["apply", "tampered.json", "--auto-approve"], { env });
    expect(r.code).toBe(1);
    expect(r.stderr).toContain("tampered.json is not signed, but PIMCTL_PLAN_HMAC_KEY is set");
    const forged = JSON.parse(readFileSync(file("tampered.json"), "utf8")) as FleetPlan;
    forged.integrity!.hmac = signed.integrity!.hmac!;
    writeFileSync(file("tampered.json"), JSON.stringify(forged, null, 2));
    const again = await p.cli(["apply", "tampered.json", "--auto-approve"], { env });
    expect(again.code).toBe(1);
    expect(again.stderr).toContain("tampered.json: the fleet's signature does not verify with the key in PIMCTL_PLAN_HMAC_KEY");
  });
});
