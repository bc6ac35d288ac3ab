/**
 * Ten times the taxonomy (prints figures; never pass/fail). The Shopify taxonomy as manifests once
 * (1×: 10,595 categories, 2,299 attributes with 20,635 values in French and German, 26 attribute
 * sets, 200 brands) and ten times (10×: every root category, attribute, set and brand name
 * suffixed per copy), each tenant seeded directly into the emulator as apply would have left it
 * (seed-tenant.ts), 0 ms latency, the emulator in this process and pimctl in its own. For each
 * size: the no-op plan (median of 3), its floor as issue 27 defines it (`pimctl validate` as a
 * process, plus the fetch-and-decode floor process floor.js, less one Node start) and the plan's
 * ratio to it, validate, a plan of 3 targets (a brand, a category, an attribute), export into an
 * empty folder; then how each figure grows from 1× to 10×.
 *
 * Run: npm run build && node dist/bench/scale.js [--copies N]   (N instead of 10)
 * Set up a tenant to profile by hand (prints the commands that start the emulator and plan):
 *      node dist/bench/scale.js --setup DIR [--copies N] [--port P]
 */
import { mkdtemp, rm, writeFile } from "node:fs/promises";
import { tmpdir } from "node:os";
import path from "node:path";
import { performance } from "node:perf_hooks";
import { parseArgs } from "node:util";
import { startEmulator } from "../emulator/index.js";
import { createSaver } from "../emulator/persistence.js";
import { TenantStore } from "../emulator/store.js";
import { child, mb, median, seconds, type Run } from "./processes.js";
import { seedProject } from "./seed-tenant.js";
import { writeTaxonomyProject } from "./taxonomy.js";

const here = path.dirname(new URL(import.meta.url).pathname);
const TOKEN = "scale-token";
const TOKEN_ENV = "PIMCTL_SCALE_TOKEN";
/** The plan's default parallelism, which the floor fetches with. */
const PAR = 8;
const TARGETS = ['brand["Brand 001"]', 'category["Luggage & Bags/Backpacks/Hiking Backpacks"]', 'attribute["Color"]'];

const { values: args } = parseArgs({ options: { setup: { type: "string" }, copies: { type: "string" }, port: { type: "string" } } });
const copies = Number(args.copies ?? 10);

/** --setup: DIR/pimctl.yaml, DIR/catalogue/ and DIR/emulator-data.json, the state `pimctl emulator --data` starts from. */
async function setup(dir: string, port: number): Promise<void> {
  const tenant = "scale";
  const summary = await writeTaxonomyProject(dir, {
    brands: 200,
    copies,
    tenants: { [tenant]: `http://127.0.0.1:${port}/${tenant}/api/v1` },
    tokenEnv: () => TOKEN_ENV,
  });
  const store = new TenantStore(tenant);
  store.seedDefaults();
  await seedProject(store, { cwd: dir, env: {}, tenant });
  const file = path.join(dir, "emulator-data.json");
  // Written by the emulator's own saver: the format it reads, a chunk at a time (the file is hundreds of MB at 10×).
  const saver = createSaver(
    file,
    () => [[tenant, { token: TOKEN, store }]],
    () => ({ written: 0, most_at_once: 0, failed: 0 }),
  );
  saver.schedule();
  await saver.flush();
  const cli = path.resolve(here, "../cli/main.js");
  console.log(`${copies}× the taxonomy in ${dir}: ${summary}; the tenant's state in ${file}, its ledger in ${path.join(dir, ".pimctl")}`);
  console.log(`\nStart the emulator (it loads the state; it saves only when something is written):`);
  console.log(`  node ${cli} emulator --port ${port} --tenant ${tenant}=${TOKEN} --data ${file}`);
  console.log(`\nThen, in another shell, plan (no changes expected; add --cpu-prof or --heap-prof after node to profile):`);
  console.log(`  cd ${dir} && ${TOKEN_ENV}=${TOKEN} node ${cli} plan --detailed-exitcode`);
  console.log(`  cd ${dir} && ${TOKEN_ENV}=${TOKEN} node ${cli} plan ${TARGETS.map((t) => `--target '${t}'`).join(" ")}`);
}

interface Figures {
  seed: string;
  plan: { ms: number; requests: number; rss: number };
  floor: { ms: number; validateMs: number; fetchMs: number; nodeMs: number };
  validate: { ms: number; rss: number };
  targeted: { ms: number; requests: number; rss: number };
  exported: { ms: number; rss: number };
}

const emu = args.setup ? undefined : await startEmulator({ port: 0, tenants: [1, copies].map((c) => ({ hash: `x${c}`, token: TOKEN })) });

/** Three runs of a command: each must exit with `code`; the median time, memory and requests. */
async function thrice(what: string, nodeArgs: string[], cwd: string, code = 0): Promise<{ ms: number; rss: number; requests: number; runs: Run[] }> {
  const runs: Run[] = [];
  const requests: number[] = [];
  for (let i = 0; i < 3; i++) {
    emu!.resetStats();
    const r = await child(nodeArgs, cwd, { [TOKEN_ENV]: TOKEN });
    if (r.code !== code) throw new Error(`${what} exited ${r.code}: ${r.stderr.slice(-2000)}`);
    requests.push(emu!.stats().requests.total);
    runs.push(r);
  }
  return { ms: median(runs.map((r) => r.ms)), rss: median(runs.map((r) => r.rss)), requests: median(requests), runs };
}

