/**
 * export --merge after records were renamed by hand in the PIM, where the
 * ledger remembers the id pimctl applied the old name to: the plan takes them
 * as the same records (it would rename them back), so the merge updates their
 * entries in place (the new name, the old one in previous_names) and never
 * adds a second entry, which the next apply would create as a duplicate.
 */
import { readFileSync } from "node:fs";
import path from "node:path";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { testProject, type TestProject } from "../helpers/project.js";

const catalogue = [
  "display_groups:",
  "  - name: Basics",
  "attributes:",
  "  - name: Colour # the one attribute every brand shows",
  "    type: text",
  "    display_group: Basics",
  "attribute_sets:",
  "  - name: Apparel",
  "    attributes: [Colour]",
  "brands:",
  "  - name: Acme",
  "    desc: Tools",
  "    web_ids: { Webshop: acme-01 }",
  "    attributes: { Colour: { value: Red } }",
  "  - name: Zenith",
  "    desc: Clocks",
  "",
].join("\n");

let p: TestProject;
beforeAll(async () => {
  p = await testProject({
    files: { "catalogue/all.yaml": catalogue },
    config: (urls) =>
      [
        "dir: catalogue",
        "tenants:",
        "  demo:",
        `    base_url: ${urls.demo}`,
        "    token_env: PIMCTL_DEMO_TOKEN",
        "prune: { brands: true, attributes: true }",
        "",
      ].join("\n"),
  });
  const applied = await p.cli(["apply", "--auto-approve", "--allow-delete"]);
  expect(applied.code, applied.stdout + applied.stderr).toBe(0);
});
afterAll(async () => p.close());

describe("export --merge after a rename by hand the ledger knows", () => {
  it("updates the entry in place (new name, old one in previous_names), adds no second entry, and the next plan is empty", async () => {
    const store = p.emulator.store("demo");
    const acme = [...store.brands.values()].find((b) => b.name === "Acme")!;
    store.updateBrand(acme.id, { name: "ACME Corp", desc: "Tools and dies" });
    store.updateAttribute(store.attributeByName("Colour")!.id, { name: "Color" });

    const merged = await p.cli(["export", "--out", "catalogue", "--merge"]);
    expect(merged.code, merged.stdout + merged.stderr).toBe(0);
    const text = readFileSync(path.join(p.dir, "catalogue", "all.yaml"), "utf8");
    expect(text).toBe(
      catalogue
        .replace("  - name: Colour # the one", "  - name: Color # the one")
        .replace("    display_group: Basics\n", "    display_group: Basics\n    previous_names: [Colour]\n")
        .replace("attributes: [Colour]", "attributes: [Color]")
        .replace("  - name: Acme\n    desc: Tools\n", "  - name: ACME Corp\n    desc: Tools and dies\n")
        .replace("    attributes: { Colour: { value: Red } }\n", "    attributes: { Color: { value: Red } }\n    previous_names: [Acme]\n"),
    );
    expect(merged.stderr).toContain('renamed: all.yaml:11: brand "Acme" is "ACME Corp" in the tenant');
    expect(merged.stderr).not.toContain("added:");

    const plan = await p.cli(["plan", "--detailed-exitcode"]);
    expect(plan.code, plan.stdout + plan.stderr).toBe(0);
    const apply = await p.cli(["apply", "--auto-approve", "--allow-delete"]);
    expect(apply.code, apply.stdout + apply.stderr).toBe(0);
    expect([...store.brands.values()].map((b) => b.name).sort()).toEqual(["ACME Corp", "Zenith"]);
  });
});
