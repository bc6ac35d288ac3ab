/**
 * A saved plan carries everything that decided it and is applied only where it
 * was made: every prune form the config accepts round-trips through the file,
 * and a plan made for one tenant is refused for another (tenant name and base
 * URL, compared normalised), before anything is read from the tenant.
 */
import { readFileSync } from "node:fs";
import path from "node:path";
import { afterEach, describe, expect, it } from "vitest";
import { testProject, type TestProject } from "../helpers/project.js";
import type { Plan } from "../../src/plan/types.js";
import { createBrand } from "../../src/emulator/kinds/brands.js";

let p: TestProject;
afterEach(async () => p.close());

function config(url: string, prune: string, extraTenants: string[] = []): string {
  return ["dir: catalogue", "tenants:", "  demo:", `    base_url: ${url}`, "    token_env: PIMCTL_DEMO_TOKEN", ...extraTenants, prune, ""].join("\n");
}

const brandNames = (): string[] => [...p.emulator.store("demo").brands.values()].map((b) => b.name).sort();

describe("saved plans carry every prune form the config accepts", () => {
  const forms: Array<[string, string, string[]]> = [
    // prune line, what the basis holds, the brands left after plan --out then apply FILE
    ["prune: { brands: owned }", '{"brands":"owned"}', ["Acme", "Hand Made"]],
    ["prune: { brands: true, categories: false }", '{"brands":true,"categories":false}', ["Acme"]],
    ["prune: { brands: false }", '{"brands":false}', ["Acme", "Hand Made", "Zenith"]],
    ["prune:\n  brands: owned\n  assets: owned\n  categories: true", '{"assets":"owned","brands":"owned","categories":true}', ["Acme", "Hand Made"]],
  ];
  for (const [prune, basis, left] of forms) {
    it(`${prune.replace(/\n\s*/g, " ")}: plan --out, then apply FILE`, async () => {
      p = await testProject({ files: { "catalogue/brands.yaml": "brands:\n  - name: Acme\n  - name: Zenith\n" } });
      await p.write("pimctl.yaml", config(p.emulator.tenantUrl("demo"), prune));
      expect((await p.cli(["apply", "--auto-approve"])).code).toBe(0);
      createBrand(p.emulator.store("demo"), { name: "Hand Made" });
      await p.write("catalogue/brands.yaml", "brands:\n  - name: Acme\n");
      const planned = await p.cli(["plan", "--allow-delete", "--out", "plan.json", "--quiet"]);
      expect(planned.code, planned.stderr).toBe(0);
      const saved = JSON.parse(readFileSync(path.join(p.dir, "plan.json"), "utf8")) as Plan;
      expect(JSON.stringify(Object.fromEntries(Object.entries(saved.basis!.prune).sort()))).toBe(basis);
      const applied = await p.cli(["apply", "plan.json"]);
      expect(applied.code, applied.stderr).toBe(0);
      expect(brandNames()).toEqual(left);
    });
  }
});

describe("a saved plan is applied only to the tenant it was made for", () => {
  async function twoTenants(second: (url: string) => string): Promise<void> {
    p = await testProject({ files: { "catalogue/brands.yaml": "brands:\n  - name: Acme\n" } });
    const url = p.emulator.tenantUrl("demo");
    await p.write("pimctl.yaml", config(url, "", ["  demo2:", `    base_url: ${second(url)}`, "    token_env: PIMCTL_DEMO_TOKEN"]));
  }

  it("a plan for tenant demo is refused for tenant demo2 whose base URL differs by a trailing slash; nothing is read or written", async () => {
    await twoTenants((url) => `${url}/`);
    expect((await p.cli(["plan", "--tenant", "demo", "--out", "plan.json", "--quiet"])).code).toBe(0);
    p.emulator.resetStats();
    const r = await p.cli(["apply", "plan.json", "--tenant", "demo2"]);
    expect(r.code).toBe(5);
    const url = p.emulator.tenantUrl("demo");
    expect(r.stderr).toContain(`plan.json was made for tenant "demo" at ${url}, not tenant "demo2" at ${url}`);
    expect(p.emulator.stats().requests.total).toBe(0);
    expect(brandNames()).toEqual([]);
    // The tenant it was made for (named, or taken from the plan) takes it.
    const ok = await p.cli(["apply", "plan.json"]);
    expect(ok.code, ok.stderr).toBe(0);
    expect(brandNames()).toEqual(["Acme"]);
  });

  it("the same tenant whose base_url is written differently (trailing slashes, case of the scheme) is the same tenant", async () => {
    await twoTenants((url) => url);
    expect((await p.cli(["plan", "--tenant", "demo", "--out", "plan.json", "--quiet"])).code).toBe(0);
    const url = p.emulator.tenantUrl("demo");
    await p.write("pimctl.yaml", config(`${url.replace("http://", "HTTP://")}//`, ""));
    const r = await p.cli(["apply", "plan.json"]);
    expect(r.code, r.stderr).toBe(0);
    expect(brandNames()).toEqual(["Acme"]);
  });

  it("a plan for another address under the same tenant name is refused, naming both addresses", async () => {
    await twoTenants((url) => url);
    expect((await p.cli(["plan", "--tenant", "demo", "--out", "plan.json", "--quiet"])).code).toBe(0);
    const url = p.emulator.tenantUrl("demo");
    const moved = url.replace("/demo/", "/demo2/");
    await p.write("pimctl.yaml", config(moved, ""));
    p.emulator.resetStats();
    const r = await p.cli(["apply", "plan.json"]);
    expect(r.code).toBe(5);
    expect(r.stderr).toContain(`plan.json was made for tenant "demo" at ${url}, not tenant "demo" at ${moved}`);
    expect(p.emulator.stats().requests.total).toBe(0);
  });
});
