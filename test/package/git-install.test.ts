/**
 * Installing with no registry, two of the three ways README's "Installing"
 * names (the packed tarball is pack.test.ts):
 * - the Git URL: this repository's HEAD pushed to a bare repository, installed
 *   with `npm install git+file://...#<commit>` into an empty project, with an
 *   empty npm cache of its own, as a user's first install; npm installs pimctl's
 *   devDependencies in its clone and runs `prepare`, which builds dist/, so
 *   `npx pimctl` works. It downloads no browser: none in the project's
 *   node_modules, none in that npm cache. The install's time is printed (README
 *   "Installing in a project" quotes it);
 * - the GitHub Action from its own ref: action.yml's steps, run as the runner
 *   runs them, in a checkout of that commit with no dist/ (it builds itself
 *   there), and from the installed package (it ships dist/: nothing is built).
 * Commit first: what is tested is HEAD, not the working tree.
 */
import { execFile, execFileSync } from "node:child_process";
import { existsSync, mkdirSync, mkdtempSync, readdirSync, readFileSync, rmSync, statSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import path from "node:path";
import { promisify } from "node:util";
import { parse } from "yaml";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { startEmulator, type Emulator } from "../../src/emulator/index.js";
import { repoRoot } from "../helpers/paths.js";
import { runGithubJob, type GithubStep } from "../ci/runners.js";

/** Every file under dir, recursively (symbolic links not followed). */
function files(dir: string): string[] {
  return readdirSync(dir, { withFileTypes: true }).flatMap((e) => {
    const full = path.join(dir, e.name);
    return e.isDirectory() ? files(full) : e.isFile() ? [full] : [];
  });
}
const duBytes = (dir: string) => files(dir).reduce((sum, f) => sum + statSync(f).size, 0);
const largest = (dir: string) => Math.max(0, ...files(dir).map((f) => statSync(f).size));

/** The names of every package in a node_modules tree, nested ones included ("a", "@scope/b"). */
function packageNames(nodeModules: string): string[] {
  if (!existsSync(nodeModules)) return [];
  return readdirSync(nodeModules).flatMap((name) => {
    if (name.startsWith(".")) return [];
    const names = name.startsWith("@") ? readdirSync(path.join(nodeModules, name)).map((n) => `${name}/${n}`) : [name];
    return names.flatMap((n) => [n, ...packageNames(path.join(nodeModules, n, "node_modules"))]);
  });
}

/**
 * The packages an npm cache holds, by name, sorted, from its index (cacache: a line per entry, a hash, a tab, JSON with
 * the key): "pacote:tarball:<name>@<version>", or "make-fetch-happen:request-cache:<registry URL>" of a package's
 * metadata (/<name>, the scope's slash escaped) or tarball (/<name>/-/<file>.tgz).
 */
function cachedPackages(cache: string): string[] {
  const keys = files(path.join(cache, "_cacache", "index-v5")).flatMap((f) =>
    readFileSync(f, "utf8")
      .split("\n")
      .filter(Boolean)
      .map((line) => (JSON.parse(line.slice(line.indexOf("\t") + 1)) as { key: string }).key),
  );
  const name = (key: string) => {
    const tarball = /^pacote:tarball:(.+)@[^@]+$/.exec(key);
    if (tarball) return tarball[1]!;
    const url = /^make-fetch-happen:request-cache:(.+)$/.exec(key);
    return url ? decodeURIComponent(new URL(url[1]!).pathname.slice(1)).split("/-/")[0]! : key;
  };
  return [...new Set(keys.map(name))].sort();
}

const ourVersion = (JSON.parse(readFileSync(path.join(repoRoot, "package.json"), "utf8")) as { version: string }).version;

describe("installing from the Git URL, and the Action from its own ref", () => {
  let root: string;
  let project: string;
  let emulator: Emulator;
  let commit: string;
  let bare: string;
  let cache: string;
  const env: NodeJS.ProcessEnv = { ...process.env, NO_COLOR: "1", PIMCTL_GIT_TOKEN: "git-secret" };
  for (const k of ["VITEST", "VITEST_WORKER_ID", "VITEST_POOL_ID", "NODE_OPTIONS", "GITHUB_ACTIONS", "GITHUB_STEP_SUMMARY", "GITHUB_OUTPUT"]) delete env[k];
  const git = (args: string[], cwd: string) => execFileSync("git", args, { cwd, encoding: "utf8", stdio: "pipe" }).trim();
  /** Async, so the emulator in this process can answer; a non-zero exit is returned, not thrown. */
  const sh = async (cmd: string, args: string[], cwd: string) => {
    try {
      const r = await promisify(execFile)(cmd, args, { cwd, env, encoding: "utf8", maxBuffer: 64 * 1024 * 1024 });
      return { code: 0, stdout: r.stdout, stderr: r.stderr };
    } catch (e) {
      const err = e as { code: number; stdout: string; stderr: string };
      return { code: err.code, stdout: err.stdout, stderr: err.stderr };
    }
  };
  const actionSteps = () =>
    parse(readFileSync(path.join(repoRoot, "action.yml"), "utf8")) as { runs: { steps: GithubStep[] }; inputs: Record<string, { default: string }> };

  beforeAll(async () => {
    root = mkdtempSync(path.join(tmpdir(), "pimctl-git-install-"));
    commit = git(["rev-parse", "HEAD"], repoRoot);
    bare = path.join(root, "pimctl.git");
    git(["init", "-q", "--bare", bare], root);
    git(["push", "-q", bare, `${commit}:refs/heads/main`], repoRoot);
    git(["symbolic-ref", "HEAD", "refs/heads/main"], bare); // npm reads the remote's HEAD

    project = path.join(root, "team");
    mkdirSync(path.join(project, "catalogue"), { recursive: true });
    writeFileSync(path.join(project, "package.json"), JSON.stringify({ name: "team-catalogue", version: "9.9.9", private: true }));
    emulator = await startEmulator({ port: 0, tenants: [{ hash: "git", token: "git-secret" }], latencyMs: 0 });
    writeFileSync(
      path.join(project, "pimctl.yaml"),
      `dir: catalogue\ntenants:\n  git:\n    base_url: ${emulator.tenantUrl("git")}\n    token_env: PIMCTL_GIT_TOKEN\n`,
    );
    writeFileSync(path.join(project, "catalogue", "brands.yaml"), "brands:\n  - name: Acme\n");
    // npm clones the commit, installs its devDependencies (from the registry, into the empty cache), runs prepare, packs, installs.
    cache = path.join(root, "npm-cache");
    const t0 = performance.now();
    const r = await sh("npm", ["install", `--cache=${cache}`, "--no-audit", "--no-fund", `git+file://${bare}#main`], project);
    const seconds = (performance.now() - t0) / 1000;
    expect(r.code, r.stderr).toBe(0);
    console.log(`Git-URL install into an empty project, empty npm cache: ${seconds.toFixed(1)} s; npm cache ${(duBytes(cache) / 1e6).toFixed(0)} MB`);
  }, 300_000);

  afterAll(async () => {
    await emulator?.close();
    if (root) rmSync(root, { recursive: true, force: true });
  });

  it("the package has dist/ (built by prepare) and no devDependencies; npx pimctl --version and a plan work", { timeout: 60_000 }, async () => {
    const installed = path.join(project, "node_modules", "pimctl");
    expect(existsSync(path.join(installed, "dist", "cli", "main.js"))).toBe(true);
    expect(existsSync(path.join(project, "node_modules", "typescript"))).toBe(false);
    expect(JSON.parse(readFileSync(path.join(project, "package.json"), "utf8")).dependencies.pimctl).toBe(`git+file://${bare}#main`);
    expect((await sh("npx", ["--no-install", "pimctl", "--version"], project)).stdout.trim()).toBe(ourVersion);
    const plan = await sh("npx", ["--no-install", "pimctl", "plan", "--detailed-exitcode"], project);
    expect(plan.code, plan.stderr).toBe(2);
    expect(plan.stdout).toContain('+ brand["Acme"]');
  });

  it("downloads no browser: no Chromium in the project's node_modules nor in the npm cache the install used", () => {
    // By name: no package called chromium or chrome (@sparticuz/chromium, chromium, ...) in node_modules, none fetched into the cache.
    const browserName = /^(@[^/]+\/)?(chromium|chrome|chrome-headless-shell)$/i;
    expect(packageNames(path.join(project, "node_modules")).filter((n) => browserName.test(n))).toEqual([]);
    const cached = cachedPackages(cache);
    expect(cached).toContain("typescript"); // the cache was used: the devDependencies pimctl builds with are in it
    expect(cached.filter((n) => browserName.test(n))).toEqual([]);
    // By size: a browser is tens of MB compressed, 100+ MB unpacked; nothing here comes near.
    expect(largest(path.join(project, "node_modules"))).toBeLessThan(20e6);
    expect(largest(cache)).toBeLessThan(20e6);
  });

  it("the Action from its own ref builds itself in its checkout; from the installed package it runs the shipped dist/", { timeout: 240_000 }, async () => {
    const action = actionSteps();
    const inputs = Object.fromEntries(Object.entries(action.inputs).map(([k, v]) => [k, String(v.default ?? "")]));
    const run = (actionPath: string) =>
      runGithubJob(
        { steps: action.runs.steps },
        {
          cwd: project,
          env: { ...env, RUNNER_TEMP: root, npm_config_prefer_offline: "true" },
          secrets: {},
          github: { action_path: actionPath, token: "" },
          inputs: { ...inputs, comment: "false", tenant: "git" },
        },
      );
    const checkout = path.join(root, "action-ref");
    git(["clone", "-q", bare, checkout], root);
    expect(existsSync(path.join(checkout, "dist"))).toBe(false);
    const fromRef = await run(checkout);
    expect(
      fromRef.steps.map((s) => s.outcome),
      fromRef.steps.map((s) => s.output).join("\n"),
    ).toEqual(["success", "success"]);
    expect(fromRef.steps[0]!.output).toContain(`Building pimctl from the action's ref in ${checkout}`);
    // A plan with changes: exit 2 is an output, not a failure, unless fail-on-changes.
    expect(fromRef.outputs.run).toEqual({ exitcode: "2", "has-changes": "true", "plan-file": "pimctl-plan.json" });
    const shipped = await run(path.join(project, "node_modules", "pimctl"));
    expect(shipped.steps[0]!.output).not.toContain("Building");
    expect(shipped.outputs.install!.main).toBe(path.join(project, "node_modules", "pimctl", "dist", "ci", "github-action-main.js"));
    expect(shipped.outputs.run).toEqual({ exitcode: "2", "has-changes": "true", "plan-file": "pimctl-plan.json" });
  });
});
