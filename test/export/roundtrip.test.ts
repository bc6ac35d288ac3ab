import { readFileSync, readdirSync } from "node:fs";
import path from "node:path";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { promotionProject, testProject, repoRoot, type TestProject } from "../helpers/project.js";
import type { Plan } from "../../src/plan/types.js";

const readDir = (dir: string) =>
  Object.fromEntries(
    readdirSync(dir)
      .sort()
      .map((f) => [f, readFileSync(path.join(dir, f), "utf8")]),
  );

describe("export, round trips and diff between two tenants", () => {
  let p: TestProject;
  beforeAll(async () => {
    p = await testProject({ tenants: ["a", "b"] });
    await p.copyExamples(path.join(repoRoot, "examples/catalogue"));
    const applied = await p.cli(["apply", "--tenant", "a", "--auto-approve"]);
    expect(applied.code, applied.stderr).toBe(0);
  });
  afterAll(async () => p.close());

  it("exports a tenant deterministically: byte-identical run after run", async () => {
    expect((await p.cli(["export", "--tenant", "a", "--out", "export-a"])).code).toBe(0);
    const first = readDir(path.join(p.dir, "export-a"));
    // Again into the same folder: refused without a flag; overwritten or merged, the same bytes.
    expect((await p.cli(["export", "--tenant", "a", "--out", "export-a"])).code).toBe(1);
    expect((await p.cli(["export", "--tenant", "a", "--out", "export-a", "--force"])).code).toBe(0);
    expect(readDir(path.join(p.dir, "export-a"))).toEqual(first);
    const merged = await p.cli(["export", "--tenant", "a", "--out", "export-a", "--merge"]);
    expect(merged.code, merged.stderr).toBe(0);
    expect(merged.stderr).toContain("nothing written");
    expect(readDir(path.join(p.dir, "export-a"))).toEqual(first);
    expect(Object.keys(first)).toEqual(["attribute_sets.yaml", "attributes.yaml", "blocks.yaml", "brands.yaml", "categories.yaml", "display_groups.yaml"]);
    expect(first["brands.yaml"]).toContain("image_url: https://cdn.example.com/brands/alpine-optics.png");
    expect(first["brands.yaml"]).toContain("Webshop: alpine-optics");
  });

  it("the hand-written examples merged with the tenant they were applied to: nothing to write", async () => {
    const before = readDir(path.join(p.dir, "catalogue"));
    const r = await p.cli(["export", "--tenant", "a", "--out", "catalogue", "--merge"]);
    expect(r.code, r.stderr).toBe(0);
    expect(r.stderr).toContain("Merged into catalogue: the manifests already match the tenant; nothing written.");
    expect(readDir(path.join(p.dir, "catalogue"))).toEqual(before);
  });

  it("export of A planned against A: no changes", async () => {
    const r = await p.cli(["plan", "--tenant", "a", "--dir", "export-a", "--detailed-exitcode"]);
    expect(r.code, r.stdout + r.stderr).toBe(0);
  });

  it("export A, apply to empty B, export B: the same files", async () => {
    const applied = await p.cli(["apply", "--tenant", "b", "--dir", "export-a", "--auto-approve"]);
    expect(applied.code, applied.stderr).toBe(0);
    expect((await p.cli(["export", "--tenant", "b", "--out", "export-b"])).code).toBe(0);
    expect(readDir(path.join(p.dir, "export-b"))).toEqual(readDir(path.join(p.dir, "export-a")));
    expect((await p.cli(["diff", "--from", "a", "--to", "b", "--detailed-exitcode"])).code).toBe(0);
  });

  it("--kinds limits the export", async () => {
    expect((await p.cli(["export", "--tenant", "a", "--out", "only-brands", "--kinds", "brands"])).code).toBe(0);
    expect(readdirSync(path.join(p.dir, "only-brands"))).toEqual(["brands.yaml"]);
  });

  it("diff between two tenants that differ in every kind", async () => {
    await p.write(
      "changed/all.yaml",
      [
        "display_groups:\n  - name: Basics\n    in_navigation: false",
        "attributes:\n  - name: Color\n    type: multiselect\n    publish: false",
        "attribute_sets:\n  - name: Chairs\n    sort_order: 99",
        'blocks:\n  - slug: footer\n    content: "Changed footer\\n"',
        "brands:\n  - name: Casa Mobili\n    desc: Changed",
        "categories:\n  - name: Furniture\n    is_visible: false\n",
      ].join("\n"),
    );
    const applied = await p.cli(["apply", "--tenant", "b", "--dir", "changed", "--auto-approve"]);
    expect(applied.code, applied.stderr).toBe(0);
    const r = await p.cli(["diff", "--from", "a", "--to", "b", "--format", "json", "--detailed-exitcode"]);
    expect(r.code, r.stderr).toBe(2);
    const plan = JSON.parse(r.stdout) as Plan;
    expect(new Set(plan.actions.map((a) => a.kind))).toEqual(new Set(["display_groups", "attributes", "attribute_sets", "blocks", "brands", "categories"]));
    expect(plan.actions.filter((a) => a.op !== "update").map((a) => `${a.op} ${a.address}`)).toEqual([]);
    const dir = await p.cli(["diff", "--from", "changed", "--to", "a", "--format", "markdown"]);
    expect(dir.code, dir.stderr).toBe(0);
    expect(dir.stdout).toContain("<!-- pimctl-plan -->");
  });
});

