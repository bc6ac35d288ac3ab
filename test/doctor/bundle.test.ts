/**
 * Support bundles (doctor, plan, apply --bundle FILE): what a maintainer needs (versions, the
 * config, the readings, each HTTP exchange with its status and timing, bodies cut to a size) and
 * never a secret. The tenant here echoes the token back in a header, a cookie and a body (through
 * a real HTTP proxy), one tenant's token comes from a file, the plan signing key is set, and one
 * run fails on a refused token: no token, token file content or credential is in any bundle.
 */
import { readFile, writeFile } from "node:fs/promises";
import path from "node:path";
import { afterEach, expect, it } from "vitest";
import type { Bundle } from "../../src/bundle/bundle.js";
import { startEmulator } from "../../src/emulator/index.js";
import { SWITCHES } from "../../src/emulator/switches.js";
import { parseSwitches } from "../../src/doctor/vocabulary.js";
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

/** Forwards to the emulator and echoes the Authorization header back: in a header, a cookie, and the body of /ping. */
async function echoingProxy(upstream: string): Promise<string> {
  proxy = await forwardingProxy(upstream, {
    rewrite: ({ url, authorization }, up) => ({
      ...(url.endsWith("/ping") ? { text: JSON.stringify({ ...(JSON.parse(up.text) as object), echo: `you sent ${authorization}` }) } : {}),
      headers: { "x-echo-authorization": authorization, "set-cookie": `session=${authorization.replace("Bearer ", "")}; HttpOnly` },
    }),
  });
  return proxy.origin;
}

it("holds versions, config, readings and exchanges, and no token, token file content or credential", { timeout: 90_000 }, async () => {
  p = await testProject({ tenants: ["demo", "filed"], emulator: { exportStepMs: 5 } });
  await seedTenant(p.emulator, "demo", p.tokens.demo!);
  const origin = await echoingProxy(p.emulator.url);
  const tokenFile = path.join(p.dir, "filed.token");
  await writeFile(tokenFile, `${p.tokens.filed}\n`);
  await p.write(
    "pimctl.yaml",
    [
      "dir: catalogue",
      "tenants:",
      "  demo:",
      `    base_url: ${origin}/demo/api/v1`,
      "    token_env: PIMCTL_DEMO_TOKEN",
      "    variables: { shop: secret-shop-value }",
      "  filed:",
      `    base_url: ${origin}/filed/api/v1`,
      "    token_file: filed.token",
      "",
    ].join("\n"),
  );
  await p.write("catalogue/brands.yaml", "brands:\n  - name: Globex\n    desc: ${shop}\n");
  const env = { PIMCTL_PLAN_KEY: "plan-signing-key-0123" };
  const wrong = "wrong-token-9f8e7d6c5b";
  const runs: Array<[string, string[], NodeJS.ProcessEnv, number]> = [
    ["doctor.json", ["doctor", "--tenant", "demo"], env, 0],
    ["probes.json", ["doctor", "--tenant", "filed", "--write-probes"], env, 0],
    ["plan.json", ["plan", "--tenant", "demo"], env, 0],
    ["apply.json", ["apply", "--tenant", "demo", "--auto-approve"], env, 0],
    ["refused.json", ["plan", "--tenant", "demo"], { ...env, PIMCTL_DEMO_TOKEN: wrong }, 1],
    ["doctor-refused.json", ["doctor", "--tenant", "demo"], { ...env, PIMCTL_DEMO_TOKEN: wrong }, 1],
  ];
  const secrets = [p.tokens.demo!, p.tokens.filed!, "plan-signing-key-0123", wrong];
  for (const [file, args, e, code] of runs) {
    const r = await p.cli([...args, "--bundle", file], { env: e });
    expect(r.code, `${args.join(" ")}: ${r.stderr}`).toBe(code);
    expect(r.stderr).toContain(`Wrote the support bundle to ${file}`);
    const text = await readFile(path.join(p.dir, file), "utf8");
    for (const s of secrets) expect(text.includes(s), `${file} holds ${s}`).toBe(false);
    expect(text).not.toMatch(/Bearer (?!\[redacted\])/);
    const b = JSON.parse(text) as Bundle;
    expect(b.format).toBe("pimctl-bundle");
    expect(b.pimctl_version).toMatch(/^\d+\.\d+\.\d+/);
    expect(b.node_version).toBe(process.version);
    expect(b.exchanges.length).toBeGreaterThan(0);
    for (const x of b.exchanges) {
      expect(
        Object.keys(x.request_headers)
          .concat(Object.keys(x.response_headers))
          .filter((h) => /authorization|cookie/i.test(h)),
      ).toEqual([]);
      expect((x.response_body ?? "").length).toBeLessThanOrEqual(b.body_bytes);
      expect(typeof x.ms).toBe("number");
    }
    const tenants = (b.config as { tenants: Record<string, Record<string, unknown>> }).tenants;
    expect(tenants.demo!.token_env).toBe("PIMCTL_DEMO_TOKEN");
    expect(tenants.filed!.token_file).toBe(tokenFile);
    expect(tenants.demo!.variables).toEqual({ shop: "secret-shop-value" }); // catalogue values, sent to the tenant anyway
  }
  const doctor = JSON.parse(await readFile(path.join(p.dir, "doctor.json"), "utf8")) as Bundle;
  expect(doctor.switches.dateFormat).toBe("document");
  expect(doctor.doctor!.findings.map((f) => f.switch).sort()).toEqual(Object.keys(SWITCHES).sort());
  expect(doctor.exchanges.find((x) => x.path === "/ping")!.response_body).toContain('"echo":"you sent Bearer [redacted]"');
  for (const file of ["refused.json", "doctor-refused.json"]) {
    const refused = JSON.parse(await readFile(path.join(p.dir, file), "utf8")) as Bundle;
    expect(refused.outcome.error, file).toContain('tenant "demo" at http://127.0.0.1');
    expect(refused.outcome.error, file).toContain("refused the token (401)");
    // Requests already in flight when the first 401 came answer 401 too; none is sent after.
    expect(new Set(refused.exchanges.map((x) => x.status))).toEqual(new Set([401]));
  }
  const probes = JSON.parse(await readFile(path.join(p.dir, "probes.json"), "utf8")) as Bundle;
  expect(probes.exchanges.some((x) => x.method === "DELETE")).toBe(true);
  const apply = JSON.parse(await readFile(path.join(p.dir, "apply.json"), "utf8")) as Bundle;
  expect(apply.exchanges.some((x) => x.method === "POST" && x.path === "/brands" && (x.request_body ?? "").includes("Globex"))).toBe(true);
});

