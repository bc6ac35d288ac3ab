/**
 * The client under the readings API v1 allows: "nothing found" in four forms,
 * adoption only on an exact match, a refused page size, lists paged although the
 * document shows them whole, a retried DELETE that finds nothing, export files on
 * another host or not ready yet, and changelog pages that cannot be read.
 */
import { createServer, type Server } from "node:http";
import type { AddressInfo } from "node:net";
import { afterEach, describe, expect, it } from "vitest";
import { startEmulator, type Emulator, type EmulatorSwitches } from "../../src/emulator/index.js";
import { createClient, type PimClient } from "../../src/api/client.js";
import { canonical, dateInstant } from "../../src/api/wire.js";
import * as N from "../../src/state/normalise.js";
import { createBrand } from "../../src/emulator/kinds/brands.js";

let emu: Emulator | undefined;
let api: PimClient | undefined;
let other: Server | undefined;
afterEach(async () => {
  await api?.close();
  await emu?.close();
  if (other) await new Promise((r) => other!.close(r));
  emu = api = other = undefined;
});

async function start(switches: Partial<EmulatorSwitches> = {}, extra: { exportStepMs?: number } = {}) {
  emu = await startEmulator({ port: 0, tenants: [{ hash: "t", token: "tok" }], switches, ...extra });
  const log: string[] = [];
  api = createClient({ tenant: "t", baseUrl: emu.tenantUrl("t"), token: "tok", retries: { max: 4, baseMs: 1, maxMs: 5 }, logHttp: (l) => log.push(l) });
  return log;
}

describe("field types: one coercer per type", () => {
  it("booleans, ids, id lists and dates in every form read the same", () => {
    for (const v of [1, "1", true, "true"]) expect(N.bool(v as never)).toBe(true);
    for (const v of [0, "0", false, "false"]) expect(N.bool(v as never)).toBe(false);
    const c = canonical({ category: { id: "12", parent_id: "3", is_visible: "0", attribute_sets: "4, 5" } }) as { category: Record<string, unknown> };
    expect(c.category).toEqual({ id: 12, parent_id: 3, is_visible: false, attribute_sets: [4, 5] });
    expect(canonical({ attribute_sets: [{ id: "1", name: "S" }] })).toEqual({ attribute_sets: [{ id: 1, name: "S" }] }); // an envelope, not a field
    expect(
      (canonical({ category: { attribute_sets: [{ id: "4", name: "S" }, 5] } }) as { category: { attribute_sets: unknown } }).category.attribute_sets,
    ).toEqual([4, 5]);
    const instants = ["2026-01-02T03:04:05Z", "2026-01-02T03:04:05+00:00", "2026-01-02T03:04:05.000Z", "2026-01-02 03:04:05", "2026-01-02T04:04:05+01:00"].map(
      dateInstant,
    );
    expect(new Set(instants).size).toBe(1);
    expect(N.date("2026-01-02 03:04:05", "2026-01-02T03:04:05+00:00")).toBe("2026-01-02T03:04:05+00:00");
    expect(N.date("2026-01-02 03:04:06", "2026-01-02T03:04:05Z")).toBe("2026-01-02T03:04:06Z");
  });
});

describe("search: nothing found, in every form", () => {
  for (const searchEmpty of ["empty-body", "404", "empty-array", "null"] as const) {
    it(`--search-empty ${searchEmpty}: no match is null, a match is found`, async () => {
      await start({ searchEmpty });
      expect(await api!.searchBrand("Nope")).toBeNull();
      expect(await api!.searchAttribute("Nope")).toBeNull();
      expect(await api!.searchAttributeSet("Nope")).toBeNull();
      const b = await api!.createBrand({ name: "Acme" });
      expect((await api!.searchBrand("Acme"))?.id).toBe(b.id);
    });
  }

  it("an answer of {} is no match either", async () => {
    other = createServer((_req, res) => res.end("{}"));
    await new Promise<void>((r) => other!.listen(0, "127.0.0.1", r));
    api = createClient({ tenant: "x", baseUrl: `http://127.0.0.1:${(other.address() as AddressInfo).port}/api/v1`, token: "t" });
    expect(await api.searchBrand("Acme")).toBeNull();
  });
});

