/**
 * A support bundle keeps no token however the tenant echoes it: not escaped the way a PHP
 * service writes JSON ("\/" for "/"), not percent-encoded in a link, not cut in half where a body
 * is cut to the bundle's size or where doctor's evidence cuts a quoted answer short, and no session
 * cookie the tenant set, echoed in a body (a debug page). The tenant is a real HTTP proxy in front
 * of the emulator; the token has the characters those encodings change.
 */
import { readFile } from "node:fs/promises";
import path from "node:path";
import { afterEach, expect, it } from "vitest";
import type { Bundle } from "../../src/bundle/bundle.js";
import { testProject, type TestProject } from "../helpers/project.js";
import { forwardingProxy, type ForwardingProxy } from "../helpers/forwarding-proxy.js";
import { seedTenant } from "./fixture.js";

let p: TestProject | undefined;
let proxy: ForwardingProxy | undefined;
afterEach(async () => {
  await proxy?.close();
  await p?.close();
  p = proxy = undefined;
});

const TOKEN = "Zq9xKw/T0ken+with=slash/es~and.more";
const SESSION = "sess-7f3a9c1e2b5d";

/** Echoes the token in every form a service might, and sets a session cookie it echoes too. */
async function echoingProxy(upstream: string): Promise<string> {
  proxy = await forwardingProxy(upstream, {
    rewrite: ({ route, authorization: auth }, up) => {
      const token = auth.replace(/^Bearer /, "");
      let text = up.text;
      const headers: Record<string, string> = { "content-type": "application/json", "set-cookie": `pim_session=${SESSION}; HttpOnly` };
      // PHP's json_encode writes "/" as "\/".
      if (route.endsWith("/ping")) text = JSON.stringify({ ...(JSON.parse(text) as object), debug: { auth } }).replace(/\//g, "\\/");
      // A link with the token percent-encoded, in a body and a header.
      if (route.endsWith("/channels")) {
        const link = `https://pim.example.com/help?q=${encodeURIComponent(token)}`;
        text = JSON.stringify({ ...(JSON.parse(text) as object), help: link });
        headers.link = `<${link}>; rel="help"`;
      }
      // A debug page naming the session cookie.
      if (route.endsWith("/attributes")) text = JSON.stringify({ ...(JSON.parse(text) as object), debug: `cookie pim_session=${SESSION}` });
      // The token straddles the place where the bundle cuts a body (8192 characters).
      if (route.endsWith("/blocks")) text = `${"p".repeat(8180)}${token}`;
      // A search miss quoting the token where doctor's evidence cuts a quoted answer (80 characters).
      if (route.endsWith("/brands/search") && up.status === 200 && !text.trim()) text = `${"x".repeat(68)}${token}`;
      return { text, headers };
    },
  });
  return proxy.origin;
}

/** Every string of a value, keys too. */
function strings(v: unknown): string[] {
  if (typeof v === "string") return [v];
  if (Array.isArray(v)) return v.flatMap(strings);
  if (v !== null && typeof v === "object") return Object.entries(v).flatMap(([k, x]) => [k, ...strings(x)]);
  return [];
}

it("keeps no token escaped, encoded or cut in half, and no session cookie a body echoes", { timeout: 60_000 }, async () => {
  p = await testProject();
  await seedTenant(p.emulator, "demo", p.tokens.demo!);
  p.emulator.rotateToken("demo", TOKEN);
  const origin = await echoingProxy(p.emulator.url);
  await p.write("pimctl.yaml", `dir: catalogue\ntenants:\n  demo:\n    base_url: ${origin}/demo/api/v1\n    token_env: PIMCTL_DEMO_TOKEN\n`);
  const r = await p.cli(["doctor", "--pings", "1", "--bundle", "b.json"], { env: { PIMCTL_DEMO_TOKEN: TOKEN } });
  expect(r.stderr).toContain("Wrote the support bundle to b.json");
  const b = JSON.parse(await readFile(path.join(p.dir, "b.json"), "utf8")) as Bundle;
  // The tenant did echo each (the proxy is in the path), and the bundle says where.
  expect(b.exchanges.find((x) => x.path === "/ping")!.response_body).toContain("[redacted]");
  expect(b.exchanges.find((x) => x.path === "/blocks")!.response_length).toBeGreaterThan(8192);
  // No piece of the token (pieces alike in every encoding), nor the cookie: each hit shown with what is around it.
  const pieces = ["Zq9xKw", "T0ken", "slash", SESSION];
  const leaks = strings(b).flatMap((s) => pieces.filter((x) => s.includes(x)).map((x) => s.slice(Math.max(0, s.indexOf(x) - 30), s.indexOf(x) + 40)));
  expect(leaks).toEqual([]);
});
