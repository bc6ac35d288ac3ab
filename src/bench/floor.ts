/**
 * The floor a plan is measured against: a minimal client that reads the
 * manifest files (bytes only) and fetches and decodes the same responses the
 * plan fetched, in two rounds (the requests that name no record id first, then
 * those that do), as concurrently as the plan may (the same parallelism).
 * Prints {"ms": N, "requests": N} on stdout.
 * Run: node dist/bench/floor.js DIR BASE_URL TOKEN PARALLELISM REQUESTS.json
 */
import { readdir, readFile } from "node:fs/promises";
import path from "node:path";
import { performance } from "node:perf_hooks";
import { Agent, request } from "undici";

const [dir, baseUrl, token, parallelism, listFile] = process.argv.slice(2) as [string, string, string, string, string];
const paths = JSON.parse(await readFile(listFile, "utf8")) as string[];
const agent = new Agent({ connections: Number(parallelism) });

async function pool<T>(items: readonly T[], n: number, fn: (t: T) => Promise<void>): Promise<void> {
  let next = 0;
  await Promise.all(
    Array.from({ length: Math.min(n, items.length) }, async () => {
      while (next < items.length) await fn(items[next++]!);
    }),
  );
}

const t0 = performance.now();
for (const f of (await readdir(dir, { recursive: true })).filter((f) => /\.ya?ml$/.test(f))) await readFile(path.join(dir, f));
const rounds = [paths.filter((p) => !/\/\d+(\/|$|\?)/.test(p)), paths.filter((p) => /\/\d+(\/|$|\?)/.test(p))];
for (const round of rounds) {
  await pool(round, Number(parallelism), async (p) => {
    const [pathname, query] = p.split("?") as [string, string | undefined];
    const method = pathname.endsWith("/search") ? "POST" : "GET";
    const res = await request(`${baseUrl}${pathname}${query ? `?${query}` : ""}`, {
      method,
      dispatcher: agent,
      headers: { authorization: `Bearer ${token}`, accept: "application/json" },
    });
    const text = await res.body.text();
    if (text) JSON.parse(text);
  });
}
console.log(JSON.stringify({ ms: performance.now() - t0, requests: paths.length }));
await agent.close();