describe("adoption after a lost create answer: exact match only", () => {
  it("a case-insensitive search finds ACME first; creating Acme adopts Acme, never ACME", async () => {
    await start({ searchCase: "insensitive" });
    const acme = createBrand(emu!.store("t"), { name: "ACME" } as never);
    emu!.injectFaults([{ method: "POST", route: "/brands", mode: "drop_after_commit" }]);
    const created = await api!.createBrand({ name: "Acme" });
    expect(created.name).toBe("Acme");
    expect(created.id).not.toBe(acme.id);
    expect([...emu!.store("t").brands.values()].map((b) => b.name).sort()).toEqual(["ACME", "Acme"]);
    expect(api!.stats().adopted).toBe(1);
  });

  it("a category is adopted only under the same parent; a type value only under the same attribute", async () => {
    await start({ idFormat: "string" });
    const a = await api!.createCategory({ parent_id: 0, name: "A" });
    const b = await api!.createCategory({ parent_id: 0, name: "B" });
    await api!.createCategory({ parent_id: a.id, name: "Shoes" });
    emu!.injectFaults([{ method: "POST", route: "/categories", mode: "drop_after_commit" }]);
    const shoes = await api!.createCategory({ parent_id: b.id, name: "Shoes" });
    expect(shoes.parent_id).toBe(b.id);
    const colour = await api!.createAttribute({ name: "Colour", type: "selectbox" });
    const size = await api!.createAttribute({ name: "Size", type: "selectbox" });
    await api!.createTypeValue(colour.id, { value: "S" });
    emu!.injectFaults([{ method: "POST", route: "/attributes/:id/type_values", mode: "drop_after_commit" }]);
    const s = await api!.createTypeValue(size.id, { value: "S" });
    expect(s.attribute_id).toBe(size.id);
  });
});

describe("deletes and page sizes", () => {
  it("a retried DELETE that gets 404 is success: the lost attempt deleted it", async () => {
    await start();
    const b = await api!.createBrand({ name: "Gone" });
    emu!.injectFaults([{ method: "DELETE", route: "/brands/:id", mode: "drop_after_commit" }]);
    await expect(api!.deleteBrand(b.id)).resolves.toBeUndefined();
    expect(emu!.store("t").brands.has(b.id)).toBe(false);
    // A first attempt that finds nothing is still an error: nobody deleted it on our behalf.
    await expect(api!.deleteBrand(b.id)).rejects.toMatchObject({ code: "api_not_found" });
  });

  it("a 422 for a large limit falls back to smaller pages and keeps the size for the run", async () => {
    const log = await start({ maxPageSize: 100 });
    emu!.store("t").seedBrands(260);
    expect(await api!.listBrands()).toHaveLength(260);
    expect(api!.pageLimit).toBe(100);
    expect(log.filter((l) => l.includes("422")).length).toBeGreaterThanOrEqual(1);
    emu!.resetStats();
    expect(await api!.listBrands()).toHaveLength(260);
    expect(emu!.stats().requests.total).toBe(3); // no more refused requests: the size was remembered
  });

  it("lists the document shows whole are followed when paged (no duplicated display groups)", async () => {
    await start({ paginateAllLists: true });
    for (let i = 0; i < 60; i++) await api!.createDisplayGroup({ name: `G${i}` });
    const groups = await api!.listDisplayGroups();
    expect(groups).toHaveLength(60);
    expect(new Set(groups.map((g) => g.id)).size).toBe(60);
    expect(emu!.stats().requests.byRoute["GET /display-groups"]).toBe(3);
  });

  it("a paged list that stops early is an error, not a shorter list", async () => {
    other = createServer((_req, res) =>
      res.end(JSON.stringify({ display_groups: [{ id: 1, name: "a" }], links: { next: null }, meta: { current_page: 1, last_page: 1, total: 3 } })),
    );
    await new Promise<void>((r) => other!.listen(0, "127.0.0.1", r));
    api = createClient({ tenant: "x", baseUrl: `http://127.0.0.1:${(other.address() as AddressInfo).port}/api/v1`, token: "t" });
    await expect(api.listDisplayGroups()).rejects.toMatchObject({
      code: "api_protocol",
      message: expect.stringMatching(/reported 3 records but its pages held 1/),
    });
  });
});

describe("brand attribute read-back shapes", () => {
  it("one record or an array, under either envelope, values listed or keyed by version", async () => {
    const answers: Record<string, unknown> = {
      "/api/v1/brands/1/attributes/2": {
        brand_attributes: { attribute_id: "2", name: "Colour", values: { "0": { id: 5, value: "Red" }, "2": { id: 6, value: "Rouge" } } },
      },
      "/api/v1/brands/1/attributes": {
        brand_attributes: [
          { attribute_id: 2, values: [{ id: "5", version_id: "0", value: "Red" }] },
          { attribute_id: 3, values: [] },
        ],
      },
      "/api/v1/brands/1/attributes/3": { brands_attributes: [{ attribute_id: 3, values: [] }] },
    };
    other = createServer((req, res) =>
      res.end(
        JSON.stringify(
          (req.method === "GET" ? answers[req.url ?? ""] : undefined) ?? {
            brand_attributes: [{ attribute_id: 2, values: [{ id: 9, version_id: 0, value: "Blue" }] }],
          },
        ),
      ),
    );
    await new Promise<void>((r) => other!.listen(0, "127.0.0.1", r));
    api = createClient({ tenant: "x", baseUrl: `http://127.0.0.1:${(other.address() as AddressInfo).port}/api/v1`, token: "t" });
    expect(await api.getBrandAttribute(1, 2)).toEqual([
      {
        attribute_id: 2,
        name: "Colour",
        values: [
          { version_id: 0, id: 5, value: "Red" },
          { version_id: 2, id: 6, value: "Rouge" },
        ],
      },
    ]);
    expect((await api.listBrandAttributes(1))[0]!.values).toEqual([{ id: 5, version_id: 0, value: "Red" }]);
    expect(await api.getBrandAttribute(1, 3)).toEqual([{ attribute_id: 3, values: [] }]);
    // A write answered with an array under the list's envelope.
    expect((await api.createBrandAttribute(1, { attribute_id: 2, version_id: 0, values: [{ value: "Blue" }] })).values[0]!.value).toBe("Blue");
  });
});

