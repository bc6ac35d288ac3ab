/**
 * A team that starts with `pimctl init` on a tenant that already holds a catalogue: `export`
 * into the manifest folder was refused because of init's sample manifest. Now export replaces the
 * sample while it is untouched (recognised by its content hash), and `init --from-tenant` exports
 * the tenant instead of writing the sample. Run through the CLI against the emulator.
 */
import { existsSync, readdirSync } from "node:fs";
import { readFile, rm, writeFile } from "node:fs/promises";
import path from "node:path";
import { afterEach, describe, expect, it } from "vitest";
import { testProject, type TestProject } from "../helpers/project.js";
import { SAMPLE_HASHES, sampleHash, sampleManifest } from "../../src/workflows/init-sample.js";
import { createBrand } from "../../src/emulator/kinds/brands.js";

describe("adopting an existing tenant after pimctl init", () => {
  let p: TestProject;
  afterEach(async () => p.close());

  /** A tenant holding records made by hand, and a project folder with nothing in it yet. */
  async function tenantWithCatalogue(): Promise<TestProject> {
    p = await testProject();
    const store = p.emulator.store("demo");
    createBrand(store, { name: "Acme", desc: "Tools since 1950" });
    createBrand(store, { name: "Zenith" });
    await rm(path.join(p.dir, "pimctl.yaml"));
    await rm(path.join(p.dir, "catalogue"), { recursive: true });
    return p;
  }
  const init = (...extra: string[]) =>
    p.cli(["init", "--tenant", "demo", "--base-url", p.emulator.tenantUrl("demo"), "--token-env", "PIMCTL_DEMO_TOKEN", ...extra]);

  it("export --out catalogue replaces init's untouched sample; the next plan has no changes", async () => {
    await tenantWithCatalogue();
    expect((await init()).code).toBe(0);
    const r = await p.cli(["export", "--out", "catalogue"]);
    expect(r.code, r.stderr).toBe(0);
    expect(r.stderr).toContain("replaced init's untouched sample catalogue/catalogue.yaml");
    const files = readdirSync(path.join(p.dir, "catalogue")).sort();
    expect(files).not.toContain("catalogue.yaml");
    expect(files).toContain("brands.yaml");
    expect(await readFile(path.join(p.dir, "catalogue", "brands.yaml"), "utf8")).toContain("Tools since 1950");
    const plan = await p.cli(["plan", "--detailed-exitcode"]);
    expect(plan.code, plan.stdout + plan.stderr).toBe(0);
  });

  it("a sample someone edited is a hand-written file: export refuses, as before, and keeps it", async () => {
    await tenantWithCatalogue();
    expect((await init()).code).toBe(0);
    const sample = path.join(p.dir, "catalogue", "catalogue.yaml");
    await writeFile(sample, (await readFile(sample, "utf8")).replace("- value: Blue", "- value: Green"));
    const r = await p.cli(["export", "--out", "catalogue"]);
    expect(r.code).toBe(1);
    expect(r.stderr).toContain("catalogue already holds manifests");
    expect(existsSync(sample)).toBe(true);
  });

  it("init --from-tenant exports the tenant instead of writing the sample", async () => {
    await tenantWithCatalogue();
    const r = await init("--from-tenant");
    expect(r.code, r.stderr).toBe(0);
    expect(r.stderr).toContain('exported tenant "demo" into catalogue');
    expect(existsSync(path.join(p.dir, "catalogue", "catalogue.yaml"))).toBe(false);
    expect(readdirSync(path.join(p.dir, "catalogue"))).toContain("brands.yaml");
    expect((await p.cli(["plan", "--detailed-exitcode"])).code).toBe(0);
  });

  it("the sample init writes today is one export recognises (a new sample adds its hash, never replaces one)", () => {
    expect(SAMPLE_HASHES).toContain(sampleHash(sampleManifest("../node_modules/pimctl/schemas/manifest.schema.json")));
    // The schema line's path differs per project and line endings per checkout: neither changes the hash.
    expect(sampleHash(sampleManifest("x.json").replace(/\n/g, "\r\n"))).toBe(sampleHash(sampleManifest("y.json")));
  });
});
