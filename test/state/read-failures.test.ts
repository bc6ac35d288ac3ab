import { beforeAll, describe, expect, it } from "vitest";
import type { Emulator } from "../../src/emulator/index.js";
import type { PimClient } from "../../src/api/client.js";
import { fileEmulator } from "../helpers/emulator.js";
import { readState } from "../../src/state/index.js";
import { emptyCatalogue, type Catalogue } from "../../src/model/catalogue.js";

// A read runs many requests at once; when one fails for good, the read must reject with that
// error and leave no other promise rejected without a handler (Node ends a process on one, and
// vitest counts it as an error of the whole run).
let emu: Emulator;
let api: PimClient;
const desired: Catalogue = {
  ...emptyCatalogue(),
  managed: ["display_groups", "attributes", "attribute_sets", "blocks", "brands", "categories"],
  versions: ["French", "German"],
  attributes: [{ name: "Colour", type: "selectbox" }],
  attribute_sets: [{ name: "Apparel", attributes: ["Colour"] }],
  brands: [{ name: "Acme", assets: [], attributes: { Colour: { value: "Red" } }, versions: {} }],
  categories: [{ path: ["Apparel"], name: "Apparel", versions: {} }],
};

const file = fileEmulator({ hash: "demo", token: "t", client: { retries: { max: 0, baseMs: 1, maxMs: 1 } } });
beforeAll(async () => {
  emu = file.emu;
  api = file.api;
  const dg = await api.createDisplayGroup({ name: "Basics", sort_order: 1, in_navigation: true });
  const colour = await api.createAttribute({ name: "Colour", type: "selectbox", sort_order: 1, publish: true, display_group_id: dg.id });
  await api.createTypeValue(colour.id, { value: "Red", sort_order: 1 });
  const set = await api.createAttributeSet({ name: "Apparel", sort_order: 1 });
  await api.addAttributeToSet(set.id, colour.id);
  await api.createBlock({ name: "Footer", slug: "footer", content: "Hi" });
  const brand = await api.createBrand({ name: "Acme", desc: "Tools" });
  await api.createBrandAttribute(brand.id, { attribute_id: colour.id, version_id: 0, values: [{ value: "Red" }] });
  await api.createCategory({ parent_id: 0, name: "Apparel", attribute_sets: [set.id] });
});

async function readRoutes(full: boolean): Promise<string[]> {
  emu.resetStats();
  await readState(api, full ? { kinds: desired.managed } : { kinds: desired.managed, desired, prune: { brands: true, attributes: true } });
  return Object.keys(emu.stats().requests.byRoute)
    .filter((r) => r.startsWith("GET "))
    .map((r) => r.slice(4))
    .sort();
}

describe("a read whose request fails for good", () => {
  for (const full of [false, true]) {
    it(`rejects with that error and leaves no rejection unhandled, for each route it reads (${full ? "export" : "plan"})`, async () => {
      const routes = await readRoutes(full);
      expect(routes.length).toBeGreaterThanOrEqual(8);
      const unhandled: unknown[] = [];
      const onUnhandled = (e: unknown) => unhandled.push(e);
      process.on("unhandledRejection", onUnhandled);
      try {
        for (const route of routes) {
          emu.clearFaults();
          emu.injectFaults([{ method: "GET", route, mode: "error500", times: 1000 }]);
          const read = readState(api, full ? { kinds: desired.managed } : { kinds: desired.managed, desired, prune: { brands: true, attributes: true } });
          await expect(read, route).rejects.toMatchObject({ code: "api_server" });
          // Requests still in flight settle, and their rejections are reported, a moment later.
          await new Promise((r) => setTimeout(r, 50));
          expect(unhandled.map((e) => `${route}: ${String((e as { request?: { path?: string } }).request?.path ?? e)}`)).toEqual([]);
        }
      } finally {
        emu.clearFaults();
        process.off("unhandledRejection", onUnhandled);
      }
    });
  }
});
