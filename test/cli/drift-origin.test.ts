/**
 * drift tells apart where a difference comes from (issue 32): a change made
 * in the tenant since the last apply, or one the manifests introduced since
 * (an imported translation not applied yet, any manifest edit, a record added
 * or removed). The ledger records, at each apply, a fingerprint of every
 * record's manifest entry as applied (docs/drift.md): a record whose entry
 * still has it differs because the tenant changed; one whose entry changed
 * differs because the manifests did, and is not credited to the tenant's
 * changelog.
 */
import { readFile, writeFile } from "node:fs/promises";
import path from "node:path";
import { afterAll, beforeAll, expect, it } from "vitest";
import { createClient, type PimClient } from "../../src/api/client.js";
import type { DriftItem } from "../../src/drift/index.js";
import { demoConfig, schemaValidator, testProject, type TestProject } from "../helpers/project.js";

const validate = schemaValidator("drift");

const MANIFEST = [
  "display_groups:",
  "  - name: Basics",
  "    in_navigation: true",
  "attributes:",
  "  - name: Colour",
  "    type: text",
  "    display_group: Basics",
  "    versions: { French: { name: Couleur } }",
  "  - name: Size",
  "    type: text",
  "    note: Clothing size",
  "brands:",
  "  - name: Acme",
  "    desc: Tools since 1950",
  "  - name: Oldco",
  "    desc: Old company",
  "",
].join("\n");

let p: TestProject;
let api: PimClient;
const manifestFile = () => path.join(p.dir, "catalogue", "a.yaml");

beforeAll(async () => {
  p = await testProject({
    config: demoConfig(["versions: { French: 2, German: 3 }", "prune: { brands: true }"]),
    files: { "catalogue/a.yaml": MANIFEST },
  });
  const applied = await p.cli(["apply", "--auto-approve", "-q"]);
  expect(applied.code, applied.stderr).toBe(0);
  api = createClient({ tenant: "demo", baseUrl: p.emulator.tenantUrl("demo"), token: p.tokens.demo! });
});
afterAll(async () => {
  await api?.close();
  await p?.close();
});

async function drift(): Promise<{ code: number; items: Map<string, DriftItem>; text: string }> {
  const r = await p.cli(["drift", "--format", "json", "--detailed-exitcode"]);
  const report = JSON.parse(r.stdout);
  expect(validate(report), JSON.stringify(validate.errors)).toBe(true);
  const text = await p.cli(["drift"]);
  return { code: r.code, items: new Map(report.items.map((i: DriftItem) => [i.address, i])), text: text.stdout };
}

it("right after an apply there is no drift", async () => {
  expect((await drift()).code).toBe(0);
});

it("names an imported translation not applied yet and manifest edits as the manifests', a hand edit as the tenant's", async () => {
  // A translator's German name, imported into the manifests and not applied.
  await writeFile(path.join(p.dir, "de.csv"), 'id,source,target\r\n"attribute[""Colour""].version[""German""].field[""name""]",Colour,Farbe\r\n');
  const imported = await p.cli(["translations", "import", "de.csv"]);
  expect(imported.code, imported.stderr).toBe(0);
  // Manifest edits since the last apply: a field, a new record, a removed one (pruning on for brands).
  const text = await readFile(manifestFile(), "utf8");
  await writeFile(
    manifestFile(),
    text
      .replace("    in_navigation: true", "    in_navigation: false")
      .replace("  - name: Oldco\n    desc: Old company\n", "  - name: Zenith\n    desc: Clocks\n"),
  );
  // And in the tenant, by hand: Acme's description, and Size's note.
  const acme = (await api.listBrands()).find((b) => b.name === "Acme")!;
  await api.updateBrand(acme.id, { desc: "Changed by hand" });
  const size = (await api.listAttributes()).find((a) => a.name === "Size")!;
  await api.updateAttribute(size.id, { note: "a note made by hand" });

  const { code, items, text: lines } = await drift();
  expect(code).toBe(2);
  expect([...items.keys()].sort()).toEqual(
    ['attribute["Colour"].version["German"]', 'attribute["Size"]', 'brand["Acme"]', 'brand["Oldco"]', 'brand["Zenith"]', 'display_group["Basics"]'].sort(),
  );
  const manifests = ['attribute["Colour"].version["German"]', 'brand["Oldco"]', 'brand["Zenith"]', 'display_group["Basics"]'];
  for (const address of manifests) {
    const item = items.get(address)!;
    expect(item.origin, address).toBe("manifests");
    // Not credited to the tenant's changelog.
    expect(item.changed_at, address).toBeUndefined();
    expect(item.changelog_id, address).toBeUndefined();
  }
  expect(items.get('brand["Acme"]')).toMatchObject({ origin: "tenant", changed_at: expect.any(String), changelog_id: expect.any(Number) });
  expect(items.get('attribute["Size"]')).toMatchObject({ origin: "tenant", changed_at: expect.any(String) });

  // The emulator reads an untranslated version as the master text: the plan updates it.
  expect(lines).toContain('  attribute["Colour"].version["German"]: name changed; the manifests changed this record since the last apply (not applied yet)\n');
  expect(lines).toContain('  brand["Zenith"]: new in the manifests; the manifests added it since the last apply (not applied yet)\n');
  expect(lines).toContain('  brand["Oldco"]: removed from the manifests; the manifests removed it since the last apply (not applied yet)\n');
  expect(lines).toContain('  display_group["Basics"]: in_navigation changed; the manifests changed this record since the last apply (not applied yet)\n');
  expect(lines).toMatch(/ {2}brand\["Acme"\]: desc changed; changed in the tenant \d{4}-\d\d-\d\dT[\d:]+Z, changelog \d+\n/);
  expect(lines).toMatch(
    /^6 differences between the manifests and tenant "demo" \(checked [^)]+\): 2 made in the tenant, 4 in the manifests not applied yet:\n/,
  );
});

it("after the next apply the manifests are what was applied again: a new hand edit is the tenant's", async () => {
  const applied = await p.cli(["apply", "--auto-approve", "--allow-delete", "-q"]);
  expect(applied.code, applied.stderr).toBe(0);
  expect((await drift()).code).toBe(0);
  const zenith = (await api.listBrands()).find((b) => b.name === "Zenith")!;
  await api.updateBrand(zenith.id, { desc: "Clocks, by hand" });
  const { code, items } = await drift();
  expect(code).toBe(2);
  expect(items.get('brand["Zenith"]')).toMatchObject({ origin: "tenant", changelog_id: expect.any(Number) });
});
