/**
 * A manifest file that declares nothing (empty, only comments, only the editor's schema line, or
 * cut at a line boundary down to those) is a valid YAML file: it was loaded without a word, and a
 * pruning plan deleted what it used to hold. Now it is a warning in `validate` and `plan`, naming
 * the file, and a plan that deletes anything while such a file is there is refused (exit 3, like
 * max_deletes) unless --allow-empty-files: pimctl cannot tell what the file held. Run through the
 * CLI against the emulator, as a team would.
 */
import { rm, writeFile } from "node:fs/promises";
import path from "node:path";
import { afterEach, describe, expect, it } from "vitest";
import { testProject, type TestProject } from "../helpers/project.js";

const SCHEMA_LINE = "# yaml-language-server: $schema=../node_modules/pimctl/schemas/manifest.schema.json\n";
const BRANDS = `${SCHEMA_LINE}brands:\n  - name: Acme\n  - name: Zenith\n  - name: Orbit\n`;
const PARTNERS = "brands:\n  - name: Partner North\n";
const ATTRIBUTES = "attributes:\n  - name: Colour\n    type: text\n";

/** Requests that change the tenant (a search is a POST that reads). */
const writes = (p: TestProject) =>
  Object.entries(p.emulator.stats().requests.byRoute)
    .filter(([route]) => !route.startsWith("GET ") && !route.endsWith("/search"))
    .reduce((n, [, count]) => n + count, 0);

function config(url: string, prune: string): string {
  return ["dir: catalogue", "tenants:", "  demo:", `    base_url: ${url}`, "    token_env: PIMCTL_DEMO_TOKEN", prune, ""].join("\n");
}