describe("promotion: one set of manifests, tenants whose version ids and channel names differ", () => {
  let p: TestProject;
  beforeAll(async () => {
    p = await promotionProject();
  });
  afterAll(async () => p.close());

  it("applies to both tenants and each converges", async () => {
    for (const t of ["staging", "prod"]) {
      const a = await p.cli(["apply", "--tenant", t, "--auto-approve"]);
      expect(a.code, a.stderr).toBe(0);
      expect((await p.cli(["plan", "--tenant", t, "--detailed-exitcode"])).code).toBe(0);
    }
  });

  it("writes each tenant's own version ids and channels", async () => {
    const prod = p.emulator.store("prod");
    const staging = p.emulator.store("staging");
    const colour = (s: typeof prod) => [...s.attributes.values()].find((a) => a.name === "Colour")!;
    expect(colour(prod).versions).toEqual({ 7: { name: "Couleur" } });
    expect(colour(staging).versions).toEqual({ 2: { name: "Couleur" } });
    const acme = (s: typeof prod) => [...s.brands.values()].find((b) => b.name === "Acme")!.id;
    expect(prod.brandWebIds.get(1)?.get(acme(prod))).toBe("acme");
    const assets = (s: typeof prod) => [...s.brandAssets.values()].map((a) => a.uri);
    expect(assets(prod)[0]).toContain("acme.png");
    const ledger = JSON.parse(readFileSync(path.join(p.dir, ".pimctl", "prod.json"), "utf8"));
    expect(Object.values(ledger.assets)[0]).toMatchObject({
      [String([...prod.brandAssets.keys()][0])]: { image_url: "https://cdn.example.com/brands/acme.png" },
    });
    expect(Object.values(ledger.web_ids)).toContainEqual({ "Webshop EU": "acme" });
  });

  it("the manifests compared with prod (prod's variables): no difference", async () => {
    const r = await p.cli(["diff", "--from", "catalogue", "--to", "prod", "--detailed-exitcode"]);
    expect(r.code, r.stdout + r.stderr).toBe(0);
  });

  it("a tenant-to-tenant diff applies each side's variables: ${shop_channel} compares as the same channel, both ways", async () => {
    for (const [from, to] of [
      ["staging", "prod"],
      ["prod", "staging"],
    ]) {
      const r = await p.cli(["diff", "--from", from!, "--to", to!, "--detailed-exitcode"]);
      expect(r.code, `${from} -> ${to}: ${r.stdout}${r.stderr}`).toBe(0);
    }
  });

  it("the recipe in docs/promotion.md: staging exported into a fresh folder writes the variables back and plans clean against prod", async () => {
    const e = await p.cli(["export", "--tenant", "staging", "--out", "from-staging"]);
    expect(e.code, e.stderr).toBe(0);
    const brands = readFileSync(path.join(p.dir, "from-staging", "brands.yaml"), "utf8");
    expect(brands).toContain("${shop_channel}: acme");
    expect(brands).toContain("image_url: ${cdn}/brands/acme.png");
    const r = await p.cli(["plan", "--tenant", "prod", "--dir", "from-staging", "--detailed-exitcode"]);
    expect(r.code, r.stdout + r.stderr).toBe(0);
  });

  it("into the hand-written catalogue/ it refuses; --merge takes only staging's change, and prod's plan is that change", async () => {
    const before = readFileSync(path.join(p.dir, "catalogue", "catalogue.yaml"), "utf8");
    const staging = p.emulator.store("staging");
    const acme = [...staging.brands.values()].find((b) => b.name === "Acme")!;
    staging.updateBrand(acme.id, { desc: "Tools since 1951" });
    expect((await p.cli(["export", "--tenant", "staging", "--out", "catalogue"])).code).toBe(1);
    const m = await p.cli(["export", "--tenant", "staging", "--out", "catalogue", "--merge"]);
    expect(m.code, m.stderr).toBe(0);
    expect(readFileSync(path.join(p.dir, "catalogue", "catalogue.yaml"), "utf8")).toBe(before.replace("desc: Tools since 1950", "desc: Tools since 1951"));
    expect((await p.cli(["plan", "--tenant", "staging", "--detailed-exitcode"])).code).toBe(0);
    const prod = await p.cli(["plan", "--tenant", "prod", "--format", "json"]);
    expect(prod.code, prod.stderr).toBe(0);
    expect((JSON.parse(prod.stdout) as Plan).actions.map((a) => `${a.op} ${a.address} ${a.changes.map((c) => c.field).join(",")}`)).toEqual([
      'update brand["Acme"] desc',
    ]);
    const applied = await p.cli(["apply", "--tenant", "prod", "--auto-approve"]);
    expect(applied.code, applied.stderr).toBe(0);
  });

  it("records only the target has always show: as unmanaged, or as deletes where the prune policy would delete them", async () => {
    p.emulator.store("prod").createBrand({ name: "Prod Only" });
    const r = await p.cli(["diff", "--from", "staging", "--to", "prod"]);
    expect(r.code, r.stderr).toBe(0);
    expect(r.stdout).toContain('? brand["Prod Only"]');
    const md = await p.cli(["diff", "--from", "staging", "--to", "prod", "--format", "markdown"]);
    expect(md.stdout).toContain('`brand["Prod Only"]`');
    await p.write("pimctl.yaml", `${readFileSync(path.join(p.dir, "pimctl.yaml"), "utf8")}prune: { brands: true }\n`);
    const pruned = await p.cli(["diff", "--from", "staging", "--to", "prod", "--format", "json"]);
    expect(pruned.code, pruned.stderr).toBe(0);
    expect(JSON.parse(pruned.stdout).actions.map((a: { op: string; address: string }) => `${a.op} ${a.address}`)).toEqual(['delete brand["Prod Only"]']);
  });
});