describe("export downloads", () => {
  it("a redirect to storage is followed without the token; 202 is waited out", async () => {
    const log = await start({ exportDownload: "redirect" }, { exportStepMs: 100 });
    const e = await api!.createExport(1);
    // Downloading at once: the storage host answers 202 until the export is done.
    const data = await api!.downloadExport(e.file_url);
    expect(JSON.parse(Buffer.from(data).toString("utf8")).channels.length).toBeGreaterThan(0);
    expect(log.some((l) => / 202$/.test(l))).toBe(true);
    expect(log.some((l) => / 302$/.test(l))).toBe(true);
  });

  for (const [what, body] of [
    ["empty", ""],
    ["truncated JSON", '{"brands": ['],
  ] as const) {
    it(`an ${what} download is refused, never saved as a backup`, async () => {
      other = createServer((_req, res) => {
        res.writeHead(200, { "content-type": "application/json", "content-length": Buffer.byteLength(body) });
        res.end(body);
      });
      await new Promise<void>((r) => other!.listen(0, "127.0.0.1", r));
      const base = `http://127.0.0.1:${(other.address() as AddressInfo).port}`;
      api = createClient({ tenant: "x", baseUrl: `${base}/api/v1`, token: "t" });
      await expect(api.downloadExport(`${base}/exports/1.json`)).rejects.toMatchObject({
        code: "api_protocol",
        message: expect.stringMatching(what === "empty" ? /0 bytes/ : /not valid JSON/),
      });
    });
  }
});

describe("changelog pages", () => {
  const serve = (pages: string[]) => {
    other = createServer((req, res) => {
      const page = Number(new URL(req.url ?? "/", "http://x").searchParams.get("page") ?? "1");
      res.end(pages[page - 1] ?? "");
    });
    return new Promise<string>((r) => other!.listen(0, "127.0.0.1", () => r(`http://127.0.0.1:${(other!.address() as AddressInfo).port}/api/v1`)));
  };
  const entry = (id: number) => ({ id, updated_at: "2026-01-01T00:00:00Z", entity_id: 1, entity_type: "brand", change_type: "full" });

  it("a page that does not parse fails loudly instead of ending the feed", async () => {
    const base = await serve([JSON.stringify({ changelogs: [entry(1)], links: { next: "PLACEHOLDER" } }), "<html>gateway</html>"]);
    other!.removeAllListeners("request");
    other!.on("request", (req, res) => {
      const page = Number(new URL(req.url ?? "/", "http://x").searchParams.get("page") ?? "1");
      res.end(page === 1 ? JSON.stringify({ changelogs: [entry(1)], links: { next: `${base}/changelogs?page=2` } }) : "<html>gateway</html>");
    });
    api = createClient({ tenant: "x", baseUrl: base, token: "t", retries: { max: 0 } });
    await expect(api.listChangelogs()).rejects.toMatchObject({ code: "api_protocol", message: expect.stringMatching(/changelog page 2 could not be read/) });
  });

  it("a page that says more follow but gives no address fails loudly", async () => {
    const base = await serve([JSON.stringify({ changelogs: [entry(1)], links: { next: null }, meta: { current_page: 1, last_page: 2, total: 2 } })]);
    api = createClient({ tenant: "x", baseUrl: base, token: "t" });
    await expect(api.listChangelogs()).rejects.toMatchObject({ message: expect.stringMatching(/page 1 of 2 but gives no next address/) });
  });

  it("the emulator's feed reads whole under every date format", async () => {
    for (const dateFormat of ["iso-z", "iso-offset", "sql"] as const) {
      await start({ dateFormat });
      await api!.createBrand({ name: `B-${dateFormat}` });
      const feed = await api!.listChangelogs();
      expect(feed.length).toBeGreaterThan(0);
      // Polling again from the last time seen returns the boundary entry again (>=), in any form.
      expect((await api!.listChangelogs({ updatedAt: feed.at(-1)!.updated_at })).length).toBeGreaterThan(0);
      await api!.close();
      await emu!.close();
      emu = api = undefined;
    }
  });
});
