/**
 * drift where the plan alone cannot attribute: a record deleted by hand (no id
 * in the tenant; the ledger knows the one pimctl owned) and attributes that
 * differ only in the display group they name (a group renamed by hand, which
 * the feed does not cover). A known history, with pinned entry times.
 */
import { readFileSync, writeFileSync } from "node:fs";
import path from "node:path";
import { afterAll, beforeAll, expect, it } from "vitest";
import { createClient, type PimClient } from "../../src/api/client.js";
import type { DriftItem, DriftReport } from "../../src/drift/index.js";
import { demoConfig, schemaValidator, testProject, type TestProject } from "../helpers/project.js";
import { repoRoot } from "../helpers/paths.js";

const validate = schemaValidator("drift");
const APPLIED_AT = "2026-11-01T08:00:00Z";

let project: TestProject;
let api: PimClient;

beforeAll(async () => {
  // Pruning on: apply records the ids it creates as pimctl's (the ledger's owned ids).
  project = await testProject({
    config: demoConfig(["versions: { French: 2, German: 3 }", "prune: { brands: true, categories: true, attributes: true, attribute_sets: true }"]),
  });
  await project.copyExamples(path.join(repoRoot, "examples/catalogue"));
  const applied = await project.cli(["apply", "--auto-approve", "--allow-delete", "-q"]);
  expect(applied.code, applied.stderr).toBe(0);
  api = createClient({ tenant: "demo", baseUrl: project.emulator.tenantUrl("demo"), token: project.tokens.demo! });
}, 120_000);
afterAll(async () => {
  await api?.close();
  await project?.close();
});

it("a brand deleted by hand is attributed to its delete entry through the ledger; a renamed group's attributes carry a caveat", async () => {
  const entries = project.emulator.store("demo").changelogs as Array<{ id: number; updated_at: string }>;
  for (const e of entries) e.updated_at = APPLIED_AT;
  const [brands, groups] = await Promise.all([api.listBrands(), api.listDisplayGroups()]);
  const lumen = brands.find((b) => b.name === "Lumen Jewelry")!.id;
  const before = entries.length;
  await api.deleteBrand(lumen);
  expect(entries.length).toBe(before + 1);
  const deletion = entries[before]!;
  deletion.updated_at = "2026-11-22T16:45:10Z";
  await api.updateDisplayGroup(groups.find((g) => g.name === "Basics")!.id, { name: "Essentials" });
  expect(entries.length, "display groups are not in the feed").toBe(before + 1);

  // The ledger knows the group's id under the name pimctl applied: the group is renamed back, so
  // the attributes that name it do not differ at all.
  const withNames = JSON.parse((await project.cli(["drift", "-q", "--format", "json"])).stdout) as DriftReport;
  expect(withNames.items.find((i) => i.address === 'display_group["Basics"]')).toMatchObject({ op: "rename" });
  expect(withNames.items.filter((i) => i.address.startsWith("attribute["))).toEqual([]);
  // A ledger written before it remembered names: the group is new to pimctl, and its attributes differ.
  const ledgerFile = path.join(project.dir, ".pimctl", "demo.json");
  const ledger = JSON.parse(readFileSync(ledgerFile, "utf8")) as { names?: unknown };
  delete ledger.names;
  writeFileSync(ledgerFile, JSON.stringify(ledger));

  const r = await project.cli(["drift", "-q", "--format", "json", "--detailed-exitcode"]);
  expect(r.code, r.stderr).toBe(2);
  const report = JSON.parse(r.stdout) as DriftReport;
  expect(validate(report), JSON.stringify(validate.errors)).toBe(true);
  const at = (address: string): DriftItem => {
    const item = report.items.find((i) => i.address === address);
    expect(item, `${address} in ${report.items.map((i) => i.address).join(", ")}`).toBeDefined();
    return item!;
  };

  expect(at('brand["Lumen Jewelry"]')).toMatchObject({
    op: "create",
    entity: { type: "brand", id: lumen },
    changed_at: "2026-11-22T16:45:10Z",
    changelog_id: deletion.id,
    change_type: "delete",
  });
  expect(at('brand["Lumen Jewelry"]').note).toBe(`id ${lumen} from the ledger: the record pimctl owned that is gone from the tenant`);
  expect(at('display_group["Basics"]').changelog_id).toBeUndefined();
  for (const a of ["Age group", "Color", "Pattern", "Target gender"]) {
    const item = at(`attribute["${a}"]`);
    expect(item).toMatchObject({ fields: ["display_group"], changed_at: APPLIED_AT, change_type: "full" });
    expect(item.note).toMatch(/^only display_group differs, which names a record not in the feed/);
  }
});

it("two records of a kind deleted by hand: which id is whose cannot be told, so neither is guessed", async () => {
  const brands = await api.listBrands();
  await api.deleteBrand(brands.find((b) => b.name === "Casa Mobili")!.id);
  const report = JSON.parse((await project.cli(["drift", "-q", "--format", "json"])).stdout) as DriftReport;
  for (const name of ["Casa Mobili", "Lumen Jewelry"]) {
    const item = report.items.find((i) => i.address === `brand["${name}"]`)!;
    expect(item.entity).toBeUndefined();
    expect(item.note).toMatch(/^no id to look up/);
  }
});
