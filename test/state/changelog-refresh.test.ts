/**
 * --refresh=changelog against --refresh=full: after random out-of-band changes
 * through the API, the state read through the snapshot and the feed equals a
 * full read, and so does the plan. Rounds follow each other in the same second
 * too, so the feed's repeated boundary entries are exercised; and some rounds
 * crowd the cursor's second with more entries than a page holds (as a large
 * apply leaves it), then record changes at that same second after the snapshot.
 */
import { readdir, readFile, writeFile } from "node:fs/promises";
import path from "node:path";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { createClient, type PimClient } from "../../src/api/client.js";
import type { FeedCursor } from "../../src/state/changelog/feed.js";
import { plan } from "../../src/workflows/index.js";
import { prng } from "../helpers/random.js";
import { handChange } from "./hand-changes.js";
import { testProject, type TestProject } from "../helpers/project.js";
import { repoRoot } from "../helpers/paths.js";
import { seedOr } from "../helpers/seed.js";

let project: TestProject;
let api: PimClient;
const configFor = (url: string) =>
  [
    "dir: catalogue",
    "tenants:",
    "  demo:",
    `    base_url: ${url}`,
    "    token_env: PIMCTL_DEMO_TOKEN",
    "versions: { French: 2, German: 3 }",
    "prune: { brands: true, categories: true, attributes: true, attribute_sets: true }",
    "",
  ].join("\n");

beforeAll(async () => {
  // A cascaded delete writes one entry, for the category named: the reading where the refresh must find the rest itself.
  project = await testProject({
    config: (urls) => configFor(urls.demo!),
    emulator: { switches: { categoryDeleteWithChildren: "cascade", changelogSubtreeDeletes: "root" } },
  });
  await project.copyExamples(path.join(repoRoot, "examples/catalogue"));
  const applied = await project.cli(["apply", "--auto-approve", "--allow-delete", "-q"]);
  expect(applied.code, applied.stderr).toBe(0);
  api = createClient({ tenant: "demo", baseUrl: project.emulator.tenantUrl("demo"), token: project.tokens.demo! });
});
afterAll(async () => {
  await api?.close();
  await project?.close();
});

const both = async () => {
  const opts = { cwd: project.dir, env: project.env, allowDelete: true };
  project.emulator.resetStats();
  const viaFeed = await plan({ ...opts, refresh: "changelog" });
  const { total: feedRequests, byRoute } = project.emulator.stats().requests;
  const full = await plan({ ...opts, refresh: "full" });
  return { viaFeed, full, feedRequests, feedPages: byRoute["GET /changelogs"] ?? 0 };
};

/** The cursor of the snapshot the last changelog refresh left. */
async function snapshotCursor(): Promise<FeedCursor> {
  const cache = path.join(project.dir, ".pimctl", "cache");
  const [file] = (await readdir(cache)).filter((f) => f.startsWith("snapshot-"));
  return (JSON.parse(await readFile(path.join(cache, file!), "utf8")) as { cursor: FeedCursor }).cursor;
}

/** More entries at the cursor's second than a feed page holds, as a large apply leaves them (they change nothing the state reader reads). */
function crowdSecond(at: string, n: number): void {
  const feed = project.emulator.store("demo").changelogs;
  for (let i = 0; i < n; i++) feed.push({ id: feed.length + 1, updated_at: at, entity_id: i + 1, entity_type: "product_asset", change_type: "full" });
}

/** The entries from `from` on, recorded at `at` instead and listed among the entries of that second, where the service would put them. */
function recordAt(from: number, at: string, rnd: () => number): number {
  const feed = project.emulator.store("demo").changelogs;
  const moved = feed.splice(from);
  for (const e of moved) {
    e.updated_at = at;
    const slots = feed.flatMap((x, i) => (x.updated_at === at ? [i] : []));
    const pick = slots[Math.floor(rnd() * slots.length)] ?? feed.length;
    feed.splice(rnd() < 0.5 ? feed.length : pick, 0, e);
  }
  return moved.length;
}

