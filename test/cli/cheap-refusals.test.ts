/**
 * Cheap refusals first (issue 27): what can refuse without the tenant refuses before its
 * lists are read. The ledger (a local file here) is read before any list starts; a
 * language version is checked on the channels alone; a refusal known while lists are in
 * flight (a manifest error) drops them at once. Each case runs the real CLI against the
 * emulator, made slow, and counts the requests it saw.
 */
import { hostname } from "node:os";
import { mkdir, readFile, writeFile } from "node:fs/promises";
import path from "node:path";
import { afterEach, beforeEach, describe, expect, it } from "vitest";
import { testProject, type TestProject } from "../helpers/project.js";
import { gitWorld } from "../state-backend/git-helpers.js";

let p: TestProject;
afterEach(async () => p.close());

const manifests = {
  "catalogue/attributes.yaml":
    "attributes:\n  - name: Colour\n    type: selectbox\n    versions: { French: { name: Couleur } }\n    values:\n      - value: Red\n",
  "catalogue/brands.yaml": "brands:\n  - name: Acme\n",
  "catalogue/categories.yaml": "categories:\n  - name: Apparel\n    children:\n      - name: Shirts\n",
};

/** Two tenants, so --tenant, diff --from and --to have something to name; `versions` is the top-level versions: line. */
const config = (urls: Record<string, string>, versions = "") =>
  [
    "dir: catalogue",
    versions,
    "tenants:",
    ...["demo", "prod"].flatMap((n) => [`  ${n}:`, `    base_url: ${urls[n]}`, `    token_env: PIMCTL_${n.toUpperCase()}_TOKEN`]),
    "",
  ].join("\n");

const requests = () => p.emulator.stats().requests;
/** Each command the refusal applies to, with what it prints. */
type Run = { code: number; stdout: string; stderr: string };

async function ledgerFile(tenant: string): Promise<{ file: string; ledger: Record<string, unknown> }> {
  const file = path.join(p.dir, ".pimctl", `${tenant}.json`);
  return { file, ledger: JSON.parse(await readFile(file, "utf8")) as Record<string, unknown> };
}

/** The refusals below are seen on a slow tenant: each request is held this long before it is answered. */
const SLOW_MS = 400;

describe("a ledger this run cannot use refuses before any request to the tenant", () => {
  beforeEach(async () => {
    p = await testProject({ tenants: ["demo", "prod"], config: (u) => config(u), files: manifests });
    for (const t of ["demo", "prod"]) expect((await p.cli(["apply", "--auto-approve", "--tenant", t])).code).toBe(0);
    p.emulator.setFaults({ latencyMs: SLOW_MS });
  });

  const commands: Array<[string, string[]]> = [
    ["plan", ["plan", "--tenant", "demo"]],
    ["plan --target", ["plan", "--tenant", "demo", "--target", 'brand["Acme"]']],
    ["apply", ["apply", "--auto-approve", "--tenant", "demo"]],
    ["apply --dry-run", ["apply", "--dry-run", "--tenant", "demo"]],
    ["drift", ["drift", "--tenant", "demo"]],
    ["export", ["export", "--tenant", "demo", "--out", "exported"]],
    ["diff --from DIR --to", ["diff", "--from", "catalogue", "--to", "demo"]],
    // The target's ledger is read before the source tenant is read whole.
    ["diff --from TENANT --to", ["diff", "--from", "prod", "--to", "demo"]],
  ];

  for (const [name, args] of commands) {
    it(`another base URL: ${name}`, async () => {
      const { file, ledger } = await ledgerFile("demo");
      await writeFile(file, JSON.stringify({ ...ledger, base_url: "https://other.example.com/api/v1" }));
      p.emulator.resetStats();
      const r: Run = await p.cli(args);
      expect(r.code, r.stderr).toBe(1);
      expect(r.stderr).toContain(`the ledger ${file} belongs to https://other.example.com/api/v1, not ${p.emulator.tenantUrl("demo")}`);
      expect(requests().byRoute).toEqual({});
    });
  }

  it("with the git backend too: the ledger's one fetch comes before any list", async () => {
    const world = await gitWorld({ brands: 3 });
    try {
      const a = await world.clone("a");
      expect((await world.cli(a, ["apply", "--auto-approve"])).code).toBe(0);
      // The same tenant name moved to another address (a second tenant of the emulator, which counts what it is asked).
      world.emulator.addTenant({ hash: "moved", token: world.env.PIMCTL_DEMO_TOKEN! });
      const yaml = path.join(a, "pimctl.yaml");
      await writeFile(yaml, (await readFile(yaml, "utf8")).replace(world.emulator.tenantUrl("demo"), world.emulator.tenantUrl("moved")));
      world.emulator.setFaults({ latencyMs: SLOW_MS });
      world.emulator.resetStats();
      for (const args of [["plan"], ["apply", "--auto-approve"]]) {
        const r = await world.cli(a, args);
        expect(r.code, r.stderr).toBe(1);
        expect(r.stderr).toContain(`belongs to ${world.emulator.tenantUrl("demo")}, not ${world.emulator.tenantUrl("moved")}`);
      }
      expect(world.emulator.stats().requests.total).toBe(0);
    } finally {
      await world.close();
    }
  });

  it("a newer format: plan, apply and drift refuse naming the pimctl version it needs, before any request", async () => {
    const { file, ledger } = await ledgerFile("demo");
    await writeFile(file, JSON.stringify({ ...ledger, format: 3, min_pimctl_version: "7.3.0" }));
    for (const args of [["plan"], ["apply", "--auto-approve"], ["drift"]]) {
      p.emulator.resetStats();
      const r = await p.cli([...args, "--tenant", "demo"]);
      expect(r.code, r.stderr).toBe(1);
      expect(r.stderr).toContain("7.3.0");
      expect(requests().total).toBe(0);
    }
  });
});

