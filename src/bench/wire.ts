/**
 * Plans and applies at the speed of the wire (prints figures; never pass/fail).
 * The whole Shopify taxonomy (test/data/shopify-taxonomy, or $PIMCTL_TAXONOMY) as manifests,
 * an emulator in this process and pimctl in its own (as a user runs it), so
 * client and server do not share a core:
 *
 * 1. a full apply to an empty tenant (5 ms latency, parallelism 8) against its
 *    bound: requests / parallelism x latency;
 * 2. a no-op plan (20 ms latency) against the floor: a minimal client reading
 *    the manifest files and fetching and decoding the same responses in two rounds;
 * 3. the same plan with --refresh=changelog and nothing changed;
 * 4. plan --target of 3 brands in tenants of 20,000 and 200,000 brands;
 * 5. peak memory of the plan and the apply processes.
 *
 * Ratios are the figures to quote: the machine's speed cancels out of them.
 * Run: npm run build && node dist/bench/wire.js [--quick] [--apply-only]
 * (--quick: a tenth of the categories; --apply-only: the full apply alone, its time, bound and peak memory)
 */
import { mkdtemp, rm, writeFile } from "node:fs/promises";
import { tmpdir } from "node:os";
import path from "node:path";
import { startEmulator } from "../emulator/index.js";
import { child as run, mb, median, seconds, type Run } from "./processes.js";
import { writeTaxonomyProject } from "./taxonomy.js";

const here = path.dirname(new URL(import.meta.url).pathname);
const quick = process.argv.includes("--quick");
const applyOnly = process.argv.includes("--apply-only");
const PAR = 8;
const TOKEN = "bench-token";
const tenants = ["tax", "b20k", "b200k"];

const tokens = Object.fromEntries(tenants.map((t) => [`PIMCTL_${t.toUpperCase()}_TOKEN`, TOKEN]));
/** pimctl (through measure.js, which reports peak memory) or another script of this folder, in its own process. */
const child = (script: string, args: string[], cwd: string): Promise<Run> => run([path.join(here, script), ...args], cwd, tokens);
const s = seconds;

