/**
 * Emulator throughput (prints figures; not a timed test): 100,000 stored
 * records, simple GETs of single records over keep-alive connections.
 * Run: npm run build && node dist/bench/emulator.js [seconds]
 */
import { performance } from "node:perf_hooks";
import { Pool } from "undici";
import { startEmulator } from "../emulator/index.js";
import { createCategory } from "../emulator/kinds/categories.js";

const seconds = Number(process.argv[2] ?? 5);
const emu = await startEmulator({ port: 0, tenants: [{ hash: "bench", token: "t" }] });
const store = emu.store("bench");
const t0 = performance.now();
store.seedBrands(50_000);
let parent: number | null = null;
for (let i = 0; i < 50_000; i++) parent = createCategory(store, { parent_id: i % 50 === 0 ? null : parent, name: `Category ${i}` }).id;
console.log(`seeded 100,000 records in ${(performance.now() - t0).toFixed(0)} ms`);

const brandIds = store.sortedBrandIds();
const pool = new Pool(emu.url, { connections: 16, pipelining: 1 });
const headers = { authorization: "Bearer t" };
let done = 0;
let errors = 0;
const end = performance.now() + seconds * 1000;
const worker = async (k: number) => {
  let i = k;
  while (performance.now() < end) {
    const id = brandIds[(i += 7919) % brandIds.length]!;
    const res = await pool.request({ path: `/bench/api/v1/brands/${id}`, method: "GET", headers });
    await res.body.text();
    if (res.statusCode !== 200) errors++;
    done++;
  }
};
const started = performance.now();
await Promise.all(Array.from({ length: 32 }, (_, k) => worker(k)));
const elapsed = (performance.now() - started) / 1000;
console.log(
  `GET /brands/<id>: ${done} requests in ${elapsed.toFixed(1)} s = ${(done / elapsed).toFixed(0)} requests/s (32 concurrent, ${errors} errors, same process ` +
    `as the client)`,
);
console.log(`emulator counted ${emu.stats().requests.total} requests`);
await pool.close();
await emu.close();