describe("plan --refresh=changelog", () => {
  it("starts a snapshot with a full read, then reads only what the feed does not cover", async () => {
    const first = await both();
    expect(first.viaFeed.refresh.mode).toBe("full");
    expect(first.viaFeed.refresh.fallback).toBe("no snapshot of this tenant yet");
    const second = await both();
    expect(second.viaFeed.refresh).toMatchObject({ mode: "changelog", entries: 0, rereads: 0 });
    expect(second.viaFeed.plan.actions).toEqual(second.full.plan.actions);
    // Channels, display groups, blocks and their assets, the attribute lists (master + 2 versions),
    // brand and category assets the manifests declare, and the feed: never the brand or category lists.
    const fullRequests = second.full.connection.api.stats().requests;
    expect(second.feedRequests).toBeLessThan(fullRequests);
  });

  it("after random out-of-band changes, equals a full read: state and plan (property, 40 rounds)", async () => {
    const rnd = prng(seedOr(18));
    const log: string[] = [];
    const check = async () => {
      const r = await both();
      const why = `after:\n${log.slice(-12).join("\n")}\nrefresh: ${JSON.stringify(r.viaFeed.refresh)}`;
      expect(r.viaFeed.refresh.mode, why).toBe("changelog");
      expect(r.viaFeed.remote, why).toEqual(r.full.remote);
      expect(r.viaFeed.plan.actions, why).toEqual(r.full.plan.actions);
      return r;
    };
    // Crowded rounds: the cursor's second holds more entries than a page, and the round's changes are
    // recorded either at a later second (counted: two feed pages) or at that same second after the snapshot.
    const crowded = { counted: 0, arrivals: 0 };
    for (let round = 1; round <= 40; round++) {
      const crowd = rnd() < 0.3;
      const arrive = crowd && rnd() < 0.5;
      let at = "";
      if (crowd) {
        at = (await snapshotCursor()).updated_at;
        crowdSecond(at, 1100 + Math.floor(rnd() * 500));
        log.push(`round ${round}: the cursor's second ${at} crowded`);
        await check();
        at = (await snapshotCursor()).updated_at;
        // The emulator records changes at its clock's second: wait for the next one.
        if (!arrive) await new Promise((r) => setTimeout(r, Math.max(0, Date.parse(at) + 1005 - Date.now())));
      }
      const before = project.emulator.store("demo").changelogs.length;
      const k = 1 + Math.floor(rnd() * 3);
      for (let i = 0; i < k; i++) log.push(`round ${round}: ${await handChange(api, rnd, round * 10 + i)}`);
      if (arrive) {
        const n = recordAt(before, at, rnd);
        crowded.arrivals += n;
        log.push(`round ${round}: ${n} entries recorded at ${at}, after the snapshot`);
      }
      const r = await check();
      if (crowd && !arrive) {
        expect(r.feedPages, `round ${round}: the crowd at ${at} is counted, not read`).toBe(2);
        crowded.counted++;
      }
    }
    if (process.env.SHOW_ROUNDS) console.log(log.join("\n"), crowded);
    expect(crowded.counted, JSON.stringify(crowded)).toBeGreaterThan(0);
    expect(crowded.arrivals, JSON.stringify(crowded)).toBeGreaterThan(0);
  }, 120_000);

  it("reads in full when the feed no longer holds the snapshot's cursor, or an entry is not understood", async () => {
    const cache = path.join(project.dir, ".pimctl", "cache");
    const [file] = (await readdir(cache)).filter((f) => f.startsWith("snapshot-"));
    const snapshotPath = path.join(cache, file!);
    const good = await readFile(snapshotPath, "utf8");
    // A cursor the feed does not hold (as when it keeps less than the snapshot's age).
    const s = JSON.parse(good);
    s.cursor = { ...s.cursor, id: 99_999_999 };
    await writeFile(snapshotPath, JSON.stringify(s));
    const gone = await plan({ cwd: project.dir, env: project.env, refresh: "changelog" });
    expect(gone.refresh.mode).toBe("full");
    expect(gone.refresh.fallback).toMatch(/no longer holds entry 99999999/);
    // The full read started a new snapshot: the next plan uses the feed again.
    expect((await plan({ cwd: project.dir, env: project.env, refresh: "changelog" })).refresh.mode).toBe("changelog");

    // An entry of a kind API v1 does not list.
    project.emulator.store("demo").changelogs.push({
      id: project.emulator.store("demo").changelogs.length + 1,
      updated_at: new Date().toISOString().replace(/\.\d{3}Z$/, "Z"),
      entity_id: 1,
      entity_type: "webhook" as never,
      change_type: "full",
    });
    const odd = await plan({ cwd: project.dir, env: project.env, refresh: "changelog" });
    expect(odd.refresh.mode).toBe("full");
    expect(odd.refresh.fallback).toMatch(/entity_type "webhook", which API v1 does not list/);
  });

  it("a damaged snapshot file is a full read, never an error", async () => {
    const cache = path.join(project.dir, ".pimctl", "cache");
    for (const f of await readdir(cache)) await writeFile(path.join(cache, f), "{ not json");
    const r = await plan({ cwd: project.dir, env: project.env, refresh: "changelog" });
    expect(r.refresh.mode).toBe("full");
    expect(r.refresh.fallback).toMatch(/cannot be read/);
  });
});
