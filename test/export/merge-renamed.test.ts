/**
 * export --merge after records were renamed by hand in the PIM, where the
 * ledger remembers the id pimctl applied the old name to: the plan takes them
 * as the same records (it would rename them back), so the merge updates their
 * entries in place (the new name, the old one in previous_names) and never
 * adds a second entry, which the next apply would create as a duplicate.
 * Which records these are is the planner's identity decision (src/plan/identity.ts): a record
 * renamed and also edited where pimctl wrote it is another record, and the merge says so too.
 */
import { readFileSync } from "node:fs";
import path from "node:path";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { demoConfig, testProject, type TestProject } from "../helpers/project.js";
import { attributeByName, updateAttribute } from "../../src/emulator/kinds/attributes.js";
import { updateBrand } from "../../src/emulator/kinds/brands.js";

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
  "    web_ids: { Webshop: zenith-01 }",
  "",
].join("\n");

let p: TestProject;
beforeAll(async () => {
  p = await testProject({
    files: { "catalogue/all.yaml": catalogue },
    config: demoConfig(["prune: { brands: true, attributes: true }"]),
  });
  const applied = await p.cli(["apply", "--auto-approve", "--allow-delete"]);
  expect(applied.code, applied.stdout + applied.stderr).toBe(0);
});
afterAll(async () => p.close());

describe("export --merge after a rename by hand the ledger knows", () => {
  it("updates the entry in place (new name, old one in previous_names), adds no second entry, and the next plan is empty", async () => {
    const store = p.emulator.store("demo");
    const acme = [...store.brands.values()].find((b) => b.name === "Acme")!;
    // Only the name: what pimctl wrote (desc) still proves the id is Acme's (a desc edited too would make it another record, below).
    updateBrand(store, acme.id, { name: "ACME Corp" });
    updateAttribute(store, attributeByName(store, "Colour")!.id, { name: "Color" });

    const merged = await p.cli(["export", "--out", "catalogue", "--merge"]);
    expect(merged.code, merged.stdout + merged.stderr).toBe(0);
    const text = readFileSync(path.join(p.dir, "catalogue", "all.yaml"), "utf8");
    expect(text).toBe(
      catalogue
        .replace("  - name: Colour # the one", "  - name: Color # the one")
        .replace("    display_group: Basics\n", "    display_group: Basics\n    previous_names: [Colour]\n")
        .replace("attributes: [Colour]", "attributes: [Color]")
        .replace("  - name: Acme\n", "  - name: ACME Corp\n")
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

  it("a record renamed and edited where pimctl wrote it is another record to the plan: the entry stays, the record is added, and plan says why", async () => {
    const store = p.emulator.store("demo");
    const zenith = [...store.brands.values()].find((b) => b.name === "Zenith")!;
    updateBrand(store, zenith.id, { name: "Zenith Ltd", desc: "Watches" });

    const merged = await p.cli(["export", "--out", "catalogue", "--merge"]);
    expect(merged.code, merged.stdout + merged.stderr).toBe(0);
    const text = readFileSync(path.join(p.dir, "catalogue", "all.yaml"), "utf8");
    expect(text).toContain("  - name: Zenith\n    desc: Clocks\n    web_ids: { Webshop: zenith-01 }\n");
    // The ledger's web id under that id was written for Zenith: not the added record's (export decides as the plan does).
    const added = text.slice(text.indexOf("  - name: Zenith Ltd\n"));
    expect(added).toContain("    desc: Watches\n");
    expect(added).not.toContain("zenith-01");
    expect(merged.stderr).not.toContain('brand "Zenith" is "Zenith Ltd"');
    expect(merged.stderr).toContain('added: all.yaml: brand "Zenith Ltd"');

    const plan = await p.cli(["plan", "--format", "json"]);
    const json = JSON.parse(plan.stdout) as { warnings: string[]; actions: Array<{ op: string; address: string }> };
    expect(json.warnings).toContain(
      `brands: "Zenith Ltd" (id ${zenith.id}) holds the id the ledger remembers for "Zenith", but it is another record (desc differs from what pimctl wrote): ` +
        "not renamed, updated or pruned through that memory",
    );
    // Only Zenith, which the folder still declares, is created again; nothing is planned for the record merge added.
    expect(json.actions.filter((a) => a.address.startsWith('brand["Zenith Ltd"]'))).toEqual([]);
  });
});
