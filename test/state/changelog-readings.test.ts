/**
 * The changelog refresh under every reading of the feed the emulator offers (issue 33): paging
 * (links or capped) × the page size a tenant takes (none asked: clamped at 1000 without a word;
 * 100 or 200: 422 above; "clamped": 100 without a word) × what meta.total counts (the entries
 * matched, absent, the whole tenant, one write behind) × a burst at the cursor's second (more
 * entries than a page, the hand change recorded at that same second or the next) × an entry
 * arriving while the plan reads (at its 2nd, 3rd or 4th request: entries that shift pages and
 * move totals, and half the time a record changed then). In every case `plan
 * --refresh=changelog` equals `--refresh=full` (but when a record changed during the read: it
 * may show as it was, as in a full read), `drift` through the changelog, the next run, equals
 * the full drift (nothing that arrived is lost), a refresh that reads in full says why in one line, and a
 * snapshot's cursor never rests inside a group of entries at one second that it did not read
 * whole. Times in the feed are set by the test (a clock of its own, half an hour back), so
 * "the same second" never depends on the machine's speed.
 * Seeds: PIMCTL_TEST_SEED (default 33); every failure names the reading, the case and its seed.
 */
import { readdir, readFile } from "node:fs/promises";
import path from "node:path";
import { afterAll, describe, expect, it } from "vitest";
import { createClient, type PimClient } from "../../src/api/client.js";
import type { EmulatorSwitches } from "../../src/emulator/index.js";
import { drift } from "../../src/workflows/drift.js";
import type { FeedCursor } from "../../src/state/changelog/feed.js";
import { plan } from "../../src/workflows/index.js";
import { prng } from "../helpers/random.js";
import { testProject, type TestProject } from "../helpers/project.js";
import { handChange } from "./hand-changes.js";
import { seedOr } from "../helpers/seed.js";

const PAGING = ["links", "capped"] as const;
const SIZES: Record<string, Partial<EmulatorSwitches>> = {
  none: {},
  "100": { maxPageSize: 100 },
  "200": { maxPageSize: 200 },
  clamped: { maxPageSize: 100, oversizedLimit: "clamp" },
};
const TOTALS = ["matching", "absent", "tenant", "lagging"] as const;
const SEED = seedOr(33);

/** Why a refresh may read in full (src/state/changelog/proof.ts and feed.ts), one line each. */
const REASONS = [
  /^no snapshot of this tenant yet$/,
  /^the changelog feed answers without paging or meta\.total, so a list cut at the service's page size cannot be told from a whole one$/,
  /^the changelog feed pages its answers without meta\.total, so a page shifted by an entry arriving meanwhile cannot be told$/,
  /^the changelog feed's one page holds \d+ entries, as many as the limit sent, and no meta\.total: it may have been cut$/,
  /^the changelog feed's meta\.total says [\d then]+ but it listed \d+ entries, so its count cannot be trusted$/,
  /^the changelog feed listed an entry twice: its pages shifted while they were read$/,
];
const fallbackOk = (line: string) => line.split("; and no snapshot can be started: ").every((part) => REASONS.some((r) => r.test(part)));

const CATALOGUE = `attributes:
  - name: Colour
    type: selectbox
    values:
      - value: Red
      - value: Blue
      - value: Green
  - name: Material
    type: text
attribute_sets:
  - name: Apparel
    attributes: [Colour, Material]
  - name: Hardware
    attributes: [Material]
brands:
  - name: Acme
    desc: Tools since 1950
  - name: Zenith
    desc: Watches and clocks
  - name: Orbit
  - name: Lumen
    desc: Lamps
categories:
  - name: Apparel
    desc: Clothes
    attribute_sets: [Apparel]
    children:
      - name: Shirts
      - name: Shoes
        children:
          - name: Boots
  - name: Tools
    attribute_sets: [Hardware]
    children:
      - name: Drills
`;

const iso = (ms: number) => new Date(ms).toISOString().replace(/\.\d{3}Z$/, "Z");
const instant = (t: string) => Date.parse(t);
const projects: TestProject[] = [];
const clients: PimClient[] = [];
afterAll(async () => {
  await Promise.all(clients.map((c) => c.close()));
  await Promise.all(projects.map((p) => p.close()));
});

