/**
 * The fleet benchmark (issue 35; prints figures, never pass/fail). N tenants (20 by default), each
 * seeded with a copy of the whole taxonomy as apply would have left it (seed-tenant.ts), the
 * emulator in this process at 20 ms latency, pimctl in its own processes at parallelism 8:
 *
 * 1. a fleet no-op plan (`plan --tenant '*'`) against N sequential single-tenant `pimctl plan`
 *    processes, wall time (target ≤ 0.5 ×);
 * 2. the fleet plan's peak memory against one tenant's no-op plan (target ≤ 1.5 ×);
 * 3. a 50-change pull request (50 brands' descriptions) applied to the N in 3 waves (`rollout:`,
 *    every tenant of a wave at once: --tenant-parallelism the largest wave) against the sum over
 *    waves of the slowest tenant's own apply bound, its requests ÷ parallelism × latency, the
 *    requests counted per tenant by the emulator (target ≤ 1.2 ×).
 *
 * Run: npm run build && node dist/bench/fleet.js [--tenants N]
 */
import { readFile, mkdtemp, rm, writeFile, appendFile } from "node:fs/promises";
import { tmpdir } from "node:os";
import path from "node:path";
import { parseArgs } from "node:util";
import { startEmulator, type Emulator } from "../emulator/index.js";
import { child, mb, median, seconds, type Run } from "./processes.js";
import { seedProject } from "./seed-tenant.js";
import { writeTaxonomyProject } from "./taxonomy.js";

const here = path.dirname(new URL(import.meta.url).pathname);
const TOKEN = "fleet-token";
const TOKEN_ENV = "PIMCTL_FLEET_TOKEN";
const PAR = 8;
const LATENCY_MS = 20;
const CHANGES = 50;
const WAVES = 3;

const { values: args } = parseArgs({ options: { tenants: { type: "string" } } });
const count = Number(args.tenants ?? 20);
if (!Number.isInteger(count) || count < 2) throw new Error(`--tenants ${args.tenants}: give a whole number of 2 or more`);
const names = Array.from({ length: count }, (_, i) => `t${String(i + 1).padStart(2, "0")}`);

/** pimctl through measure.js (which reports its peak memory), in dir; it must exit with `code`. */
async function pimctl(dir: string, argv: string[], code = 0): Promise<Run> {
  const r = await child([path.join(here, "measure.js"), ...argv], dir, { [TOKEN_ENV]: TOKEN });
  if (r.code !== code) throw new Error(`pimctl ${argv.join(" ")} exited ${r.code}, not ${code}: ${r.stderr.slice(-2000)}`);
  return r;
}

/** The project and its N tenants, each holding the taxonomy as an apply of these manifests leaves it. */
async function seed(emu: Emulator, dir: string): Promise<string> {
  const summary = await writeTaxonomyProject(dir, {
    brands: 200,
    tenants: Object.fromEntries(names.map((n) => [n, emu.tenantUrl(n)])),
    tokenEnv: () => TOKEN_ENV,
  });
  for (const tenant of names) await seedProject(emu.store(tenant), { cwd: dir, env: {}, tenant });
  return summary;
}

/** The fleet's no-op plan, then each tenant's alone in its own process, one after the other. */
async function plans(dir: string): Promise<{ fleet: Run; single: Run[] }> {
  const fleet = await pimctl(dir, ["plan", "--tenant", "*", "--detailed-exitcode", "--quiet"]);
  const single: Run[] = [];
  for (const tenant of names) single.push(await pimctl(dir, ["plan", "--tenant", tenant, "--detailed-exitcode", "--quiet"]));
  return { fleet, single };
}

/** The waves: the tenants in 3 runs of names, written as `rollout:` in pimctl.yaml. */
async function writeWaves(dir: string): Promise<string[][]> {
  const size = Math.ceil(names.length / WAVES);
  const waves = Array.from({ length: WAVES }, (_, w) => names.slice(w * size, (w + 1) * size)).filter((w) => w.length > 0);
  await appendFile(path.join(dir, "pimctl.yaml"), `rollout:\n${waves.map((w) => `  - [${w.join(", ")}]`).join("\n")}\n`);
  return waves;
}

