/**
 * A fleet of tenants (issue 35, part A) over HTTP against several emulator tenants: --tenant names
 * and globs, `pimctl tenants`, overlays composed per tenant and applied to their own tenant only,
 * validate per tenant with errors naming tenant and file:line, state show and translations status
 * over several, and one-tenant commands refusing a glob that selects several.
 */
import { readFile } from "node:fs/promises";
import path from "node:path";
import { afterEach, describe, expect, it } from "vitest";
import { testProject, type TestProject } from "../helpers/project.js";
import { updateBrand } from "../../src/emulator/kinds/brands.js";

const TENANTS = ["prod-eu", "prod-us", "staging-eu"];
let p: TestProject;
afterEach(async () => p?.close());

const config = (urls: Record<string, string>, extra = "") =>
  [
    "dir: catalogue",
    "overlays: overlays",
    "rollout:",
    "  - ['staging-*']",
    "  - [prod-eu]",
    "tenants:",
    ...TENANTS.flatMap((n) => [`  ${n}:`, `    base_url: ${urls[n]}`, `    token_env: PIMCTL_${n.toUpperCase()}_TOKEN`]),
    extra,
  ].join("\n");

const BASE = {
  "catalogue/groups.yaml": "display_groups:\n  - name: Basics\n  - name: Technical\n",
  "catalogue/brands.yaml": "brands:\n  - name: Acme\n    desc: Tools\n  - name: Globex\n    desc: Everything\n",
};

async function fleet(files: Record<string, string> = {}, extra = ""): Promise<TestProject> {
  p = await testProject({ tenants: TENANTS, config: (urls) => config(urls, extra), files: { ...BASE, ...files } });
  return p;
}

const US_OVERLAY = "brands:\n  - name: Acme\n    desc: Tools (US)\n  - name: Globex\n    $remove: true\n  - name: Initech\n    desc: US only\n";

