/**
 * `export --merge --tenant X` into the base when X's overlay folder is another tenant's too
 * (`tenants.X.overlay` and `tenants.Y.overlay` naming one folder): what the merge writes to the
 * overlay, Y reads as well, so it is refused before the tenant is read, naming Y. Over HTTP
 * against emulator tenants.
 */
import { readFile, symlink } from "node:fs/promises";
import path from "node:path";
import { afterEach, describe, expect, it } from "vitest";
import { testProject, type TestProject } from "../helpers/project.js";
import { updateBrand } from "../../src/emulator/kinds/brands.js";

let p: TestProject;
afterEach(async () => p?.close());

const BASE = "brands:\n  - name: Acme\n    desc: Tools\n  - name: Globex\n    desc: Everything\n";
const NA = "brands:\n  - name: Acme\n    desc: Tools for North America\n";

/** prod-eu reads the base alone; prod-us and prod-ca each name an overlay folder (`us` and `ca`). */
async function fleet(folders: { us: string; ca: string }, extra: Record<string, string> = {}): Promise<TestProject> {
  const tenants = ["prod-ca", "prod-eu", "prod-us"];
  const overlay: Record<string, string | undefined> = { "prod-us": folders.us, "prod-ca": folders.ca };
  const config = (urls: Record<string, string>) =>
    [
      "dir: catalogue",
      "tenants:",
      ...tenants.flatMap((n) => [
        `  ${n}:`,
        `    base_url: ${urls[n]}`,
        `    token_env: PIMCTL_${n.toUpperCase()}_TOKEN`,
        ...(overlay[n] ? [`    overlay: ${overlay[n]}`] : []),
      ]),
      "",
    ].join("\n");
  p = await testProject({ tenants, config, files: { "catalogue/brands.yaml": BASE, "overlays/na/brands.yaml": NA, ...extra } });
  return p;
}

const read = (f: string) => readFile(path.join(p.dir, f), "utf8");
const acme = (tenant: string) => [...p.emulator.store(tenant).brands.values()].find((b) => b.name === "Acme")!;

describe("export --merge into the base for a tenant whose overlay folder another tenant reads too", () => {
  it("is refused before the tenant is read, naming the other tenant and what to do; nothing is written", async () => {
    await fleet({ us: "overlays/na", ca: "overlays/na" });
    for (const t of ["prod-us", "prod-ca"]) expect((await p.cli(["apply", "--tenant", t, "--auto-approve"])).code).toBe(0);
    updateBrand(p.emulator.store("prod-us"), acme("prod-us").id, { desc: "Tools for the USA only" });
    const before = p.emulator.stats().requests.total;
    const r = await p.cli(["export", "--tenant", "prod-us", "--out", "catalogue", "--merge"]);
    expect(r.code, r.stderr).toBe(1);
    expect(r.stderr).toContain('tenant "prod-us"\'s overlay folder overlays/na is read by prod-ca too');
    expect(r.stderr).toContain("give prod-us an overlay folder of its own");
    expect(p.emulator.stats().requests.total).toBe(before);
    expect(await read("overlays/na/brands.yaml")).toBe(NA);
    expect(await read("catalogue/brands.yaml")).toBe(BASE);
  });

  it("compares real paths: a folder named two ways (a symbolic link, a trailing ./) is one folder", async () => {
    await fleet({ us: "overlays/na", ca: "na-link/." });
    await symlink("overlays/na", path.join(p.dir, "na-link"));
    const r = await p.cli(["export", "--tenant", "prod-us", "--out", "catalogue", "--merge"]);
    expect(r.code, r.stderr).toBe(1);
    expect(r.stderr).toContain("is read by prod-ca too");
    expect(await read("overlays/na/brands.yaml")).toBe(NA);
  });

  it("takes a folder inside another tenant's overlay folder for shared: the outer tenant reads the inner one's files too", async () => {
    await fleet({ us: "overlays/na/us", ca: "overlays/na" }, { "overlays/na/us/brands.yaml": "brands:\n  - name: Globex\n    desc: US\n" });
    const r = await p.cli(["export", "--tenant", "prod-us", "--out", "catalogue", "--merge"]);
    expect(r.code, r.stderr).toBe(1);
    expect(r.stderr).toContain('tenant "prod-us"\'s overlay folder overlays/na/us is read by prod-ca too');
    const outer = await p.cli(["export", "--tenant", "prod-ca", "--out", "catalogue", "--merge"]);
    expect(outer.code, outer.stderr).toBe(1);
    expect(outer.stderr).toContain('tenant "prod-ca"\'s overlay folder overlays/na is read by prod-us too');
  });

  it("merges as before when each tenant has a folder of its own", async () => {
    await fleet({ us: "overlays/na", ca: "overlays/ca" }, { "overlays/ca/brands.yaml": "brands:\n  - name: Acme\n    desc: Outils\n" });
    for (const t of ["prod-us", "prod-ca"]) expect((await p.cli(["apply", "--tenant", t, "--auto-approve"])).code).toBe(0);
    updateBrand(p.emulator.store("prod-us"), acme("prod-us").id, { desc: "Tools for the USA only" });
    const r = await p.cli(["export", "--tenant", "prod-us", "--out", "catalogue", "--merge"]);
    expect(r.code, r.stderr).toBe(0);
    expect(await read("overlays/na/brands.yaml")).toBe(NA.replace("Tools for North America", "Tools for the USA only"));
    expect(await read("overlays/ca/brands.yaml")).toContain("desc: Outils");
  });
});
