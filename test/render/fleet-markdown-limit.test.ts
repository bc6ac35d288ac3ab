/**
 * The fleet's markdown comment stays under GitHub's 65,536 characters for any fleet (docs/fleets.md;
 * bug 4 of the review: 200 tenants that all failed made 67,787, the table never cut). Plain data:
 * fleets of 200 and 500 failing tenants, 50 tenants with many changes each, 3,000 tenants.
 */
import { describe, expect, it } from "vitest";
import { FLEET_FORMAT_VERSION, type FleetPlan, type FleetTenant } from "../../src/plan/fleet.js";
import type { Action, Plan } from "../../src/plan/types.js";
import { MARKDOWN_LIMIT } from "../../src/render/markdown.js";
import { renderFleet } from "../../src/render/fleet/index.js";

const names = (n: number, prefix = "prod-") => Array.from({ length: n }, (_, i) => `${prefix}${String(i + 1).padStart(3, "0")}`);

/** A revoked token as the client words it: the message names the tenant and its address, so no two are equal. */
function unauthorized(tenant: string): FleetTenant {
  const message =
    `GET /channels (401) [tenant ${tenant}]: tenant "${tenant}" at https://${tenant}.eu.example.com/api/v1 refused the token (401). ` +
    "Either the token was rotated or revoked, it belongs to another tenant, or the Authorization header is missing or malformed.";
  return { tenant, error: { code: "api_unauthorized", message, details: [`token_env: T_${tenant}`] }, exit: 1 };
}

const unreachable = (tenant: string): FleetTenant => ({
  tenant,
  error: { code: "api_connection", message: `could not connect to https://${tenant}.us.example.com/api/v1: ECONNREFUSED`, details: [] },
  exit: 1,
});

/** A plan of `n` brand creates whose text names the tenant: a change of its own in every tenant, none folded. */
function planWith(tenant: string, n: number): Plan {
  const actions: Action[] = Array.from({ length: n }, (_, i) => ({
    address: `brand["Brand ${i + 1}"]`,
    kind: "brands",
    type: "brand",
    op: "create",
    changes: [
      { field: "name", after: `Brand ${i + 1}` },
      { field: "desc", after: `Brand ${i + 1} as sold by ${tenant}, with a description long enough to fill a line of its own` },
    ],
    depends_on: [],
    flags: {},
    refs: {},
  }));
  const summary = { create: n, update: 0, rename: 0, move: 0, delete: 0, unsupported: 0, destructive: 0, unmanaged: 0 };
  return { format_version: "1.3", tenant, version_ids: {}, actions, unmanaged: [], warnings: [], summary, fingerprints: {} };
}

const fleetOf = (tenants: FleetTenant[]): FleetPlan => ({
  format_version: FLEET_FORMAT_VERSION,
  kind: "fleet",
  tenants,
  waves: [tenants.map((t) => t.tenant)],
});

