/**
 * A token that cannot read every list, or a proxy that answers some paths with its own HTML page,
 * is what "reach" is for: doctor reports each list's answer and every reading it can still make,
 * and says it could not look for records of earlier runs, instead of stopping at the first list.
 */
import { createServer, type Server } from "node:http";
import type { AddressInfo } from "node:net";
import { afterEach, expect, it } from "vitest";
import { testProject, type TestProject } from "../helpers/project.js";
import { findingOf, runDoctor, seedTenant } from "./fixture.js";

let p: TestProject | undefined;
let proxy: Server | undefined;
afterEach(async () => {
  await new Promise<void>((r) => (proxy ? proxy.close(() => r()) : r()));
  await p?.close();
  p = proxy = undefined;
});

/** Forwards to the emulator, but GET /brands answers 403 and GET /categories a proxy's HTML page. */
async function blockingProxy(upstream: string): Promise<string> {
  proxy = createServer((req, res) => {
    const chunks: Buffer[] = [];
    req.on("data", (c: Buffer) => chunks.push(c));
    req.on("end", () => {
      const route = (req.url ?? "").split("?")[0]!;
      if (req.method === "GET" && route.endsWith("/brands")) {
        res.writeHead(403, { "content-type": "application/json" });
        return res.end(JSON.stringify({ message: "This action is unauthorized." }));
      }
      if (req.method === "GET" && route.endsWith("/categories")) {
        res.writeHead(200, { "content-type": "text/html" });
        return res.end("<!DOCTYPE html><html><body><h1>Access denied by the corporate proxy</h1></body></html>");
      }
      const body = chunks.length ? Buffer.concat(chunks) : undefined;
      const headers = Object.fromEntries(Object.entries(req.headers).filter(([k]) => k === "authorization" || k === "content-type")) as Record<string, string>;
      void fetch(`${upstream}${req.url}`, { method: req.method!, headers, ...(body ? { body } : {}) }).then(async (up) => {
        const text = await up.text();
        res.writeHead(up.status, { "content-type": up.headers.get("content-type") ?? "application/json" });
        res.end(text);
      });
    });
  });
  await new Promise<void>((r) => proxy!.listen(0, "127.0.0.1", () => r()));
  return `http://127.0.0.1:${(proxy.address() as AddressInfo).port}`;
}

it("reports a list the token cannot read, and one a proxy answers in HTML, and goes on with the readings", { timeout: 60_000 }, async () => {
  p = await testProject();
  await seedTenant(p.emulator, "demo", p.tokens.demo!);
  const origin = await blockingProxy(p.emulator.url);
  await p.write("pimctl.yaml", `dir: catalogue\ntenants:\n  demo:\n    base_url: ${origin}/demo/api/v1\n    token_env: PIMCTL_DEMO_TOKEN\n`);
  const { code, report, stderr } = await runDoctor(p);
  expect(report.reach.find((r) => r.kind === "brands")).toMatchObject({ status: 403, problem: "answered 403 (the token may not reach this list)" });
  expect(report.reach.find((r) => r.kind === "categories")).toMatchObject({ status: 200, problem: "answered with a body that is not JSON" });
  expect(report.reach.find((r) => r.kind === "attributes")).toMatchObject({ status: 200, records: 2 });
  expect(findingOf(report, "dateFormat")).toMatchObject({ outcome: "known", reading: "document" });
  // A list the token cannot reach says nothing of page sizes: the others decide.
  expect(report.page_sizes.find((s) => s.list === "brands")).toMatchObject({ how: "unreachable" });
  expect(findingOf(report, "maxPageSize")).toMatchObject({ outcome: "known", reading: null });
  expect(report.write_probes.notes.join("\n")).toContain("records of earlier doctor runs could not be looked for: GET /brands (403)");
  expect(stderr).toContain("some lists cannot be read as API v1 shows them");
  expect(code).toBe(1);
});
