/**
 * plan --tenant with several tenants (issue 35, part B) over HTTP against emulator tenants: the
 * combined review folds what the tenants share, a tenant that cannot be reached (or answers 401)
 * is a row with its error while the others plan, and the exit code is the worst of them.
 */
import { readFileSync } from "node:fs";
import path from "node:path";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { schemaValidator, testProject, type TestProject } from "../helpers/project.js";

const TENANTS = ["prod-eu", "prod-us", "staging"];

const MANIFESTS = {
  "catalogue/groups.yaml": "display_groups:\n  - name: Shared\n    sort_order: 1\n",
  "catalogue/brands.yaml": "brands:\n  - name: Acme\n    desc: Tools for ${region}\n",
};

/** Each tenant with its region as a variable: the brand's text differs per tenant, the display group does not. */
function fleetProject(): Promise<TestProject> {
  return testProject({ tenants: TENANTS, tenantLines: (n) => [`    variables: { region: ${n.toUpperCase()} }`], files: MANIFESTS });
}

describe("plan --tenant GLOB: one combined review", () => {
  let p: TestProject;
  beforeAll(async () => {
    p = await fleetProject();
    // staging already has the display group: the shared change is in 2 of the 3 tenants.
    const applied = await p.cli(["apply", "--tenant", "staging", "--auto-approve", "--target", 'display_group["Shared"]']);
    expect(applied.stderr).not.toMatch(/error/);
    expect(applied.code).toBe(0);
  });
  afterAll(() => p.close());

  it("shows a change the same in several tenants once, with the tenants it applies to, and each tenant's own", async () => {
    const r = await p.cli(["plan", "--tenant", "*"]);
    expect(r.code).toBe(0);
    expect(r.stdout).toContain("Plan for 3 tenants");
    expect(r.stdout).toContain("Changes in 2 of 3 tenants: all but staging");
    expect(r.stdout.match(/display_group\["Shared"\]/g)).toHaveLength(1);
    // The brand's text differs in every tenant: once under each tenant.
    for (const n of TENANTS) {
      expect(r.stdout).toContain(`Tenant "${n}": Plan: ${n === "staging" ? 1 : 2} to create.\n  only in this tenant (1):\n  Brands (1 create)`);
      expect(r.stdout).toContain(`desc: "Tools for ${n.toUpperCase()}"`);
    }
    expect(r.stdout).toMatch(/^tenant\s+create\s+update/m);
    expect(r.stdout).toContain("Fleet of 3 tenants: 3 with changes.");
    expect(r.stderr).toMatch(/Planned 3 tenants in [\d.]+ s \(\d+ requests\)/);
  });

  it("folds the shared changes in markdown and says in how many tenants", async () => {
    const r = await p.cli(["plan", "--tenant", "prod-*,staging", "--format", "markdown"]);
    expect(r.stdout).toContain("<!-- pimctl-fleet-plan -->");
    expect(r.stdout).toContain("#### Changes in 2 of 3 tenants: all but staging");
    expect(r.stdout).toContain("| `prod-eu` | 2 | 0 | 0 | 0 | 0 | 0 |  |");
    expect(r.stdout).toContain("| `staging` | 1 | 0 | 0 | 0 | 0 | 0 |  |");
    expect(r.stdout).toContain("<details><summary><code>staging</code>: Plan: 1 to create.</summary>");
  });

  it("prints JSON that the fleet schema accepts, each tenant with its own exit code; the run's is the worst", async () => {
    const r = await p.cli(["plan", "--tenant", "*", "--format", "json", "--detailed-exitcode"]);
    expect(r.code).toBe(2);
    const fleet = JSON.parse(r.stdout) as { kind: string; tenants: Array<{ tenant: string; exit: number; plan?: { basis?: unknown } }>; waves: string[][] };
    const validate = schemaValidator("fleet-plan", ["plan"]);
    expect(validate(fleet), JSON.stringify(validate.errors)).toBe(true);
    expect(fleet.kind).toBe("fleet");
    expect(fleet.tenants.map((t) => [t.tenant, t.exit])).toEqual([
      ["prod-eu", 2],
      ["prod-us", 2],
      ["staging", 2],
    ]);
    expect(fleet.tenants[0]!.plan!.basis).toBeUndefined();
    expect(fleet.waves).toEqual([TENANTS]);
  });

  it("keeps one tenant's output as today when a glob selects one", async () => {
    const one = await p.cli(["plan", "--tenant", "prod-e*"]);
    const named = await p.cli(["plan", "--tenant", "prod-eu"]);
    expect(one.code).toBe(0);
    expect(one.stdout).toBe(named.stdout);
    expect(one.stdout).toMatch(/^Plan for tenant "prod-eu"/);
  });
});

