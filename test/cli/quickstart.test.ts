import { execFileSync } from "node:child_process";
import { mkdtempSync, readdirSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import path from "node:path";
import { describe, expect, it } from "vitest";
import { repoRoot } from "../helpers/paths.js";

// Skippable only by an explicit variable in local runs; never in CI.
const skip = process.env.PIMCTL_SKIP_QUICKSTART === "1" && !process.env.CI;

/** The tests that read the vendored taxonomy: the ones a clone without it would fail. */
const TAXONOMY_TESTS = [
  "test/plan/address.test.ts",
  "test/plan/hints-taxonomy.test.ts",
  "test/render/html-taxonomy.test.ts",
  "test/package/self-contained.test.ts",
];

describe.skipIf(skip)("README quick start in a fresh copy of the repository", () => {
  it("in an empty folder with nothing beside it: npm ci && npm run demo, then npm test runs the taxonomy tests", { timeout: 300_000 }, () => {
    // The clone is the only thing in its folder: a path that reaches beside it finds nothing there.
    const parent = mkdtempSync(path.join(tmpdir(), "pimctl-quickstart-"));
    const dir = path.join(parent, "pimctl");
    try {
      execFileSync("git", ["clone", "--quiet", repoRoot, dir], { stdio: "pipe" });
      expect(readdirSync(parent)).toEqual(["pimctl"]);
      const env: NodeJS.ProcessEnv = { ...process.env, PIMCTL_QUICKSTART_INNER: "1", NO_COLOR: "1" };
      delete env.PIMCTL_TAXONOMY;
      delete env.VITEST;
      delete env.VITEST_WORKER_ID;
      delete env.VITEST_POOL_ID;
      delete env.NODE_OPTIONS;
      const sh = (cmd: string) => execFileSync("bash", ["-c", cmd], { cwd: dir, env, encoding: "utf8", stdio: "pipe", maxBuffer: 64 * 1024 * 1024 });
      // The two commands of the README, verbatim.
      const demo = sh("npm ci --no-audit --no-fund --prefer-offline >/dev/null 2>&1 && npm run demo 2>/dev/null");
      expect(demo).toContain("No changes. The tenant matches the manifests.");
      // `npm test` with a filter: the whole suite already runs around this test.
      const tests = sh(`npm test -- test/model ${TAXONOMY_TESTS.join(" ")} 2>&1`);
      // Each file passed, in whichever project (Vitest names it between the mark and the file: "✓ |unit| test/...").
      for (const file of TAXONOMY_TESTS) expect(tests).toMatch(new RegExp(`✓ +(?:\\|[a-z0-9]+\\| +)?${file.replace(/[.]/g, "\\.")}`));
      expect(tests).toMatch(/Tests\s+\d+ passed/);
      expect(tests).not.toMatch(/skipped|failed/);
    } finally {
      rmSync(parent, { recursive: true, force: true });
    }
  });
});