it(
  "replays a doctor bundle against an emulator started with its switches: every answer as recorded; elsewhere it shows what differs",
  { timeout: 60_000 },
  async () => {
    const readings = { searchEmpty: "404", paginateAllLists: true, boolFormat: "int", maxPageSize: 100 } as const;
    p = await testProject({ emulator: { switches: readings } });
    await seedTenant(p.emulator, "demo", p.tokens.demo!);
    const made = await p.cli(["doctor", "--bundle", "b.json"]);
    expect(made.code, made.stderr).toBe(0);
    const bundleText = await readFile(path.join(p.dir, "b.json"), "utf8");

    const twin = await startEmulator({ port: 0, tenants: [{ hash: "demo", token: "twin-token" }], switches: parseSwitches(bundleText, "b.json") });
    const plain = await startEmulator({ port: 0, tenants: [{ hash: "demo", token: "twin-token" }] });
    try {
      for (const e of [twin, plain]) await seedTenant(e, "demo", "twin-token");
      await p.write(
        "pimctl.yaml",
        `tenants:\n  twin:\n    base_url: ${twin.tenantUrl("demo")}\n    token_env: T\n  plain:\n    base_url: ${plain.tenantUrl("demo")}\n    token_env: T\n` +
          "  far:\n    base_url: https://pim.example.com/api/v1\n    token_env: T\n",
      );
      const same = await p.cli(["doctor", "--replay", "b.json", "--tenant", "twin"], { env: { T: "twin-token" } });
      expect(same.code, same.stdout + same.stderr).toBe(0);
      expect(same.stdout).toMatch(/^Replayed \d+ exchanges of b\.json against tenant "twin"/);
      expect(same.stdout).toContain("Every answer had the recorded status and shape.");

      const differs = await p.cli(["doctor", "--replay", "b.json", "--tenant", "plain"], { env: { T: "twin-token" } });
      expect(differs.code).toBe(1);
      expect(differs.stdout).toMatch(/DIFF {2}#\d+ POST \/brands\/search: recorded 404 \{message\}, now 200 empty/);
      expect(differs.stdout).toMatch(/DIFF {2}#\d+ GET \/display-groups: recorded 200 \{display_groups, links, meta\}, now 200 \{display_groups\}/);

      const far = await p.cli(["doctor", "--replay", "b.json", "--tenant", "far"], { env: { T: "twin-token" } });
      expect(far.code).toBe(1);
      expect(far.stderr).toContain('--replay sends a bundle\'s requests, writes included, to tenant "far" at pim.example.com: only to an emulator');
    } finally {
      await twin.close();
      await plain.close();
    }
  },
);
