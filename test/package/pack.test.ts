/**
 * The package as a team installs it: `npm pack`, installed into an empty
 * project whose path has a space and an umlaut, then the CLI (version, demo,
 * init, validate, export) and the library (type-checked under node16,
 * nodenext and bundler resolution, and run) used from there.
 */
import { execFile, execFileSync, spawnSync } from "node:child_process";
import { promisify } from "node:util";
import { mkdtempSync, readFileSync, readdirSync, rmSync, statSync, writeFileSync, existsSync } from "node:fs";
import { tmpdir } from "node:os";
import path from "node:path";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { startEmulator, type Emulator } from "../../src/emulator/index.js";
import { repoRoot } from "../helpers/paths.js";

const ourVersion = (JSON.parse(readFileSync(path.join(repoRoot, "package.json"), "utf8")) as { version: string }).version;

describe("the packed tarball, installed into a project at a path with a space and an umlaut", () => {
  let project: string;
  let emulator: Emulator;
  let installOutput = "";
  const env: NodeJS.ProcessEnv = { ...process.env, NO_COLOR: "1", PIMCTL_PACK_TOKEN: "pack-secret" };
  delete env.VITEST;
  delete env.VITEST_WORKER_ID;
  delete env.VITEST_POOL_ID;
  delete env.NODE_OPTIONS;
  const run = (cmd: string, args: string[], cwd = project) =>
    execFileSync(cmd, args, { cwd, env, encoding: "utf8", stdio: "pipe", maxBuffer: 64 * 1024 * 1024 });
  /**
   * Runs the installed CLI without blocking this process: the emulator answering it lives here.
   * A non-zero exit rejects; messages for people are on stderr.
   */
  const pimctl = async (...args: string[]): Promise<{ stdout: string; stderr: string }> =>
    promisify(execFile)("npx", ["--no-install", "pimctl", ...args], { cwd: project, env, encoding: "utf8", maxBuffer: 64 * 1024 * 1024 });

  beforeAll(() => {
    const root = mkdtempSync(path.join(tmpdir(), "pimctl pack "));
    project = path.join(root, "Kätalog Projekt");
    const tarballs = path.join(root, "tarballs");
    execFileSync("mkdir", ["-p", project, tarballs]);
    // With its scripts, as a release packs it: prepack builds dist/ if it is stale (the suite's run built it) and writes the
    // tarball's package.json without scripts; postpack puts the repository's back, byte for byte and with its time.
    const manifest = path.join(repoRoot, "package.json");
    const [text, time] = [readFileSync(manifest, "utf8"), statSync(manifest).mtimeMs];
    const packed = JSON.parse(run("npm", ["pack", "--json", "--pack-destination", tarballs], repoRoot)) as Array<{
      filename: string;
      files: Array<{ path: string }>;
    }>;
    expect([readFileSync(manifest, "utf8"), statSync(manifest).mtimeMs]).toEqual([text, time]);
    expect(readdirSync(repoRoot).filter((f) => f.includes("package.json"))).toEqual(["package.json"]);
    const files = packed[0]!.files.map((f) => f.path);
    expect(files.some((f) => f.startsWith("dist/bench/") || f.startsWith("src/bench/"))).toBe(false);
    // Source maps point at sources the package ships.
    for (const map of files.filter((f) => f.endsWith(".js.map")).slice(0, 20)) {
      const { sources } = JSON.parse(readFileSync(path.join(repoRoot, map), "utf8")) as { sources: string[] };
      for (const s of sources) expect(files, `${map} -> ${s}`).toContain(path.normalize(path.join(path.dirname(map), s)));
    }
    // action.yml ships so a workflow can use the installed package as its action (uses: ./node_modules/pimctl).
    for (const f of [
      "LICENSE",
      "CHANGELOG.md",
      "README.md",
      "action.yml",
      "dist/ci/github-action-main.js",
      "schemas/manifest.schema.json",
      "examples/catalogue/brands.yaml",
    ])
      expect(files).toContain(f);
    // A project of its own, with a version of its own that --version must not print.
    writeFileSync(path.join(project, "package.json"), JSON.stringify({ name: "a-team-catalogue", version: "9.9.9", private: true, type: "module" }));
    const tarball = path.join(tarballs, packed[0]!.filename);
    const install = spawnSync("npm", ["install", "--no-audit", "--no-fund", "--prefer-offline", tarball, "typescript@5", "@types/node@20"], {
      cwd: project,
      env,
      encoding: "utf8",
    });
    expect(install.status, install.stderr).toBe(0);
    installOutput = `${install.stdout}${install.stderr}`;
  }, 300_000);

  it("installing the tarball runs no script and warns of none: its package.json has no scripts (README: Installing)", () => {
    expect(installOutput).not.toMatch(/install-scripts|allowScripts|allow-scripts/);
    const installed = JSON.parse(readFileSync(path.join(project, "node_modules", "pimctl", "package.json"), "utf8")) as Record<string, unknown>;
    expect(installed.scripts).toBeUndefined();
    expect(installed.bin).toEqual({ pimctl: "dist/cli/main.js" });
  });

  beforeAll(async () => {
    emulator = await startEmulator({ port: 0, tenants: [{ hash: "pack", token: "pack-secret" }], latencyMs: 0 });
  });

  afterAll(async () => {
    await emulator?.close();
    if (project) rmSync(path.dirname(project), { recursive: true, force: true });
  });

  it("npx pimctl --version prints pimctl's version, not the project's", async () => {
    expect((await pimctl("--version")).stdout.trim()).toBe(ourVersion);
  });

  it("npx pimctl demo runs the whole cycle", { timeout: 120_000 }, async () => {
    expect((await pimctl("demo")).stdout).toContain("No changes. The tenant matches the manifests.");
  });

  it("init writes $schema lines editors can follow; validate, apply and export work from there", { timeout: 120_000 }, async () => {
    await pimctl("init", "--tenant", "pack", "--base-url", emulator.tenantUrl("pack"), "--token-env", "PIMCTL_PACK_TOKEN");
    const config = readFileSync(path.join(project, "pimctl.yaml"), "utf8");
    const manifest = readFileSync(path.join(project, "catalogue", "catalogue.yaml"), "utf8");
    for (const [file, text] of [
      [path.join(project, "pimctl.yaml"), config],
      [path.join(project, "catalogue", "catalogue.yaml"), manifest],
    ] as const) {
      const ref = /\$schema=(.+)$/m.exec(text)![1]!;
      expect(ref).not.toMatch(/%[0-9A-F]{2}/);
      expect(existsSync(path.resolve(path.dirname(file), ref)), `${file}: ${ref}`).toBe(true);
    }
    expect((await pimctl("validate")).stderr).toMatch(/OK/);
    await pimctl("apply", "--auto-approve");
    await pimctl("export", "--out", "exported");
    const exported = readdirSync(path.join(project, "exported"));
    expect(exported).toContain("attributes.yaml");
    const ref = /\$schema=(.+)$/m.exec(readFileSync(path.join(project, "exported", "attributes.yaml"), "utf8"))![1]!;
    expect(ref).not.toMatch(/%[0-9A-F]{2}/);
    expect(existsSync(path.resolve(project, "exported", ref))).toBe(true);
    expect((await pimctl("validate", "--dir", "exported")).stderr).toMatch(/OK/);
  });

  it("the library and pimctl/emulator type-check under node16, nodenext and bundler resolution, and run", { timeout: 120_000 }, () => {
    writeFileSync(
      path.join(project, "consumer.ts"),
      [
        'import { buildPlan, renderPlan, type Plan, type Catalogue } from "pimctl";',
        'import { startEmulator, type Emulator } from "pimctl/emulator";',
        "const desired: Catalogue = { managed: [], versions: [], display_groups: [], attributes: [], attribute_sets: [], blocks: [], brands: [], categories: [] };",
        'const { plan } = buildPlan({ tenant: "t", desired, remote: { ...desired, read: [], channels: [], version_ids: {} } as never });',
        "const p: Plan = plan;",
        'const emu: Emulator = await startEmulator({ port: 0, tenants: [{ hash: "x", token: "y" }], latencyMs: 0 });',
        'console.log(renderPlan(p, "text", { color: false }).trim(), emu.tenantUrl("x").startsWith("http://127.0.0.1:"));',
        "await emu.close();",
        "",
      ].join("\n"),
    );
    const tsc = path.join(project, "node_modules", "typescript", "bin", "tsc");
    // skipLibCheck as most projects set it: the consumer's own use of pimctl's types is still checked.
    const check = ["--strict", "--skipLibCheck", "--target", "es2022", "--types", "node", "consumer.ts"];
    for (const [module, resolution] of [
      ["node16", "node16"],
      ["esnext", "bundler"],
    ])
      run("node", [tsc, "--noEmit", "--module", module!, "--moduleResolution", resolution!, ...check]);
    run("node", [tsc, "--module", "nodenext", "--moduleResolution", "nodenext", ...check]);
    expect(run("node", ["consumer.js"])).toMatch(/No changes.*true/s);
  });
});
