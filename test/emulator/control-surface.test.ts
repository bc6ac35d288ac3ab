/**
 * Issue 23, item 10: the emulator's control routes (reset data, rotate tokens,
 * faults) took a `text/plain` POST from any Origin and Host, so a web page on a
 * developer's machine could reset its data or rotate its tokens (a cross-site
 * POST, or DNS rebinding). Over real HTTP (node:http, to set Host and Origin as
 * a browser or a rebound name would): refused with 403 or 415 and a JSON error,
 * and nothing changed; loopback callers with JSON still work.
 */
import { request } from "node:http";
import { afterAll, beforeAll, beforeEach, describe, expect, it } from "vitest";
import { startEmulator, type Emulator } from "../../src/emulator/index.js";
import { isLoopbackHost, isLoopbackOrigin } from "../../src/emulator/control-guard.js";
import { createBrand } from "../../src/emulator/kinds/brands.js";

let emu: Emulator;
let port: string;

beforeAll(async () => {
  emu = await startEmulator({ port: 0, tenants: [{ hash: "demo", token: "tok-a" }] });
  port = new URL(emu.url).port;
});
afterAll(async () => emu.close());
beforeEach(() => {
  emu.resetTenant("demo");
  emu.rotateToken("demo", "tok-a");
  createBrand(emu.store("demo"), { name: "Keep me" });
});

interface Answer {
  status: number;
  contentType: string | undefined;
  body: { message?: string } & Record<string, unknown>;
}

/** One control request over HTTP; `host` replaces the Host header node would send (127.0.0.1:PORT). */
function control(method: string, path: string, opts: { host?: string; origin?: string; type?: string; body?: string } = {}): Promise<Answer> {
  const headers: Record<string, string | number> = {};
  if (opts.host !== undefined) headers.host = opts.host;
  if (opts.origin !== undefined) headers.origin = opts.origin;
  if (opts.type !== undefined) headers["content-type"] = opts.type;
  if (opts.body !== undefined) headers["content-length"] = Buffer.byteLength(opts.body);
  return new Promise((resolve, reject) => {
    const req = request({ host: "127.0.0.1", port, method, path, headers }, (res) => {
      let text = "";
      res.setEncoding("utf8");
      res.on("data", (d: string) => (text += d));
      res.on("end", () =>
        resolve({ status: res.statusCode ?? 0, contentType: res.headers["content-type"], body: text ? (JSON.parse(text) as Answer["body"]) : {} }),
      );
    });
    req.on("error", reject);
    req.end(opts.body);
  });
}

const brands = () => [...emu.store("demo").brands.values()].map((b) => b.name);
const RESET_DATA = JSON.stringify({ data: true });
const ROTATE = JSON.stringify({ token: "stolen" });

/** The old token still works, the new one does not: the rotation did not happen. */
async function tokenUnchanged(): Promise<void> {
  const ping = (token: string) => fetch(`${emu.tenantUrl("demo")}/ping`, { headers: { authorization: `Bearer ${token}` } }).then((r) => r.status);
  expect(await ping("tok-a")).toBe(200);
  expect(await ping("stolen")).toBe(401);
}

describe("the control surface refuses what a web page can send", () => {
  it("a cross-site text/plain POST (no preflight): 403 for the foreign Origin, data and token untouched", async () => {
    const reset = await control("POST", "/__emulator/reset", { origin: "https://evil.example", type: "text/plain;charset=UTF-8", body: RESET_DATA });
    expect(reset.status).toBe(403);
    expect(reset.contentType).toBe("application/json");
    expect(reset.body.message).toMatch(/other origins/);
    const rotate = await control("POST", "/__emulator/tenants/demo/rotate-token", { origin: "https://evil.example", type: "application/json", body: ROTATE });
    expect(rotate.status).toBe(403);
    expect(brands()).toEqual(["Keep me"]);
    await tokenUnchanged();
  });

  it("a text/plain (or form, or untyped) body from a loopback caller: 415, nothing done", async () => {
    for (const type of ["text/plain", "application/x-www-form-urlencoded", "multipart/form-data; boundary=x", undefined]) {
      const r = await control("POST", "/__emulator/reset", { ...(type ? { type } : {}), origin: "http://localhost:3000", body: RESET_DATA });
      expect(r.status, String(type)).toBe(415);
      expect(r.body.message).toContain("Content-Type: application/json");
    }
    expect((await control("POST", "/__emulator/tenants/demo/rotate-token", { type: "text/plain", body: ROTATE })).status).toBe(415);
    expect(brands()).toEqual(["Keep me"]);
    await tokenUnchanged();
  });

  it("DNS rebinding (a foreign name in Host, same-origin to the browser): 403, also for stats", async () => {
    for (const host of [`evil.example:${port}`, `127.evil.example:${port}`, `localhost.evil.example:${port}`, "evil.example", `user@127.0.0.1:${port}`]) {
      const r = await control("POST", "/__emulator/reset", { host, origin: `http://${host}`, type: "application/json", body: RESET_DATA });
      expect(r.status, host).toBe(403);
      expect(r.body.message, host).toMatch(/loopback host/);
    }
    expect((await control("GET", "/__emulator/stats", { host: `rebound.example:${port}` })).status).toBe(403);
    expect(
      (await control("POST", "/__emulator/faults", { host: `rebound.example:${port}`, type: "application/json", body: JSON.stringify({ failRate: 1 }) }))
        .status,
    ).toBe(403);
    expect(brands()).toEqual(["Keep me"]);
    expect((await fetch(`${emu.tenantUrl("demo")}/ping`, { headers: { authorization: "Bearer tok-a" } })).status).toBe(200);
  });

  it("an Origin of null (a sandboxed page, a file) is refused", async () => {
    expect((await control("POST", "/__emulator/reset", { origin: "null", type: "application/json", body: RESET_DATA })).status).toBe(403);
    expect(brands()).toEqual(["Keep me"]);
  });
});