describe("refusals that need only the config", () => {
  beforeEach(async () => {
    p = await testProject({ tenants: ["demo", "prod"], config: (u) => config(u), files: manifests });
    p.emulator.setFaults({ latencyMs: SLOW_MS });
  });

  it("an unknown --tenant: plan, apply, drift, export and diff send nothing", async () => {
    for (const args of [
      ["plan", "--tenant", "dmeo"],
      ["apply", "--auto-approve", "--tenant", "dmeo"],
      ["drift", "--tenant", "dmeo"],
      ["export", "--tenant", "dmeo", "--out", "exported"],
      ["diff", "--from", "prod", "--to", "dmeo"],
    ]) {
      const r = await p.cli(args);
      expect(r.code, args.join(" ")).toBe(1);
      expect(r.stderr).toContain('tenant "dmeo" is not configured');
      expect(r.stderr).toContain("did you mean: demo?");
    }
    expect(requests().total).toBe(0);
  });

  it("a --target or --exclude that names no kind: plan, apply, drift and diff send nothing", async () => {
    for (const args of [
      ["plan", "--tenant", "demo", "--exclude", "brandz"],
      ["plan", "--tenant", "demo", "--target", 'brnd["Acme"]'],
      ["apply", "--auto-approve", "--tenant", "demo", "--exclude", "brandz"],
      ["drift", "--tenant", "demo", "--exclude", "brandz"],
      ["diff", "--from", "catalogue", "--to", "demo", "--exclude", "brandz"],
    ]) {
      const r = await p.cli(args);
      expect(r.code, args.join(" ")).toBe(1);
      expect(r.stderr).toMatch(/"(brandz|brnd\["Acme"\])" is neither a kind nor an address: unknown kind "(brandz|brnd)"/);
    }
    expect(requests().total).toBe(0);
  });

  it("diff --from TENANT: a missing token of --to refuses before the source tenant is read", async () => {
    const r = await p.cli(["diff", "--from", "prod", "--to", "demo"], { env: { PIMCTL_DEMO_TOKEN: "" } });
    expect(r.code).toBe(1);
    expect(r.stderr).toContain("PIMCTL_DEMO_TOKEN");
    expect(requests().total).toBe(0);
  });

  it("a file written after the read (--out, --html, --print-to, --report) into a directory that does not exist refuses first", async () => {
    for (const [args, option] of [
      [["plan", "--tenant", "demo", "--out", "missing/plan.json"], "--out missing/plan.json"],
      [["plan", "--tenant", "demo", "--html", "missing/plan.html"], "--html missing/plan.html"],
      [["plan", "--tenant", "demo", "--print-to", "missing/plan.md"], "--print-to missing/plan.md"],
      [["drift", "--tenant", "demo", "--print-to", "missing/drift.md"], "--print-to missing/drift.md"],
      [["diff", "--from", "catalogue", "--to", "demo", "--print-to", "missing/diff.md"], "--print-to missing/diff.md"],
      [["apply", "--auto-approve", "--tenant", "demo", "--report", "missing/report.json"], "--report missing/report.json"],
    ] as const) {
      const r = await p.cli([...args]);
      expect(r.code, args.join(" ")).toBe(1);
      expect(r.stderr).toContain(`${option}: the directory ${path.join(p.dir, "missing")} does not exist; nothing was read from the tenant`);
    }
    expect(requests().total).toBe(0);
  });

  it("export --merge into a folder that does not load refuses before the tenant is read", async () => {
    await p.write("exported/brands.yaml", "brands:\n  - name: Acme\n  - name: Acme\n");
    const r = await p.cli(["export", "--tenant", "demo", "--out", "exported", "--merge"]);
    expect(r.code).toBe(1);
    expect(r.stderr).toContain(`exported/brands.yaml:3:5: brand "Acme" is declared twice`);
    expect(requests().total).toBe(0);
  });
});

