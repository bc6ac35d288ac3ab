/**
 * The fleet's markdown tables tell tenants apart whose names differ only after the 100 characters a
 * cell shows (issue 35, review 2, md2): the plan's table and the drift's, rows and folded lists.
 */
import { describe, expect, it } from "vitest";
import { FLEET_DRIFT_FORMAT_VERSION } from "../../src/drift/fleet.js";
import type { FleetTenant } from "../../src/plan/fleet.js";
import { renderFleet } from "../../src/render/fleet/index.js";
import { renderFleetDrift } from "../../src/render/fleet-drift.js";
import { driftOf, fleetPlanOf, planWith } from "../helpers/fleet-data.js";

const stem = `shop-${"a".repeat(100)}`;
/** The names in the table of tenants (the first table; a drift report's own tables follow). */
const nameCells = (md: string) => {
  const lines = md.split("\n");
  const table = lines.slice(lines.findIndex((l) => l.startsWith("| tenant |")));
  return table.slice(2, table.indexOf("")).map((l) => /^\| `([^`]*)` \|/.exec(l)?.[1]);
};
const refused = (tenant: string): FleetTenant => ({
  tenant,
  error: { code: "api_connection", message: `GET /channels [tenant ${tenant}]: connection to 127.0.0.1:1 failed (ECONNREFUSED)`, details: [] },
  exit: 1,
});

describe("tenant names in the fleet's markdown tables", () => {
  it("plan: two names that differ after character 100 keep a tail that tells them apart (the review's md2)", () => {
    const md = renderFleet(fleetPlanOf([refused(`${stem}-eu`), { tenant: `${stem}-us`, plan: planWith("us", 1), exit: 2 }]), "markdown", { color: false });
    expect(nameCells(md)).toEqual([`shop-${"a".repeat(55)}…${"a".repeat(27)}-eu`, `shop-${"a".repeat(55)}…${"a".repeat(27)}-us`]);
    // The error cell words the name as the row does.
    expect(md).toContain(`[tenant shop-${"a".repeat(55)}…${"a".repeat(27)}-eu]: connection to 127.0.0.1:1 failed`);
  });

  it("plan, folded: the names listed in a folded row are told apart", () => {
    const tenants = [
      ...Array.from({ length: 30 }, (_, i) => refused(`${stem}-${i}`)),
      ...Array.from({ length: 40 }, (_, i) => ({ tenant: `ok${i}`, plan: planWith(`ok${i}`, 60), exit: 2 as const })),
    ];
    const md = renderFleet(fleetPlanOf(tenants), "markdown", { color: false });
    const folded = md.split("\n").find((l) => l.startsWith("| 30 tenants: "))!;
    const listed = [...folded.matchAll(/`([^`]*)`/g)].map((m) => m[1]!).slice(0, 10);
    expect(new Set(listed).size).toBe(10);
    expect(listed[0]).toMatch(/…a+-0$/);
  });

  it("drift: two names that differ after character 100 keep a tail that tells them apart", () => {
    const tenants = [`${stem}-eu`, `${stem}-us`].map((t) => ({ tenant: t, report: driftOf(t, 1), exit: 2 as const }));
    const md = renderFleetDrift({ format_version: FLEET_DRIFT_FORMAT_VERSION, kind: "fleet-drift", tenants }, "markdown");
    expect(nameCells(md)).toEqual([`shop-${"a".repeat(55)}…${"a".repeat(27)}-eu`, `shop-${"a".repeat(55)}…${"a".repeat(27)}-us`]);
  });
});
