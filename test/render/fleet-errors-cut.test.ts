/**
 * Why tenants failed survives the cut of the fleet's markdown (issue 35, review 2, md1): an error cell
 * cuts a long tenant name inside the message as the tenant column cuts it (100 characters) and keeps
 * the message; the cautions that hold the errors are kept before the tenants' change lists.
 */
import { describe, expect, it } from "vitest";
import { FLEET_DRIFT_FORMAT_VERSION, type FleetDriftTenant } from "../../src/drift/fleet.js";
import type { ErrorCode } from "../../src/errors.js";
import type { FleetTenant } from "../../src/plan/fleet.js";
import { renderFleet } from "../../src/render/fleet/index.js";
import { renderFleetDrift } from "../../src/render/fleet-drift.js";
import { MARKDOWN_LIMIT } from "../../src/render/markdown.js";
import { driftOf, fleetPlanOf, planWith } from "../helpers/fleet-data.js";

/** The review's names: 300 characters, the first few telling them apart. */
const longName = (i: number) => `t${String(i).padStart(2, "0")}-${"x".repeat(296)}`;
const cutName = (i: number) => `${longName(i).slice(0, 99)}…`;

/** The errors as the client words them: a missing token names its variable; a refused one names the tenant twice. */
function failure(i: number): { code: ErrorCode; message: string; details: string[] } {
  const t = longName(i);
  if (i % 2) return { code: "config", message: `the token variable TOK_MISSING_${i} is not set (or empty); export it before running pimctl`, details: [] };
  const message = `GET /channels (401) [tenant ${t}]: tenant "${t}" at http://127.0.0.1:4281/t${i}/api/v1 refused the token (401)`;
  return { code: "api_unauthorized", message, details: [`token_env: TOK_${i}`] };
}

/** 40 tenants with changes of their own (too many for a comment), then 10 that failed, 5 with each code. */
const planTenants = (): FleetTenant[] => [
  ...Array.from({ length: 40 }, (_, i): FleetTenant => ({ tenant: longName(i), plan: planWith(longName(i), 60), exit: 2 })),
  ...Array.from({ length: 10 }, (_, i): FleetTenant => ({ tenant: longName(40 + i), error: failure(40 + i), exit: 1 })),
];
const driftTenants = (): FleetDriftTenant[] => [
  ...Array.from({ length: 40 }, (_, i): FleetDriftTenant => ({ tenant: longName(i), report: driftOf(longName(i), 60), exit: 2 })),
  ...Array.from({ length: 10 }, (_, i): FleetDriftTenant => ({ tenant: longName(40 + i), error: failure(40 + i), exit: 1 })),
];

const tableRows = (md: string) => md.split("\n").filter((l) => /^\| (`|\d+ tenants: )/.test(l));

describe("an error cell of the fleet's markdown", () => {
  it("plan, folded rows: the first tenant's name cut to 100 characters, the message whole", () => {
    const md = renderFleet(fleetPlanOf(planTenants()), "markdown", { color: false });
    expect(md.length).toBeLessThanOrEqual(MARKDOWN_LIMIT);
    const rows = tableRows(md);
    expect(rows).toContainEqual(
      expect.stringMatching(/\| config \(as t41-x+…\): the token variable TOK_MISSING_41 is not set \(or empty\); export it before running pimctl \|$/),
    );
    expect(rows.find((r) => r.startsWith("| 5 tenants: `t41-"))).toContain(`config (as ${cutName(41)}): the token`);
    const refused = rows.find((r) => r.startsWith("| 5 tenants: `t40-"))!;
    expect(refused).toContain(`api_unauthorized (as ${cutName(40)}): GET /channels (401) [tenant ${cutName(40)}]: tenant "${cutName(40)}" at http`);
    expect(refused).toMatch(/refused the token \(401\) \|$/);
  });

  it("plan, a tenant's own row: the name inside its message cut as in the tenant column", () => {
    const md = renderFleet(
      fleetPlanOf([
        { tenant: longName(40), error: failure(40), exit: 1 },
        { tenant: "us", plan: planWith("us", 1), exit: 2 },
      ]),
      "markdown",
      {
        color: false,
      },
    );
    const message = failure(40).message.replaceAll(longName(40), cutName(40));
    expect(tableRows(md)).toContainEqual(`| \`${cutName(40)}\` |  |  |  |  |  |  | api_unauthorized: ${message} |`);
  });

  it("stays cut when a short name is found all over its message (room for three mentions, not a thousand)", () => {
    const md = renderFleet(fleetPlanOf([{ tenant: "m", error: { code: "config", message: "m".repeat(5000), details: [] }, exit: 1 }]), "markdown", {
      color: false,
    });
    const row = tableRows(md).find((r) => r.startsWith("| `m` |"))!;
    expect(row.length).toBeLessThan(300 + 3 + 60);
  });

  it("drift, folded and own rows: the names cut, the messages whole", () => {
    const md = renderFleetDrift({ format_version: FLEET_DRIFT_FORMAT_VERSION, kind: "fleet-drift", tenants: driftTenants() }, "markdown");
    expect(md.length).toBeLessThanOrEqual(MARKDOWN_LIMIT);
    const rows = tableRows(md);
    expect(rows.find((r) => r.startsWith("| 5 tenants: `t41-"))).toMatch(
      /config \(as t41-x+…\): the token variable TOK_MISSING_41 is not set \(or empty\); export it before running pimctl \|$/,
    );
    expect(rows.find((r) => r.startsWith("| 5 tenants: `t40-"))).toMatch(/refused the token \(401\) \|$/);
    const own = renderFleetDrift({ format_version: FLEET_DRIFT_FORMAT_VERSION, kind: "fleet-drift", tenants: [driftTenants()[40]!] }, "markdown");
    expect(tableRows(own)[0]).toContain(`| api_unauthorized: GET /channels (401) [tenant ${cutName(40)}]: tenant "${cutName(40)}" at`);
    expect(tableRows(own)[0]).toMatch(/refused the token \(401\) \|$/);
  });
});

describe("the cautions that hold the errors, when the markdown is cut", () => {
  it("plan: kept before the tenants' change lists, which are cut first", () => {
    const md = renderFleet(fleetPlanOf(planTenants()), "markdown", { color: false });
    expect(md).toContain("The review is cut here");
    const config = md.indexOf("**5 tenants could not be planned** (`config`)");
    const refused = md.indexOf("**5 tenants could not be planned** (`api_unauthorized`)");
    expect(config).toBeGreaterThan(0);
    expect(refused).toBeGreaterThan(0);
    expect(Math.max(config, refused)).toBeLessThan(md.indexOf("<details><summary><code>t00-"));
    expect(md).toContain("> token_env: TOK_40");
  });

  it("drift: kept before the tenants' reports, which are cut first", () => {
    const md = renderFleetDrift({ format_version: FLEET_DRIFT_FORMAT_VERSION, kind: "fleet-drift", tenants: driftTenants() }, "markdown");
    expect(md).toContain("The report is cut here");
    const config = md.indexOf("**5 tenants could not be read** (`config`)");
    const refused = md.indexOf("**5 tenants could not be read** (`api_unauthorized`)");
    expect(config).toBeGreaterThan(0);
    expect(refused).toBeGreaterThan(0);
    expect(Math.max(config, refused)).toBeLessThan(md.indexOf("## `t00-"));
  });
});
