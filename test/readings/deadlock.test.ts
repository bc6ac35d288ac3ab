/**
 * The silent exit 0: a lookup after a lost create answer waited for the
 * concurrency slot its own request held, and Node ended the process with
 * status 0 and nothing applied. Here every fault kind hits every create route
 * at once, at parallelism 1, 2 and 8, in a real `pimctl apply` process: the run
 * must finish with exit 0 (every lost create answer is looked up and adopted, assets
 * by their owner's only asset with that alt text) and the next plan must be empty.
 * `stall` (no answer; the client times out after 30 s) is run in-process with
 * a short timeout instead, over the same client and applier.
 */
import path from "node:path";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { testProject, type TestProject } from "../helpers/project.js";
import { runPimctl } from "../helpers/spawn-cli.js";
import type { FaultMode, TargetedFault } from "../../src/emulator/index.js";
import { ROUTES } from "../../src/emulator/routes.js";
import { createClient } from "../../src/api/client.js";
import { readState } from "../../src/state/index.js";
import { buildPlan } from "../../src/plan/planner.js";
import { applyPlan } from "../../src/apply/index.js";
import { emptyLedger } from "../../src/state/ledger.js";
import { loadManifests } from "../../src/manifest/index.js";
import { assetsOf } from "../../src/emulator/kinds/assets.js";

const manifest = `
display_groups:
  - name: Basics
attributes:
  - name: Colour
    type: selectbox
    display_group: Basics
    values:
      - value: Red
      - value: Blue
attribute_sets:
  - name: Apparel
    attributes: [Colour]
blocks:
  - slug: footer
    name: Footer
    content: hello
brands:
  - name: Acme
    web_ids: { Webshop: acme }
    assets:
      - image_url: https://cdn.example.com/acme.png
        alttext: Acme logo
    attributes:
      Colour: { value: Red }
    assigned_attributes: [Colour]
    attribute_sets: [Apparel]
categories:
  - name: Apparel
    attribute_sets: [Apparel]
    web_ids: { Webshop: apparel }
    children:
      - name: Shirts
        assets:
          - image_url: https://cdn.example.com/shirts.png
            alttext: Shirts
`;

/** Every POST that creates or assigns something (the emulator's own route patterns, as its stats count them). */
const CREATE_ROUTES = ROUTES.filter((r) => r.method === "POST" && !r.notImplemented && !r.pattern.endsWith("/search") && r.pattern !== "/exports").map(
  (r) => r.pattern,
);
const faultsOn = (mode: FaultMode): TargetedFault[] => CREATE_ROUTES.map((route) => ({ method: "POST", route, mode, times: 1, retryAfter: "0" }));

const MODES = ["error500", "rate429", "drop", "drop_after_commit"] as const;
const PARALLELISMS = [1, 2, 8];
/** One tenant per case, so the cases run side by side (each case is mostly waiting on backoff). */
const tenantOf = (mode: string, parallelism: number) => `${mode.replace(/_/g, "")}p${parallelism}`;

let p: TestProject;
beforeAll(async () => {
  const tenants = [...MODES, "stall"].flatMap((m) => PARALLELISMS.map((n) => tenantOf(m, n)));
  p = await testProject({ tenants, files: { "catalogue/all.yaml": manifest } });
});
afterAll(async () => p.close());

const cli = (args: string[]) => runPimctl(p.dir, args, { ...process.env, ...p.env, NO_COLOR: "1" });

describe.concurrent("faults on every create route never end a run silently", () => {
  for (const mode of MODES) {
    for (const parallelism of PARALLELISMS) {
      it(`${mode} at parallelism ${parallelism}: the process finishes, and the next plan is empty`, { timeout: 90_000 }, async () => {
        const tenant = tenantOf(mode, parallelism);
        const faults = () => p.emulator.stats().faults[mode] ?? 0;
        p.emulator.injectFaults(faultsOn(mode).map((f) => ({ ...f, tenant })));
        const run = await cli(["apply", "--tenant", tenant, "--auto-approve", "--parallelism", String(parallelism)]);
        expect(run.stderr).not.toMatch(/internal error/);
        expect(run.code, run.stderr).toBe(0);
        expect(p.emulator.faultsLeft(tenant)).toBe(0); // every create route was hit
        expect(faults()).toBeGreaterThan(0);
        const next = await p.cli(["plan", "--tenant", tenant, "--detailed-exitcode"]);
        expect(next.code, next.stdout + next.stderr).toBe(0);
        const s = p.emulator.store(tenant);
        for (const owner of [...s.brands.keys()]) expect(assetsOf(s, "brand", owner)).toHaveLength(1);
      });
    }
  }

  for (const parallelism of PARALLELISMS) {
    it(`stall at parallelism ${parallelism} (in-process, 100 ms timeout): finishes, next plan empty`, { timeout: 90_000 }, async () => {
      const tenant = tenantOf("stall", parallelism);
      p.emulator.injectFaults(faultsOn("stall").map((f) => ({ ...f, tenant })));
      const api = createClient({
        tenant,
        baseUrl: p.emulator.tenantUrl(tenant),
        token: p.tokens[tenant]!,
        parallelism,
        timeoutMs: 100,
        retries: { max: 4, baseMs: 1, maxMs: 5 },
      });
      const { catalogue } = await loadManifests(path.join(p.dir, "catalogue"));
      const ledger = emptyLedger(tenant, p.emulator.tenantUrl(tenant));
      const plan = async () =>
        buildPlan({ tenant, desired: catalogue, remote: await readState(api, { kinds: catalogue.managed, desired: catalogue }), ledger }).plan;
      try {
        const r = await applyPlan({ api, plan: await plan(), allowDelete: false, dryRun: false, parallelism, failFast: false, ledger });
        expect(r.results.filter((x) => x.status === "failed").map((x) => x.address)).toEqual([]);
        expect((await plan()).actions.filter((a) => a.op !== "unsupported")).toEqual([]);
        expect(p.emulator.faultsLeft(tenant)).toBe(0);
      } finally {
        await api.close();
      }
    });
  }
});
