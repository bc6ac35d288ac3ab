/**
 * Every "N more" in the fleet's plan comment and drift issue counts tenants (issue 35, review 2,
 * md4/md1): a folded group of tenants that failed alike is as many tenants as it names, not one.
 * Property: the tenants a cut report shows (rows, sections) plus those it counts as more are every
 * tenant, for random fleets (a seeded generator) cut in the table, in the sections, or both.
 */
import { describe, expect, it } from "vitest";
import { FLEET_DRIFT_FORMAT_VERSION, type FleetDriftTenant } from "../../src/drift/fleet.js";
import type { FleetTenant } from "../../src/plan/fleet.js";
import type { ErrorCode } from "../../src/errors.js";
import { renderFleet } from "../../src/render/fleet/index.js";
import { renderFleetDrift } from "../../src/render/fleet-drift.js";
import { driftOf, fleetPlanOf, planWith } from "../helpers/fleet-data.js";
import { prng } from "../helpers/random.js";
import { seedNote, seedOr } from "../helpers/seed.js";

/** A seeded generator of integers below n (the seed from helpers/seed.ts, so a failure can be run again). */
function seeded(seed: number): (n: number) => number {
  const next = prng(seed);
  return (n) => Math.floor(next() * n);
}

const CODES: readonly ErrorCode[] = ["api_unauthorized", "api_connection", "config", "ledger_locked"];
const failure = (tenant: string, code: ErrorCode, size: number) => ({
  code,
  message: `${tenant} failed: ${"m".repeat(size)}`,
  details: [`detail of ${tenant}`],
});

/** A fleet's tenants: some planned (or read), some failed with one of a few codes, anywhere in the order or at its end. */
function fleetShape(rnd: (n: number) => number): Array<{ tenant: string; fail?: { code: ErrorCode; size: number }; changes: number }> {
  const size = rnd(4) ? 1 + rnd(120) : 200 + rnd(1000);
  const prefix = "n".repeat(rnd(3) * 50);
  const failRate = 1 + rnd(4);
  // Failures anywhere, or only at the end (as the review's fleets: a folded group then sits past the cut).
  const failFrom = rnd(2) ? 0 : Math.floor(size * 0.8);
  return Array.from({ length: size }, (_, i) => {
    const tenant = `${prefix}t${String(i).padStart(4, "0")}`;
    const changes = rnd(5) ? rnd(30) : rnd(200);
    return i >= failFrom && rnd(5) < failRate ? { tenant, fail: { code: CODES[rnd(CODES.length)]!, size: rnd(600) }, changes } : { tenant, changes };
  });
}

/** The rows of the table of tenants (the first table): a tenant's row is 1, "N tenants: ..." is N, "... and N more tenants" is N. */
function rowsCount(md: string): number {
  const lines = md.split("\n");
  const start = lines.findIndex((l) => l.startsWith("| tenant |"));
  let n = 0;
  for (const l of lines.slice(start + 2)) {
    if (!l.startsWith("|")) break;
    n += Number(/^\| _\.\.\. and (\d+) more tenants/.exec(l)?.[1] ?? /^\| (\d+) tenants: /.exec(l)?.[1] ?? 1);
  }
  return n;
}

const sum = (md: string, re: RegExp) => [...md.matchAll(re)].reduce((n, m) => n + Number(m[1] ?? 1), 0);

/** The plan comment's tenant sections: a tenant's fold, a failed tenant's caution, "N tenants could not be planned", "the parts of N more tenants". */
const planSections = (md: string) =>
  sum(md, /^<details><summary><code>/gm) +
  sum(md, /^> \*\*<code>[^\n]*<\/code> could not be planned\*\*/gm) +
  sum(md, /^> \*\*(\d+) tenants could not be planned\*\*/gm) +
  sum(md, /the parts of (\d+) more tenants? did not fit/g);