function expectWholeComment(md: string): void {
  expect(md.length).toBeLessThanOrEqual(MARKDOWN_LIMIT);
  expect(md.length).toBeLessThan(65_536);
  // Cut between parts only: every fold and code block that opens closes.
  expect(md.match(/<details>/g)?.length ?? 0).toBe(md.match(/<\/details>/g)?.length ?? 0);
  expect((md.match(/^```/gm)?.length ?? 0) % 2).toBe(0);
  expect(md.startsWith("<!-- pimctl-fleet-plan -->\n")).toBe(true);
}

describe("the fleet's markdown comment under GitHub's limit", () => {
  for (const n of [200, 500]) {
    it(`folds the rows and the sections of ${n} tenants that failed alike into one line each, under the limit`, () => {
      const md = renderFleet(fleetOf(names(n).map(unauthorized)), "markdown", { color: false });
      expectWholeComment(md);
      // One row for the tenants that failed with the same code, with one of their messages, the first tenants named.
      expect(md).toMatch(
        new RegExp(
          `^\\| ${n} tenants: \`prod-001\`, \`prod-002\`, .*and ${n - 10} more \\|.*\\| api_unauthorized \\(as prod-001\\): GET /channels \\(401\\)`,
          "m",
        ),
      );
      expect(md).not.toContain("`prod-011`");
      expect(md).toContain(`**${n} tenants could not be planned** (\`api_unauthorized\`)`);
      expect(md).toContain("> token_env: T_prod-001");
      expect(md).toContain("HTML review page");
      expect(md.trimEnd().endsWith(`**Fleet of ${n} tenants: ${n} could not be planned.**`)).toBe(true);
    });
  }

  it("folds each error code apart and keeps a tenant whose error is its own as its row", () => {
    const tenants = [...names(300).map(unauthorized), ...names(150, "us-").map(unreachable), unreachable("zz-only")];
    tenants.push({ tenant: "zz-ledger", error: { code: "ledger_locked", message: "the ledger moved", details: [] }, exit: 1 });
    const md = renderFleet(fleetOf(tenants), "markdown", { color: false });
    expectWholeComment(md);
    expect(md).toMatch(/^\| 300 tenants: `prod-001`/m);
    expect(md).toMatch(/^\| 151 tenants: `us-001`.* api_connection \(as us-001\): /m);
    expect(md).toContain("| `zz-ledger` |  |  |  |  |  |  | ledger_locked: the ledger moved |");
  });

  it("quotes the first 20 details of an error and counts the rest (a manifest error can have hundreds)", () => {
    const details = Array.from({ length: 500 }, (_, i) => `catalogue/brands.yaml:${i + 1}:11: variable \${shop} is not defined for this tenant`);
    const broken: FleetTenant = { tenant: "eu", error: { code: "undefined_variable", message: "500 errors", details }, exit: 1 };
    const md = renderFleet(fleetOf([broken, { tenant: "us", plan: planWith("us", 1), exit: 2 }]), "markdown", { color: false });
    expectWholeComment(md);
    expect(md).toContain("> catalogue/brands.yaml:20:11:");
    expect(md).not.toContain("catalogue/brands.yaml:21:11:");
    expect(md).toContain("> ... and 480 more (the HTML page and the JSON have every one)");
  });

  it("keeps every row of 50 tenants with many changes each and cuts whole sections, under the limit", () => {
    const md = renderFleet(fleetOf(names(50, "shop-").map((t) => ({ tenant: t, plan: planWith(t, 300), exit: 2 }))), "markdown", { color: false });
    expectWholeComment(md);
    for (const t of names(50, "shop-")) expect(md).toContain(`| \`${t}\` | 300 | 0 | 0 | 0 | 0 | 0 |  |`);
    expect(md).toMatch(/_The review is cut here: the parts of \d+ more tenants? did not fit a comment/);
    expect(md).toContain("<details><summary><code>shop-001</code>: Plan: 300 to create.</summary>");
  });

  it("cuts the table of 3,000 tenants with a row that says how many more and where they are", () => {
    const md = renderFleet(fleetOf(names(3000, "t").map((t) => ({ tenant: t, plan: planWith(t, 1), exit: 2 }))), "markdown", { color: false });
    expectWholeComment(md);
    expect(md).toContain("| `t001` | 1 |");
    expect(md).toMatch(/^\| _\.\.\. and \d+ more tenants: every tenant's row is in the HTML review page and in the JSON_ \|/m);
    expect(md.trimEnd().endsWith("**Fleet of 3000 tenants: 3000 with changes.**")).toBe(true);
  });

  it("says 'one line per action below' only when an action is below (the review's cosmetic finding)", () => {
    const failedOnly = renderFleet(fleetOf(names(200).map(unauthorized)), "markdown", { color: false });
    expect(failedOnly).not.toContain("one line per action");
    // Changes in every tenant, but the failed tenants come first and fill the comment: no action is left below.
    const crowded: FleetTenant[] = [...names(400).map(unauthorized), ...names(50, "shop-").map((t) => ({ tenant: t, plan: planWith(t, 300), exit: 2 }))];
    for (const [i, t] of crowded.entries())
      if (t.error) t.error = { ...t.error, code: i % 2 ? "api_unauthorized" : "api_connection", details: Array<string>(20).fill("x".repeat(2000)) };
    const md = renderFleet(fleetOf(crowded), "markdown", { color: false });
    expectWholeComment(md);
    expect(md).not.toMatch(/^[+~-] brand\[/m);
    expect(md).not.toContain("one line per action");
    // With changes below, it is said.
    const changed = renderFleet(fleetOf(names(50, "shop-").map((t) => ({ tenant: t, plan: planWith(t, 300), exit: 2 }))), "markdown", { color: false });
    expect(changed).toMatch(/^\+ brand\["Brand 1"\]$/m);
    expect(changed).toContain("one line per action below");
  });

  it("fits any fleet: 20 random ones (a seeded generator) of tenants planned and failed, long names, many details", () => {
    let seed = 35;
    const rnd = (n: number) => {
      seed = (seed * 1_103_515_245 + 12_345) % 2 ** 31;
      return seed % n;
    };
    const codes = ["api_unauthorized", "api_connection", "ledger_locked"] as const;
    for (let run = 0; run < 20; run++) {
      const tenants: FleetTenant[] = names(1 + rnd(500), "x".repeat(rnd(3) * 60)).map((t) => {
        if (rnd(3)) return { tenant: t, plan: planWith(t, rnd(60)), exit: 2 };
        const details = Array.from({ length: rnd(40) }, (_, i) => `${"d".repeat(rnd(500))} ${i}`);
        return { tenant: t, error: { code: codes[rnd(3)]!, message: "m".repeat(rnd(2000)), details }, exit: 1 };
      });
      const md = renderFleet(fleetOf(tenants), "markdown", { color: false });
      expectWholeComment(md);
      expect(md.trimEnd()).toMatch(/\*\*Fleet of \d+ tenants?: .*\.\*\*$/);
    }
  });
});
