/** A tenant whose names carry leading or trailing whitespace exports, validates (with a warning) and plans no changes. */
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { testProject, type TestProject } from "../helpers/project.js";
import { createBrand } from "../../src/emulator/kinds/brands.js";

let p: TestProject;
beforeAll(async () => {
  p = await testProject();
  createBrand(p.emulator.store("demo"), { name: " Acme " });
  createBrand(p.emulator.store("demo"), { name: "Zenith" });
});
afterAll(async () => p.close());

describe("names with surrounding whitespace round-trip", () => {
  it("export, validate (warning, exit 0), plan: no changes", async () => {
    const e = await p.cli(["export", "--out", "catalogue", "--kinds", "brands"]);
    expect(e.code, e.stderr).toBe(0);
    const v = await p.cli(["validate"]);
    expect(v.code, v.stderr).toBe(0);
    expect(v.stderr).toContain("warning: catalogue/brands.yaml:");
    expect(v.stderr).toContain('the name " Acme " has leading or trailing whitespace (kept as written)');
    const plan = await p.cli(["plan", "--detailed-exitcode"]);
    expect(plan.code, plan.stdout + plan.stderr).toBe(0);
  });
});
