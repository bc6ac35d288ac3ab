/**
 * A token that cannot read every list, or a proxy that answers some paths with its own HTML page,
 * is what "reach" is for: doctor reports each list's answer and every reading it can still make,
 * and says it could not look for records of earlier runs, instead of stopping at the first list.
 */
import { afterEach, expect, it } from "vitest";
import { testProject, type TestProject } from "../helpers/project.js";
import { forwardingProxy, type ForwardingProxy } from "../helpers/forwarding-proxy.js";
import { findingOf, runDoctor, seedTenant } from "./fixture.js";

let p: TestProject | undefined;
let proxy: ForwardingProxy | undefined;
afterEach(async () => {
  await proxy?.close();
  await p?.close();
  p = proxy = undefined;
});

/** Forwards to the emulator, but GET /brands answers 403 and GET /categories a proxy's HTML page. */
async function blockingProxy(upstream: string): Promise<string> {
  proxy = await forwardingProxy(upstream, {
    intercept: ({ method, route }) => {
      if (method === "GET" && route.endsWith("/brands")) return { status: 403, text: JSON.stringify({ message: "This action is unauthorized." }) };
      if (method === "GET" && route.endsWith("/categories"))
        return { headers: { "content-type": "text/html" }, text: "<!DOCTYPE html><html><body><h1>Access denied by the corporate proxy</h1></body></html>" };
      return undefined;
    },
  });
  return proxy.origin;
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