/** A tenant under one reading, the catalogue applied, every entry at the test clock's first second. */
async function tenantUnder(switches: Partial<EmulatorSwitches>) {
  const project = await testProject({
    emulator: { switches },
    config: (u) =>
      `dir: catalogue\ntenants:\n  demo:\n    base_url: ${u.demo}\n    token_env: PIMCTL_DEMO_TOKEN\nprune: { brands: true, categories: true, attributes: true, attribute_sets: true }\n`,
    files: { "catalogue/all.yaml": CATALOGUE },
  });
  projects.push(project);
  const applied = await project.cli(["apply", "--auto-approve", "--allow-delete", "-q"]);
  expect(applied.code, applied.stderr).toBe(0);
  const api = createClient({ tenant: "demo", baseUrl: project.emulator.tenantUrl("demo"), token: project.tokens.demo! });
  clients.push(api);
  const feed = project.emulator.store("demo").changelogs;
  const clock = { now: Math.floor(Date.now() / 1000) * 1000 - 30 * 60_000 };
  for (const e of feed) e.updated_at = iso(clock.now);
  return { project, api, feed, clock };
}
type Tenant = Awaited<ReturnType<typeof tenantUnder>>;

/** The entries from `from` on, recorded at `at`: listed last, or among the entries already at that second. */
function stamp(t: Tenant, from: number, at: number, rnd: () => number): void {
  const moved = t.feed.splice(from);
  for (const e of moved) {
    e.updated_at = iso(at);
    const slots = t.feed.flatMap((x, i) => (instant(x.updated_at) === at ? [i] : []));
    const pick = slots.length && rnd() < 0.5 ? slots[Math.floor(rnd() * slots.length)]! : t.feed.length;
    t.feed.splice(pick, 0, e);
  }
}

async function snapshotText(t: Tenant): Promise<string | undefined> {
  const cache = path.join(t.project.dir, ".pimctl", "cache");
  const file = (await readdir(cache).catch(() => [] as string[])).find((f) => f.startsWith("snapshot-"));
  return file ? readFile(path.join(cache, file), "utf8") : undefined;
}

/** A changelog plan, checking that a snapshot it writes has a cursor holding every entry at its second known before the run. */
async function viaChangelog(t: Tenant, why: string) {
  const known = new Map(t.feed.map((e) => [e.id, instant(e.updated_at)]));
  const before = await snapshotText(t);
  const r = await plan({ cwd: t.project.dir, env: t.project.env, allowDelete: true, refresh: "changelog" });
  const after = await snapshotText(t);
  if (after && after !== before) {
    const cursor = (JSON.parse(after) as { cursor: FeedCursor }).cursor;
    const atCursor = [...known].filter(([, at]) => at === instant(cursor.updated_at)).map(([id]) => id);
    expect(cursor.seen, `${why}\nthe cursor rests inside the group at ${cursor.updated_at}`).toEqual(expect.arrayContaining(atCursor));
  }
  if (r.refresh.fallback !== undefined) expect(fallbackOk(r.refresh.fallback), `${why}\nfallback: ${r.refresh.fallback}`).toBe(true);
  return r;
}

const fullPlan = (t: Tenant) => plan({ cwd: t.project.dir, env: t.project.env, allowDelete: true, refresh: "full" });
const driftItems = async (t: Tenant, refresh: "full" | "changelog") => {
  const d = await drift({ cwd: t.project.dir, env: t.project.env, allowDelete: true, refresh });
  return { items: d.items, refresh: d.refresh };
};

/** What a reading must do in a case without arrivals: always the feed, always a full read, or either. */
function expectedMode(paging: string, total: string): "changelog" | "full" | undefined {
  if (paging === "capped" || total === "lagging") return "full";
  return total === "matching" ? "changelog" : undefined;
}