describe("fleets: tenants and overlays", () => {
  it("pimctl tenants lists the selection with waves, as text and as a matrix's JSON", async () => {
    await fleet({ "overlays/prod-us/brands.yaml": US_OVERLAY });
    const json = await p.cli(["tenants", "--format", "json"]);
    expect(json.code).toBe(0);
    // In rollout order, as the text lists them (a matrix's jobs start in that order).
    expect(JSON.parse(json.stdout)).toEqual({
      tenants: [
        { name: "staging-eu", wave: 1 },
        { name: "prod-eu", wave: 2 },
        { name: "prod-us", wave: 3 },
      ],
      waves: [["staging-eu"], ["prod-eu"], ["prod-us"]],
    });
    const prod = await p.cli(["tenants", "--tenant", "prod-*"]);
    expect(prod.stdout).toBe("wave  tenant   overlay\n1     prod-eu  -\n2     prod-us  overlays/prod-us\n");
    const none = await p.cli(["tenants", "--tenant", "qa-*"]);
    expect(none.code).toBe(1);
    expect(none.stderr).toContain('--tenant "qa-*" matches no configured tenant');
    expect(none.stderr).toContain("configured tenants: prod-eu, prod-us, staging-eu");
  });

  it("plans and applies each tenant's composed catalogue to that tenant alone", async () => {
    await fleet({ "overlays/prod-us/brands.yaml": US_OVERLAY });
    const us = await p.cli(["apply", "--tenant", "prod-us", "--auto-approve"]);
    expect(us.code).toBe(0);
    const eu = await p.cli(["apply", "--tenant", "prod-e*", "--auto-approve"]);
    expect(eu.code).toBe(0);
    const names = (t: string) => [...p.emulator.store(t).brands.values()].map((b) => `${b.name}: ${b.desc}`).sort();
    expect(names("prod-us")).toEqual(["Acme: Tools (US)", "Initech: US only"]);
    expect(names("prod-eu")).toEqual(["Acme: Tools", "Globex: Everything"]);
    expect(names("staging-eu")).toEqual([]);
    const again = await p.cli(["plan", "--tenant", "prod-us", "--detailed-exitcode"]);
    expect(again.code).toBe(0);
  });

  it("validate checks every selected tenant's composed catalogue; errors name the tenants and the file:line that caused them", async () => {
    await fleet({
      "overlays/prod-us/brands.yaml": "brands:\n  - name: Acme\n    excluded: maybe\n  - { name: Hooli, $remove: true }\n",
      "catalogue/sets.yaml": "attribute_sets:\n  - name: Shoes\n    attributes: [Size]\n",
    });
    const r = await p.cli(["validate", "--tenant", "*"]);
    expect(r.code).toBe(1);
    const lines = r.stderr.split("\n");
    expect(lines).toContain(
      'error: prod-us: overlays/prod-us/brands.yaml:4:5: $remove: the base declares no brand "Hooli" here, so there is nothing to remove',
    );
    expect(lines.some((l) => /^error: prod-us: overlays\/prod-us\/brands\.yaml:3:15: .*excluded/.test(l))).toBe(true);
    expect(lines.some((l) => l.startsWith("error: prod-eu, prod-us, staging-eu: catalogue/sets.yaml:3:18: ") && l.includes("Size"))).toBe(true);
    const json = await p.cli(["validate", "--tenant", "prod-*", "--format", "json"]);
    const problems = JSON.parse(json.stdout) as { errors: Array<{ tenants?: string[]; file?: string }> };
    expect(problems.errors.find((e) => e.file === "overlays/prod-us/brands.yaml")!.tenants).toEqual(["prod-us"]);
  });

  it("validate of several tenants that are fine says so per tenant; of one, exactly as before", async () => {
    await fleet({ "overlays/prod-us/brands.yaml": US_OVERLAY });
    const all = await p.cli(["validate", "--tenant", "prod-eu,prod-us"]);
    expect(all.code).toBe(0);
    expect(all.stderr).toBe(
      "OK: prod-eu: 2 files in catalogue: 2 display groups, 2 brands\nOK: prod-us: 2 files in catalogue, 1 in overlays/prod-us: 2 display groups, 2 brands\n",
    );
    const one = await p.cli(["validate", "--tenant", "prod-eu"]);
    expect(one.stderr).toBe("OK: 2 files in catalogue: 2 display groups, 2 brands\n");
  });

  it("a one-tenant command refuses a glob that selects several, naming them", async () => {
    await fleet({ "overlays/prod-us/brands.yaml": US_OVERLAY });
    const r = await p.cli(["export", "--tenant", "prod-*", "--out", "exported"]);
    expect(r.code).toBe(1);
    expect(r.stderr).toContain('works on one tenant, and --tenant "prod-*" selects 2: prod-eu, prod-us');
    const typo = await p.cli(["ping", "--tenant", "prod-uss"]);
    expect(typo.stderr).toContain('tenant "prod-uss" is not configured');
  });

  it("state show and translations status over several tenants, one after another, each named", async () => {
    await fleet({ "overlays/prod-us/brands.yaml": "brands:\n  - name: Acme\n    versions: { French: { desc: Outils } }\n" });
    const shown = await p.cli(["state", "show", "--tenant", "prod-*", "--offline"]);
    expect(shown.code).toBe(0);
    expect(shown.stdout).toMatch(/^State of tenant "prod-eu" \(.*\): nothing stored yet\n\nState of tenant "prod-us" \(.*\): nothing stored yet\n$/);
    const json = JSON.parse((await p.cli(["state", "show", "--tenant", "prod-*", "--offline", "--json"])).stdout) as { tenants: Array<{ tenant: string }> };
    expect(json.tenants.map((t) => t.tenant)).toEqual(["prod-eu", "prod-us"]);
    const status = await p.cli(["translations", "status", "--tenant", "prod-*", "--format", "json"]);
    expect(status.code).toBe(0);
    const reports = JSON.parse(status.stdout) as { tenants: Array<{ tenant: string; versions: Array<{ version: string }> }> };
    expect(reports.tenants.map((t) => [t.tenant, t.versions.map((v) => v.version)])).toEqual([
      ["prod-eu", []],
      ["prod-us", ["French"]],
    ]);
    // Each tenant's entry is its own status document as one tenant's --format json prints it, named.
    for (const t of reports.tenants) {
      const one = await p.cli(["translations", "status", "--tenant", t.tenant, "--format", "json"]);
      expect(JSON.stringify(t)).toBe(JSON.stringify({ tenant: t.tenant, ...(JSON.parse(one.stdout) as object) }));
    }
  });
});

describe("fleets: export --merge with overlays", () => {
  it("merges into the base from a tenant without an overlay (overlay folders inside dir: untouched), and from one with an overlay", async () => {
    p = await testProject({
      tenants: TENANTS,
      config: (urls) => config(urls).replace("overlays: overlays", "overlays: catalogue/overlays"),
      files: { ...BASE, "catalogue/overlays/prod-us/brands.yaml": US_OVERLAY },
    });
    expect((await p.cli(["apply", "--tenant", "prod-us", "--auto-approve"])).code).toBe(0);
    // A tenant with an overlay at its overlay's values: nothing to write anywhere (test/cli/export-merge-overlay.test.ts has the rest).
    const same = await p.cli(["export", "--tenant", "prod-us", "--out", "catalogue", "--merge"]);
    expect(same.code, same.stderr).toBe(0);
    expect(same.stderr).toContain("the manifests already match the tenant; nothing written");
    const overlayBefore = await readFile(path.join(p.dir, "catalogue/overlays/prod-us/brands.yaml"), "utf8");
    expect(overlayBefore).toBe(US_OVERLAY);
    expect((await p.cli(["apply", "--tenant", "prod-eu", "--auto-approve"])).code).toBe(0);
    const eu = p.emulator.store("prod-eu");
    updateBrand(eu, eu.brandByName.get("Acme")!, { desc: "Tools, by hand" });
    const merged = await p.cli(["export", "--tenant", "prod-eu", "--out", "catalogue", "--merge"]);
    expect(merged.code).toBe(0);
    expect(await readFile(path.join(p.dir, "catalogue/brands.yaml"), "utf8")).toContain("desc: Tools, by hand");
    expect(await readFile(path.join(p.dir, "catalogue/overlays/prod-us/brands.yaml"), "utf8")).toBe(overlayBefore);
  });
});