describe("manifest files that declare nothing", () => {
  let p: TestProject;
  afterEach(async () => p.close());

  /**
   * Brands applied from brands.yaml and partners.yaml, then pruning on for brands. (A kind no file
   * declares any more is not managed, so nothing of it is deleted: the risk is a file emptied while
   * another still declares its kind.)
   */
  async function applied(): Promise<TestProject> {
    p = await testProject({ files: { "catalogue/brands.yaml": BRANDS, "catalogue/partners.yaml": PARTNERS, "catalogue/attributes.yaml": ATTRIBUTES } });
    expect((await p.cli(["apply", "--auto-approve"])).code).toBe(0);
    await p.write("pimctl.yaml", config(p.emulator.tenantUrl("demo"), "prune: { brands: true }"));
    return p;
  }

  it("validate warns for each, naming the file: empty, only comments, the schema line alone, a file cut down to its comments", async () => {
    p = await testProject({
      files: {
        "catalogue/attributes.yaml": ATTRIBUTES,
        "catalogue/empty.yaml": "",
        "catalogue/notes.yml": "# brands live in brands.yaml now\n\n# (moved in March)\n",
        "catalogue/schema-only.yaml": SCHEMA_LINE,
        // brands.yaml cut after its first line: a valid, shorter YAML file.
        "catalogue/brands.yaml": BRANDS.split("\n")[0]! + "\n",
        "catalogue/anchors.yaml": "x-text: &text { type: text }\n",
      },
    });
    const r = await p.cli(["validate"]);
    expect(r.code, r.stderr).toBe(0);
    const warned = [...r.stderr.matchAll(/^warning: (\S+?):1:1: this file declares nothing/gm)].map((m) => m[1]);
    expect(warned).toEqual(["catalogue/anchors.yaml", "catalogue/brands.yaml", "catalogue/empty.yaml", "catalogue/notes.yml", "catalogue/schema-only.yaml"]);
    expect(r.stderr).toContain("restore its entries, or remove the file if it is meant to declare nothing");
    const json = JSON.parse((await p.cli(["validate", "--format", "json"])).stdout) as { warnings: Array<{ file: string; code: string }> };
    expect(json.warnings.map((w) => w.file)).toEqual(warned);
    // A kind written with no entries is a declaration (all brands gone, on purpose): no warning.
    await writeFile(path.join(p.dir, "catalogue", "brands.yaml"), "brands: []\n");
    expect((await p.cli(["validate"])).stderr).not.toContain("catalogue/brands.yaml:1:1");
  });

  it("plan says so in its warnings; with no deletes in the plan, nothing more happens", async () => {
    await applied();
    await p.write("catalogue/extra.yaml", "# nothing yet\n");
    const r = await p.cli(["plan", "--allow-delete", "--detailed-exitcode", "--format", "json"]);
    expect(r.code, r.stderr).toBe(0);
    const plan = JSON.parse(r.stdout) as { warnings: string[] };
    expect(plan.warnings).toContain(
      "catalogue/extra.yaml declares nothing (it is empty, or holds only comments): a plan that deletes anything is refused while it does " +
        "(--allow-empty-files plans the deletes anyway); restore its entries, or remove the file",
    );
    expect((await p.cli(["plan"])).stdout).toContain("Warning: catalogue/extra.yaml declares nothing");
  });

  it("a pruning plan that would delete what an emptied file held is refused (exit 3) before any write, in plan and in apply, --allow-delete or not", async () => {
    await applied();
    await p.write("catalogue/brands.yaml", SCHEMA_LINE);
    p.emulator.resetStats();
    for (const args of [["plan", "--allow-delete"], ["plan"], ["apply", "--auto-approve", "--allow-delete"]]) {
      const r = await p.cli(args);
      expect(r.code, `${args.join(" ")}: ${r.stderr}`).toBe(3);
      expect(r.stderr).toContain(
        "error: the plan deletes 3 records while catalogue/brands.yaml declares nothing (it is empty, or holds only comments); nothing was applied",
      );
      expect(r.stderr).toContain("pass --allow-empty-files to plan the deletes anyway");
    }
    // drift applies nothing: the deletes are drift to report (exit 2), not a refusal.
    expect((await p.cli(["drift", "--detailed-exitcode"])).code).toBe(2);
    // A targeted plan of one of them is refused the same way.
    expect((await p.cli(["plan", "--allow-delete", "--target", 'brand["Acme"]'])).code).toBe(3);
    expect(writes(p)).toBe(0);
    expect([...p.emulator.store("demo").brands.values()].map((b) => b.name).sort()).toEqual(["Acme", "Orbit", "Partner North", "Zenith"]);
  });

  it("--allow-empty-files plans the deletes (gated by --allow-delete as ever); a saved plan made so applies; removing the file is the other way", async () => {
    await applied();
    await p.write("catalogue/brands.yaml", "");
    const blocked = await p.cli(["plan", "--allow-empty-files", "--format", "json"]);
    expect(blocked.code, blocked.stderr).toBe(0);
    expect((JSON.parse(blocked.stdout) as { deletes_allowed: boolean }).deletes_allowed).toBe(false);
    const saved = await p.cli(["plan", "--allow-delete", "--allow-empty-files", "--out", "plan.json"]);
    expect(saved.code, saved.stderr).toBe(0);
    expect(saved.stdout).toContain('- brand["Zenith"]');
    const done = await p.cli(["apply", "plan.json"]);
    expect(done.code, done.stderr).toBe(0);
    expect([...p.emulator.store("demo").brands.values()].map((b) => b.name)).toEqual(["Partner North"]);
    // Removing the file instead: deletes are gated by --allow-delete alone, with no warning.
    await p.write("catalogue/brands.yaml", BRANDS);
    expect((await p.cli(["apply", "--auto-approve"])).code).toBe(0);
    await rm(path.join(p.dir, "catalogue", "brands.yaml"));
    const gone = await p.cli(["apply", "--auto-approve", "--allow-delete"]);
    expect(gone.code, gone.stderr).toBe(0);
    expect(gone.stderr).not.toContain("declares nothing");
  });
});
