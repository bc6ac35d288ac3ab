/** Exit codes tell the truth: a write the tenant did not keep, and skips that name the failure they go back to. */
import { readFileSync } from "node:fs";
import path from "node:path";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { testProject, type TestProject } from "../helpers/project.js";
import { createBrand } from "../../src/emulator/kinds/brands.js";

let p: TestProject;
beforeAll(async () => {
  p = await testProject({ files: { "catalogue/a.yaml": "brands:\n  - name: Acme\n    desc: Tools\n" } });
});
afterAll(async () => p.close());

describe("apply outcomes", () => {
  it("a failed verification read (the tenant did not store what was written) exits 4", async () => {
    const store = p.emulator.store("demo");
    const acme = createBrand(store, { name: "Acme", desc: "old" });
    // A tenant that answers 200 to the update but silently keeps the old description: from the
    // update on, every request finds the description as it was.
    let updated = false;
    p.emulator.onRequest(({ method, route }) => {
      if (updated) acme.desc = "old";
      if (method === "PUT" && route === "/brands/:id") updated = true;
    });
    try {
      const r = await p.cli(["apply", "--auto-approve", "--report", "report.json"]);
      expect(r.stderr).toContain("Verification: the tenant did not store 1 change as written (exit 4)");
      expect(r.stderr).toContain('brand["Acme"]: desc');
      expect(r.code).toBe(4);
      const report = JSON.parse(readFileSync(path.join(p.dir, "report.json"), "utf8"));
      expect(report.verification.mismatches).toEqual([{ address: 'brand["Acme"]', fields: ["desc"] }]);
    } finally {
      p.emulator.onRequest(undefined);
    }
  });

  it("a verification read that fails (the writes cannot be checked) exits 4 with the report written", async () => {
    // Once the write is in, every read fails: the verification cannot see what the tenant stored.
    p.emulator.onRequest(({ method, route }) => {
      if (method === "PUT" && route === "/brands/:id") p.emulator.injectFaults([{ method: "GET", mode: "error500", times: 1000 }]);
    });
    await p.write("catalogue/a.yaml", "brands:\n  - name: Acme\n    desc: Checked\n");
    try {
      const r = await p.cli(["apply", "--auto-approve", "--report", "report.json"]);
      expect(r.stderr).toContain("Verification: the read after the writes failed, so nothing was checked (exit 4)");
      expect(r.code).toBe(4);
      const report = JSON.parse(readFileSync(path.join(p.dir, "report.json"), "utf8"));
      expect(report.counts.done).toBe(1);
      expect(report.verification.error).toMatch(/GET /);
    } finally {
      p.emulator.onRequest(undefined);
      p.emulator.clearFaults();
    }
  });

  it("a skip names the failed action it depended on, directly or through another skip", async () => {
    await p.write(
      "catalogue/a.yaml",
      ["attributes:", "  - name: Size", "    type: selectbox", "    values:", "      - value: XL", "        versions: { French: TG }", ""].join("\n"),
    );
    await p.write("pimctl.yaml", `${readFileSync(path.join(p.dir, "pimctl.yaml"), "utf8")}versions: { French: 2 }\n`);
    p.emulator.injectFaults([{ method: "POST", route: "/attributes", mode: "error500", times: 100 }]);
    const r = await p.cli(["apply", "--auto-approve", "--report", "report.json"]);
    p.emulator.clearFaults();
    expect(r.code).toBe(4);
    const results = JSON.parse(readFileSync(path.join(p.dir, "report.json"), "utf8")).results as Array<Record<string, string>>;
    expect(results.find((x) => x.address === 'attribute["Size"].value["XL"]')).toMatchObject({
      status: "skipped",
      skip_cause: "dependency_failed",
      caused_by: 'attribute["Size"]',
      reason: 'depends on attribute["Size"], which failed',
    });
    const version = results.find((x) => x.address === 'attribute["Size"].value["XL"].version["French"]');
    expect(version).toMatchObject({
      caused_by: 'attribute["Size"]',
      reason: 'depends on attribute["Size"].value["XL"], skipped because attribute["Size"] failed',
    });
    // Counted per cause and kind, never one line per skipped action (the report has each).
    expect(r.stderr).toContain("2 actions skipped, because an action they depend on failed (attributes 2)");
    expect(r.stderr).not.toMatch(/^skipped: /m);
  });
});
