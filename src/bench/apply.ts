/**
 * Applying a large catalogue to an empty tenant (prints figures; not a timed
 * test): 10,000 categories in 5 levels and 500 attributes with 20,000 values,
 * 20 ms latency per request, parallelism 8. Compares the wall time with the
 * critical-path bound: latency x sum over dependency levels of
 * ceil(actions in level / parallelism).
 * Run: npm run build && node dist/bench/apply.js [categories] [attributes] [values per attribute]
 */
import { performance } from "node:perf_hooks";
import { startEmulator } from "../emulator/index.js";
import { createClient } from "../api/client.js";
import { readState } from "../state/index.js";
import { buildPlan } from "../plan/planner.js";
import { applyPlan } from "../apply/index.js";
import { emptyCatalogue, type Catalogue, type Category } from "../model/catalogue.js";

const CATS = Number(process.argv[2] ?? 10_000);
const ATTRS = Number(process.argv[3] ?? 500);
const VALUES = Number(process.argv[4] ?? 40);
const LATENCY = 20;
const PAR = 8;

// 5 levels: 10 roots, then each level fans out until CATS categories exist.
const categories: Category[] = [];
let level: string[][] = Array.from({ length: 10 }, (_, i) => [`Root ${i}`]);
const fan = Math.ceil(Math.pow(CATS / 10, 1 / 4));
for (let depth = 0; depth < 5 && categories.length < CATS; depth++) {
  const next: string[][] = [];
  for (const path of level) {
    if (categories.length >= CATS) break;
    categories.push({ path, name: path[path.length - 1]! });
    if (depth < 4) for (let c = 0; c < fan; c++) next.push([...path, `Node ${depth + 1}-${c}`]);
  }
  level = next;
}
const desired: Catalogue = {
  ...emptyCatalogue(),
  managed: ["attributes", "categories"],
  attributes: Array.from({ length: ATTRS }, (_, a) => ({
    name: `Attribute ${a}`,
    type: "selectbox" as const,
    values: Array.from({ length: VALUES }, (_, v) => ({ value: `Value ${a}-${v}` })),
  })),
  categories,
};

const emu = await startEmulator({ port: 0, tenants: [{ hash: "bench", token: "t" }], latencyMs: LATENCY });
const api = createClient({ tenant: "bench", baseUrl: emu.tenantUrl("bench"), token: "t", parallelism: PAR });
const remote = await readState(api, { kinds: desired.managed, desired });
const { plan } = buildPlan({ tenant: "bench", desired, remote });

// Dependency level of each action: 0 when it depends on nothing, else 1 + the deepest dependency.
const depth = new Map<string, number>();
for (const a of plan.actions) depth.set(a.address, a.depends_on.reduce((m, d) => Math.max(m, (depth.get(d) ?? -1) + 1), 0));
const perLevel = new Map<number, number>();
for (const d of depth.values()) perLevel.set(d, (perLevel.get(d) ?? 0) + 1);
const boundMs = LATENCY * [...perLevel.values()].reduce((s, n) => s + Math.ceil(n / PAR), 0);

emu.resetStats();
const t0 = performance.now();
let last = t0;
const report = await applyPlan({
  api,
  plan,
  allowDelete: false,
  dryRun: false,
  parallelism: PAR,
  failFast: false,
  hooks: {
    postAction: () => {
      if (performance.now() - last > 10_000) {
        last = performance.now();
        process.stderr.write(`  ... ${emu.stats().requests.total} requests, ${((last - t0) / 1000).toFixed(0)} s\n`);
      }
    },
  },
});
const wall = performance.now() - t0;
console.log(
  `applied ${plan.actions.length} actions (${categories.length} categories in ${perLevel.size} dependency levels, ${ATTRS} attributes, ${ATTRS * VALUES} values): ` +
    `${report.counts.done} done, ${report.counts.failed} failed; ${emu.stats().requests.total} requests in ${(wall / 1000).toFixed(1)} s (latency ${LATENCY} ms, parallelism ${PAR})`,
);
console.log(`critical-path bound: ${(boundMs / 1000).toFixed(1)} s (levels: ${[...perLevel.entries()].sort((a, b) => a[0] - b[0]).map(([l, n]) => `${l}:${n}`).join(" ")}); ratio ${(wall / boundMs).toFixed(2)}`);
await api.close();
await emu.close();
