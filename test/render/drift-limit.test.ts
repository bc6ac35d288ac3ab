/**
 * Drift markdown is an issue body a scheduled job posts (examples/ci/github-drift.yml,
 * github-fleet-drift.yml: `gh issue create/edit --body-file`), and GitHub refuses one over 65,536
 * characters (bug 5 of the review: 20 tenants x 30 drifted brands made 83,761). Plain data: the
 * fleet's report and a single tenant's, each folded and cut as the plan comment is.
 */
import { describe, expect, it } from "vitest";
import { DRIFT_FORMAT_VERSION, type DriftItem, type DriftReport } from "../../src/drift/index.js";
import { FLEET_DRIFT_FORMAT_VERSION, type FleetDriftReport, type FleetDriftTenant } from "../../src/drift/fleet.js";
import { renderDrift } from "../../src/render/drift.js";
import { renderFleetDrift } from "../../src/render/fleet-drift.js";
import { MARKDOWN_LIMIT } from "../../src/render/markdown.js";

const names = (n: number, prefix: string) => Array.from({ length: n }, (_, i) => `${prefix}${String(i + 1).padStart(3, "0")}`);

/** A tenant whose `n` brands were edited by hand, and `unwritable` whose language versions differ (shown, not counted). */
function reportOf(tenant: string, n: number, unwritable = 0): DriftReport {
  const item = (i: number, op: DriftItem["op"]): DriftItem => ({
    address: `brand["Brand ${String(i).padStart(4, "0")} of ${tenant}"]${op === "unsupported" ? '.version["German"]' : ""}`,
    op,
    fields: ["desc"],
    entity: { type: "brand", id: i },
    changed_at: "2026-11-20T10:14:03Z",
    changelog_id: 48_000 + i,
    origin: "tenant",
  });
  const items = [...Array.from({ length: n }, (_, i) => item(i + 1, "update")), ...Array.from({ length: unwritable }, (_, i) => item(i + 1, "unsupported"))];
  return {
    format_version: DRIFT_FORMAT_VERSION,
    tenant,
    base_url: `https://${tenant}.eu.example.com/api/v1`,
    checked_at: "2026-11-27T03:23:00Z",
    feed: { entity_types: ["brand"], entries: n },
    refresh: { mode: "full" },
    drifted: n,
    items,
  };
}

const fleetOf = (tenants: FleetDriftTenant[]): FleetDriftReport => ({ format_version: FLEET_DRIFT_FORMAT_VERSION, kind: "fleet-drift", tenants });
const drifted = (tenant: string, n: number): FleetDriftTenant => ({ tenant, report: reportOf(tenant, n), exit: n ? 2 : 0 });
const unreadable = (tenant: string): FleetDriftTenant => ({
  tenant,
  error: { code: "api_unauthorized", message: `GET /channels (401) [tenant ${tenant}]: tenant "${tenant}" refused the token (401).`, details: [] },
  exit: 1,
});

