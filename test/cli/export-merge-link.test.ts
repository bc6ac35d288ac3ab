/**
 * `export --merge --out PATH` where PATH reaches the base another way (a symbolic link to it): the
 * base, as its own spelling is. Read as another folder, the overlay's values and records were copied
 * into the shared base (a hostile review: every other tenant then planned them).
 */
import { readFile, symlink } from "node:fs/promises";
import path from "node:path";
import { afterEach, expect, it } from "vitest";
import { testProject, type TestProject } from "../helpers/project.js";
import { updateBrand } from "../../src/emulator/kinds/brands.js";

let p: TestProject | undefined;
afterEach(async () => {
  await p?.close();
  p = undefined;
});

const BASE = "brands:\n  - name: Acme\n    desc: Tools\n  - name: Globex\n    desc: Everything\n";
const US = "brands:\n  - name: Acme\n    desc: Tools (US)\n  - name: USOnly\n    desc: Only here\n";

it("a link to the base is the base: the overlay's values stay in the overlay, the base's in the base, and the other tenant plans only the base change", async () => {
  p = await testProject({
    tenants: ["prod-eu", "prod-us"],
    configLines: ["overlays: overlays"],
    files: { "catalogue/brands.yaml": BASE, "overlays/prod-us/brands.yaml": US },
  });
  const project = p;
  for (const t of ["prod-eu", "prod-us"]) expect((await project.cli(["apply", "--tenant", t, "--auto-approve", "-q"])).code).toBe(0);
  await symlink("catalogue", path.join(project.dir, "cat-link"));
  const us = project.emulator.store("prod-us");
  const byName = (name: string) => [...us.brands.values()].find((b) => b.name === name)!.id;
  updateBrand(us, byName("Acme"), { desc: "Tools for the USA" });
  updateBrand(us, byName("Globex"), { desc: "Everything, everywhere" });
  const r = await project.cli(["export", "--tenant", "prod-us", "--out", "cat-link", "--merge"]);
  expect(r.code, r.stderr).toBe(0);
  expect(await readFile(path.join(project.dir, "catalogue/brands.yaml"), "utf8")).toBe(BASE.replace("Everything", "Everything, everywhere"));
  expect(await readFile(path.join(project.dir, "overlays/prod-us/brands.yaml"), "utf8")).toBe(US.replace("Tools (US)", "Tools for the USA"));
  const eu = await project.cli(["plan", "--tenant", "prod-eu", "--format", "json"]);
  expect((JSON.parse(eu.stdout) as { actions: Array<{ address: string }> }).actions.map((a) => a.address)).toEqual(['brand["Globex"]']);
});
