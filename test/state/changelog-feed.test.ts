/**
 * The feed reader under both paging readings the document allows (links and
 * meta, or only the first `limit` entries), and what each kind of entry drops
 * from a snapshot.
 */
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { startEmulator, type Emulator } from "../../src/emulator/index.js";
import { createClient, type PimClient } from "../../src/api/client.js";
import type { ApiChangelog } from "../../src/api/types.js";
import { currentCursor, readFeed } from "../../src/state/changelog/feed.js";
import { invalidate } from "../../src/state/changelog/cached-api.js";
import { emptySnapshot } from "../../src/state/changelog/snapshot.js";

let links: Emulator;
let capped: Emulator;
const clients: PimClient[] = [];
const base = Date.parse("2026-11-20T10:00:00Z");
const iso = (ms: number) => new Date(ms).toISOString().replace(/\.\d{3}Z$/, "Z");

beforeAll(async () => {
  links = await startEmulator({ port: 0, tenants: [{ hash: "t", token: "t" }] });
  capped = await startEmulator({ port: 0, tenants: [{ hash: "t", token: "t" }], switches: { changelogPaging: "capped" } });
});
afterAll(async () => {
  await Promise.all(clients.map((c) => c.close()));
  await Promise.all([links.close(), capped.close()]);
});

function tenant(hash: "links" | "capped", entries: Array<Omit<ApiChangelog, "id">>): PimClient {
  const emu = hash === "capped" ? capped : links;
  const store = emu.store("t");
  store.changelogs.length = 0;
  entries.forEach((e, i) => store.changelogs.push({ id: i + 1, ...e }));
  const api = createClient({ tenant: "t", baseUrl: emu.tenantUrl("t"), token: "t" });
  clients.push(api);
  return api;
}

/** n entries, `perSecond` to a second, from `base`. */
const spread = (n: number, perSecond: number): Array<Omit<ApiChangelog, "id">> =>
  Array.from({ length: n }, (_, i) => ({
    updated_at: iso(base + Math.floor(i / perSecond) * 1000),
    entity_id: i,
    entity_type: "product_asset" as const,
    change_type: "full" as const,
  }));

describe("reading the feed since a cursor", () => {
  it(`returns every entry after the cursor, with paging "links"`, async () => {
    const api = tenant("links", spread(2600, 100));
    const read = await readFeed(api, { id: 1, updated_at: iso(base), seen: [1] });
    expect(read.ok).toBe(true);
    if (!read.ok) return;
    expect(read.entries.map((e) => e.id)).toEqual(Array.from({ length: 2599 }, (_, i) => i + 2));
    expect(read.cursor).toEqual({ id: 2600, updated_at: iso(base + 25_000), seen: Array.from({ length: 100 }, (_, i) => 2501 + i), head: 2501 });
  });

  // A bare list may have been cut at a page size the service never names (it may clamp `limit` without a word).
  for (const n of [3, 2600])
    it(`cannot prove a capped feed whole, ${n} entries since the cursor: a full read, saying why in one line`, async () => {
      const api = tenant("capped", spread(n, 100));
      const read = await readFeed(api, { id: 1, updated_at: iso(base), seen: [1] });
      expect(read).toMatchObject({
        ok: false,
        reason: "the changelog feed answers without paging or meta.total, so a list cut at the service's page size cannot be told from a whole one",
      });
      const start = await currentCursor(api, new Date(base + 60_000));
      expect(start.cursor).toBeUndefined();
      expect(start.reason).toMatch(/without paging/);
    });

  it("returns nothing new when only the boundary entries come back, and proves the cursor by its own entry", async () => {
    const api = tenant("links", spread(300, 300));
    const all = Array.from({ length: 300 }, (_, i) => i + 1);
    const same = await readFeed(api, { id: 300, updated_at: iso(base), seen: all });
    expect(same).toMatchObject({ ok: true, entries: [] });
    const lost = await readFeed(api, { id: 9999, updated_at: iso(base), seen: [9999] });
    expect(lost).toMatchObject({ ok: false, reason: expect.stringMatching(/no longer holds entry 9999/) });
  });

  it("starts a cursor at the newest entry, trying wider windows on this machine's clock", async () => {
    const api = tenant("links", spread(10, 1));
    const at = await currentCursor(api, new Date(base + 3 * 3600_000));
    expect(at.cursor).toEqual({ id: 10, updated_at: iso(base + 9000), seen: [10], head: 10 });
    const quiet = tenant("links", []);
    expect((await currentCursor(quiet)).cursor).toBeUndefined();
  });
});

