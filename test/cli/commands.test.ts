import { execFileSync } from "node:child_process";
import { existsSync, readFileSync } from "node:fs";
import path from "node:path";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { testProject, type TestProject } from "../helpers/project.js";
import { memoryIo } from "../../src/cli/io.js";
import { run } from "../../src/cli/run.js";

let p: TestProject;
beforeAll(async () => {
  p = await testProject({ files: { "catalogue/a.yaml": "brands:\n  - name: Acme\n    desc: Tools\n" } });
});
afterAll(async () => p.close());

describe("pimctl ping", () => {
  it("checks address and token", async () => {
    const r = await p.cli(["ping"]);
    expect(r.code, r.stderr).toBe(0);
    expect(r.stdout).toMatch(/^ok: tenant "demo" at http:\/\/127\.0\.0\.1:\d+\/demo\/api\/v1 answered in \d+ ms/);
  });
  it("explains a 401 in words, without the token", async () => {
    const r = await p.cli(["ping"], { env: { PIMCTL_DEMO_TOKEN: "not-the-token" } });
    expect(r.code).toBe(1);
    expect(r.stderr).toContain(
      "refused the token (401). Either the token was rotated or revoked, it belongs to another tenant, or the Authorization header is missing or malformed",
    );
    expect(r.stderr).not.toContain("not-the-token");
  });
  it("says which variable is missing", async () => {
    const r = await p.cli(["ping"], { env: { PIMCTL_DEMO_TOKEN: "" } });
    expect(r.stderr).toContain("error: the token variable PIMCTL_DEMO_TOKEN is not set (or empty)");
  });
});

describe("pimctl validate", () => {
  it("prints counts when valid", async () => {
    const r = await p.cli(["validate"]);
    expect(r.code).toBe(0);
    expect(r.stderr).toBe("OK: 1 file in catalogue: 1 brand\n");
  });
  it("prints every error with file:line and exits 1", async () => {
    await p.write("bad/x.yaml", "brands:\n  - name: A\n    colour: red\n  - name: A\n");
    const r = await p.cli(["validate", "bad"]);
    expect(r.code).toBe(1);
    expect(r.stderr).toBe(
      'error: bad/x.yaml:3:5: unknown field "colour" in brands[0]\n  allowed fields: name, desc, excluded, exclusion_start_date, exclusion_end_date, exclusion_reason, seo_search_keywords, seo_meta_desc, seo_meta_keywords, seo_title, web_ids, assets, attributes, assigned_attributes, attribute_sets, versions, previous_names\n' +
        'error: bad/x.yaml:4:5: brand "A" is declared twice (first at bad/x.yaml:2:5)\n2 errors\n',
    );
  });
});

