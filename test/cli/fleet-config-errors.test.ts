/**
 * What a hostile review of fleets found in the config, the tenant selection and the overlays (issue 35,
 * review of part A): an `overlays:` folder that does not exist, --tenant values and rollout globs that
 * crashed, a bare validate that skipped the overlays, an overlay's error blamed on the base alone.
 * Over HTTP against several emulator tenants; the emulator counts that a refused run read nothing.
 */
import { mkdir, readFile } from "node:fs/promises";
import path from "node:path";
import { afterEach, describe, expect, it } from "vitest";
import { testProject, type TestProject } from "../helpers/project.js";

const TENANTS = ["prod-eu", "prod-us"];
let p: TestProject;
afterEach(async () => p?.close());

const config =
  (top: string[], own: (n: string) => string[] = () => []) =>
  (urls: Record<string, string>) =>
    [
      "dir: catalogue",
      ...top,
      "tenants:",
      ...TENANTS.flatMap((n) => [`  ${n}:`, `    base_url: ${urls[n]}`, `    token_env: PIMCTL_${n.toUpperCase()}_TOKEN`, ...own(n)]),
      "",
    ].join("\n");

const BRANDS = "brands:\n  - name: Acme\n    desc: Tools\n  - name: Globex\n    desc: Everything\n";
const US_OVERLAY = "brands:\n  - name: Globex\n    $remove: true\n  - name: Initech\n    desc: US only\n";

async function fleet(top: string[], files: Record<string, string> = {}, own?: (n: string) => string[]): Promise<TestProject> {
  p = await testProject({ tenants: TENANTS, config: config(top, own), files: { "catalogue/brands.yaml": BRANDS, ...files } });
  return p;
}

const COMMANDS: string[][] = [
  ["validate"],
  ["validate", "--tenant", "*"],
  ["validate", "--tenant", "prod-us"],
  ["plan", "--tenant", "prod-us"],
  ["plan", "--tenant", "*"],
  ["apply", "--tenant", "prod-us", "--auto-approve"],
  ["apply", "--tenant", "prod-*", "--auto-approve"],
  ["drift", "--tenant", "prod-eu"],
  ["tenants"],
];

describe("fleet config: overlay folders", () => {
  it("an overlays: folder that does not exist refuses every command, single tenant too, once, at its line, before any request", async () => {
    await fleet(["overlays: overlay", "prune:", "  brands: owned"], { "overlays/prod-us/brands.yaml": US_OVERLAY });
    p.emulator.resetStats();
    for (const args of COMMANDS) {
      const r = await p.cli(args);
      expect(r.code, args.join(" ")).toBe(1);
      expect(r.stderr, args.join(" ")).toBe(
        "error: pimctl.yaml:2:11: overlays: the folder overlay does not exist, so no tenant would get its overlay; create it, or correct the path\n1 error\n",
      );
    }
    expect(p.emulator.stats().requests.total).toBe(0);
  });

  it("a tenants.X.overlay folder that does not exist, and a folder under overlays: that names no tenant: config errors, once, no tenant prefix", async () => {
    await fleet(["overlays: overlays"], { "overlays/prod-uss/brands.yaml": US_OVERLAY }, (n) => (n === "prod-eu" ? ["    overlay: eu-overlay"] : []));
    p.emulator.resetStats();
    for (const args of [["validate", "--tenant", "*"], ["plan", "--tenant", "prod-us"], ["tenants"]]) {
      const r = await p.cli(args);
      expect(r.code, args.join(" ")).toBe(1);
      expect(r.stderr.split("\n"), args.join(" ")).toEqual([
        "error: pimctl.yaml:2:11: the overlay folder overlays/prod-uss names no configured tenant",
        "  did you mean: prod-us?",
        'error: pimctl.yaml:7:14: tenant "prod-eu": its overlay folder eu-overlay does not exist',
        "2 errors",
        "",
      ]);
    }
    expect(p.emulator.stats().requests.total).toBe(0);
  });

  it("a manifest written directly under overlays:, and an overlay: that is a file, are config errors, not the base alone", async () => {
    await fleet(["overlays: overlays"], { "overlays/prod-us.yaml": US_OVERLAY, "overlays/README.md": "one folder per tenant\n", "eu.yaml": "" }, (n) =>
      n === "prod-eu" ? ["    overlay: eu.yaml"] : [],
    );
    const r = await p.cli(["validate", "--tenant", "prod-us"]);
    expect(r.code).toBe(1);
    expect(r.stderr.split("\n")).toEqual([
      "error: pimctl.yaml:2:11: overlays/prod-us.yaml is a manifest directly under overlays:, which holds one folder per tenant: it is not read",
      "  did you mean: overlays/prod-us/prod-us.yaml (a file of tenant prod-us's overlay)?",
      'error: pimctl.yaml:7:14: tenant "prod-eu": its overlay folder eu.yaml is a file, not a folder',
      "2 errors",
      "",
    ]);
  });

  it("an overlays: folder that exists with no folder for a tenant gives that tenant the base alone", async () => {
    await fleet(["overlays: overlays"]);
    await mkdir(path.join(p.dir, "overlays"));
    const r = await p.cli(["validate", "--tenant", "*"]);
    expect(r.code, r.stderr).toBe(0);
  });
});

