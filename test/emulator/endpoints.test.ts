import { mkdtempSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import path from "node:path";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { startEmulator, type Emulator } from "../../src/emulator/index.js";

let emu: Emulator;
const A = "tok-a";

beforeAll(async () => {
  emu = await startEmulator({
    port: 0,
    tenants: [
      { hash: "demo", token: A },
      { hash: "prod", token: "tok-b" },
    ],
    exportStepMs: 20,
  });
});
afterAll(async () => emu.close());

type R = { status: number; body: any; text: string; headers: Headers };
async function call(method: string, p: string, body?: unknown, opts: { token?: string | null; tenant?: string; raw?: string } = {}): Promise<R> {
  const headers: Record<string, string> = { "content-type": "application/json" };
  if (opts.token !== null) headers.authorization = `Bearer ${opts.token ?? A}`;
  const res = await fetch(`${emu.tenantUrl(opts.tenant ?? "demo")}${p}`, {
    method,
    headers,
    ...(opts.raw !== undefined ? { body: opts.raw } : body !== undefined ? { body: JSON.stringify(body) } : {}),
  });
  const text = await res.text();
  let parsed: unknown;
  try {
    parsed = text ? JSON.parse(text) : undefined;
  } catch {
    parsed = undefined;
  }
  return { status: res.status, body: parsed, text, headers: res.headers };
}

describe("admin and authentication", () => {
  it("/ping answers the time", async () => {
    const r = await call("GET", "/ping");
    expect(r.status).toBe(200);
    expect(typeof r.body.time).toBe("string");
  });
  it("401 for a missing, malformed, wrong, other tenant's and rotated token", async () => {
    expect((await call("GET", "/ping", undefined, { token: null })).status).toBe(401);
    expect((await fetch(`${emu.tenantUrl("demo")}/ping`, { headers: { authorization: "Token abc" } })).status).toBe(401);
    expect((await call("GET", "/ping", undefined, { token: "nope" })).status).toBe(401);
    expect((await call("GET", "/ping", undefined, { token: "tok-b" })).status).toBe(401);
    expect((await call("GET", "/ping", undefined, { token: "tok-b", tenant: "prod" })).status).toBe(200);
    emu.rotateToken("prod", "tok-b2");
    expect((await call("GET", "/ping", undefined, { token: "tok-b", tenant: "prod" })).status).toBe(401);
    expect((await call("GET", "/ping", undefined, { token: "tok-b2", tenant: "prod" })).status).toBe(200);
  });
  it("unknown routes and tenants are 404; a known path with another method is 405", async () => {
    expect((await call("GET", "/nothing-here")).status).toBe(404);
    expect((await fetch(`${emu.url}/unknown-tenant/api/v1/ping`)).status).toBe(404);
    const r = await call("DELETE", "/display-groups/1");
    expect(r.status).toBe(405);
    expect(r.headers.get("allow")).toContain("GET");
  });
});

describe("attributes, type values and versions", () => {
  it("CRUD, search, versions and uniqueness", async () => {
    const created = await call("POST", "/attributes", { name: "Colour", type: "selectbox", sort_order: 1, publish: true });
    expect(created.status).toBe(201);
    const id = created.body.attribute.id;
    expect((await call("POST", "/attributes", { name: "Colour", type: "text" })).status).toBe(422);
    expect((await call("POST", "/attributes", { name: "X", type: "nope" })).status).toBe(422);
    expect((await call("GET", "/attributes")).body.attributes[0]).toMatchObject({
      id,
      name: "Colour",
      type: "selectbox",
      slug: "colour",
      publish: true,
      typeValuesArray: [],
    });
    expect((await call("GET", `/attributes/${id}`)).body.attribute).toHaveProperty("note", null);
    expect((await call("PUT", `/attributes/${id}`, { note: "n", length: 5 })).body.attribute).toMatchObject({ note: "n", length: 5 });
    expect((await call("POST", "/attributes/search", { name: "Colour" })).body.attribute.id).toBe(id);
    const none = await call("POST", "/attributes/search", { name: "colour" });
    expect([none.status, none.text]).toEqual([200, ""]);
    expect((await call("PUT", `/attributes/${id}/version/2`, { name: "Couleur" })).body.attribute).toMatchObject({ name: "Couleur", version_id: 2 });
    expect((await call("GET", `/attributes/${id}/version/2`)).body.attribute.name).toBe("Couleur");
    expect((await call("GET", "/attributes/version/3")).body.attributes[0].name).toBe("Colour");

    const tv = (await call("POST", `/attributes/${id}/type_values`, { value: "Red" })).body.attribute_type_value;
    expect(tv).toMatchObject({ attribute_id: id, value: "Red", slug: "red", version_id: 0 });
    expect((await call("POST", `/attributes/${id}/type_values`, { value: "Red" })).status).toBe(422);
    expect((await call("PUT", `/attributes/${id}/type_values/${tv.id}`, { value: "Red", sort_order: 3 })).body.attribute_type_value.sort_order).toBe(3);
    const ver = (await call("PUT", `/attributes/${id}/type_values/${tv.id}/version/2`, { value: "Rouge" })).body.attribute_type_value;
    expect(ver).toMatchObject({ value: "Rouge", version_id: 2, master_attribute_type_value_id: tv.id });
    expect((await call("GET", `/attributes/${id}/type_values/version/2`)).body.attribute_type_values[0]).toMatchObject({
      value: "Rouge",
      master_attribute_type_value_id: tv.id,
    });
    expect((await call("GET", `/attributes/${id}/type_values/${tv.id}/version/2`)).body.attribute_type_value.value).toBe("Rouge");
    expect((await call("GET", "/attributes/version/2")).body.attributes[0].typeValuesArray[0]).toMatchObject({
      version_id: 2,
      master_attribute_type_value_id: tv.id,
    });
    expect((await call("GET", `/attributes/${id}/type_values`)).body.attribute_type_values).toHaveLength(1);
    expect((await call("GET", `/attributes/${id}/type_values/${tv.id}`)).body.attribute_type_value.value).toBe("Red");
    expect((await call("DELETE", `/attributes/${id}/type_values/${tv.id}/version/2`)).status).toBe(204);
    expect((await call("DELETE", `/attributes/${id}/type_values/${tv.id}`)).status).toBe(204);
    expect((await call("DELETE", `/attributes/${id}/version/2`)).status).toBe(204);
    expect((await call("DELETE", `/attributes/${id}`)).status).toBe(204);
    expect((await call("GET", `/attributes/${id}`)).status).toBe(404);
  });
});

describe("attribute sets and their attributes", () => {
  it("CRUD, search, and the 404 rules of assignments", async () => {
    const set = (await call("POST", "/attribute_sets", { name: "Apparel", sort_order: 1 })).body.attribute_set;
    expect((await call("POST", "/attribute_sets", { name: "Apparel" })).status).toBe(422);
    expect((await call("POST", "/attribute_sets/search", { name: "Apparel" })).body.attribute_set.id).toBe(set.id);
    expect((await call("PUT", `/attribute_sets/${set.id}`, { name: "Clothing" })).body.attribute_set.name).toBe("Clothing");
    expect((await call("GET", `/attribute_sets/${set.id}/attributes`)).status).toBe(404);
    expect((await call("GET", "/attribute_sets/999999/attributes")).status).toBe(404);
    const attr = (await call("POST", "/attributes", { name: "Size", type: "selectbox" })).body.attribute;
    expect((await call("GET", `/attribute_sets/${set.id}/attributes/${attr.id}`)).status).toBe(404);
    expect((await call("POST", `/attribute_sets/${set.id}/attributes`, { attribute_id: attr.id })).status).toBe(201);
    const list = (await call("GET", `/attribute_sets/${set.id}/attributes`)).body.attribute_set_attributes;
    expect(list).toEqual([{ id: expect.any(Number), attribute_id: attr.id, attribute_set_id: set.id }]);
    const single = (await call("GET", `/attribute_sets/${set.id}/attributes/${attr.id}`)).body.attribute_set_attribute;
    expect(single).toMatchObject({ attribute_id: attr.id, sort_order: 0, created_at: expect.any(String) });
    expect((await call("DELETE", `/attribute_sets/${set.id}/attributes/${list[0].id}`)).status).toBe(204);
    expect((await call("GET", `/attribute_sets/${set.id}`)).body.attribute_set.name).toBe("Clothing");
    expect((await call("GET", "/attribute_sets")).body.attribute_sets.length).toBeGreaterThan(0);
    expect((await call("DELETE", `/attribute_sets/${set.id}`)).status).toBe(204);
  });
});

describe("blocks and their 501s", () => {
  it("CRUD where API v1 allows it; 501 with the exact body elsewhere, for every token", async () => {
    const b = (await call("POST", "/blocks", { name: "Footer", slug: "footer", content: "x" })).body.block;
    expect((await call("PUT", `/blocks/${b.id}`, { content: "y" })).body.block.content).toBe("y");
    expect((await call("GET", `/blocks/${b.id}`)).body.block.slug).toBe("footer");
    expect((await call("GET", "/blocks")).body.blocks).toHaveLength(1);
    expect((await call("GET", `/blocks/${b.id}/assets`)).body.block_assets).toEqual([]);
    for (const [m, p] of [
      ["DELETE", `/blocks/${b.id}`],
      ["POST", `/blocks/${b.id}/assets`],
      ["PUT", `/blocks/${b.id}/assets/1`],
      ["DELETE", `/blocks/${b.id}/assets/1`],
    ] as const) {
      for (const token of [A, "tok-b2", "anything"]) {
        const r = await call(m, p, {}, { token });
        expect([r.status, r.text]).toEqual([501, '{"message":"Not implemented."}']);
      }
    }
    emu.store("demo").blockAssets.set(7, { id: 7, owner_id: b.id, uri: "u", alttext: "a", thumbnail: true, sort_order: 0 });
    expect((await call("GET", `/blocks/${b.id}/assets/7`)).body.block_asset).toMatchObject({ block_id: b.id, thumbnail: 1 });
  });
});

describe("brands", () => {
  it("pages with links and meta (default 25), versions, search, uniqueness", async () => {
    const store = emu.store("demo");
    store.seedBrands(60, "Paged");
    const first = await call("GET", "/brands");
    expect(first.body.brands).toHaveLength(25);
    expect(first.body.meta).toEqual({ current_page: 1, from: 1, last_page: 3, path: `${emu.tenantUrl("demo")}/brands`, per_page: 25, to: 25, total: 60 });
    expect(first.body.links.prev).toBeNull();
    expect(first.body.links.next).toBe(`${emu.tenantUrl("demo")}/brands?page=2`);
    const last = await call("GET", "/brands?page=3&limit=25");
    expect(last.body.meta).toMatchObject({ from: 51, to: 60 });
    expect(last.body.links.next).toBeNull();
    expect((await call("GET", "/brands?limit=5000")).body.meta.per_page).toBe(1000);
    const id = first.body.brands[0].id;
    store.brands.get(id)!.versions = { 2: { desc: "Outils" } };
    expect((await call("GET", "/brands?version=2&limit=1")).body.brands[0]).toMatchObject({ desc: "Outils", version_id: 2 });
    expect((await call("GET", `/brands/${id}/version/2`)).body.brand.desc).toBe("Outils");
    expect((await call("POST", "/brands", { name: "Paged 000000" })).status).toBe(422);
    expect((await call("POST", "/brands", { desc: "no name" })).status).toBe(422);
    expect((await call("POST", "/brands/search", { name: "Paged 000001" })).body.brand.name).toBe("Paged 000001");
    expect((await call("PUT", `/brands/${id}`, { excluded: true })).body.brand.excluded).toBe(true);
    expect((await call("DELETE", `/brands/${id}`)).status).toBe(204);
  });

  it("assets, web ids with their 400/422 rules, attributes and assignments", async () => {
    const b = (await call("POST", "/brands", { name: "Acme" })).body.brand;
    const other = (await call("POST", "/brands", { name: "Other" })).body.brand;
    const asset = (await call("POST", `/brands/${b.id}/assets`, { image_url: "https://cdn/x.png", alttext: "X", thumbnail: true })).body.brand_asset;
    expect(asset).toMatchObject({ brand_id: b.id, alttext: "X", thumbnail: 1 });
    expect(asset.uri).not.toBe("https://cdn/x.png");
    expect(
      (await call("PUT", `/brands/${b.id}/assets/${asset.id}`, { image_url: "https://cdn/x.png", alttext: "Y", thumbnail: false })).body.brand_asset,
    ).toMatchObject({ alttext: "Y", thumbnail: 0 });
    expect((await call("GET", `/brands/${b.id}/assets`)).body.brand_assets).toHaveLength(1);
    expect((await call("GET", `/brands/${b.id}/assets/${asset.id}`)).body.brand_asset.id).toBe(asset.id);
    expect((await call("DELETE", `/brands/${b.id}/assets/${asset.id}`)).status).toBe(204);
    expect((await call("POST", `/brands/${b.id}/channel/1`, undefined, { raw: "{not json" })).status).toBe(400);
    expect((await call("POST", `/brands/${b.id}/channel/1`, {})).status).toBe(422);
    expect((await call("POST", `/brands/${b.id}/channel/1`, { web_id: "acme" })).status).toBe(200);
    expect((await call("POST", `/brands/${b.id}/channel/1`, { web_id: "acme" })).status).toBe(200);
    expect((await call("POST", `/brands/${other.id}/channel/1`, { web_id: "acme" })).status).toBe(422);
    expect((await call("POST", `/brands/${other.id}/channel/2`, { web_id: "acme" })).status).toBe(200);
    const attr = (await call("POST", "/attributes", { name: "Material", type: "text" })).body.attribute;
    const post = await call("POST", `/brands/${b.id}/attributes`, { attribute_id: attr.id, version_id: 0, values: [{ value: "Steel" }] });
    expect(post.body.brand_attributes).toMatchObject({ attribute_id: attr.id, name: "Material", values: [{ version_id: 0, value: "Steel" }] });
    expect((await call("POST", `/brands/${b.id}/attributes`, { attribute_id: attr.id, version_id: 0, values: [{ value: "Iron" }] })).status).toBe(422);
    const fr = await call("POST", `/brands/${b.id}/attributes`, { attribute_id: attr.id, version_id: 2, values: [{ value: "Acier" }] });
    expect(fr.body.brand_attributes.values).toHaveLength(2);
    expect((await call("GET", `/brands/${b.id}/attributes`)).body.brand_attributes).toHaveLength(1);
    const single = await call("GET", `/brands/${b.id}/attributes/${attr.id}`);
    expect(Array.isArray(single.body.brands_attributes)).toBe(true);
    const valueId = post.body.brand_attributes.values[0].id;
    expect(
      (await call("PUT", `/brands/${b.id}/attributes/${attr.id}/values/${valueId}`, { attribute_id: attr.id, version_id: 0, values: [{ value: "Iron" }] })).body
        .brand_attributes.values[0].value,
    ).toBe("Iron");
    expect((await call("DELETE", `/brands/${b.id}/attributes/${attr.id}/values/${valueId}`)).status).toBe(204);
    expect((await call("POST", `/brands/${b.id}/attributes`, { attribute_id: attr.id, values: [] })).status).toBe(422);
    const size = (await call("POST", "/attributes", { name: "Fit", type: "selectbox" })).body.attribute;
    expect((await call("POST", `/brands/${b.id}/assigned-attributes`, { attribute_id: size.id })).status).toBe(200);
    expect(
      (await call("GET", `/brands/${b.id}/attributes`)).body.brand_attributes.find((x: { attribute_id: number }) => x.attribute_id === size.id).values,
    ).toEqual([]);
    const set = (await call("POST", "/attribute_sets", { name: "BrandSet" })).body.attribute_set;
    expect((await call("POST", `/brands/${b.id}/assigned-attribute-sets`, { attribute_set_id: set.id })).status).toBe(200);
    expect((await call("POST", `/brands/${b.id}/assigned-attribute-sets`, { attribute_set_id: 999999 })).status).toBe(422);
  });
});

describe("categories", () => {
  it("tree, withAttributes, versions, PUT rules, assets and web ids", async () => {
    const set = (await call("POST", "/attribute_sets", { name: "CatSet" })).body.attribute_set;
    const attr = (await call("POST", "/attributes", { name: "Sleeve", type: "text" })).body.attribute;
    await call("POST", `/attribute_sets/${set.id}/attributes`, { attribute_id: attr.id });
    const root = (await call("POST", "/categories", { parent_id: 0, name: "Apparel", attribute_sets: [set.id] })).body.category;
    expect(root).toMatchObject({ parent_id: null, attribute_sets: [{ id: set.id, name: "CatSet" }], category_attributes: [], fqn: "Apparel" });
    expect(root).not.toHaveProperty("attributes");
    const child = (await call("POST", "/categories", { parent_id: root.id, name: "Shirts" })).body.category;
    expect(child).toMatchObject({ parent_id: root.id, parent_name: "Apparel", fqn: "Apparel > Shirts" });
    expect((await call("POST", "/categories", { parent_id: root.id, name: "Shirts" })).status).toBe(422);
    expect((await call("POST", "/categories", { name: "No parent" })).status).toBe(422);
    expect((await call("GET", `/categories/${root.id}?withAttributes=true`)).body.category.attributes).toEqual([
      { id: attr.id, name: "Sleeve", slug: "sleeve", displayName: "Sleeve", sortOrder: 0, value: "" },
    ]);
    const page = (await call("GET", "/categories?withAttributes=true")).body;
    expect(page.meta.per_page).toBe(25);
    expect(page.categories[0]).toHaveProperty("attributes");
    expect((await call("PUT", `/categories/${root.id}`, { parent_id: child.id })).status).toBe(422);
    expect((await call("PUT", `/categories/${root.id}`, { parent_id: root.id })).status).toBe(422);
    const sib = (await call("POST", "/categories", { parent_id: root.id, name: "Trousers" })).body.category;
    expect((await call("PUT", `/categories/${sib.id}`, { name: "Shirts" })).status).toBe(422);
    emu.store("demo").protectCategory(sib.id);
    expect((await call("PUT", `/categories/${sib.id}`, { desc: "x" })).status).toBe(422); // the document names no status for a protected category; 422 like its other refusals;
    emu.store("demo").categories.get(child.id)!.versions = { 2: { name: "Chemises" } };
    expect((await call("GET", `/categories/${child.id}/version/2`)).body.category.name).toBe("Chemises");
    const asset = (await call("POST", `/categories/${child.id}/assets`, { image_url: "https://cdn/s.png", alttext: "S", thumbnail: true })).body.category_asset;
    expect((await call("GET", `/categories/${child.id}/assets`)).body.category_assets).toHaveLength(1);
    expect((await call("GET", `/categories/${child.id}`)).body.category.assets_thumbnail.id).toBe(asset.id);
    expect((await call("POST", `/categories/${child.id}/channel/1`, { web_id: "shirts" })).status).toBe(200);
    expect((await call("POST", `/categories/${root.id}/channel/1`, { web_id: "shirts" })).status).toBe(422);
    expect((await call("POST", `/categories/${root.id}/channel/1`, undefined, { raw: "[" })).status).toBe(400);
    expect((await call("GET", `/categories/${child.id}`)).body.category.channels).toEqual([{ id: 1, name: "Webshop" }]);
    expect((await call("DELETE", `/categories/${root.id}`)).status).toBe(422);
    expect((await call("DELETE", `/categories/${child.id}`)).status).toBe(204);
  });
});

describe("changelogs, channels, display groups, generic entities, exports", () => {
  it("changelogs: default page size 250, filters, >= boundary, single entry under the plural key", async () => {
    const all = (await call("GET", "/changelogs?limit=1000")).body.changelogs;
    expect(all.length).toBeGreaterThan(10);
    expect((await call("GET", "/changelogs")).body.meta.per_page).toBe(250);
    expect((await call("GET", "/changelogs?limit=2")).body.changelogs).toHaveLength(2);
    expect(
      (await call("GET", "/changelogs?entity_type=brand&limit=1000")).body.changelogs.every((c: { entity_type: string }) => c.entity_type === "brand"),
    ).toBe(true);
    const boundary = all[all.length - 1].updated_at;
    const since = (await call("GET", `/changelogs?limit=1000&updated_at=${encodeURIComponent(boundary)}`)).body.changelogs;
    expect(since.length).toBeGreaterThan(0);
    expect(since.every((c: { updated_at: string }) => c.updated_at >= boundary)).toBe(true);
    expect(since.some((c: { updated_at: string }) => c.updated_at === boundary)).toBe(true);
    expect((await call("GET", `/changelogs/${all[0].id}`)).body.changelogs).toMatchObject({
      id: all[0].id,
      entity_type: expect.any(String),
      change_type: "full",
    });
  });
  it("channels are seeded and read-only", async () => {
    expect(
      (await call("GET", "/channels")).body.channels.map((c: { channel_name: string; version_id: number; version_name: string }) => [
        c.channel_name,
        c.version_id,
        c.version_name,
      ]),
    ).toEqual([
      ["Webshop", 0, "Master"],
      ["Boutique FR", 2, "French"],
      ["Shop DE", 3, "German"],
    ]);
    expect((await call("GET", "/channels/2")).body.channel.version_name).toBe("French");
    expect((await call("POST", "/channels", { channel_name: "x" })).status).toBe(405);
  });
  it("display groups and generic entities", async () => {
    const dg = (await call("POST", "/display-groups", { name: "Basics" })).body.display_group;
    expect((await call("PUT", `/display-groups/${dg.id}`, { name: "Essentials" })).body.display_group.name).toBe("Essentials");
    expect((await call("GET", `/display-groups/${dg.id}`)).body.display_group.name).toBe("Essentials");
    expect((await call("GET", "/display-groups")).body.display_groups.length).toBeGreaterThan(0);
    const ge = (await call("GET", "/generic-entities")).body;
    expect(ge.meta.per_page).toBe(1000);
    expect(ge.generic_entities[0]).toMatchObject({ is_tree: expect.any(Number), publishable: 1 });
    expect((await call("GET", `/generic-entities/${ge.generic_entities[0].id}`)).body.generic_entity.id).toBe(ge.generic_entities[0].id);
  });
  it("exports: 422 without profile_id; queued, then processing, then done with a downloadable file", async () => {
    expect((await call("POST", "/exports", {})).status).toBe(422);
    const e = (await call("POST", "/exports", { profile_id: 1 })).body.export;
    expect(e).toMatchObject({ status: "queued", filename: null, profile_id: 1 });
    const seen = new Set<string>();
    let current = e;
    for (let i = 0; i < 50 && current.status !== "done"; i++) {
      await new Promise((r) => setTimeout(r, 10));
      current = (await call("GET", `/exports/${e.id}`)).body.export;
      seen.add(current.status);
    }
    expect(current.status).toBe("done");
    expect(seen.has("processing") || seen.has("done")).toBe(true);
    const file = await fetch(current.file_url, { headers: { authorization: `Bearer ${A}` } });
    expect(file.status).toBe(200);
    expect(Object.keys((await file.json()) as object)).toContain("brands");
    expect((await fetch(current.file_url)).status).toBe(401);
  });
});

describe("bad requests never crash the server or corrupt state", () => {
  it("invalid JSON, wrong types, unknown ids, huge bodies", async () => {
    expect((await call("POST", "/brands", undefined, { raw: "{" })).status).toBe(400);
    expect((await call("POST", "/brands", { name: 42 })).status).toBe(422);
    expect((await call("POST", "/brands", [1, 2])).status).toBe(422);
    expect((await call("PUT", "/brands/abc", { name: "x" })).status).toBe(404);
    expect((await call("GET", "/brands/99999999")).status).toBe(404);
    expect((await call("PUT", "/categories/1", { attribute_sets: ["x"] })).status).toBe(422);
    const huge = await call("POST", "/brands", undefined, { raw: JSON.stringify({ name: "x".repeat(1_100_000) }) }).catch(() => ({ status: 413 }) as R);
    expect(huge.status).toBe(413);
    expect((await call("GET", "/ping")).status).toBe(200);
  });
  it("concurrent writes to one record leave it whole", async () => {
    const b = (await call("POST", "/brands", { name: "Contended" })).body.brand;
    await Promise.all(Array.from({ length: 50 }, (_, i) => call("PUT", `/brands/${b.id}`, { desc: `d${i}`, seo_title: `t${i}` })));
    const after = (await call("GET", `/brands/${b.id}`)).body.brand;
    expect(after.desc.slice(1)).toBe(after.seo_title.slice(1));
    expect([...emu.store("demo").brands.values()].filter((x) => x.name === "Contended")).toHaveLength(1);
  });
});

describe("test knobs", () => {
  it("targeted faults: drop_after_commit commits the write; stats count; the control surface answers on loopback", async () => {
    emu.resetStats();
    emu.injectFaults([{ method: "POST", route: "/brands", mode: "drop_after_commit" }]);
    await expect(call("POST", "/brands", { name: "Dropped" })).rejects.toThrow();
    expect([...emu.store("demo").brands.values()].some((b) => b.name === "Dropped")).toBe(true);
    const stats = (await (await fetch(`${emu.url}/__emulator/stats`)).json()) as { requests: { total: number; byRoute: Record<string, number> } };
    expect(stats.requests.total).toBe(1);
    expect(stats.requests.byRoute["POST /brands"]).toBe(1);
    const rotated = await fetch(`${emu.url}/__emulator/tenants/prod/rotate-token`, {
      method: "POST",
      headers: { "content-type": "application/json" },
      body: JSON.stringify({ token: "tok-b3" }),
    });
    expect(rotated.status).toBe(200);
    expect((await call("GET", "/ping", undefined, { tenant: "prod", token: "tok-b3" })).status).toBe(200);
  });
  it("random failures and rate limits, reproducibly", async () => {
    emu.setFaults({ failRate: 1, faultSeed: 3 });
    const statuses = await Promise.all(
      Array.from({ length: 6 }, () =>
        call("GET", "/ping").then(
          (r) => r.status,
          () => "dropped",
        ),
      ),
    );
    expect(statuses.every((s) => s === 500 || s === "dropped")).toBe(true);
    emu.clearFaults();
    emu.setFaults({ rateLimit: 3 });
    const limited = await Promise.all(Array.from({ length: 20 }, () => call("GET", "/ping")));
    const r429 = limited.filter((r) => r.status === 429);
    // At most 3 per wall-clock second pass; the burst spans at most two seconds.
    expect(r429.length).toBeGreaterThanOrEqual(14);
    expect(r429[0]!.headers.get("retry-after")).toBe("1");
    emu.clearFaults();
  });
  it("latency is added per request", async () => {
    emu.setFaults({ latencyMs: 60 });
    const t0 = Date.now();
    await call("GET", "/ping");
    expect(Date.now() - t0).toBeGreaterThanOrEqual(55);
    emu.setFaults({ latencyMs: 0 });
  });
  it("--data persistence survives a restart", async () => {
    const dir = mkdtempSync(path.join(tmpdir(), "pimctl-emu-data-"));
    const file = path.join(dir, "state.json");
    try {
      const one = await startEmulator({ port: 0, tenants: [{ hash: "p", token: "t" }], dataFile: file });
      await fetch(`${one.tenantUrl("p")}/brands`, {
        method: "POST",
        headers: { authorization: "Bearer t", "content-type": "application/json" },
        body: JSON.stringify({ name: "Kept" }),
      });
      await one.close();
      const two = await startEmulator({ port: 0, tenants: [{ hash: "p", token: "t" }], dataFile: file });
      expect([...two.store("p").brands.values()].map((b) => b.name)).toEqual(["Kept"]);
      await two.close();
    } finally {
      rmSync(dir, { recursive: true, force: true });
    }
  });
});
