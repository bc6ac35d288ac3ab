/**
 * The changelog at its boundary: right after a large apply, thousands of feed
 * entries share the cursor's second. A warm `--refresh=changelog` must not
 * re-read them all, and must still see an entry that arrives at that same
 * second after the snapshot.
 */
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { writeTaxonomyProject } from "../../src/bench/taxonomy.js";
import { createClient, type PimClient } from "../../src/api/client.js";
import type { ApiChangelog } from "../../src/api/types.js";
import { startEmulator, type Emulator, type EmulatorSwitches } from "../../src/emulator/index.js";
import { cursorOf, justAfter, readFeed, type FeedCursor } from "../../src/state/changelog/feed.js";
import { plan } from "../../src/workflows/index.js";
import { testProject, type TestProject } from "../helpers/project.js";

let project: TestProject;
const clients: PimClient[] = [];
const emulators: Emulator[] = [];
const BOUNDARY = 5000;
const iso = (ms: number) => new Date(ms).toISOString().replace(/\.\d{3}Z$/, "Z");

beforeAll(async () => {
  // The taxonomy's shape in small: one root's categories and attributes, French and German, brands.
  project = await testProject();
  await writeTaxonomyProject(project.dir, {
    brands: 300,
    tenants: { demo: project.emulator.tenantUrl("demo") },
    tokenEnv: () => "PIMCTL_DEMO_TOKEN",
    roots: ["Religious & Ceremonial"],
  });
  const applied = await project.cli(["apply", "--auto-approve", "-q"]);
  expect(applied.code, applied.stderr).toBe(0);
});
afterAll(async () => {
  await project?.close();
  await Promise.all(clients.map((c) => c.close()));
  await Promise.all(emulators.map((e) => e.close()));
});

/** `n` brand entries at one second, as a whole-taxonomy apply leaves them: the newest in the feed. */
function seedOneSecond(n: number, at: string): void {
  const store = project.emulator.store("demo");
  const brands = [...store.brands.values()].map((b) => b.id);
  for (let i = 0; i < n; i++)
    store.changelogs.push({
      id: store.changelogs.length + 1,
      updated_at: at,
      entity_id: brands[i % brands.length]!,
      entity_type: "brand",
      change_type: "full",
    });
}

const opts = () => ({ cwd: project.dir, env: project.env });

describe("plan --refresh=changelog with thousands of entries at the cursor's second", () => {
  it(`reads ${BOUNDARY} boundary entries once, not on every warm plan: <= 8 requests, the plan of a full read`, async () => {
    const at = iso(Date.now());
    seedOneSecond(BOUNDARY, at);
    const cold = await plan({ ...opts(), refresh: "changelog" });
    expect(cold.refresh.mode).toBe("full");

    project.emulator.resetStats();
    const warm = await plan({ ...opts(), refresh: "changelog" });
    const requests = project.emulator.stats().requests;
    expect(warm.refresh, JSON.stringify(warm.refresh)).toMatchObject({ mode: "changelog", entries: 0, rereads: 0 });
    const full = await plan({ ...opts(), refresh: "full" });
    expect(warm.remote).toEqual(full.remote);
    expect(warm.plan.actions).toEqual(full.plan.actions);
    expect(requests.total, JSON.stringify(requests.byRoute)).toBeLessThanOrEqual(8);
    // The first page of the boundary and what follows it, however many entries share the second.
    expect(requests.byRoute["GET /changelogs"]).toBe(2);

    // Someone renames a brand, and the service records it at that same second: the next plan sees it.
    const api = createClient({ tenant: "demo", baseUrl: project.emulator.tenantUrl("demo"), token: project.tokens.demo! });
    clients.push(api);
    const brand = (await api.listBrands())[7]!;
    await api.updateBrand(brand.id, { name: `${brand.name} (renamed at the boundary)` });
    const feed = project.emulator.store("demo").changelogs;
    feed.at(-1)!.updated_at = at;
    const seesIt = await plan({ ...opts(), refresh: "changelog" });
    expect(seesIt.refresh).toMatchObject({ mode: "changelog", entries: 1, rereads: 1 });
    const fullAgain = await plan({ ...opts(), refresh: "full" });
    expect(seesIt.remote).toEqual(fullAgain.remote);
    expect(seesIt.plan.actions).toEqual(fullAgain.plan.actions);
    expect(seesIt.plan.actions.length).toBeGreaterThan(0);
  });
});

// The feed reader alone, against an emulator whose feed is seeded in the order it lists it.
const T = Date.parse("2026-11-20T10:00:00Z");
const entry = (id: number, at: number): ApiChangelog => ({ id, updated_at: iso(at), entity_id: id, entity_type: "product_asset", change_type: "full" });
/** `n` entries at T, ids 1..n. */
const crowd = (n: number): ApiChangelog[] => Array.from({ length: n }, (_, i) => entry(i + 1, T));

async function feed(entries: ApiChangelog[], switches: Partial<EmulatorSwitches> = {}): Promise<{ api: PimClient; emu: Emulator; gets: () => number }> {
  const emu = await startEmulator({ port: 0, tenants: [{ hash: "t", token: "t" }], switches });
  emulators.push(emu);
  emu.store("t").changelogs.push(...entries);
  const api = createClient({ tenant: "t", baseUrl: emu.tenantUrl("t"), token: "t" });
  clients.push(api);
  emu.resetStats();
  return { api, emu, gets: () => emu.stats().requests.byRoute["GET /changelogs"] ?? 0 };
}