const emu = await startEmulator({ port: 0, tenants: tenants.map((hash) => ({ hash, token: TOKEN })) });
const dir = await mkdtemp(path.join(tmpdir(), "pimctl-bench-wire-"));
const rows: Array<[string, string, string]> = [];
try {
  const urls = Object.fromEntries(tenants.map((t) => [t, emu.tenantUrl(t)]));
  const summary = await writeTaxonomyProject(dir, {
    brands: 200,
    tenants: urls,
    tokenEnv: (t) => `PIMCTL_${t.toUpperCase()}_TOKEN`,
    ...(quick ? { categoryShare: 0.1 } : {}),
  });
  console.log(`catalogue: ${summary}`);

  // 1. Full apply to an empty tenant.
  emu.setFaults({ latencyMs: 5 });
  emu.resetStats();
  const applied = await child("measure.js", ["apply", "--tenant", "tax", "--auto-approve", "--quiet", "--parallelism", String(PAR)], dir);
  if (applied.code !== 0) throw new Error(`apply exited ${applied.code}: ${applied.stderr.slice(-2000)}`);
  const applyRequests = emu.stats().requests.total;
  const bound = (applyRequests / PAR) * 5;
  console.log(`apply: ${applyRequests} requests in ${s(applied.ms)}; bound ${s(bound)}; ratio ${(applied.ms / bound).toFixed(2)}; peak ${mb(applied.rss)}`);
  rows.push([
    "full apply to an empty tenant, parallelism 8, 5 ms latency",
    `${applyRequests} requests, ${s(applied.ms)}: **${(applied.ms / bound).toFixed(2)} ×** the bound (${s(bound)})`,
    "≤ 1.15 ×",
  ]);

  if (applyOnly) rows.push(["peak memory, full apply", mb(applied.rss), "≤ 300 MB"]);
  else {
    // 2. No-op plan against the floor, 20 ms latency.
    emu.setFaults({ latencyMs: 20 });
    const plans: Run[] = [];
    const planRequests: number[] = [];
    for (let i = 0; i < 3; i++) {
      emu.resetStats();
      const r = await child("measure.js", ["plan", "--tenant", "tax", "--detailed-exitcode", "--log-http", "--format", "json"], dir);
      if (r.code !== 0)
        throw new Error(
          `the plan after apply is not empty (exit ${r.code}): ${r.stderr
            .split("\n")
            .filter((l) => !l.startsWith("http:"))
            .join("\n")
            .slice(-2000)}`,
        );
      planRequests.push(emu.stats().requests.total);
      plans.push(r);
    }
    const gets = plans[0]!.stderr
      .split("\n")
      .map((l) => /^http: GET (\S+) \d{3} /.exec(l)?.[1])
      .filter((p): p is string => p !== undefined);
    const listFile = path.join(dir, ".requests.json");
    await writeFile(listFile, JSON.stringify(gets));
    // The floor is timed as the plan is, a whole process from spawn to exit: timing it from
    // inside (after Node started and loaded undici) made it 0.1 s shorter than anything a
    // process can do. The inside figure is printed beside it.
    const floors: number[] = [];
    const floorsInside: number[] = [];
    for (let i = 0; i < 3; i++) {
      const f = await child("floor.js", [path.join(dir, "catalogue"), urls.tax!, TOKEN, String(PAR), listFile], dir);
      if (f.code !== 0) throw new Error(`floor failed: ${f.stderr}`);
      floors.push(f.ms);
      floorsInside.push((JSON.parse(f.stdout) as { ms: number }).ms);
    }
    const planMs = median(plans.map((p) => p.ms));
    const floorMs = median(floors);
    const planRss = median(plans.map((p) => p.rss));
    console.log(
      `no-op plan: ${median(planRequests)} requests, ${s(planMs)} (median of 3); floor ${s(floorMs)} as a process, ${s(median(floorsInside))} timed inside (` +
        `${gets.length} GETs); ratio ${(planMs / floorMs).toFixed(2)}; peak ${mb(planRss)}`,
    );
    rows.push([
      "no-op `plan`, 20 ms latency",
      `${median(planRequests)} requests, ${s(planMs)}: **${(planMs / floorMs).toFixed(2)} ×** the floor`,
      "≤ 1.3 × the floor",
    ]);
    rows.push([
      "the floor: a process that reads the manifest files and fetches and decodes the same GETs, two rounds",
      `${s(floorMs)} (${s(median(floorsInside))} of it after Node and undici started)`,
      "–",
    ]);

    // 3. The changelog refresh with nothing changed (the first run starts the snapshot).
    const first = await child("measure.js", ["plan", "--tenant", "tax", "--refresh", "changelog", "--quiet"], dir);
    if (first.code !== 0) throw new Error(`changelog plan failed: ${first.stderr.slice(-2000)}`);
    emu.resetStats();
    const viaFeed = await child("measure.js", ["plan", "--tenant", "tax", "--refresh", "changelog", "--detailed-exitcode"], dir);
    const feedRequests = emu.stats().requests.total;
    const line = viaFeed.stderr.split("\n").find((l) => l.startsWith("Read tenant")) ?? "";
    console.log(`changelog plan, nothing changed: ${feedRequests} requests, ${s(viaFeed.ms)} (exit ${viaFeed.code}); ${line}`);
    rows.push(["the same with `--refresh=changelog`, nothing changed", `${feedRequests} requests, ${s(viaFeed.ms)}`, "≤ 8 requests"]);

    // 4. Targeted plans in tenants of 20,000 and 200,000 brands.
    emu.store("b20k").seedBrands(20_000);
    emu.store("b200k").seedBrands(200_000);
    const targets = ['brand["Brand 001"]', 'brand["Brand 002"]', 'brand["Brand 003"]'].flatMap((t) => ["--target", t]);
    const targeted: string[] = [];
    for (const t of ["b20k", "b200k"]) {
      emu.resetStats();
      const r = await child("measure.js", ["plan", "--tenant", t, ...targets, "--quiet"], dir);
      if (r.code !== 0) throw new Error(`targeted plan failed: ${r.stderr.slice(-2000)}`);
      targeted.push(`${emu.stats().requests.total} requests, ${s(r.ms)}`);
    }
    console.log(`plan --target of 3 brands: 20,000 brands: ${targeted[0]}; 200,000 brands: ${targeted[1]}`);
    rows.push(["`plan --target` of 3 brands, 20,000 / 200,000 brands", targeted.join(" / "), "≤ 6 requests, the same at 200,000"]);

    rows.push(["peak memory, no-op plan / full apply", `${mb(planRss)} / ${mb(applied.rss)}`, "≤ 200 MB / ≤ 300 MB"]);
  }
  console.log("\n| figure | measured | target |\n|---|---|---|");
  for (const [a, b, c] of rows) console.log(`| ${a} | ${b} | ${c} |`);
} finally {
  await emu.close();
  await rm(dir, { recursive: true, force: true });
}
