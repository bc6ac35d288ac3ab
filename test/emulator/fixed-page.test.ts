/**
 * GET /generic-entities pages at a fixed 1000 (the document's limits table) and takes no `limit`:
 * --max-page-size, which refuses a `limit` above N, must not refuse a request that sends none.
 * pimctl doctor found it: under --max-page-size 20 the list answered 422 to every request. Nor does
 * --oversized-limit clamp cut that page to N: no limit was asked for.
 */
import { afterEach, expect, it } from "vitest";
import { startEmulator, type Emulator } from "../../src/emulator/index.js";

let emu: Emulator | undefined;
afterEach(async () => {
  await emu?.close();
  emu = undefined;
});

it.each(["refuse", "clamp"] as const)(
  "answers the generic entities under --max-page-size 20 --oversized-limit %s, a fixed page being no limit asked for",
  async (oversizedLimit) => {
    emu = await startEmulator({ port: 0, tenants: [{ hash: "t", token: "tok" }], switches: { maxPageSize: 20, oversizedLimit } });
    const res = await fetch(`${emu.tenantUrl("t")}/generic-entities`, { headers: { authorization: "Bearer tok" } });
    expect(res.status).toBe(200);
    const body = (await res.json()) as { generic_entities: unknown[]; meta: { per_page: number } };
    expect(body.generic_entities.length).toBeGreaterThan(0);
    expect(body.meta.per_page).toBe(1000);
  },
);