describe("loopback callers keep working", () => {
  it("JSON from a loopback host, with or without a loopback Origin: reset, rotate, faults, stats", async () => {
    const hosts = [undefined, `localhost:${port}`, `LOCALHOST:${port}`, `127.0.0.1:${port}`, `127.1.2.3:${port}`, `[::1]:${port}`, "localhost"];
    for (const host of hosts) {
      createBrand(emu.store("demo"), { name: `Gone ${host}` });
      const r = await control("POST", "/__emulator/reset", {
        ...(host !== undefined ? { host } : {}),
        type: "application/json; charset=utf-8",
        body: RESET_DATA,
      });
      expect(r.status, host).toBe(200);
      expect(brands()).toEqual([]);
    }
    const rotated = await control("POST", "/__emulator/tenants/demo/rotate-token", {
      origin: `http://127.0.0.1:${port}`,
      type: "application/json",
      body: JSON.stringify({ token: "tok-new" }),
    });
    expect(rotated.status).toBe(200);
    expect((await fetch(`${emu.tenantUrl("demo")}/ping`, { headers: { authorization: "Bearer tok-new" } })).status).toBe(200);
    const faults = await control("POST", "/__emulator/faults", {
      origin: "http://[::1]:5173",
      type: "application/json",
      body: JSON.stringify({ latencyMs: 0 }),
    });
    expect(faults.status).toBe(200);
    const stats = await control("GET", "/__emulator/stats", { origin: "http://localhost:5173" });
    expect(stats.status).toBe(200);
    expect(stats.body).toHaveProperty("requests");
  });

  it("a POST without a body needs no Content-Type (reset the counters); fetch with a JSON type works as before", async () => {
    expect((await control("POST", "/__emulator/reset")).status).toBe(200);
    expect(brands()).toEqual(["Keep me"]);
    const r = await fetch(`${emu.url}/__emulator/reset`, { method: "POST", headers: { "content-type": "application/json" }, body: RESET_DATA });
    expect(r.status).toBe(200);
    expect(brands()).toEqual([]);
  });

  it("a body over the limit is 413, not an empty request", async () => {
    const small = await startEmulator({ port: 0, tenants: [{ hash: "demo", token: "t" }], maxBodyBytes: 64 });
    try {
      const r = await fetch(`${small.url}/__emulator/faults`, {
        method: "POST",
        headers: { "content-type": "application/json" },
        body: JSON.stringify({ failRate: 1, pad: "x".repeat(200) }),
      });
      expect(r.status).toBe(413);
    } finally {
      await small.close();
    }
  });
});

describe("which hosts and origins are loopback", () => {
  it.each([
    ["localhost", true],
    ["localhost:4010", true],
    ["127.0.0.1", true],
    ["127.255.0.9:1", true],
    ["127.1", true],
    ["[::1]:4010", true],
    ["[0:0:0:0:0:0:0:1]", true],
    ["[::ffff:127.0.0.1]:80", true],
    ["128.0.0.1", false],
    ["10.0.0.1:4010", false],
    ["[::2]", false],
    ["127.0.0.1.nip.io", false],
    ["localhost.", false],
    ["evil.example", false],
    ["a@localhost", false],
    ["localhost/x", false],
    ["", false],
  ])("Host %s: %s", (host, loopback) => {
    expect(isLoopbackHost(host)).toBe(loopback);
  });
  it("origins", () => {
    expect(isLoopbackOrigin("http://localhost:3000")).toBe(true);
    expect(isLoopbackOrigin("https://127.0.0.1")).toBe(true);
    expect(isLoopbackOrigin("http://[::1]:8080")).toBe(true);
    expect(isLoopbackOrigin("null")).toBe(false);
    expect(isLoopbackOrigin("http://evil.example")).toBe(false);
    expect(isLoopbackOrigin("file:///tmp/x.html")).toBe(false);
    expect(isLoopbackOrigin("chrome-extension://abc")).toBe(false);
  });
});
