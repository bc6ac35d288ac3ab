/**
 * A plan's translation coverage counts texts as translations status does: on
 * the templates (issue 33). A tenant's texts hold the variable's value at the
 * time they were written; when only the value changes, the template and
 * every translation of it are the same texts for translators, so the plan
 * says nothing is outdated or updated (status says all are translated). When
 * the master template changes, the plan and status agree it is outdated.
 */
import { readFile, writeFile } from "node:fs/promises";
import path from "node:path";
import { afterAll, beforeAll, expect, it } from "vitest";
import type { Plan } from "../../src/plan/types.js";
import { testProject, type TestProject } from "../helpers/project.js";

const config = (shop: string) => (urls: Record<string, string>) =>
  ["dir: catalogue", "tenants:", "  demo:", `    base_url: ${urls.demo}`, "    token_env: PIMCTL_DEMO_TOKEN", "    variables:", `      shop: ${shop}`, ""].join(
    "\n",
  );
const MANIFEST = [
  "attributes:",
  "  - name: Size",
  "    type: text",
  "    note: Sold by ${shop}",
  "    versions:",
  "      French: { name: Taille, note: 'Vendu par ${shop}' }",
  "      German: { name: Größe, note: Verkauft }",
  "",
].join("\n");

let p: TestProject;
const plan = async () => {
  const r = await p.cli(["plan", "--format", "json"]);
  expect(r.code, r.stderr).toBe(0);
  return JSON.parse(r.stdout) as Plan;
};
const status = async () => JSON.parse((await p.cli(["translations", "status", "--format", "json"])).stdout) as { versions: Array<{ outdated: number }> };

beforeAll(async () => {
  p = await testProject({ config: config("Acme"), files: { "catalogue/a.yaml": MANIFEST } });
  const applied = await p.cli(["apply", "--auto-approve", "-q"]);
  expect(applied.code, applied.stderr).toBe(0);
  expect((await p.cli(["translations", "mark-reviewed", "--all"])).code).toBe(0);
});
afterAll(() => p.close());

it("a variable's new value changes the tenant's texts, not the templates: the plan updates them and counts nothing outdated or updated", async () => {
  await p.write("pimctl.yaml", config("Acme Inc")({ demo: p.emulator.tenantUrl("demo") }));
  const planned = await plan();
  expect(planned.actions.map((a) => `${a.op} ${a.address}`)).toEqual(['update attribute["Size"]', 'update attribute["Size"].version["French"]']);
  expect(planned.translations).toBeUndefined();
  expect((await p.cli(["plan"])).stdout).not.toContain("Translations");
  expect((await status()).versions.map((v) => v.outdated)).toEqual([0, 0]);
});

it("a changed master template is outdated in the plan and in status alike, in every version", async () => {
  const file = path.join(p.dir, "catalogue", "a.yaml");
  await writeFile(file, (await readFile(file, "utf8")).replace("note: Sold by ${shop}", "note: Made by ${shop}"));
  const planned = await plan();
  expect(planned.translations).toEqual([
    { version: "French", added: 0, updated: 0, outdated: 1, missing: 0 },
    { version: "German", added: 0, updated: 0, outdated: 1, missing: 0 },
  ]);
  expect((await status()).versions.map((v) => v.outdated)).toEqual([1, 1]);
});