async function measure(size: number, nodeMs: number): Promise<Figures> {
  const tenant = `x${size}`;
  const dir = await mkdtemp(path.join(tmpdir(), `pimctl-bench-scale-${size}-`));
  try {
    const t0 = performance.now();
    const summary = await writeTaxonomyProject(dir, { brands: 200, copies: size, tenants: { [tenant]: emu!.tenantUrl(tenant) }, tokenEnv: () => TOKEN_ENV });
    const t1 = performance.now();
    await seedProject(emu!.store(tenant), { cwd: dir, env: {}, tenant });
    const t2 = performance.now();
    const seed = `manifests written in ${seconds(t1 - t0)}, loaded and seeded in ${seconds(t2 - t1)}`;
    console.log(`${size}×: ${summary}; ${seed}`);

    const pimctl = (...a: string[]) => [path.join(here, "measure.js"), ...a];
    const validate = await thrice("validate", pimctl("validate"), dir);
    const plan = await thrice("the no-op plan", pimctl("plan", "--tenant", tenant, "--detailed-exitcode", "--log-http"), dir);
    const gets = plan.runs[0]!.stderr.split("\n").flatMap((l) => /^http: GET (\S+) \d{3} /.exec(l)?.[1] ?? []);
    const listFile = path.join(dir, ".requests.json");
    await writeFile(listFile, JSON.stringify(gets));
    const fetch = await thrice(
      "the floor",
      [path.join(here, "floor.js"), path.join(dir, "catalogue"), emu!.tenantUrl(tenant), TOKEN, String(PAR), listFile],
      dir,
    );
    const targeted = await thrice("the targeted plan", pimctl("plan", "--tenant", tenant, ...TARGETS.flatMap((t) => ["--target", t]), "--quiet"), dir);
    emu!.resetStats();
    const exported = await child(pimctl("export", "--tenant", tenant, "--out", path.join(dir, "exported")), dir, { [TOKEN_ENV]: TOKEN });
    if (exported.code !== 0) throw new Error(`export exited ${exported.code}: ${exported.stderr.slice(-2000)}`);
    return {
      seed,
      plan: { ms: plan.ms, requests: plan.requests, rss: plan.rss },
      floor: { ms: validate.ms + fetch.ms - nodeMs, validateMs: validate.ms, fetchMs: fetch.ms, nodeMs },
      validate: { ms: validate.ms, rss: validate.rss },
      targeted: { ms: targeted.ms, requests: targeted.requests, rss: targeted.rss },
      exported: { ms: exported.ms, rss: exported.rss },
    };
  } finally {
    emu!.resetTenant(tenant); // the next size's tenant gets the memory
    await rm(dir, { recursive: true, force: true });
  }
}

function table(a: Figures, b: Figures): string {
  const growth = (x: number, y: number) => `${(y / x).toFixed(1)} ×`;
  const row = (figure: string, x: number, y: number, show: (n: number) => string) => `| ${figure} | ${show(x)} | ${show(y)} | ${growth(x, y)} |`;
  const n = (v: number) => String(v);
  const ratio = (v: number) => `${v.toFixed(2)} ×`;
  return [
    `| figure | 1× | ${copies}× | growth |`,
    "|---|---|---|---|",
    row("no-op plan, time (median of 3)", a.plan.ms, b.plan.ms, seconds),
    row("no-op plan, requests", a.plan.requests, b.plan.requests, n),
    row("no-op plan, peak memory", a.plan.rss, b.plan.rss, mb),
    row("its floor: validate + fetch-and-decode − one Node start", a.floor.ms, b.floor.ms, seconds),
    row("no-op plan ÷ its floor", a.plan.ms / a.floor.ms, b.plan.ms / b.floor.ms, ratio),
    row("`validate`, time", a.validate.ms, b.validate.ms, seconds),
    row("`validate`, peak memory", a.validate.rss, b.validate.rss, mb),
    row("fetch-and-decode floor process (floor.js)", a.floor.fetchMs, b.floor.fetchMs, seconds),
    row("`plan --target` a brand, a category, an attribute: time", a.targeted.ms, b.targeted.ms, seconds),
    row("`plan --target` …: requests", a.targeted.requests, b.targeted.requests, n),
    row("`plan --target` …: peak memory", a.targeted.rss, b.targeted.rss, mb),
    row("`export` into an empty folder, time", a.exported.ms, b.exported.ms, seconds),
    row("`export`, peak memory", a.exported.rss, b.exported.rss, mb),
  ].join("\n");
}

if (args.setup) {
  await setup(path.resolve(args.setup), Number(args.port ?? 4010));
} else {
  try {
    // One Node start, the part of both processes of the floor that the plan pays once.
    const starts: number[] = [];
    for (let i = 0; i < 5; i++) starts.push((await child(["-e", "0"], tmpdir())).ms);
    const nodeMs = median(starts);
    const one = await measure(1, nodeMs);
    const many = await measure(copies, nodeMs);
    console.log(`\nNode start ${seconds(nodeMs)} (median of 5); 0 ms latency, parallelism ${PAR}; targets ${TARGETS.join(", ")}\n`);
    console.log(table(one, many));
  } finally {
    await emu!.close();
  }
}