/** The drift issue's tenant sections: a tenant's heading, "N tenants that could not be read", "the reports of N more tenants". */
const driftSections = (md: string) =>
  sum(md, /^## `/gm) + sum(md, /^## (\d+) tenants that could not be read$/gm) + sum(md, /the reports of (\d+) more tenants? did not fit/g);

describe("every 'N more' in the fleet's markdown counts tenants", () => {
  it("plan comment: rows shown + counted as more = every tenant, and sections shown + counted as more = every tenant (30 random fleets)", () => {
    const seed = seedOr(35);
    const rnd = seeded(seed);
    let cutRows = 0;
    let cutSections = 0;
    for (let run = 0; run < 30; run++) {
      const tenants: FleetTenant[] = fleetShape(rnd).map((s) =>
        s.fail
          ? { tenant: s.tenant, error: failure(s.tenant, s.fail.code, s.fail.size), exit: 1 }
          : { tenant: s.tenant, plan: planWith(s.tenant, s.changes), exit: 2 },
      );
      const md = renderFleet(fleetPlanOf(tenants), "markdown", {
        color: false,
      });
      expect(rowsCount(md), `${seedNote(seed)}, run ${run}: rows`).toBe(tenants.length);
      expect(planSections(md), `${seedNote(seed)}, run ${run}: sections`).toBe(tenants.length);
      if (md.includes("more tenants: every tenant's row")) cutRows++;
      if (md.includes("The review is cut here")) cutSections++;
    }
    // The generator reaches both cuts, or the property says nothing.
    expect(cutRows).toBeGreaterThan(3);
    expect(cutSections).toBeGreaterThan(3);
  });

  it("drift issue: rows shown + counted as more = every tenant, and reports shown + counted as more = every tenant (30 random fleets)", () => {
    const seed = seedOr(4);
    const rnd = seeded(seed);
    let cutRows = 0;
    let cutSections = 0;
    for (let run = 0; run < 30; run++) {
      const tenants: FleetDriftTenant[] = fleetShape(rnd).map((s) =>
        s.fail
          ? { tenant: s.tenant, error: failure(s.tenant, s.fail.code, s.fail.size), exit: 1 }
          : { tenant: s.tenant, report: driftOf(s.tenant, s.changes), exit: 2 },
      );
      const md = renderFleetDrift({ format_version: FLEET_DRIFT_FORMAT_VERSION, kind: "fleet-drift", tenants }, "markdown");
      expect(rowsCount(md), `${seedNote(seed)}, run ${run}: rows`).toBe(tenants.length);
      expect(driftSections(md), `${seedNote(seed)}, run ${run}: reports`).toBe(tenants.length);
      if (md.includes("more tenants: every tenant's row")) cutRows++;
      if (md.includes("The report is cut here")) cutSections++;
    }
    expect(cutRows).toBeGreaterThan(3);
    expect(cutSections).toBeGreaterThan(3);
  });

  it("drift issue, the review's md4: 15 drifted tenants then 10 that failed alike, cut: the pointer counts the 10", () => {
    const ok = Array.from({ length: 15 }, (_, i): FleetDriftTenant => ({ tenant: `ok${String(i).padStart(2, "0")}`, report: driftOf(`ok${i}`, 60), exit: 2 }));
    ok.forEach((t) => (t.report!.items = t.report!.items.map((it) => ({ ...it, address: `${it.address}${"z".repeat(80)}` }))));
    const broken = Array.from({ length: 10 }, (_, i): FleetDriftTenant => ({
      tenant: `zz-broken${i}`,
      error: failure(`zz-broken${i}`, "config", 40),
      exit: 1,
    }));
    const md = renderFleetDrift({ format_version: FLEET_DRIFT_FORMAT_VERSION, kind: "fleet-drift", tenants: [...ok, ...broken] }, "markdown");
    const shown = sum(md, /^## `/gm) + sum(md, /^## (\d+) tenants that could not be read$/gm);
    expect(md).toMatch(new RegExp(`the reports of ${25 - shown} more tenants did not fit`));
  });
});
