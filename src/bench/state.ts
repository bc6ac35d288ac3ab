/**
 * Reading a large tenant (prints figures; not a timed test): 20,000
 * categories, 5,000 brands, 500 attributes with 20,000 values, 3 language
 * versions, 20 ms latency per request, parallelism 8.
 * Run: npm run build && node dist/bench/state.js
 */
import { performance } from "node:perf_hooks";
import { startEmulator } from "../emulator/index.js";
import { createClient } from "../api/client.js";
import { readState } from "../state/index.js";
import { emptyCatalogue, type Catalogue } from "../model/catalogue.js";
import { createAttribute, setAttributeVersion } from "../emulator/kinds/attributes.js";
import { createCategory } from "../emulator/kinds/categories.js";
import { createTypeValue, setTypeValueVersion } from "../emulator/kinds/type-values.js";

const LATENCY = 20;
const PAR = 8;
const emu = await startEmulator({ port: 0, tenants: [{ hash: "bench", token: "t" }], latencyMs: LATENCY });
const s = emu.store("bench");
// A third language version besides French (2) and German (3).
s.load({ channels: [{ id: 4, channel_name: "Tienda ES", sync: true, price_base: "EUR", inventory_location: "MAD", version_id: 4, version_name: "Spanish" }] });
for (let a = 0; a < 500; a++) {
  const attr = createAttribute(s, { name: `Attribute ${a}`, type: "selectbox" });
  for (const v of [2, 3, 4]) setAttributeVersion(s, attr.id, v, { name: `Attribute ${a} (${v})` });
  for (let i = 0; i < 40; i++) {
    const tv = createTypeValue(s, attr.id, { value: `Value ${a}-${i}` });
    for (const v of [2, 3, 4]) setTypeValueVersion(s, attr.id, tv.id, v, `Value ${a}-${i} (${v})`);
  }
}
s.seedBrands(5000);
const roots: number[] = [];
for (let r = 0; r < 20; r++) roots.push(createCategory(s, { parent_id: null, name: `Root ${r}` }).id);
for (let i = 0; roots.length + i < 20_000; i++) createCategory(s, { parent_id: roots[i % roots.length]!, name: `Category ${i}` });

const desired: Catalogue = {
  ...emptyCatalogue(),
  managed: ["attributes", "brands", "categories"],
  versions: ["French", "German", "Spanish"],
  attributes: [{ name: "Attribute 0", type: "selectbox" }],
  // Brand versions declared, so brands are read in every version too; pruning on, so they are listed.
  brands: [{ name: "Brand 000000", versions: { French: {} } }],
  categories: [{ path: ["Root 0"], name: "Root 0" }],
};
const api = createClient({ tenant: "bench", baseUrl: emu.tenantUrl("bench"), token: "t", parallelism: PAR });
emu.resetStats();
const t0 = performance.now();
const state = await readState(api, { kinds: desired.managed, desired, prune: { brands: true, categories: true, attributes: true } });
const wall = performance.now() - t0;
const requests = emu.stats().requests.total;
const pages = (n: number) => Math.ceil(n / 1000);
const V = 3;
// Fewest requests API v1 allows for this state: channels, attributes in master and each version
// (they carry the type values), brands and categories in pages of the largest limit, brands per version.
const lowerBound = 1 + (1 + V) + pages(5000) * (1 + V) + pages(20_000);
console.log(
  `read ${state.categories.length} categories, ${state.brands.length} brands, ${state.attributes.length} attributes with ` +
    `${state.attributes.reduce((n, a) => n + a.values.length, 0)} values in ${V} versions: ${requests} requests in ${(wall / 1000).toFixed(2)} s ` +
    `(latency ${LATENCY} ms, parallelism ${PAR})`,
);
console.log(`lower bound the API allows: ${lowerBound} requests (1 + (1+V) + ceil(B/1000)*(1+V) + ceil(C/1000)); ratio ${(requests / lowerBound).toFixed(2)}`);
console.log(`wall-time floor at this latency and parallelism: about ${(((1 + Math.ceil((lowerBound - 1) / PAR)) * LATENCY) / 1000).toFixed(2)} s`);
await api.close();
await emu.close();
