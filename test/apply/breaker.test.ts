/**
 * The circuit breaker's threshold, exactly: with one action at a time, N-1
 * outage failures in a row (5xx after the client's retries) and then a success
 * go on; N in a row stop the run with what is left not attempted.
 */
import { beforeEach, describe, expect, it } from "vitest";
import type { Emulator } from "../../src/emulator/index.js";
import type { PimClient } from "../../src/api/client.js";
import { readState } from "../../src/state/index.js";
import { buildPlan } from "../../src/plan/planner.js";
import { applyPlan, BREAKER_THRESHOLD } from "../../src/apply/index.js";
import { emptyLedger } from "../../src/state/ledger.js";
import type { Catalogue } from "../../src/model/catalogue.js";
import { fileEmulator } from "../helpers/emulator.js";

let emu: Emulator;
let api: PimClient;
const ATTEMPTS = 3; // retries: { max: 2 }

const file = fileEmulator({ client: { retries: { max: ATTEMPTS - 1, baseMs: 1, maxMs: 2 } } });
beforeEach(async () => {
  api = await file.fresh();
  emu = file.emu;
});

const desired: Catalogue = {
  managed: ["brands"],
  versions: [],
  display_groups: [],
  attributes: [],
  attribute_sets: [],
  blocks: [],
  brands: Array.from({ length: 10 }, (_, i) => ({ name: `Brand ${String(i).padStart(2, "0")}` })),
  categories: [],
};

async function applyWithFailures(failingActions: number) {
  const remote = await readState(api, { kinds: desired.managed, desired, prune: {} });
  const { plan } = buildPlan({ tenant: "t", desired, remote, ledger: emptyLedger("t", emu.tenantUrl("t")), prune: {} });
  emu.resetStats();
  emu.injectFaults([{ method: "POST", route: "/brands", mode: "error500", times: failingActions * ATTEMPTS }]);
  return applyPlan({ api, plan, allowDelete: false, dryRun: false, parallelism: 1, failFast: false });
}

describe("the circuit breaker", () => {
  it(`${BREAKER_THRESHOLD - 1} server errors in a row, then a success: the run goes on`, async () => {
    const report = await applyWithFailures(BREAKER_THRESHOLD - 1);
    expect(report.stopped_by).toBeUndefined();
    expect(report.counts).toMatchObject({ failed: BREAKER_THRESHOLD - 1, done: 10 - (BREAKER_THRESHOLD - 1), skipped: 0 });
    expect(report.results.filter((r) => r.status === "failed").every((r) => r.error?.code === "api_server")).toBe(true);
  });

  it(`${BREAKER_THRESHOLD} in a row: nothing more is started, the rest is not attempted`, async () => {
    const report = await applyWithFailures(BREAKER_THRESHOLD);
    expect(report.stopped_by).toMatchObject({ code: "tenant_unreachable", not_attempted: 10 - BREAKER_THRESHOLD });
    expect(report.stopped_by!.message).toMatch(/^POST \/brands \(500\)/);
    expect(report.counts).toMatchObject({ failed: BREAKER_THRESHOLD, done: 0, skipped: 10 - BREAKER_THRESHOLD });
    expect(report.results.filter((r) => r.skip_cause === "tenant_unreachable")).toHaveLength(10 - BREAKER_THRESHOLD);
    // Nothing was sent after the breaker opened.
    expect(emu.faultsLeft()).toBe(0);
    expect(emu.stats().requests.byRoute["POST /brands"]).toBe(BREAKER_THRESHOLD * ATTEMPTS);
  });
});