/** One case: a burst or not, a hand change, an arrival during the read or not; the changelog plan and drift against the full ones. */
async function runCase(t: Tenant, label: string, c: { burst: boolean; arrival: boolean; seed: number; mode: "changelog" | "full" | undefined }) {
  const rnd = prng(c.seed);
  const log: string[] = [];
  const why = () => `${label} burst=${c.burst} arrival=${c.arrival} seed=${c.seed} (PIMCTL_TEST_SEED=${SEED})\n${log.join("\n")}`;
  const cursorSecond = Math.max(...t.feed.map((e) => instant(e.updated_at)));
  if (c.burst) {
    const n = 1100 + Math.floor(rnd() * 200);
    for (let i = 0; i < n; i++)
      t.feed.push({ id: t.feed.length + 1, updated_at: iso(cursorSecond), entity_id: i + 1, entity_type: "product_asset", change_type: "full" });
    log.push(`${n} entries at ${iso(cursorSecond)}`);
    const absorbed = await viaChangelog(t, why());
    expect(absorbed.plan.actions, why()).toEqual((await fullPlan(t)).plan.actions);
  }
  const from = t.feed.length;
  log.push(`hand change: ${await handChange(t.api, rnd, c.seed)}`);
  const at = c.burst && rnd() < 0.5 ? cursorSecond : (t.clock.now += 1000);
  stamp(t, from, at, rnd);
  log.push(`recorded at ${iso(at)}${at === cursorSecond ? " (the crowded cursor second)" : ""}`);

  const arrival = c.arrival ? armArrival(t, rnd, log) : { relevant: false };
  const viaFeed = await viaChangelog(t, why()).finally(() => t.project.emulator.onRequest(undefined));
  log.push(`refresh: ${JSON.stringify(viaFeed.refresh)}`);
  // A record changed while the plan reads may show as it was or as it is, as in a full read; anything else, never.
  if (!arrival.relevant) expect(viaFeed.plan.actions, why()).toEqual((await fullPlan(t)).plan.actions);
  if (!c.arrival && c.mode) expect(viaFeed.refresh.mode, why()).toBe(c.mode);

  // The next changelog run (drift's) has everything, arrivals included, as the full drift.
  const [feedDrift, fullDrift] = [await driftItems(t, "changelog"), await driftItems(t, "full")];
  expect(feedDrift.items, `${why()}\ndrift refresh: ${JSON.stringify(feedDrift.refresh)}`).toEqual(fullDrift.items);
  return viaFeed.refresh.mode;
}

/**
 * At the run's 2nd, 3rd or 4th request, 1 to 3 entries arrive that change nothing the plan reads
 * (product assets), at the newest second in the feed (the cursor's, as the run finds it) or the
 * next, listed among that second's entries or last: they shift pages and move totals. Half the
 * time someone also changes a record then. (An entry recorded before the newest second after it
 * was read is one no `>=` feed can show: the service would be writing the past.)
 */
function armArrival(t: Tenant, rnd: () => number, log: string[]): { relevant: boolean } {
  const k = 2 + Math.floor(rnd() * 3);
  const newest = Math.max(...t.feed.map((e) => instant(e.updated_at)));
  const at = rnd() < 0.5 ? newest : (t.clock.now += 1000);
  const entries = 1 + Math.floor(rnd() * 3);
  const arrival = { relevant: rnd() < 0.5 };
  let seen = 0;
  t.project.emulator.onRequest(async ({ tenant }) => {
    if (tenant !== "demo" || ++seen !== k) return;
    t.project.emulator.onRequest(undefined);
    const from = t.feed.length;
    for (let i = 0; i < entries; i++)
      t.feed.push({ id: t.feed.length + 1, updated_at: iso(at), entity_id: 90_000 + i, entity_type: "product_asset", change_type: "full" });
    const change = arrival.relevant ? `, and ${await handChange(t.api, rnd, k * 1000 + seen)}` : "";
    stamp(t, from, at, rnd);
    log.push(`arrival at request ${k}: ${entries} product asset entries${change}, recorded at ${iso(at)}`);
  });
  return arrival;
}

describe("plan --refresh=changelog under every reading of the feed", () => {
  const modes: Record<string, number> = {};
  let n = 0;
  for (const paging of PAGING)
    for (const [size, sizeSwitches] of Object.entries(SIZES))
      for (const total of TOTALS) {
        const label = `paging=${paging} size=${size} total=${total}`;
        const index = n++;
        it(label, async () => {
          const t = await tenantUnder({ changelogPaging: paging, changelogTotal: total, ...sizeSwitches });
          const cold = await viaChangelog(t, label);
          expect(cold.refresh.mode, label).toBe("full");
          let k = 0;
          for (const burst of [false, true])
            for (const arrival of [false, true]) {
              const mode = await runCase(t, label, { burst, arrival, seed: SEED * 1000 + index * 4 + k++, mode: expectedMode(paging, total) });
              modes[mode] = (modes[mode] ?? 0) + 1;
            }
        });
      }

  // The feed is used wherever it can prove itself: not every reading falls back.
  afterAll(() => {
    const cases = (modes.changelog ?? 0) + (modes.full ?? 0);
    if (cases === n * 4) expect(modes.changelog ?? 0, JSON.stringify(modes)).toBeGreaterThanOrEqual(16);
  });
});
