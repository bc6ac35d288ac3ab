/**
 * `npm pack` in a fresh clone (the repository's files, no node_modules, no dist/): the build it
 * needs cannot run, and it said so with a raw stack ("tsc: not found", then Node's trace of
 * execSync). It must say what to do instead: run `npm ci` first. And a pack that stopped before its
 * postpack leaves package.json as it was, or the next script puts it back and says so.
 */
import { execFileSync, spawnSync } from "node:child_process";
import { cpSync, existsSync, mkdirSync, mkdtempSync, readFileSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import path from "node:path";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { repoRoot } from "../helpers/paths.js";

let clone: string;
const env: NodeJS.ProcessEnv = { ...process.env, NO_COLOR: "1" };
for (const k of ["VITEST", "VITEST_WORKER_ID", "VITEST_POOL_ID", "NODE_OPTIONS"]) delete env[k];

beforeAll(() => {
  clone = path.join(mkdtempSync(path.join(tmpdir(), "pimctl-fresh-clone-")), "pimctl");
  // The working tree's files as a clone has them: tracked and new ones, nothing Git ignores (node_modules, dist).
  const files = execFileSync("git", ["ls-files", "-z", "--cached", "--others", "--exclude-standard"], { cwd: repoRoot, encoding: "utf8" })
    .split("\0")
    .filter((f) => f && existsSync(path.join(repoRoot, f)));
  for (const f of files) {
    mkdirSync(path.dirname(path.join(clone, f)), { recursive: true });
    cpSync(path.join(repoRoot, f), path.join(clone, f));
  }
});
afterAll(() => rmSync(path.dirname(clone), { recursive: true, force: true }));

describe("npm pack in a fresh clone, before npm ci", () => {
  it("fails saying to run npm ci first, with no stack trace and no 'tsc: not found'", { timeout: 120_000 }, () => {
    expect(existsSync(path.join(clone, "node_modules"))).toBe(false);
    const before = readFileSync(path.join(clone, "package.json"), "utf8");
    const r = spawnSync("npm", ["pack", "--pack-destination", path.dirname(clone)], { cwd: clone, env, encoding: "utf8" });
    const output = `${r.stdout}${r.stderr}`;
    expect(r.status, output).not.toBe(0);
    expect(output).toContain("pimctl: dist/ is not built, and the tools that build it are not installed here: run `npm ci` first");
    expect(output).not.toContain("tsc: not found");
    expect(output).not.toMatch(/^\s+at /m);
    expect(output).not.toContain("Error: Command failed");
    // Nothing was packed, and package.json is as it was.
    expect(readFileSync(path.join(clone, "package.json"), "utf8")).toBe(before);
    expect(existsSync(path.join(path.dirname(clone), "pimctl-0.1.0.tgz"))).toBe(false);
  });

  it("a pack stopped between prepack and postpack: the next script restores package.json and says so", () => {
    const before = readFileSync(path.join(clone, "package.json"), "utf8");
    const strip = spawnSync("node", ["scripts/pack-manifest.mjs", "strip"], { cwd: clone, env, encoding: "utf8" });
    expect(strip.status, strip.stderr).toBe(0);
    expect((JSON.parse(readFileSync(path.join(clone, "package.json"), "utf8")) as { scripts?: unknown }).scripts).toBeUndefined();
    // ... the pack is killed here: postpack never runs. Any script that starts next puts it back.
    const next = spawnSync("node", ["scripts/build-if-stale.mjs"], { cwd: clone, env, encoding: "utf8" });
    expect(next.stderr).toContain("pimctl: package.json was left without its scripts by a pack that stopped half-way; restored it");
    expect(readFileSync(path.join(clone, "package.json"), "utf8")).toBe(before);
  });
});
