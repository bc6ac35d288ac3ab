/**
 * The silent exit 0: a lookup after a lost create answer waited for the
 * concurrency slot its own request held, and Node ended the process with
 * status 0 and nothing applied. Here every fault kind hits every create route
 * at once, at parallelism 1, 2 and 8, in a real `pimctl apply` process: the run
 * must finish (exit 0, or 4 where API v1 leaves no way to be sure, i.e. an asset
 * create that may have reached the server, which a re-run completes) and the next
 * plan must be empty.
 * `stall` (no answer; the client times out after 30 s) is run in-process with
 * a short timeout instead, over the same client and applier.
 */
import { spawn } from "node:child_process";
import { rm } from "node:fs/promises";
import path from "node:path";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { testProject, repoRoot, type TestProject } from "../helpers/project.js";
import type { FaultMode, TargetedFault } from "../../src/emulator/index.js";
import { ROUTES } from "../../src/emulator/routes.js";
import { createClient } from "../../src/api/client.js";
import { readState } from "../../src/state/index.js";
import { buildPlan } from "../../src/plan/planner.js";
import { applyPlan } from "../../src/apply/index.js";
import { emptyLedger } from "../../src/state/ledger.js";
import { loadManifests } from "../../src/manifest/index.js";

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
const CREATE_ROUTES = ROUTES.filter((r) => r.method === "POST" && !r.notImplemented && !r.pattern.endsWith("/search") && r.pattern !== "/exports").map((r) => r.pattern);
const ASSET_ROUTES = new Set(["/brands/:owner/assets", "/categories/:owner/assets"]);
const faultsOn = (mode: FaultMode): TargetedFault[] => CREATE_ROUTES.map((route) => ({ method: "POST", route, mode, times: 1, retryAfter: "0" }));

let p: TestProject;
beforeAll(async () => {
  p = await testProject({ files: { "catalogue/all.yaml": manifest } });
});
afterAll(async () => p.close());

function cli(args: string[]): Promise<{ code: number | null; stderr: string }> {
  const child = spawn(process.execPath, [path.join(repoRoot, "dist/cli/main.js"), ...args], { cwd: p.dir, env: { ...process.env, ...p.env, NO_COLOR: "1" }, stdio: ["ignore", "pipe", "pipe"] });
  let stderr = "";
  child.stderr.on("data", (d: Buffer) => (stderr += d.toString()));
  return new Promise((resolve) => child.once("exit", (code) => resolve({ code, stderr })));
}

describe("faults on every create route never end a run silently", () => {
  for (const mode of ["error500", "rate429", "drop", "drop_after_commit"] as const) {
    for (const parallelism of [1, 2, 8]) {
      it(`${mode} at parallelism ${parallelism}: the process finishes, and the next plan is empty`, { timeout: 30_000 }, async () => {
        p.emulator.resetTenant("demo");
        p.emulator.clearFaults();
        p.emulator.resetStats();
        await rm(path.join(p.dir, ".pimctl"), { recursive: true, force: true });
        p.emulator.injectFaults(faultsOn(mode));
        const run = await cli(["apply", "--auto-approve", "--parallelism", String(parallelism)]);
        expect(run.stderr).not.toMatch(/internal error/);
        // An asset create that may have reached the server is not retried (no natural key to look
        // it up by): reported, exit 4, and the next run adopts it by alt text. Only a 429 is sure.
        const expected = mode === "rate429" ? 0 : 4;
        expect(run.code, run.stderr).toBe(expected);
        if (expected === 4) {
          const failed = run.stderr.split("\n").filter((l) => l.startsWith("failed: "));
          expect(failed.length).toBeGreaterThan(0);
          expect(failed.filter((l) => !/^failed: (brand|category)\[.*\]\.asset\[/.test(l))).toEqual([]);
          const again = await p.cli(["apply", "--auto-approve", "--parallelism", String(parallelism)]);
          expect(again.code, again.stderr).toBe(0);
        }
        expect(p.emulator.stats().faults[mode]).toBe(CREATE_ROUTES.length); // every create route was hit
        const next = await p.cli(["plan", "--detailed-exitcode"]);
        expect(next.code, next.stdout + next.stderr).toBe(0);
        const s = p.emulator.store("demo");
        for (const owner of [...s.brands.keys()]) expect(s.assetsOf("brand", owner)).toHaveLength(1);
      });
    }
  }

  for (const parallelism of [1, 2, 8]) {
    it(`stall at parallelism ${parallelism} (in-process, 100 ms timeout): finishes, next plan empty`, { timeout: 30_000 }, async () => {
      p.emulator.resetTenant("demo");
      p.emulator.clearFaults();
      p.emulator.resetStats();
      p.emulator.injectFaults(faultsOn("stall").filter((f) => !ASSET_ROUTES.has(f.route!)));
      const api = createClient({ tenant: "demo", baseUrl: p.emulator.tenantUrl("demo"), token: p.tokens.demo!, parallelism, timeoutMs: 100, retries: { max: 4, baseMs: 1, maxMs: 5 } });
      const { catalogue } = await loadManifests(path.join(p.dir, "catalogue"));
      const ledger = emptyLedger("demo", p.emulator.tenantUrl("demo"));
      const plan = async () => buildPlan({ tenant: "demo", desired: catalogue, remote: await readState(api, { kinds: catalogue.managed, desired: catalogue }), ledger }).plan;
      try {
        const r = await applyPlan({ api, plan: await plan(), allowDelete: false, dryRun: false, parallelism, failFast: false, ledger });
        expect(r.results.filter((x) => x.status === "failed").map((x) => x.address)).toEqual([]);
        expect((await plan()).actions.filter((a) => a.op !== "unsupported")).toEqual([]);
        expect(p.emulator.stats().faults.stall).toBe(CREATE_ROUTES.length - ASSET_ROUTES.size);
      } finally {
        await api.close();
      }
    });
  }
});
