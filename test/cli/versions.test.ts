/** Config versions: never override what the tenant's channels publish, and never hide what they publish. */
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { testProject, type TestProject } from "../helpers/project.js";
import type { Plan } from "../../src/plan/types.js";

// The emulator's channels publish French as version 2 and German as 3.
const manifests = "attributes:\n  - name: Colour\n    type: selectbox\n    versions: { French: { name: Couleur }, German: { name: Farbe } }\n";
let p: TestProject;
beforeAll(async () => {
  p = await testProject({ files: { "catalogue/a.yaml": manifests } });
});
afterAll(async () => p.close());

const config = (versions: string) =>
  ["dir: catalogue", versions, "tenants:", "  demo:", `    base_url: ${p.emulator.tenantUrl("demo")}`, "    token_env: PIMCTL_DEMO_TOKEN", ""].join("\n");

describe("versions: in pimctl.yaml against the tenant's channels", () => {
  it("a config id that contradicts a channel is an error naming both ids (exit 1), nothing planned", async () => {
    await p.write("pimctl.yaml", config("versions: { French: 2, German: 7 }"));
    const r = await p.cli(["plan"]);
    expect(r.code).toBe(1);
    expect(r.stderr).toContain(
      'versions: in pimctl.yaml maps language version "German" to id 7, but the tenant\'s channel "Shop DE" publishes "German" as version id 3',
    );
  });

  it("a partial versions: fills only what channels do not publish; channel-published names stay known", async () => {
    await p.write("pimctl.yaml", config("versions: { German: 3, Spanish: 9 }"));
    const v = await p.cli(["validate"]);
    expect(v.code, v.stderr).toBe(0);
    const r = await p.cli(["plan", "--format", "json"]);
    expect(r.code, r.stderr).toBe(0);
    expect((JSON.parse(r.stdout) as Plan).version_ids).toEqual({ French: 2, German: 3 });
  });

  it("validate accepts names it cannot check offline; plan checks them against the channels", async () => {
    await p.write("pimctl.yaml", config("versions: { German: 3 }"));
    await p.write("catalogue/a.yaml", "attributes:\n  - name: Colour\n    type: selectbox\n    versions: { Klingon: { name: Farbe } }\n");
    const v = await p.cli(["validate"]);
    expect(v.code, v.stderr).toBe(0);
    const r = await p.cli(["plan"]);
    expect(r.code).toBe(1);
    // At the entry that names it: a person finds the line to fix.
    expect(r.stderr).toContain(
      'catalogue/a.yaml:2:5: language version "Klingon" is not published by any channel of tenant "demo" and not mapped in the config',
    );
    // The names it could have been: every one the channels publish, not only those the manifests asked for.
    expect(r.stderr).toMatch(/known versions: .*French.*; map it under versions:/);
    expect(r.stderr).not.toContain("known versions: (none)");
    await p.write("catalogue/a.yaml", manifests);
  });
});
