/**
 * The messages a team meets in its second week (issue 33), each run as the user runs it, through the
 * CLI: validate's warnings in file and line order in text as in JSON; one message naming the allowed
 * values of a prune setting, at its line; a reference in a list reported at the member's own line; an
 * undefined YAML alias at the alias; and commands run from the manifest folder find the config above it.
 */
import { execFileSync } from "node:child_process";
import { mkdir, writeFile } from "node:fs/promises";
import path from "node:path";
import { describe, expect, it } from "vitest";
import { offlineProjects } from "../helpers/offline.js";

const { dir, project, cli } = offlineProjects("pimctl-second-week-");

/** The file:line:col of each "warning:" or "error:" line, in the order printed. */
const places = (stderr: string, kind: "warning" | "error") =>
  [...stderr.matchAll(new RegExp(`^${kind}: ([^ ]+?):(\\d+):(\\d+):`, "gm"))].map((m) => m.slice(1, 4).join(":"));

describe("validate's text warnings are sorted by file and line, as its JSON is", () => {
  it("a file whose checks warn out of line order (whitespace names first, then names that differ only in case)", async () => {
    const root = await project("sorted", "dir: catalogue\n", {
      "a.yaml": 'brands:\n  - name: " Zed"\n  - name: zed\n  - name: Zed\n  - name: "Acme "\n',
      "b.yaml": 'brands:\n  - name: "Tail "\n',
    });
    const r = await cli(root, ["validate"]);
    expect(r.code, r.stderr).toBe(0);
    expect(places(r.stderr, "warning")).toEqual(["catalogue/a.yaml:2:5", "catalogue/a.yaml:4:5", "catalogue/a.yaml:5:5", "catalogue/b.yaml:2:5"]);
    const json = JSON.parse((await cli(root, ["validate", "--format", "json"])).stdout) as { warnings: Array<{ file: string; line: number }> };
    expect(json.warnings.map((w) => `${w.file}:${w.line}`)).toEqual(["catalogue/a.yaml:2", "catalogue/a.yaml:4", "catalogue/a.yaml:5", "catalogue/b.yaml:2"]);
  });
});

describe("a prune setting that is not true, false or owned", () => {
  it("prune: { categories: yes } is one error naming every allowed value, at the config's line", async () => {
    const root = await project("prune-yes", "dir: catalogue\nprune:\n  categories: yes\n  brands: 1\n", { "a.yaml": "brands:\n  - name: Acme\n" });
    for (const cmd of [["validate"], ["plan"]]) {
      const r = await cli(root, cmd);
      expect(r.code).toBe(1);
      expect(r.stderr).toContain('error: pimctl.yaml:3:15: "categories" is "yes", which is not one of: true, false, "owned"');
      expect(r.stderr).toContain('error: pimctl.yaml:4:11: "brands" is 1, which is not one of: true, false, "owned"');
      expect(r.stderr).not.toContain("must be equal to constant");
      expect(r.stderr).not.toContain("must be true or false");
      expect(r.stderr.match(/^error: /gm)).toHaveLength(2);
    }
  });
});

describe("a problem inside an entry is reported where it is written", () => {
  it("an unknown attribute in a set's member list, an unknown set in a brand's or category's list: at the member's own line", async () => {
    const root = await project("members", "dir: catalogue\n", {
      "a.yaml": [
        "attributes:",
        "  - name: Colour",
        "    type: text",
        "attribute_sets:",
        "  - name: Apparel",
        "    attributes:",
        "      - Colour",
        "      - Sizee",
        "brands:",
        "  - name: Acme",
        "    attribute_sets: [Apparel, Shoes]",
        "    attributes:",
        "      Colour: { value: Red }",
        "      Fit: { value: Slim }",
        "categories:",
        "  - name: Shirts",
        "    children:",
        "      - name: Long",
        "        attribute_sets:",
        "          - Apparel",
        "          - Aparel",
        "",
      ].join("\n"),
    });
    const r = await cli(root, ["validate"]);
    expect(r.code).toBe(1);
    expect(r.stderr).toContain('error: catalogue/a.yaml:8:9: attribute set "Apparel" refers to attribute "Sizee", which no manifest declares');
    expect(r.stderr).toContain('error: catalogue/a.yaml:11:31: brand "Acme" refers to attribute set "Shoes", which no manifest declares');
    expect(r.stderr).toContain('error: catalogue/a.yaml:14:7: brand "Acme" refers to attribute "Fit", which no manifest declares');
    expect(r.stderr).toContain('error: catalogue/a.yaml:21:13: category "Shirts/Long" refers to attribute set "Aparel", which no manifest declares');
  });

  it("an undefined YAML alias is reported at the alias, naming it, not at 1:1", async () => {
    const root = await project("alias", "dir: catalogue\n", {
      "a.yaml": "x-text: &text Tools since 1950\nbrands:\n  - name: Acme\n    desc: *text\n  - name: Zenith\n    desc: *txet\n",
    });
    const r = await cli(root, ["validate"]);
    expect(r.code).toBe(1);
    expect(r.stderr).toContain("error: catalogue/a.yaml:6:11: YAML: the alias *txet names no anchor (&txet) defined above it");
    expect(r.stderr).toContain("did you mean *text?");
    expect(r.stderr).not.toContain("a.yaml:1:1:");
  });
});