describe("what an entry drops from the snapshot", () => {
  const snapshot = () => {
    const s = emptySnapshot("http://x/api/v1", { id: 1, updated_at: iso(base), seen: [1] }, iso(base));
    s.brand_lists = { "0": [{ id: 1, name: "A" }] as never };
    s.brands = { "1:2": { id: 1 } as never, "7:0": { id: 7 } as never };
    s.brand_attributes = { "1": [], "7": [] };
    s.category_lists = {
      "0": [
        { id: 1, parent_id: 0, name: "Root" },
        { id: 2, parent_id: 1, name: "Child" },
        { id: 3, parent_id: 2, name: "Leaf" },
        { id: 4, parent_id: 0, name: "Other" },
      ] as never,
    };
    s.categories = { "3:2:0": { id: 3 } as never, "4:2:0": { id: 4 } as never };
    s.attribute_sets = [{ id: 5, name: "S" }] as never;
    s.set_attributes = { "5": [], "6": [] };
    s.attributes = { "9:0": { id: 9 } as never, "9:2": { id: 9 } as never, "8:0": { id: 8 } as never };
    return s;
  };
  const entry = (entity_type: ApiChangelog["entity_type"], entity_id: number, change_type: ApiChangelog["change_type"] = "full"): ApiChangelog => ({
    id: 2,
    updated_at: iso(base),
    entity_id,
    entity_type,
    change_type,
  });

  it("a brand: its single reads and attribute values; the lists are patched", () => {
    const s = snapshot();
    const p = invalidate(s, [entry("brand", 1)]);
    expect(Object.keys(s.brands)).toEqual(["7:0"]);
    expect(Object.keys(s.brand_attributes)).toEqual(["7"]);
    expect([...p.brands]).toEqual([1]);
    expect(s.brand_lists["0"]).toBeDefined();
  });

  it("a product: the brand lists (a product changes a brand's product_count)", () => {
    const s = snapshot();
    invalidate(s, [entry("product", 42)]);
    expect(s.brand_lists).toEqual({});
    expect(s.brands).toEqual({});
  });

  it("a deleted category: everything below it is re-read too", () => {
    const s = snapshot();
    const p = invalidate(s, [entry("category", 1, "delete")]);
    expect([...p.categories].sort()).toEqual([1, 2, 3]);
    expect(Object.keys(s.categories)).toEqual(["4:2:0"]);
  });

  it("an attribute: its single reads and every brand's attribute values; a delete also every set's assignments", () => {
    const s = snapshot();
    invalidate(s, [entry("attribute", 9)]);
    expect(Object.keys(s.attributes)).toEqual(["8:0"]);
    expect(s.brand_attributes).toEqual({});
    expect(Object.keys(s.set_attributes)).toEqual(["5", "6"]);
    invalidate(s, [entry("attribute", 8, "delete")]);
    expect(s.set_attributes).toEqual({});
  });

  it("a reset, whose meaning the document does not give, drops the whole entity type", () => {
    const s = snapshot();
    invalidate(s, [entry("category", 4, "reset"), entry("attribute_set", 5, "reset")]);
    expect(s.category_lists).toEqual({});
    expect(s.categories).toEqual({});
    expect(s.attribute_sets).toBeUndefined();
    expect(s.set_attributes).toEqual({});
    expect(s.brand_lists["0"]).toBeDefined();
  });
});
