/**
 * Manifest folders on disk: symlinked folders and files are followed, loops and
 * broken links are errors naming the link, and a file that is not UTF-8 is an
 * error at file:line:col; `pimctl validate` prints each (never an internal
 * error) and exits 1. Issue 23, item 8.
 */
import { execFile, execFileSync } from "node:child_process";
import { mkdir, mkdtemp, rm, symlink, writeFile } from "node:fs/promises";
import { tmpdir } from "node:os";
import path from "node:path";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { loadManifests } from "../../src/manifest/index.js";
import { scanManifests } from "../../src/manifest/kinds-scan.js";
import { testProject, type TestProject } from "../helpers/project.js";
import { repoRoot } from "../helpers/paths.js";
import { createBrand } from "../../src/emulator/kinds/brands.js";

/** `pimctl validate` as a real process (dist/: run `npm run build` first), as the issue saw the stack. */
function validateProcess(cwd: string): Promise<{ code: number; stderr: string }> {
  return new Promise((resolve) => {
    execFile(process.execPath, [path.join(repoRoot, "dist/cli/main.js"), "validate"], { cwd, env: { ...process.env, NO_COLOR: "1" } }, (err, _stdout, stderr) =>
      resolve({ code: err ? (typeof err.code === "number" ? err.code : -1) : 0, stderr }),
    );
  });
}

let p: TestProject;
beforeAll(async () => {
  // prune is on for brands: a folder skipped in silence would plan its brands' deletion.
  p = await testProject({
    config: (urls) =>
      ["dir: catalogue", "prune: { brands: true }", "tenants:", "  demo:", `    base_url: ${urls.demo}`, "    token_env: PIMCTL_DEMO_TOKEN", ""].join("\n"),
  });
  createBrand(p.emulator.store("demo"), { name: "Acme" });
  createBrand(p.emulator.store("demo"), { name: "Linked" });
});
afterAll(async () => p.close());

/** A fresh catalogue folder in the project, with files written inline. */
async function catalogue(files: Record<string, string | Uint8Array>): Promise<string> {
  const dir = path.join(p.dir, "catalogue");
  await rm(dir, { recursive: true, force: true });
  await mkdir(dir, { recursive: true });
  for (const [name, content] of Object.entries(files)) {
    await mkdir(path.dirname(path.join(dir, name)), { recursive: true });
    await writeFile(path.join(dir, name), content);
  }
  return dir;
}