describe("run from the manifest folder, commands find the config above it (as git and npm do)", () => {
  const config = "dir: catalogue\ntenants:\n  t:\n    base_url: http://127.0.0.1:9/api/v1\n    token_env: PIMCTL_T\n";

  it("inside a Git repository: the nearest pimctl.yaml up to the repository's root, named on stderr; --config still wins", async () => {
    const root = await project("upward", config, { "a.yaml": "brands:\n  - name: Acme\n" });
    execFileSync("git", ["init", "-q"], { cwd: root });
    await mkdir(path.join(root, "catalogue", "deeper"), { recursive: true });
    for (const cwd of [path.join(root, "catalogue"), path.join(root, "catalogue", "deeper")]) {
      const r = await cli(cwd, ["validate"]);
      expect(r.code, r.stderr).toBe(0);
      const shown = path.relative(cwd, path.join(root, "pimctl.yaml"));
      expect(r.stderr).toContain(`using the config ${shown} (the nearest pimctl.yaml above this folder)`);
      expect(r.stderr).toContain(`OK: 1 file in ${path.relative(cwd, path.join(root, "catalogue")) || "."}: 1 brand`);
    }
    // In the config's own folder nothing more is said.
    expect((await cli(root, ["validate"])).stderr).not.toContain("using the config");
    // --config names another file: that one is read, nothing is looked up.
    await writeFile(path.join(root, "catalogue", "other.yaml.conf"), "dir: .\n");
    const explicit = await cli(path.join(root, "catalogue"), ["validate", "--config", "other.yaml.conf"]);
    expect(explicit.code, explicit.stderr).toBe(0);
    expect(explicit.stderr).not.toContain("using the config");
  });

  it("the search stops at the repository's root: a pimctl.yaml above it is never used, and the error says where it looked", async () => {
    const outer = path.join(dir(), "outer");
    const repo = path.join(outer, "repo");
    await mkdir(path.join(repo, "catalogue"), { recursive: true });
    await writeFile(path.join(outer, "pimctl.yaml"), config);
    execFileSync("git", ["init", "-q"], { cwd: repo });
    const r = await cli(path.join(repo, "catalogue"), ["validate"]);
    expect(r.code).toBe(1);
    expect(r.stderr).toContain(`error: no pimctl.yaml found in ${path.join(repo, "catalogue")} or a folder above it up to ${repo} (the Git repository's root)`);
    expect(r.stderr).not.toContain("using the config");
  });

  it("outside a Git repository only the working directory is looked in; the error names the config above and --config", async () => {
    const root = await project("no-repo", config, { "a.yaml": "brands:\n  - name: Acme\n" });
    const r = await cli(path.join(root, "catalogue"), ["validate"]);
    expect(r.code).toBe(1);
    expect(r.stderr).toContain(`error: no pimctl.yaml found in ${path.join(root, "catalogue")}\n`);
    expect(r.stderr).toContain(
      "../pimctl.yaml is above this folder, outside a Git repository, where pimctl looks in the working directory only: run from .., or pass --config ../pimctl.yaml",
    );
    expect((await cli(path.join(root, "catalogue"), ["validate", "--config", "../pimctl.yaml"])).code).toBe(0);
  });
});
