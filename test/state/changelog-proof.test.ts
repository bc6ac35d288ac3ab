/**
 * When the feed can prove it listed every entry since the cursor (src/state/changelog/proof.ts),
 * under each reading of `meta.total` the emulator offers, and with entries arriving between two
 * pages of one read. Never "ok" with an entry missing: whole, or a reason to read in full.
 */
import { describe, expect, it } from "vitest";
import type { PimClient } from "../../src/api/client.js";
import type { ApiChangelog } from "../../src/api/types.js";
import type { Emulator, EmulatorSwitches } from "../../src/emulator/index.js";
import { currentCursor, cursorOf, readFeed, type FeedCursor } from "../../src/state/changelog/feed.js";
import { emulatorsPerTest } from "../helpers/emulator.js";

const startTenant = emulatorsPerTest();

const T = Date.parse("2026-11-20T10:00:00Z");
const iso = (ms: number) => new Date(ms).toISOString().replace(/\.\d{3}Z$/, "Z");
const entry = (id: number, at: number): ApiChangelog => ({ id, updated_at: iso(at), entity_id: id, entity_type: "product_asset", change_type: "full" });
/** `n` entries, one a second from T, ids 1..n. */
const spread = (n: number): ApiChangelog[] => Array.from({ length: n }, (_, i) => entry(i + 1, T + i * 1000));
/** `n` entries at T, ids 1..n. */
const crowd = (n: number): ApiChangelog[] => Array.from({ length: n }, (_, i) => entry(i + 1, T));
/** The cursor a whole read of entry 1 alone leaves (everything after it is new). */
const atFirst: FeedCursor = { id: 1, updated_at: iso(T), seen: [1], head: 1 };

async function feed(entries: ApiChangelog[], switches: Partial<EmulatorSwitches>): Promise<{ api: PimClient; emu: Emulator; gets: () => number }> {
  const { emu, api } = await startTenant({ token: "t", switches });
  emu.store("t").changelogs.push(...entries);
  return { api, emu, gets: () => emu.stats().requests.byRoute["GET /changelogs"] ?? 0 };
}

describe("a feed whose meta.total is absent (links only)", () => {
  it("proves one short page whole by its links, and takes a cursor from it", async () => {
    const { api } = await feed(spread(40), { changelogTotal: "absent" });
    const read = await readFeed(api, atFirst);
    expect(read).toMatchObject({ ok: true, cursor: { id: 40 } });
    if (read.ok) expect(read.entries).toHaveLength(39);
    expect((await currentCursor(api, new Date(T + 60_000))).cursor).toMatchObject({ id: 40 });
  });

  it("does not prove several pages whole: an entry arriving between them could shift one unseen", async () => {
    const { api } = await feed(spread(2600), { changelogTotal: "absent" });
    expect(await readFeed(api, atFirst)).toMatchObject({ ok: false, reason: expect.stringMatching(/pages its answers without meta.total/) });
  });

  it("does not prove one page holding as many entries as the limit sent (100, after a 422): it may have been cut", async () => {
    const full = await feed(spread(100), { changelogTotal: "absent", maxPageSize: 100 });
    expect(await readFeed(full.api, atFirst)).toMatchObject({
      ok: false,
      reason: "the changelog feed's one page holds 100 entries, as many as the limit sent, and no meta.total: it may have been cut",
    });
    const short = await feed(spread(99), { changelogTotal: "absent", maxPageSize: 100 });
    expect(await readFeed(short.api, atFirst)).toMatchObject({ ok: true });
  });
});

describe("a feed whose meta.total counts something else", () => {
  for (const total of ["tenant", "lagging"] as const)
    it(`--changelog-total ${total}: no read is taken as whole, no cursor is started, and a crowded second is not counted`, async () => {
      const { api } = await feed(spread(300), { changelogTotal: total });
      expect(await readFeed(api, { id: 150, updated_at: iso(T + 149_000), seen: [150], head: 150 })).toMatchObject({
        ok: false,
        reason: expect.stringMatching(/^the changelog feed's meta.total says \d+ but it listed 151 entries, so its count cannot be trusted$/),
      });
      const start = await currentCursor(api, new Date(T + 400_000));
      expect(start.cursor).toBeUndefined();
      expect(start.reason).toMatch(/meta.total says/);

      // 5000 entries at one second, seen whole by the snapshot; nothing new: the count does not add up, so no "nothing new" either.
      const crowded = crowd(5000);
      const boundary = await feed([...crowded, entry(5001, T + 1000)], { changelogTotal: total });
      expect(await readFeed(boundary.api, cursorOf(crowded)!)).toMatchObject({ ok: false, reason: expect.stringMatching(/meta.total says/) });
    });
});

describe("entries arriving while the feed is read", () => {
  // A cursor without its head (a snapshot older than heads) is never counted: every entry since its time is read, page by page.
  const headless: FeedCursor = { id: 1, updated_at: iso(T), seen: [1] };

  it("one listed last between two pages: the pages' totals grow with it, and it is read", async () => {
    const { api, emu } = await feed(spread(2600), {});
    let gets = 0;
    emu.onRequest(({ route }) => {
      if (route === "/changelogs" && ++gets === 3) emu.store("t").changelogs.push(entry(2601, T + 2600_000));
    });
    const read = await readFeed(api, headless);
    emu.onRequest(undefined);
    expect(read).toMatchObject({ ok: true, cursor: { id: 2601 } });
    if (read.ok) expect(read.entries).toHaveLength(2600);
  });

  it("one listed first between two pages (the pages shift on): an entry read twice, so not proven whole", async () => {
    const { api, emu } = await feed(spread(2600), {});
    let gets = 0;
    emu.onRequest(({ route }) => {
      if (route === "/changelogs" && ++gets === 3) emu.store("t").changelogs.splice(1, 0, entry(2601, T));
    });
    const read = await readFeed(api, headless);
    emu.onRequest(undefined);
    expect(read).toMatchObject({ ok: false, reason: expect.stringMatching(/listed an entry twice|meta.total says/) });
  });

  it("one at a later second between the count's two reads at a crowded second: the count does not add up, and it is read", async () => {
    const crowded = crowd(5000);
    const { api, emu, gets } = await feed(crowded, {});
    let n = 0;
    emu.onRequest(({ route }) => {
      if (route === "/changelogs" && ++n === 2) emu.store("t").changelogs.push(entry(5001, T + 1000));
    });
    const read = await readFeed(api, cursorOf(crowded)!);
    emu.onRequest(undefined);
    expect(read).toMatchObject({ ok: true, entries: [entry(5001, T + 1000)], cursor: { id: 5001 } });
    expect(gets()).toBeGreaterThan(2);
  });
});