describe("pimctl init", () => {
  it("scaffolds without asking when not on a terminal, and refuses to overwrite", async () => {
    const io = memoryIo({ cwd: path.join(p.dir, "fresh"), env: {} });
    await p.write("fresh/.keep", "");
    expect(await run(["init", "--tenant", "staging"], io)).toBe(0);
    const config = readFileSync(path.join(p.dir, "fresh/pimctl.yaml"), "utf8");
    expect(config).toContain("token_env: PIMCTL_STAGING_TOKEN");
    expect(readFileSync(path.join(p.dir, "fresh/catalogue/catalogue.yaml"), "utf8")).toMatch(
      /^# yaml-language-server: \$schema=.*schemas\/manifest\.schema\.json/,
    );
    expect(readFileSync(path.join(p.dir, "fresh/.gitignore"), "utf8")).toMatch(/^\.pimctl\/$/m);
    expect(io.err.join("")).toContain("; wrote .gitignore.");
    const again = memoryIo({ cwd: path.join(p.dir, "fresh"), env: {} });
    expect(await run(["init"], again)).toBe(1);
    expect(again.err.join("")).toContain("pimctl.yaml exists; pass --force to overwrite");
    const validate = memoryIo({ cwd: path.join(p.dir, "fresh"), env: {} });
    expect(await run(["validate"], validate)).toBe(0);
  });
  it("adds .pimctl/ to an existing .gitignore once, keeping what it holds", async () => {
    await p.write("ignored/.gitignore", "node_modules/\ndist");
    const io = memoryIo({ cwd: path.join(p.dir, "ignored"), env: {} });
    expect(await run(["init"], io)).toBe(0);
    expect(readFileSync(path.join(p.dir, "ignored/.gitignore"), "utf8")).toBe(
      "node_modules/\ndist\n# pimctl's local state (ledger, lock, caches): see pimctl's docs/state.md\n.pimctl/\n",
    );
    expect(io.err.join("")).toContain("added .pimctl/ to .gitignore");
    const again = memoryIo({ cwd: path.join(p.dir, "ignored"), env: {} });
    expect(await run(["init", "--force"], again)).toBe(0);
    expect(readFileSync(path.join(p.dir, "ignored/.gitignore"), "utf8").match(/\.pimctl\//g)).toHaveLength(1);
    // git itself ignores the ledger directory.
    execFileSync("git", ["init", "--quiet"], { cwd: path.join(p.dir, "ignored") });
    await p.write("ignored/.pimctl/demo.json", "{}");
    expect(execFileSync("git", ["status", "--porcelain", "--untracked-files=all"], { cwd: path.join(p.dir, "ignored"), encoding: "utf8" })).not.toContain(
      ".pimctl",
    );
  });
  it("asks on a terminal", async () => {
    await p.write("asked/.keep", "");
    const io = memoryIo({ cwd: path.join(p.dir, "asked"), env: {}, answers: ["https://pim.example.com/api/v1", "MY_TOKEN"] });
    expect(await run(["init"], io)).toBe(0);
    const config = readFileSync(path.join(p.dir, "asked/pimctl.yaml"), "utf8");
    expect(config).toContain("base_url: https://pim.example.com/api/v1");
    expect(config).toContain("token_env: MY_TOKEN");
  });
});

describe("plan --target, --exclude, --show-unmanaged", () => {
  it("narrows the plan to an address or leaves a kind out", async () => {
    await p.write("narrow/a.yaml", "brands:\n  - name: Acme\n  - name: Zenith\ncategories:\n  - name: Garden\n");
    const t = await p.cli(["plan", "--dir", "narrow", "--target", 'brand["Zenith"]', "--format", "json"]);
    expect(JSON.parse(t.stdout).actions.map((a: { address: string }) => a.address)).toEqual(['brand["Zenith"]']);
    const x = await p.cli(["plan", "--dir", "narrow", "--exclude", "brands", "--format", "json"]);
    expect(JSON.parse(x.stdout).actions.map((a: { address: string }) => a.address)).toEqual(['category["Garden"]']);
  });
  it("lists unmanaged records one by one on request", async () => {
    p.emulator.store("demo").createBrand({ name: "Someone else's" });
    const r = await p.cli(["plan", "--dir", "narrow", "--show-unmanaged"]);
    expect(r.stdout).toContain('? brand["Someone else\'s"]');
    const plain = await p.cli(["plan", "--dir", "narrow"]);
    expect(plain.stdout).toMatch(/Unmanaged, left alone \(pruning off\): \d+ brands\. List them with --show-unmanaged\./);
  });
});

describe("help, version, completion and output conventions", () => {
  for (const cmd of ["plan", "apply", "diff", "export", "validate", "ping", "init", "demo", "emulator"]) {
    it(`${cmd} --help explains, with examples`, async () => {
      const io = memoryIo({ cwd: p.dir });
      expect(await run([cmd, "--help"], io)).toBe(0);
      const text = io.out.join("");
      expect(text).toContain(`pimctl ${cmd}`);
      expect(text).toContain("Examples:");
    });
  }
  it("--version prints the package version", async () => {
    const io = memoryIo({ cwd: p.dir });
    expect(await run(["--version"], io)).toBe(0);
    expect(io.out.join("").trim()).toBe(JSON.parse(readFileSync(path.resolve(import.meta.dirname, "../../package.json"), "utf8")).version);
  });
  it("an unknown command is a usage error", async () => {
    const io = memoryIo({ cwd: p.dir });
    expect(await run(["plna"], io)).toBe(1);
    expect(io.err.join("")).toMatch(/Unknown argument: plna|Did you mean plan/);
  });
  it("plan output has no colour without a terminal, and --quiet prints only the plan", async () => {
    const r = await p.cli(["plan", "--quiet", "--out", "q.json"]);
    expect(r.code).toBe(0);
    expect(r.stdout).not.toMatch(/\u001b\[/);
    expect(r.stdout).toContain('+ brand["Acme"]');
    expect(r.stderr).toBe("");
    expect(existsSync(path.join(p.dir, "q.json"))).toBe(true);
  });
});