/** The pull request: the first 50 brands get a new description (50 updates in every tenant). */
async function pullRequest(dir: string): Promise<void> {
  const file = path.join(dir, "catalogue", "brands.yaml");
  const text = await readFile(file, "utf8");
  let changed = 0;
  const next = text.replace(/Brand number (\d+), made for the benchmark\./g, (line, n: string) =>
    Number(n) <= CHANGES && ++changed ? `Brand number ${n}, changed in the pull request.` : line,
  );
  if (changed !== CHANGES) throw new Error(`the pull request changed ${changed} brands, not ${CHANGES}`);
  await writeFile(file, next);
}

/** The rollout's wall time, and the bound: over waves, the slowest tenant's requests ÷ parallelism × latency. */
async function rollout(emu: Emulator, dir: string, waves: string[][]): Promise<{ run: Run; bound: number; requests: number[] }> {
  const widest = Math.max(...waves.map((w) => w.length));
  emu.resetStats();
  const run = await pimctl(dir, ["apply", "--tenant", "*", "--auto-approve", "--quiet", "--parallelism", String(PAR), "--tenant-parallelism", String(widest)]);
  const byTenant = emu.stats().requests.byTenant;
  const requests = names.map((n) => byTenant[n] ?? 0);
  const bound = waves.reduce((sum, wave) => sum + Math.max(...wave.map((n) => ((byTenant[n] ?? 0) / PAR) * LATENCY_MS)), 0);
  // Every tenant is at the pull request's manifests: a fleet plan finds nothing to do.
  await pimctl(dir, ["plan", "--tenant", "*", "--detailed-exitcode", "--quiet"]);
  return { run, bound, requests };
}

const emu = await startEmulator({ port: 0, tenants: names.map((hash) => ({ hash, token: TOKEN })) });
const dir = await mkdtemp(path.join(tmpdir(), "pimctl-bench-fleet-"));
try {
  const t0 = performance.now();
  const summary = await seed(emu, dir);
  console.log(`${count} tenants, each: ${summary}; written and seeded in ${seconds(performance.now() - t0)}`);
  emu.setFaults({ latencyMs: LATENCY_MS });
  const { fleet, single } = await plans(dir);
  const sequential = single.reduce((s, r) => s + r.ms, 0);
  const oneRss = median(single.map((r) => r.rss));
  const waves = await writeWaves(dir);
  await pullRequest(dir);
  const applied = await rollout(emu, dir, waves);
  const ratio = (a: number, b: number) => `**${(a / b).toFixed(2)} ×**`;
  console.log(`\n${count} tenants, ${LATENCY_MS} ms latency, parallelism ${PAR}; waves of ${waves.map((w) => w.length).join(", ")}\n`);
  console.log("| figure | measured | target |\n|---|---|---|");
  console.log(
    `| fleet no-op plan vs ${count} sequential single-tenant plans, wall time | ` +
      `${seconds(fleet.ms)} vs ${seconds(sequential)}: ${ratio(fleet.ms, sequential)} | ≤ 0.5 × |`,
  );
  console.log(`| fleet no-op plan vs one tenant's no-op plan, peak memory | ${mb(fleet.rss)} vs ${mb(oneRss)}: ${ratio(fleet.rss, oneRss)} | ≤ 1.5 × |`);
  console.log(
    `| ${CHANGES}-change pull request applied to the ${count} in ${waves.length} waves vs the sum over waves of the slowest tenant's bound | ` +
      `${seconds(applied.run.ms)} vs ${seconds(applied.bound)} (${Math.min(...applied.requests)}–${Math.max(...applied.requests)} requests a tenant): ` +
      `${ratio(applied.run.ms, applied.bound)} | ≤ 1.2 × |`,
  );
  // What the bound leaves out: each tenant is read and planned before it is written (CPU on a shared
  // machine); the same less the fleet plan's time.
  const writing = applied.run.ms - fleet.ms;
  console.log(
    `| the same less the fleet no-op plan's wall time (its reads and planning) | ${seconds(writing)}: ${ratio(writing, applied.bound)} the bound | – |`,
  );
  console.log(`| the rollout's peak memory | ${mb(applied.run.rss)} | – |`);
} finally {
  await emu.close();
  await rm(dir, { recursive: true, force: true });
}