describe("symlinks in a manifest folder", () => {
  it("a symlinked folder is read, and its records are not planned for deletion under prune", async () => {
    const dir = await catalogue({ "brands.yaml": "brands:\n  - name: Acme\n" });
    await mkdir(path.join(p.dir, "shared"), { recursive: true });
    await writeFile(path.join(p.dir, "shared", "linked.yaml"), "brands:\n  - name: Linked\n");
    await symlink(path.join(p.dir, "shared"), path.join(dir, "shared"));
    const loaded = await loadManifests(dir, { cwd: p.dir });
    expect(loaded.errors).toEqual([]);
    expect(loaded.files.map((f) => path.relative(p.dir, f))).toEqual(["catalogue/brands.yaml", "catalogue/shared/linked.yaml"]);
    expect(loaded.catalogue.brands.map((b) => b.name)).toEqual(["Acme", "Linked"]);
    const v = await p.cli(["validate"]);
    expect(v.code, v.stderr).toBe(0);
    expect(v.stderr).toContain("OK: 2 files in catalogue: 2 brands");
    const plan = await p.cli(["plan", "--detailed-exitcode"]);
    expect(plan.code, plan.stdout + plan.stderr).toBe(0);
  });

  it("the early kinds scan sees the same files: a linked folder's kinds, and a first line after a byte order mark", async () => {
    const dir = await catalogue({ "brands.yaml": "\ufeffbrands:\n  - name: Acme\n" });
    await mkdir(path.join(p.dir, "shared-cats"), { recursive: true });
    await writeFile(path.join(p.dir, "shared-cats", "c.yaml"), "categories:\n  - name: Tools\n");
    await symlink(path.join(p.dir, "shared-cats"), path.join(dir, "cats"));
    expect((await scanManifests(dir))?.kinds).toEqual(["brands", "categories"]);
  });

  it("the scan finds each kind at column 0 as the YAML parse does: after a BOM, blanks before the colon, among non-ASCII text, never indented", async () => {
    const dir = await catalogue({
      "a.yaml": "\ufeffbrands:\n  - name: Café Ünïcode 日本\n    desc: x\n",
      "b.yaml": "# a comment\ncategories \t:\n  - name: Äpfel\n    attribute_sets: [x]\n",
      "c.yaml": "attribute_setsX: 1\n  attributes:\n    - name: not a top-level key\n",
    });
    expect((await scanManifests(dir))?.kinds).toEqual(["brands", "categories"]);
  });

  it("the version scan reads whole lines of each file's head: a name split at the cut is not read as another", async () => {
    const filler = Array.from({ length: 1200 }, (_, i) => `  - name: Brand ${i} ${"é".repeat(30)}\n    versions: { French: { desc: d } }\n`).join("");
    const dir = await catalogue({ "brands.yaml": `brands:\n${filler}  - name: Last\n    versions: { Klingon: { desc: d } }\n` });
    const scan = await scanManifests(dir);
    // Past the head: a hint the plan does without (the version is read once the manifests are loaded).
    expect(scan?.versions()).toEqual(["French"]);
  });

  it("a symlinked file is read", async () => {
    const dir = await catalogue({ "brands.yaml": "brands:\n  - name: Acme\n" });
    await writeFile(path.join(p.dir, "linked-file.yaml"), "brands:\n  - name: Linked\n");
    await symlink("../linked-file.yaml", path.join(dir, "linked.yaml"));
    const loaded = await loadManifests(dir, { cwd: p.dir });
    expect(loaded.errors).toEqual([]);
    expect(loaded.catalogue.brands.map((b) => b.name)).toEqual(["Acme", "Linked"]);
  });

  it("a folder link back to a folder it is in is an error naming the link, not ELOOP; validate exits 1", async () => {
    const dir = await catalogue({ "brands.yaml": "brands:\n  - name: Acme\n", "sub/more.yaml": "brands:\n  - name: Linked\n" });
    await symlink("..", path.join(dir, "sub", "up"));
    const loaded = await loadManifests(dir, { cwd: p.dir });
    expect(loaded.errors.map((e) => e.message)).toEqual([
      "symlink loop: catalogue/sub/up leads back to catalogue, a folder it is in; point the link elsewhere or remove it",
    ]);
    // Everything else is still read (and reported in the same run).
    expect(loaded.catalogue.brands.map((b) => b.name)).toEqual(["Acme", "Linked"]);
    const v = await p.cli(["validate"]);
    expect(v.code).toBe(1);
    expect(v.stderr).toContain("symlink loop: catalogue/sub/up leads back to catalogue");
    expect(v.stderr).not.toContain("internal error");
    const real = await validateProcess(p.dir);
    expect(real.code, real.stderr).toBe(1);
    expect(real.stderr).toContain("catalogue/sub/up leads back to catalogue");
    expect(real.stderr).not.toContain("internal error");
  });

  it("a chain of links that never ends is an error naming the link; validate exits 1", async () => {
    const dir = await catalogue({ "brands.yaml": "brands:\n  - name: Acme\n" });
    await symlink("b.yaml", path.join(dir, "a.yaml"));
    await symlink("a.yaml", path.join(dir, "b.yaml"));
    const loaded = await loadManifests(dir, { cwd: p.dir });
    expect(loaded.errors.map((e) => e.message)).toEqual([
      "symlink loop: catalogue/a.yaml -> b.yaml is a chain of symlinks that never reaches a file or folder",
      "symlink loop: catalogue/b.yaml -> a.yaml is a chain of symlinks that never reaches a file or folder",
    ]);
    const v = await p.cli(["validate"]);
    expect(v.code).toBe(1);
    expect(v.stderr).toContain("symlink loop: catalogue/a.yaml -> b.yaml");
    expect(v.stderr).not.toContain("internal error");
    const real = await validateProcess(p.dir);
    expect(real.code, real.stderr).toBe(1);
    expect(real.stderr).toContain("symlink loop: catalogue/a.yaml -> b.yaml");
    expect(real.stderr).not.toContain("internal error");
  });

  it("a broken link (a folder that is gone) is an error, not a folder skipped in silence", async () => {
    const dir = await catalogue({ "brands.yaml": "brands:\n  - name: Acme\n" });
    await symlink("../gone", path.join(dir, "shared"));
    const loaded = await loadManifests(dir, { cwd: p.dir });
    expect(loaded.errors.map((e) => e.message)).toEqual([
      "broken symlink: catalogue/shared -> ../gone points to nothing; remove the link or restore its target",
    ]);
  });

  it("a FIFO or a link to a device named .yaml is refused by name: validate ends at once with exit 1, never blocks", async () => {
    const dir = await catalogue({ "brands.yaml": "brands:\n  - name: Acme\n" });
    execFileSync("mkfifo", [path.join(dir, "pipe.yaml")]);
    await symlink("/dev/zero", path.join(dir, "zero.yaml"));
    const t0 = Date.now();
    const r = await validateProcess(p.dir);
    expect(Date.now() - t0).toBeLessThan(10_000);
    expect(r.code, r.stderr).toBe(1);
    expect(r.stderr).toContain("catalogue/pipe.yaml is not a regular file (a pipe, a device or a socket)");
    expect(r.stderr).toContain("catalogue/zero.yaml is not a regular file (a pipe, a device or a socket, through a symlink)");
  });
});

