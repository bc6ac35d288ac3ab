/**
 * A saved plan is stale only through what it writes (issue 33): a brand's
 * language version that the plan only lists as not possible through API v1,
 * edited by hand after the plan was made, does not make it stale (the plan
 * writes nothing to it); a record the plan writes, edited by hand, still does.
 */
import { readFileSync } from "node:fs";
import path from "node:path";
import { afterEach, beforeEach, expect, it } from "vitest";
import type { Plan } from "../../src/plan/types.js";
import { demoConfig, testProject, type TestProject } from "../helpers/project.js";
import { createBrand } from "../../src/emulator/kinds/brands.js";

const MANIFEST = [
  "brands:",
  "  - name: Acme",
  "    desc: Tools since 1950",
  "    versions: { French: { desc: Outils depuis 1950 } }",
  "  - name: Zenith",
  "    desc: Clocks",
  "",
].join("\n");
const FRENCH = 2;

let p: TestProject;
let acme: number;
let zenith: number;

beforeEach(async () => {
  p = await testProject({
    config: demoConfig(["versions: { French: 2 }"]),
    files: { "catalogue/brands.yaml": MANIFEST },
  });
  const store = p.emulator.store("demo");
  acme = createBrand(store, { name: "Acme", desc: "old text", versions: { [FRENCH]: { desc: "Outils" } } }).id;
  zenith = createBrand(store, { name: "Zenith", desc: "old clocks" }).id;
  const r = await p.cli(["plan", "--out", "plan.json", "--quiet"]);
  expect(r.code, r.stderr).toBe(0);
  const plan = JSON.parse(readFileSync(path.join(p.dir, "plan.json"), "utf8")) as Plan;
  expect(plan.actions.map((a) => `${a.op} ${a.address}`)).toEqual([
    'update brand["Acme"]',
    'unsupported brand["Acme"].version["French"]',
    'update brand["Zenith"]',
  ]);
});
afterEach(async () => p.close());

it("a hand edit of a version the plan only lists as not possible does not make it stale: it applies (exit 0)", async () => {
  // Edited in the PIM's UI (API v1 cannot write brand versions): straight into the tenant's store.
  p.emulator.store("demo").brands.get(acme)!.versions[FRENCH] = { desc: "Outils, retouché à la main" };
  const r = await p.cli(["apply", "plan.json"]);
  expect(r.code, r.stderr).toBe(0);
  const brands = p.emulator.store("demo").brands;
  expect(brands.get(acme)!.desc).toBe("Tools since 1950");
  expect(brands.get(zenith)!.desc).toBe("Clocks");
  // The version is left as the hand made it: the plan wrote nothing to it.
  expect(brands.get(acme)!.versions[FRENCH]).toEqual({ desc: "Outils, retouché à la main" });
});

it("a hand edit of a record the plan writes still makes it stale (exit 5), and nothing is written", async () => {
  p.emulator.store("demo").brands.get(zenith)!.desc = "edited by hand";
  const r = await p.cli(["apply", "plan.json"]);
  expect(r.code).toBe(5);
  expect(r.stderr).toContain('changed: brand["Zenith"] (the tenant\'s record changed since the plan was made)');
  expect(p.emulator.store("demo").brands.get(acme)!.desc).toBe("old text");
});
