/**
 * `--bundle FILE` with several tenants (issue 35): a support bundle is one tenant's HTTP exchanges
 * (they name no tenant, and `doctor --replay` sends them all to one), so plan and apply over
 * several tenants (--tenant names or globs, a fleet file, several saved plans) refuse it before
 * anything is sent, and write no bundle; a glob that selects one tenant is that tenant's bundle.
 */
import { existsSync, readFileSync } from "node:fs";
import path from "node:path";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import type { Bundle } from "../../src/bundle/bundle.js";
import { testProject, type TestProject } from "../helpers/project.js";

const TENANTS = ["prod-eu", "prod-us"];
let p: TestProject;
const requests: string[] = [];

beforeAll(async () => {
  p = await testProject({ tenants: TENANTS, files: { "catalogue/brands.yaml": "brands:\n  - name: Acme\n" } });
  for (const t of TENANTS) expect((await p.cli(["plan", "--tenant", t, "--out", `plan-${t}.json`])).code).toBe(0);
  expect((await p.cli(["plan", "--tenant", "*", "--out", "fleet.json"])).code).toBe(0);
  p.emulator.onRequest(({ tenant, method, route }) => void requests.push(`${tenant} ${method} ${route}`));
});
afterAll(() => p.close());

describe("--bundle with several tenants", () => {
  for (const [what, args, said] of [
    ["plan --tenant GLOB", ["plan", "--tenant", "prod-*"], '--tenant "prod-*" selects 2 tenants (prod-eu, prod-us)'],
    ["plan --tenant A,B", ["plan", "--tenant", "prod-eu,prod-us"], '--tenant "prod-eu,prod-us" selects 2 tenants (prod-eu, prod-us)'],
    ["apply --tenant GLOB", ["apply", "--tenant", "*", "--auto-approve"], '--tenant "*" selects 2 tenants (prod-eu, prod-us)'],
    ["apply FLEET_FILE", ["apply", "fleet.json"], "fleet.json is the saved fleet plan of several tenants"],
    ["apply FILE FILE", ["apply", "plan-prod-eu.json", "plan-prod-us.json"], "plan-prod-eu.json, plan-prod-us.json are the saved plans of several tenants"],
  ] as const) {
    it(`${what}: refused before any request, saying why and what to do; no bundle is written`, async () => {
      requests.length = 0;
      const r = await p.cli([...args, "--bundle", "support.json"]);
      expect(r.code).toBe(1);
      expect(r.stderr).toContain("--bundle support.json records the HTTP exchanges of one tenant");
      expect(r.stderr).toContain(said);
      expect(r.stderr).toContain("with --bundle. Nothing was run; no bundle was written");
      expect(requests).toEqual([]);
      expect(existsSync(path.join(p.dir, "support.json"))).toBe(false);
    });
  }

  it("a glob that selects one tenant writes that tenant's bundle, as its name does", async () => {
    requests.length = 0;
    const r = await p.cli(["plan", "--tenant", "prod-u*", "--bundle", "one.json"]);
    expect(r.code, r.stderr).toBe(0);
    const bundle = JSON.parse(readFileSync(path.join(p.dir, "one.json"), "utf8")) as Bundle;
    expect(bundle.exchanges.length).toBeGreaterThan(0);
    expect(bundle.exchanges).toHaveLength(requests.length);
    expect(new Set(requests.map((q) => q.split(" ")[0]))).toEqual(new Set(["prod-us"]));
  });
});