/** The cursor a whole read of these entries leaves. */
const after = (entries: ApiChangelog[]): FeedCursor => cursorOf(entries)!;

describe("the feed reader at a crowded boundary, under every reading", () => {
  it("the entries after the cursor's second start one step on, at the precision the service writes", () => {
    for (const t of ["2026-11-20T10:00:05Z", "2026-11-20T10:00:05.000000Z", "2026-11-20 10:00:05", "2026-11-20T11:00:05+01:00"])
      expect(justAfter(t), t).toBe("2026-11-20T10:00:06Z");
    expect(justAfter("2026-11-20T10:00:05.120Z")).toBe("2026-11-20T10:00:05.121Z");
  });

  it("counts the entries at the cursor's time instead of reading them: two requests, whatever follows", async () => {
    const seen = crowd(BOUNDARY);
    const { api, emu, gets } = await feed(seen);
    const quiet = await readFeed(api, after(seen));
    expect(quiet).toMatchObject({ ok: true, entries: [], cursor: after(seen), requests: 2 });
    expect(gets()).toBe(2);
    // Later entries: read, and the cursor moves to the newest of them.
    const later = [entry(BOUNDARY + 1, T + 1000), entry(BOUNDARY + 2, T + 3000), entry(BOUNDARY + 3, T + 3000)];
    emu.store("t").changelogs.push(...later);
    const moved = await readFeed(api, after(seen));
    expect(moved).toMatchObject({
      ok: true,
      entries: later,
      cursor: { id: BOUNDARY + 3, seen: [BOUNDARY + 2, BOUNDARY + 3], head: BOUNDARY + 2 },
      requests: 2,
    });
  });

  // A new entry at the cursor's time, listed where the service puts it; a snapshot never saw it.
  const arrivals: Array<[string, (list: ApiChangelog[], e: ApiChangelog) => void]> = [
    ["last", (list, e) => list.push(e)],
    ["first", (list, e) => list.unshift(e)],
    ["among them", (list, e) => list.splice(2345, 0, e)],
    ["after later entries", (list, e) => list.push(entry(9001, T + 2000), e)],
  ];
  for (const [where, put] of arrivals)
    it(`sees an entry arriving at the cursor's time after the snapshot, listed ${where}`, async () => {
      const seen = crowd(BOUNDARY);
      const list = [...seen];
      const arrived = { ...entry(BOUNDARY + 1, T), entity_type: "brand" as const };
      put(list, arrived);
      const { api } = await feed(list);
      const read = await readFeed(api, after(seen));
      expect(read.ok).toBe(true);
      if (read.ok) expect(read.entries.map((e) => e.id)).toContain(arrived.id);
    });

  it("sees new entries at the cursor's time when as many seen ones were dropped (the head is gone: no count is trusted)", async () => {
    const seen = crowd(BOUNDARY);
    const list = [...seen.slice(3), entry(BOUNDARY + 1, T), entry(BOUNDARY + 2, T), entry(BOUNDARY + 3, T)];
    const { api } = await feed(list);
    const read = await readFeed(api, after(seen));
    expect(read).toMatchObject({ ok: true, entries: list.slice(-3) });
  });

  it("entries of one second listed newest first: the head is the first listed, and nothing is missed", async () => {
    const seen = crowd(BOUNDARY).reverse();
    const { api, emu, gets } = await feed(seen);
    const cursor = after(seen);
    expect(cursor.head).toBe(BOUNDARY);
    expect(await readFeed(api, cursor)).toMatchObject({ ok: true, entries: [], requests: 2 });
    emu.store("t").changelogs.unshift(entry(BOUNDARY + 1, T));
    emu.resetStats();
    expect(await readFeed(api, cursor)).toMatchObject({ ok: true, entries: [entry(BOUNDARY + 1, T)] });
    expect(gets()).toBeGreaterThan(2);
  });

  it("a tenant that refuses large pages (422 above 500): the ask steps down once for the run, and nothing is missed", async () => {
    const seen = crowd(BOUNDARY);
    const arrived = entry(BOUNDARY + 1, T);
    const later = [entry(BOUNDARY + 2, T + 1000), entry(BOUNDARY + 3, T + 2000)];
    const { api, emu } = await feed([...seen, arrived, ...later], { maxPageSize: 500 });
    expect(await readFeed(api, after(seen))).toMatchObject({ ok: true, entries: [arrived, ...later] });
    expect(api.changelogLimit).toBe(500);
    // Without the arrival: the first page and the later entries, at 500 from the start (no 422 again).
    emu.store("t").changelogs.splice(BOUNDARY, 1);
    emu.resetStats();
    expect(await readFeed(api, after(seen))).toMatchObject({ ok: true, entries: later, requests: 2 });
    expect(emu.stats().requests.total).toBe(2);
  });

  it("a feed without paging (capped) proves nothing at a crowded second either: a full read", async () => {
    const seen = crowd(BOUNDARY);
    const { api } = await feed([...seen, entry(BOUNDARY + 1, T)], { changelogPaging: "capped" });
    const read = await readFeed(api, after(seen));
    expect(read).toMatchObject({ ok: false, reason: expect.stringMatching(/without paging or meta.total/) });
  });
});