describe("a lock held by another run", () => {
  beforeEach(async () => {
    p = await testProject({ files: manifests });
    await mkdir(path.join(p.dir, ".pimctl"), { recursive: true });
    const holder = { id: "held-by-test", who: "bob", where: "ci", since: new Date().toISOString(), why: "apply", host: hostname(), pid: process.pid };
    await writeFile(path.join(p.dir, ".pimctl", "demo.lock"), JSON.stringify(holder));
    p.emulator.setFaults({ latencyMs: SLOW_MS });
  });

  it("stops apply before any request; plan still reads and only warns", async () => {
    const applied = await p.cli(["apply", "--auto-approve"]);
    expect(applied.code).toBe(1);
    expect(applied.stderr).toContain('the state of tenant "demo" is locked by another pimctl run');
    expect(requests().total).toBe(0);
    const planned = await p.cli(["plan", "--no-color"]);
    expect(planned.code, planned.stderr).toBe(0);
    expect(planned.stdout).toContain('Warning: the state of tenant "demo" is locked');
    expect(requests().total).toBeGreaterThan(0);
  });
});

describe("language versions", () => {
  /** Manifests naming Klingon, which no channel of the emulator publishes (French and German) and the config does not map. */
  const klingon = { ...manifests, "catalogue/brands.yaml": "brands:\n  - name: Acme\n    versions: { Klingon: { desc: Qapla } }\n" };
  const refusal = 'language version "Klingon" is not published by any channel of tenant "demo" and not mapped in the config';

  it("a name only the channels can refuse: apply and a targeted plan read the channels and nothing else", async () => {
    p = await testProject({ files: klingon });
    p.emulator.setFaults({ latencyMs: SLOW_MS });
    for (const args of [
      ["apply", "--auto-approve"],
      ["plan", "--target", 'brand["Acme"]'],
      ["diff", "--from", "catalogue", "--to", "demo"],
    ]) {
      p.emulator.resetStats();
      const r = await p.cli(args);
      expect(r.code, args.join(" ")).toBe(1);
      expect(r.stderr).toContain(refusal);
      expect(r.stderr).toContain("catalogue/brands.yaml:2");
      expect(requests().byRoute, args.join(" ")).toEqual({ "GET /channels": 1 });
    }
  });

  it("a saved plan naming a version the config no longer maps: apply PLANFILE reads the channels and nothing else", async () => {
    p = await testProject({ config: (u) => config({ ...u, prod: u.demo! }, "versions: { Klingon: 9 }"), files: klingon });
    expect((await p.cli(["plan", "--tenant", "demo", "--out", "plan.json", "--quiet"])).code).toBe(0);
    await p.write("pimctl.yaml", config({ demo: p.emulator.tenantUrl("demo"), prod: p.emulator.tenantUrl("demo") }));
    p.emulator.setFaults({ latencyMs: SLOW_MS });
    p.emulator.resetStats();
    const r = await p.cli(["apply", "plan.json", "--tenant", "demo"]);
    expect(r.code).toBe(1);
    expect(r.stderr).toContain('language version "Klingon" is not published by any channel of tenant "demo"');
    expect(requests().byRoute).toEqual({ "GET /channels": 1 });
  });

  it("a full plan refuses when the channels answer: the lists started beside the manifest load are dropped, not waited for", async () => {
    p = await testProject({ files: klingon });
    // The channels answer; every list the plan starts beside the manifest load never does. A run
    // that waited for what is in flight would hang here until the client's 30 s timeout.
    // (French's attribute list starts when the channels answer: the scan of the manifests' text found it.)
    const lists = ["/display-groups", "/attribute_sets", "/attributes", "/brands", "/categories", "/attributes/version/:version"];
    p.emulator.injectFaults(lists.map((route) => ({ method: "GET", route, mode: "stall" as const, times: 5 })));
    const r = await p.cli(["plan"]);
    expect(r.code).toBe(1);
    expect(r.stderr).toContain(refusal);
    // The first request of each list was sent and dropped; nothing after it.
    expect(requests().byRoute).toEqual(Object.fromEntries(["/channels", ...lists].map((route) => [`GET ${route}`, 1])));
  }, 10_000);

  it("a name the config alone proves wrong (close to one versions: lists) refuses with the manifests; reads under way are dropped", async () => {
    p = await testProject({ config: (u) => config({ ...u, prod: u.demo! }, "versions: { Klingon: 9 }"), files: { ...klingon } });
    await p.write("catalogue/brands.yaml", "brands:\n  - name: Acme\n    versions: { Klingonn: { desc: Qapla } }\n");
    p.emulator.setFaults({ latencyMs: SLOW_MS });
    for (const args of [
      ["plan", "--tenant", "demo"],
      ["apply", "--auto-approve", "--tenant", "demo"],
    ]) {
      p.emulator.resetStats();
      const r = await p.cli(args);
      expect(r.code, args.join(" ")).toBe(1);
      expect(r.stderr).toContain('unknown language version "Klingonn": the config lists "Klingon"');
      // apply loads the manifests before it connects; plan overlaps its first lists with the load and drops them.
      for (const [route, n] of Object.entries(requests().byRoute)) expect(n, route).toBe(1);
      if (args[0] === "apply") expect(requests().total).toBe(0);
    }
  });
});