function expectIssueBody(md: string): void {
  expect(md.length).toBeLessThanOrEqual(MARKDOWN_LIMIT);
  expect((md.match(/^```/gm)?.length ?? 0) % 2).toBe(0);
}

describe("the fleet's drift markdown under GitHub's limit", () => {
  it("keeps every row of 20 tenants with 30 drifted brands each and cuts the tenants' parts with a pointer (the review's case)", () => {
    const md = renderFleetDrift(fleetOf(names(20, "t").map((t) => drifted(t, 30))), "markdown");
    expect(renderFleetDrift(fleetOf(names(20, "t").map((t) => drifted(t, 8))), "markdown")).not.toContain("cut here");
    expectIssueBody(md);
    for (const t of names(20, "t")) expect(md).toContain(`| \`${t}\` | 30 | 30 | 0 | 0 |  |`);
    expect(md).toContain("## `t001`");
    expect(md).toMatch(/_The report is cut here: the reports of \d+ more tenants did not fit an issue \(GitHub takes 65,536 characters\)\. /);
    expect(md).toContain("`pimctl drift --tenant GLOB --format json`");
    expect(md.trimEnd().endsWith("**Drift across 20 tenants: 20 drifted.**")).toBe(true);
  });

  it("cuts the rows of a tenant whose report alone is longer than the room left, and says how many more", () => {
    const md = renderFleetDrift(fleetOf([drifted("eu", 3000), drifted("us", 2)]), "markdown");
    expectIssueBody(md);
    expect(md).toContain("## `eu`");
    expect(md).toMatch(/^\| _\.\.\. and \d+ more: every item is in `pimctl drift --format json`_ \| \| \|$/m);
    expect(md).toContain("the reports of 1 more tenant did not fit");
  });

  it("folds 500 tenants that could not be read alike into one row and one caution", () => {
    const md = renderFleetDrift(fleetOf([...names(500, "prod-").map(unreadable), drifted("zz", 1)]), "markdown");
    expectIssueBody(md);
    expect(md).toMatch(/^\| 500 tenants: `prod-001`, .* and 490 more \|.*\| api_unauthorized \(as prod-001\): GET \/channels \(401\)/m);
    expect(md).toContain("**500 tenants could not be read** (`api_unauthorized`)");
    expect(md).toContain("| `zz` | 1 | 1 | 0 | 0 |  |");
    expect(md).toContain("## `zz`");
  });

  it("cuts the table of 3,000 tenants with a row that says how many more", () => {
    const md = renderFleetDrift(fleetOf(names(3000, "t").map((t) => drifted(t, 1))), "markdown");
    expectIssueBody(md);
    expect(md).toMatch(/^\| _\.\.\. and \d+ more tenants: every tenant's row is in `pimctl drift --tenant GLOB --format json`_ \|/m);
  });
});

describe("any fleet's drift markdown", () => {
  it("fits: 20 random fleets (a seeded generator) of tenants drifted, clean and unreadable, long names and messages", () => {
    let seed = 5;
    const rnd = (n: number) => {
      seed = (seed * 1_103_515_245 + 12_345) % 2 ** 31;
      return seed % n;
    };
    for (let run = 0; run < 20; run++) {
      const tenants = names(1 + rnd(400), "y".repeat(rnd(3) * 60)).map((t): FleetDriftTenant => {
        if (rnd(4)) return { tenant: t, report: reportOf(t, rnd(3) ? rnd(40) : rnd(2000), rnd(20)), exit: 2 };
        const code = rnd(2) ? "api_unauthorized" : "api_connection";
        return { tenant: t, error: { code, message: "m".repeat(rnd(3000)), details: [] }, exit: 1 };
      });
      const md = renderFleetDrift(fleetOf(tenants), "markdown");
      expectIssueBody(md);
      expect(md.trimEnd(), `run ${run}`).toMatch(/\*\*Drift across \d+ tenants?: .*\.\*\*$/);
    }
  });
});

describe("a single tenant's drift markdown under GitHub's limit", () => {
  it("is as today when it fits", () => {
    const md = renderDrift(reportOf("eu", 30, 2), "markdown");
    expect(md).not.toContain("more: every item");
    expect(md.match(/^\| `brand\[/gm)).toHaveLength(32);
  });

  it("cuts the rows of 3,000 drifted brands and 500 unwritable versions, counting the rest", () => {
    const md = renderDrift(reportOf("eu", 3000, 500), "markdown");
    expectIssueBody(md);
    expect(md).toMatch(/^# Catalogue drift on `eu`\n/);
    expect(md).toMatch(/^\| _\.\.\. and \d+ more: every item is in `pimctl drift --format json`_ \| \| \|$/m);
    expect(md).toContain("**Not possible through API v1**");
    expect(md).toContain('.version["German"]`');
    expect(md).toContain("Feed read: brand (every entry).");
  });
});
