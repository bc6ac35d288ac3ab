/**
 * drift and what API v1 cannot write: a brand's or a category's language
 * version that differs from the manifests is shown (as not possible through
 * API v1) but is no drift: `--detailed-exitcode` stays 0 for it, so a nightly
 * job does not open an issue every night for a text nobody can apply.
 */
import { afterAll, beforeAll, expect, it } from "vitest";
import { createClient, type PimClient } from "../../src/api/client.js";
import { demoConfig, schemaValidator, testProject, type TestProject } from "../helpers/project.js";

const validate = schemaValidator("drift");

const MANIFEST = [
  "brands:",
  "  - name: Acme",
  "    desc: Tools since 1950",
  "    versions: { French: { desc: Outils depuis 1950 } }",
  "categories:",
  "  - name: Apparel",
  "    versions: { French: { name: Vêtements } }",
  "",
].join("\n");

let project: TestProject;
let api: PimClient;

beforeAll(async () => {
  project = await testProject({
    config: demoConfig(["versions: { French: 2 }"]),
    files: { "catalogue/a.yaml": MANIFEST },
  });
  const applied = await project.cli(["apply", "--auto-approve", "-q"]);
  expect(applied.code, applied.stderr).toBe(0);
  api = createClient({ tenant: "demo", baseUrl: project.emulator.tenantUrl("demo"), token: project.tokens.demo! });
});
afterAll(async () => {
  await api?.close();
  await project?.close();
});

it("versions API v1 cannot write are shown apart and not counted: exit 0 with --detailed-exitcode, in every format", async () => {
  const json = await project.cli(["drift", "--format", "json", "--detailed-exitcode"]);
  expect(json.code, json.stderr).toBe(0);
  const report = JSON.parse(json.stdout);
  expect(validate(report), JSON.stringify(validate.errors)).toBe(true);
  expect(report.drifted).toBe(0);
  expect(report.items.map((i: { address: string; op: string }) => `${i.op} ${i.address}`).sort()).toEqual([
    'unsupported brand["Acme"].version["French"]',
    'unsupported category["Apparel"].version["French"]',
  ]);

  const text = await project.cli(["drift", "--detailed-exitcode"]);
  expect(text.code, text.stderr).toBe(0);
  expect(text.stdout).toMatch(/^No drift: tenant "demo" matches the manifests \(checked [^)]+\)\.\n/);
  expect(text.stdout).toContain("\nNot possible through API v1 (shown, not counted as drift; set them in the PIM's UI):\n");
  expect(text.stdout).toContain('  brand["Acme"].version["French"]: desc differs (API v1 cannot write it back); ');

  const md = await project.cli(["drift", "--format", "markdown", "--detailed-exitcode"]);
  expect(md.code).toBe(0);
  expect(md.stdout).toContain("**Not possible through API v1** (shown, not counted as drift; set them in the PIM's UI):");
  expect(md.stdout).toContain('| `category["Apparel"].version["French"]` | name differs (API v1 cannot write it back) |');
});

it("a hand edit beside them is drift: exit 2, counted apart from them", async () => {
  const acme = (await api.listBrands()).find((b) => b.name === "Acme")!;
  await api.updateBrand(acme.id, { desc: "Changed by hand" });
  const r = await project.cli(["drift", "--format", "json", "--detailed-exitcode"]);
  expect(r.code, r.stderr).toBe(2);
  const report = JSON.parse(r.stdout);
  expect(report.drifted).toBe(1);
  expect(report.items).toHaveLength(3);
  const text = await project.cli(["drift"]);
  expect(text.stdout).toMatch(/^1 difference between the manifests and tenant "demo" \(checked [^)]+\):\n {2}brand\["Acme"\]: desc changed; /);
});