describe("encodings", () => {
  const latin1 = Buffer.from("brands:\n  - name: Acme\n  - name: Caf\xe9 Noir\n", "latin1");

  it("a Latin-1 file is an error at file:line:col naming the byte; validate prints it and exits 1", async () => {
    const dir = await catalogue({ "brands.yaml": latin1 });
    const loaded = await loadManifests(dir, { cwd: p.dir });
    expect(loaded.errors.map((e) => e.format())).toEqual([
      'catalogue/brands.yaml:3:14: this file is not UTF-8: the byte 0xE9 here is not valid UTF-8 (in Latin-1 or Windows-1252 it is "é"); pimctl reads UTF-8 only: save the file as UTF-8',
    ]);
    const v = await p.cli(["validate"]);
    expect(v.code).toBe(1);
    expect(v.stderr).toContain("catalogue/brands.yaml:3:14: this file is not UTF-8");
    expect(v.stderr).not.toContain("internal error");
    // No plan runs on it, so no "Caf\uFFFD Noir" is created.
    const plan = await p.cli(["plan"]);
    expect(plan.code).toBe(1);
    expect(plan.stdout).not.toContain("\ufffd");
  });

  it("the column counts characters: a valid é before the bad byte on its line is one column", async () => {
    const dir = await catalogue({ "brands.yaml": Buffer.concat([Buffer.from("brands:\n  - name: é", "utf8"), Buffer.from([0xe9, 0x0a])]) });
    const loaded = await loadManifests(dir, { cwd: p.dir });
    expect(loaded.errors.map((e) => e.location)).toEqual([{ file: "catalogue/brands.yaml", line: 2, column: 12 }]);
  });

  it("a UTF-8 byte order mark is fine (and not part of the first key)", async () => {
    const dir = await catalogue({ "brands.yaml": "\ufeffbrands:\n  - name: Acme\n  - name: Linked\n" });
    const loaded = await loadManifests(dir, { cwd: p.dir });
    expect(loaded.errors).toEqual([]);
    expect(loaded.catalogue.brands.map((b) => b.name)).toEqual(["Acme", "Linked"]);
    expect((await p.cli(["validate"])).code).toBe(0);
  });

  it("UTF-16 (with or without a byte order mark) is an error saying so; validate exits 1", async () => {
    const text = "brands:\n  - name: Acme\n";
    const le = Buffer.concat([Buffer.from([0xff, 0xfe]), Buffer.from(text, "utf16le")]);
    const be = Buffer.from(le.subarray(2)).swap16();
    const cases: Array<[Uint8Array, string]> = [
      [
        le,
        "catalogue/brands.yaml:1:1: this file is UTF-16 little-endian (byte order mark FF FE); pimctl reads UTF-8 only: save it as UTF-8 (a UTF-8 byte order mark is fine)",
      ],
      [
        Buffer.concat([Buffer.from([0xfe, 0xff]), be]),
        "catalogue/brands.yaml:1:1: this file is UTF-16 big-endian (byte order mark FE FF); pimctl reads UTF-8 only: save it as UTF-8 (a UTF-8 byte order mark is fine)",
      ],
      [
        le.subarray(2),
        "catalogue/brands.yaml:1:1: this file looks like UTF-16 without a byte order mark (every other byte is 0); pimctl reads UTF-8 only: save it as UTF-8",
      ],
    ];
    for (const [bytes, message] of cases) {
      const dir = await catalogue({ "brands.yaml": bytes });
      const loaded = await loadManifests(dir, { cwd: p.dir });
      expect(loaded.errors.map((e) => e.format())).toEqual([message]);
    }
    const v = await p.cli(["validate"]);
    expect(v.code).toBe(1);
    expect(v.stderr).toContain("looks like UTF-16");
    expect(v.stderr).not.toContain("internal error");
  });
});

it("manifestFiles outside a project: the paths in messages are relative to the given cwd", async () => {
  const root = await mkdtemp(path.join(tmpdir(), "pimctl-files-"));
  try {
    await mkdir(path.join(root, "c", "d"), { recursive: true });
    await symlink(path.join(root, "c"), path.join(root, "c", "d", "loop"));
    const loaded = await loadManifests(path.join(root, "c"), { cwd: root });
    expect(loaded.errors.map((e) => e.message)).toEqual(["symlink loop: c/d/loop leads back to c, a folder it is in; point the link elsewhere or remove it"]);
  } finally {
    await rm(root, { recursive: true, force: true });
  }
});
