/**
 * Someone renames a brand, an attribute, an attribute set and a display group
 * in the PIM's UI. The manifests did not change, so pimctl renames each back on
 * the same id (the ledger remembers the name it applied per id): never a delete
 * (with pruning on) and a create that would lose the id and what hangs on it.
 */
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { createClient } from "../../src/api/client.js";
import { testProject, type TestProject } from "../helpers/project.js";

const manifest = [
  "display_groups:",
  "  - name: Basics",
  "attributes:",
  "  - name: Colour",
  "    type: selectbox",
  "    display_group: Basics",
  "    values:",
  "      - value: Red",
  "attribute_sets:",
  "  - name: Apparel",
  "    attributes: [Colour]",
  "brands:",
  "  - name: Acme",
  "    desc: Tools",
  "",
].join("\n");

let p: TestProject;
beforeAll(async () => {
  p = await testProject({
    files: { "catalogue/a.yaml": manifest },
    // Pruning on: without the ledger's ids, a renamed record would be deleted and created again.
    config: (urls) =>
      [
        "dir: catalogue",
        "tenants:",
        "  demo:",
        `    base_url: ${urls.demo}`,
        "    token_env: PIMCTL_DEMO_TOKEN",
        "prune: { brands: true, attributes: true, attribute_sets: true }",
        "",
      ].join("\n"),
  });
});
afterAll(async () => p.close());

describe("a record renamed by hand in the PIM", () => {
  it("is renamed back on the same id, and the next plan is empty", async () => {
    expect((await p.cli(["apply", "--auto-approve", "--allow-delete"])).code).toBe(0);
    const api = createClient({ tenant: "demo", baseUrl: p.emulator.tenantUrl("demo"), token: p.tokens.demo! });
    const brand = (await api.searchBrand("Acme"))!;
    const attribute = (await api.searchAttribute("Colour"))!;
    const set = (await api.listAttributeSets()).find((s) => s.name === "Apparel")!;
    const group = (await api.listDisplayGroups()).find((g) => g.name === "Basics")!;
    await api.updateBrand(brand.id, { name: "ACME Corp" });
    await api.updateAttribute(attribute.id, { name: "Color" });
    await api.updateAttributeSet(set.id, { name: "Clothing" });
    await api.updateDisplayGroup(group.id, { name: "Essentials" });
    await api.close();

    const r = await p.cli(["plan", "--allow-delete", "--format", "json"]);
    expect(r.code, r.stderr).toBe(0);
    const actions = (
      JSON.parse(r.stdout) as {
        actions: Array<{
          address: string;
          op: string;
          refs: { self?: { id: number } };
          previous?: { address: string; via: string };
          changes: Array<{ field: string; before?: unknown; after: unknown }>;
        }>;
      }
    ).actions;
    expect(actions.filter((a) => a.op === "delete" || a.op === "create")).toEqual([]);
    const renames = Object.fromEntries(actions.filter((a) => a.op === "rename").map((a) => [a.address, a]));
    expect(Object.keys(renames).sort()).toEqual(['attribute["Colour"]', 'attribute_set["Apparel"]', 'brand["Acme"]', 'display_group["Basics"]']);
    expect(renames['brand["Acme"]']).toMatchObject({
      refs: { self: { id: brand.id } },
      previous: { address: 'brand["ACME Corp"]', via: "ledger" },
      changes: [{ field: "name", before: "ACME Corp", after: "Acme" }],
    });
    expect(renames['attribute["Colour"]']).toMatchObject({ refs: { self: { id: attribute.id } }, previous: { via: "ledger" } });
    const text = await p.cli(["plan", "--allow-delete"]);
    expect(text.stdout).toContain('renamed back from "ACME Corp" (renamed in the tenant; the ledger knows its id)');

    const applied = await p.cli(["apply", "--auto-approve", "--allow-delete"]);
    expect(applied.code, applied.stderr).toBe(0);
    const store = p.emulator.store("demo");
    expect(store.brands.get(brand.id)?.name).toBe("Acme");
    expect([...store.brands.values()].map((b) => b.name)).toEqual(["Acme"]);
    expect((await p.cli(["plan", "--detailed-exitcode", "--allow-delete"])).code).toBe(0);
  });

  it("a new name in the manifests (with previous_names) wins over the ledger", async () => {
    await p.write("catalogue/a.yaml", manifest.replace("  - name: Acme\n", "  - name: Acme Tools\n    previous_names: [Acme]\n"));
    const r = await p.cli(["plan", "--allow-delete", "--format", "json"]);
    const rename = (JSON.parse(r.stdout) as { actions: Array<{ address: string; op: string; previous?: { via: string } }> }).actions.find(
      (a) => a.address === 'brand["Acme Tools"]',
    );
    expect(rename).toMatchObject({ op: "rename", previous: { via: "previous_names" } });
    expect((await p.cli(["apply", "--auto-approve", "--allow-delete"])).code).toBe(0);
    expect((await p.cli(["plan", "--detailed-exitcode", "--allow-delete"])).code).toBe(0);
  });
});