describe("plan --tenant GLOB: a tenant that cannot be planned", () => {
  let p: TestProject;
  beforeAll(async () => {
    // down: nothing listens there; locked-out: its token is wrong (401).
    p = await fleetProject();
    const config = readFileSync(path.join(p.dir, "pimctl.yaml"), "utf8");
    await p.write(
      "pimctl.yaml",
      [
        config.trimEnd(),
        "  down:",
        "    base_url: http://127.0.0.1:9/api/v1",
        "    token_env: PIMCTL_DOWN_TOKEN",
        "    variables: { region: DOWN }",
        "  locked-out:",
        `    base_url: ${p.emulator.tenantUrl("staging")}`,
        "    token_env: PIMCTL_LOCKED_TOKEN",
        "    variables: { region: LOCKED }",
        "",
      ].join("\n"),
    );
    p.env.PIMCTL_DOWN_TOKEN = "whatever";
    p.env.PIMCTL_LOCKED_TOKEN = "not-the-token";
  });
  afterAll(() => p.close());

  it("is a row with its error while the others plan; exit 1, and JSON says each tenant's own", async () => {
    const r = await p.cli(["plan", "--tenant", "*", "--format", "json"]);
    expect(r.code).toBe(1);
    const fleet = JSON.parse(r.stdout) as { tenants: Array<{ tenant: string; exit: number; plan?: object; error?: { code: string; message: string } }> };
    const byName = Object.fromEntries(fleet.tenants.map((t) => [t.tenant, t]));
    expect(fleet.tenants.map((t) => t.tenant)).toEqual(["down", "locked-out", "prod-eu", "prod-us", "staging"]);
    expect(byName.down!.error!.code).toBe("api_connection");
    expect(byName.down!.exit).toBe(1);
    expect(byName["locked-out"]!.error!.code).toBe("api_unauthorized");
    for (const n of TENANTS) expect(byName[n]!.plan, n).toBeDefined();
    expect(r.stderr).toContain('error: tenant "down" could not be planned');
    expect(r.stderr).toContain('error: tenant "locked-out" could not be planned');
  }, 60_000);

  it("shows the failed tenants in the table of the text review", async () => {
    const r = await p.cli(["plan", "--tenant", "*", "--detailed-exitcode"]);
    expect(r.code).toBe(1);
    expect(r.stdout).toMatch(/^down\s+api_connection: /m);
    expect(r.stdout).toMatch(/^locked-out\s+api_unauthorized: /m);
    expect(r.stdout).toContain("Fleet of 5 tenants: 3 with changes, 2 could not be planned.");
    expect(r.stdout).toContain("Changes in all 3 tenants");
  }, 60_000);
});

describe("plan --tenant GLOB with overlays", () => {
  let p: TestProject;
  beforeAll(async () => {
    p = await testProject({
      tenants: TENANTS,
      configLines: ["overlays: overlays"],
      files: {
        "catalogue/brands.yaml": "brands:\n  - name: Acme\n    desc: Tools\n  - name: Globex\n    desc: Everywhere\n",
        // prod-us sells Globex under another text, and has a brand of its own.
        "overlays/prod-us/brands.yaml": "brands:\n  - name: Globex\n    desc: Everywhere in the US\n  - name: Initech\n    desc: US only\n",
      },
    });
  });
  afterAll(() => p.close());

  it("plans each tenant's composed catalogue: what the overlay changes is that tenant's own", async () => {
    const r = await p.cli(["plan", "--tenant", "*"]);
    expect(r.code, r.stderr).toBe(0);
    expect(r.stdout).toContain("Changes in all 3 tenants");
    expect(r.stdout).toContain("Changes in 2 of 3 tenants: all but prod-us");
    expect(r.stdout).toMatch(/Tenant "prod-us": Plan: 3 to create\.\n {2}only in this tenant \(2\):/);
    expect(r.stdout).toContain('desc: "Everywhere in the US"');
    expect(r.stdout.match(/brand\["Initech"\]/g)).toHaveLength(1);
  });
});
