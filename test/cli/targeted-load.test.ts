/**
 * `plan --target` loads, validates and plans what its targets touch
 * (src/workflows/targeted-load.ts), and says how much it loaded; a saved
 * targeted plan (its basis holds only the loaded records) applies, and the
 * review page still marks uncommitted manifest files.
 */
import { execFile } from "node:child_process";
import { readFile, writeFile } from "node:fs/promises";
import path from "node:path";
import { promisify } from "node:util";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { writeTaxonomyProject } from "../../src/bench/taxonomy.js";
import { loadManifests } from "../../src/manifest/index.js";
import { parseAddress } from "../../src/plan/address.js";
import type { Plan } from "../../src/plan/types.js";
import { testProject, type TestProject } from "../helpers/project.js";

const git = promisify(execFile);
const ROOTS = ["Luggage & Bags", "Religious & Ceremonial", "Media"];
const LOADED = /loaded (\d+) of ([\d,]+) manifest entries for (\d+) targets?/;

describe("a targeted plan costs what it touches", () => {
  let p: TestProject;
  let entries: number;
  let attribute: string;
  beforeAll(async () => {
    p = await testProject();
    await writeTaxonomyProject(p.dir, {
      brands: 40,
      tenants: { demo: p.emulator.tenantUrl("demo") },
      tokenEnv: () => "PIMCTL_DEMO_TOKEN",
      roots: ROOTS,
      versionIds: { French: 2, German: 3 },
    });
    const { catalogue } = await loadManifests(path.join(p.dir, "catalogue"), { cwd: p.dir });
    const roots = catalogue.categories.filter((c) => c.path.length === 1).length;
    entries = catalogue.attributes.length + catalogue.attribute_sets.length + roots + catalogue.brands.length;
    attribute = catalogue.attributes.find((a) => a.values?.length)!.name;
  }, 60_000);
  afterAll(() => p.close());

  const targets = () => ['brand["Brand 001"]', 'category["Religious & Ceremonial"]', `attribute[${JSON.stringify(attribute)}]`];
  const flags = (list: string[]) => list.flatMap((t) => ["--target", t]);

  it("loads and plans only the targets and what they need, and says so", async () => {
    const r = await p.cli(["plan", ...flags(targets()), "--format", "json"]);
    expect(r.code, r.stderr).toBe(0);
    const [, loaded, of, count] = LOADED.exec(r.stderr)!;
    // The brand, the root category and its attribute set (which lists no attributes), the attribute.
    expect(Number(loaded)).toBe(4);
    expect(Number(of!.replace(/,/g, ""))).toBe(entries);
    expect(count).toBe("3");
    const records = new Set((JSON.parse(r.stdout) as Plan).actions.map((a) => parseAddress(a.address)!.segments[0]));
    const roots = [...records].map((s) => `${s.type} ${s.type === "category" ? s.key.split("/")[0] : s.key}`);
    // The category's set is created with it (a target's plan holds what it needs).
    expect(new Set(roots)).toEqual(
      new Set(["brand Brand 001", "category Religious & Ceremonial", "attribute_set Religious & Ceremonial", `attribute ${attribute}`]),
    );
  });

  it("validates only the records it touches; errors there name file:line:col; validate checks all", async () => {
    await p.write("catalogue/broken.yaml", "brands:\n  - name: Broken\n    excluded: maybe\n");
    try {
      const untouched = await p.cli(["plan", ...flags(targets())]);
      expect(untouched.code, untouched.stderr).toBe(0);
      const touched = await p.cli(["plan", "--target", 'brand["Broken"]']);
      expect(touched.code).toBe(1);
      expect(touched.stderr).toMatch(/catalogue\/broken\.yaml:3:\d+/);
      const validate = await p.cli(["validate"]);
      expect(validate.code).toBe(1);
      expect(validate.stderr).toMatch(/catalogue\/broken\.yaml:3:\d+/);
    } finally {
      await writeFile(path.join(p.dir, "catalogue/broken.yaml"), "");
    }
  });

  it("a saved targeted plan applies from its basis; apply --target verifies; a re-plan shows no changes", async () => {
    const saved = await p.cli(["plan", ...flags(targets()), "--out", "t.plan.json"]);
    expect(saved.code, saved.stderr).toBe(0);
    const basis = (JSON.parse(await readFile(path.join(p.dir, "t.plan.json"), "utf8")) as Plan).basis!;
    expect(basis.desired.brands.map((b) => b.name)).toEqual(["Brand 001"]);
    const applied = await p.cli(["apply", "t.plan.json"]);
    expect(applied.code, applied.stderr).toBe(0);
    // Loaded for its rename, not for the target: what it refers to (a set) is not loaded.
    await p.write("catalogue/moved.yaml", "categories:\n  - name: Moved\n    previous_names: [Old]\n    attribute_sets: [Media]\n");
    const direct = await p.cli(["apply", "--target", 'brand["Brand 002"]', "--auto-approve", "--report", "r.json"]);
    expect(direct.code, direct.stderr).toBe(0);
    // Verified within its targets: the create read back, no error from records the load left out.
    const { verification } = JSON.parse(await readFile(path.join(p.dir, "r.json"), "utf8")) as { verification: Record<string, unknown> };
    expect(verification).toEqual({ checked: 1, mismatches: [] });
    const again = await p.cli(["plan", ...flags([...targets(), 'brand["Brand 002"]']), "--detailed-exitcode"]);
    expect(again.code, again.stdout + again.stderr).toBe(0);
  }, 30_000);

  it("the review page still marks uncommitted manifest files, touched or not", async () => {
    const env = { GIT_AUTHOR_NAME: "t", GIT_AUTHOR_EMAIL: "t@example.com", GIT_COMMITTER_NAME: "t", GIT_COMMITTER_EMAIL: "t@example.com" };
    const opts = { cwd: p.dir, env: { ...process.env, ...env } };
    await git("git", ["init", "-q"], opts);
    await git("git", ["add", "-A"], opts);
    await git("git", ["commit", "-qm", "manifests"], opts);
    const brands = path.join(p.dir, "catalogue/brands.yaml");
    await writeFile(brands, `${await readFile(brands, "utf8")}  - name: Not Targeted\n`);
    const r = await p.cli(["plan", ...flags(targets()), "--html", "page.html"]);
    expect(r.code, r.stderr).toBe(0);
    expect(await readFile(path.join(p.dir, "page.html"), "utf8")).toContain("uncommitted changes in 1 file");
  });
});