describe("fleet config: --tenant given more than once", () => {
  const twice = ["--tenant", "prod-eu", "--tenant", "prod-us"];
  const listed = ["--tenant", "prod-eu,prod-us"];

  it("is the comma-separated list on every command that takes several tenants: the same output as --tenant a,b", async () => {
    await fleet([]);
    const several = [["validate"], ["plan"], ["drift"], ["state", "show", "--offline"], ["translations", "status"], ["tenants", "--format", "json"]];
    for (const command of several) {
      const a = await p.cli([...command, ...twice]);
      const b = await p.cli([...command, ...listed]);
      expect(a.stderr, command.join(" ")).not.toContain("internal error");
      // drift says when it checked: two runs a second apart differ there alone.
      const same = (out: string) => out.replace(/\d{4}-\d\d-\d\dT[\d:.]+Z/g, "<time>");
      expect([a.code, same(a.stdout)], command.join(" ")).toEqual([b.code, same(b.stdout)]);
      expect(a.code, `${command.join(" ")}: ${a.stderr}`).toBe(0);
    }
    const applied = await p.cli(["apply", ...twice, "--auto-approve"]);
    expect(applied.code, applied.stderr).toBe(0);
    expect(applied.stderr).toMatch(/Rollout: 2 applied/);
  });

  it("is refused on every command that works on one tenant, naming the tenants it selects", async () => {
    // With overlays, the translations commands read the tenant's composed manifests: one tenant.
    await fleet(["overlays: overlays"], { "overlays/prod-us/brands.yaml": US_OVERLAY });
    await p.write("ledger.json", "{}\n");
    await p.write("fr.po", 'msgid ""\nmsgstr ""\n');
    const single = [
      ["export", "--out", "exported"],
      ["doctor"],
      ["ping"],
      ["state", "pull"],
      ["state", "push", "ledger.json"],
      ["state", "migrate", "--to", "git"],
      ["state", "rm", 'brand["Acme"]'],
      ["state", "unlock", "6f1c2a9e"],
      ["translations", "export", "--language", "French"],
      ["translations", "import", "fr.po"],
      ["translations", "mark-reviewed", "--all"],
    ];
    for (const command of single) {
      const r = await p.cli([...command, ...twice]);
      expect(r.code, command.join(" ")).toBe(1);
      expect(r.stderr, command.join(" ")).toMatch(/works on one tenant, and --tenant "prod-eu,prod-us" selects 2: prod-eu, prod-us\n/);
    }
    const init = await p.cli(["init", "--config", "other.yaml", "--dir", "other", ...twice, "--base-url", "http://127.0.0.1:1/api/v1"]);
    expect(init.code).toBe(1);
    expect(init.stderr).toContain("error: --tenant is given 2 times: init writes one tenant, so name it once\n");
    expect(p.emulator.stats().requests.total).toBe(0);
  });
});

describe("fleet config: validate without --tenant", () => {
  it("with overlays configured checks every tenant's composed catalogue, as --tenant '*' does", async () => {
    await fleet(["overlays: overlays"], { "overlays/prod-us/brands.yaml": "brands:\n  - name: [broken\n" });
    const bare = await p.cli(["validate"]);
    expect(bare.code).toBe(1);
    expect(bare.stderr).toMatch(/^error: prod-us: overlays\/prod-us\/brands\.yaml:3:1: YAML syntax: /);
    expect(bare.stderr).toBe((await p.cli(["validate", "--tenant", "*"])).stderr);
    await p.write("overlays/prod-us/brands.yaml", US_OVERLAY);
    const ok = await p.cli(["validate"]);
    expect(ok.code, ok.stderr).toBe(0);
    expect(ok.stderr).toBe("OK: prod-eu: 1 file in catalogue: 2 brands\nOK: prod-us: 1 file in catalogue, 1 in overlays/prod-us: 2 brands\n");
    // One tenant: the overlay's files counted apart from the base's (they were counted "in catalogue").
    const one = await p.cli(["validate", "--tenant", "prod-us"]);
    expect(one.stderr).toBe("OK: 1 file in catalogue, 1 in overlays/prod-us: 2 brands\n");
  });

  it("without overlays is what it always was: the base, once", async () => {
    await fleet([]);
    const r = await p.cli(["validate"]);
    expect([r.code, r.stderr]).toEqual([0, "OK: 1 file in catalogue: 2 brands\n"]);
  });
});

describe("fleet config: export into an overlay folder", () => {
  it("is refused before anything is read, naming whose folder it is, in every mode", async () => {
    await fleet(["overlays: overlays"], { "overlays/prod-us/brands.yaml": US_OVERLAY });
    p.emulator.resetStats();
    for (const [out, mode] of [
      ["overlays/prod-us", "--merge"],
      ["overlays/prod-us", "--force"],
      ["overlays/prod-us/more", "--merge"],
      ["overlays", "--merge"],
    ] as const) {
      const r = await p.cli(["export", "--tenant", "prod-us", "--out", out, mode]);
      expect(r.code, `${out} ${mode}`).toBe(1);
      const whose = out === "overlays" ? "the folder of the tenants' overlay folders (overlays:)" : 'in tenant "prod-us"\'s overlay folder (overlays/prod-us)';
      expect(r.stderr, `${out} ${mode}`).toContain(`error: export --out ${out}: this is ${whose}, and an export into an overlay folder is not supported`);
      expect(r.stderr).toContain("merge into the base: pimctl export --tenant prod-us --out catalogue --merge");
      expect(r.stderr).not.toContain("$remove");
    }
    expect(p.emulator.stats().requests.total).toBe(0);
    expect(await readFile(path.join(p.dir, "overlays/prod-us/brands.yaml"), "utf8")).toBe(US_OVERLAY);
  });
});
