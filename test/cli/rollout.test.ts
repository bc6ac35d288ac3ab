/**
 * `pimctl apply --tenant GLOB` over several emulator tenants on 127.0.0.1: every tenant planned, then
 * applied as its own single-tenant apply, one table at the end; a tenant that fails (the emulator's
 * fault switches) stops the rollout, the rest are not started, and the resume command converges.
 */
import { readFileSync } from "node:fs";
import path from "node:path";
import { afterEach, describe, expect, it } from "vitest";
import { testProject, type TestProject } from "../helpers/project.js";
import { createBrand } from "../../src/emulator/kinds/brands.js";
import { BRANDS, brandNames, refuseBrands, row } from "./rollout-fixture.js";

const TENANTS = ["staging", "prod-eu", "prod-us"];

let p: TestProject | undefined;
afterEach(async () => {
  await p?.close();
  p = undefined;
});

async function fleet(): Promise<TestProject> {
  p = await testProject({ tenants: TENANTS, files: { "catalogue/brands.yaml": BRANDS } });
  return p;
}

/** The words of the "Resume with:" line (none of them quoted in these tests but the glob). */
function resumeArgs(stderr: string): string[] {
  const line = stderr.split("\n").find((l) => l.startsWith("Resume with: "));
  if (!line) throw new Error(`no resume command in:\n${stderr}`);
  const words = [...line.slice("Resume with: ".length).matchAll(/'([^']*)'|(\S+)/g)].map((m) => m[1] ?? m[2]!);
  expect(words[0]).toBe("pimctl");
  return words.slice(1);
}

describe("apply --tenant GLOB: a rollout", () => {
  it("plans every tenant, applies each, ends with one table (exit 0); run again, every tenant is already applied", async () => {
    const project = await fleet();
    const r = await project.cli(["apply", "--tenant", "*", "--auto-approve"]);
    expect(r.code, r.stderr).toBe(0);
    for (const t of TENANTS) {
      expect(brandNames(project, t)).toEqual(["Acme", "Zenith"]);
      expect(row(r.stderr, t)).toEqual(["1", t, "applied", "0", "2 of 2 actions done"]);
    }
    expect(r.stderr).toContain("Rollout: 3 applied (3 tenants, 1 wave).");
    expect(r.stderr).not.toContain("Resume with:");
    // Each tenant has its own ledger, saved by its own apply.
    for (const t of TENANTS) expect(readFileSync(path.join(project.dir, ".pimctl", `${t}.json`), "utf8")).toContain("Acme");

    const again = await project.cli(["apply", "--tenant", "prod-*,staging", "--auto-approve"]);
    expect(again.code, again.stderr).toBe(0);
    for (const t of TENANTS) expect(row(again.stderr, t)).toEqual(["1", t, "already applied", "0", "no changes"]);
  });

  it("stops at the first failed tenant: the rest are not started (exit 4), and the resume command converges", async () => {
    const project = await fleet();
    // prod-eu refuses every write: its apply fails; with one tenant at a time, prod-us and staging never start.
    const undo = refuseBrands(project, "prod-eu");
    const r = await project.cli(["apply", "--tenant", "*", "--auto-approve", "--tenant-parallelism", "1"]);
    expect(r.code, r.stderr).toBe(4);
    expect(row(r.stderr, "prod-eu").slice(0, 4)).toEqual(["1", "prod-eu", "failed", "4"]);
    for (const t of ["prod-us", "staging"]) expect(row(r.stderr, t)).toEqual(["1", t, "not started", "4", "the rollout stopped before it started"]);
    expect(brandNames(project, "prod-us")).toEqual([]);
    expect(brandNames(project, "staging")).toEqual([]);
    expect(project.emulator.stats().requests.byTenant["staging"] ?? 0).toBeGreaterThan(0); // planned, never written
    const resume = resumeArgs(r.stderr);
    expect(resume).toEqual(["apply", "--tenant", "*", "--auto-approve", "--tenant-parallelism", "1"]);

    undo();
    const again = await project.cli(resume);
    expect(again.code, again.stderr).toBe(0);
    for (const t of TENANTS) expect(brandNames(project, t)).toEqual(["Acme", "Zenith"]);
    expect(row(again.stderr, "prod-eu")[2]).toBe("applied");
    expect(again.stderr).not.toContain("Resume with:");
  });

  it("--max-failed-tenants 2 starts the wave's other tenants after the first failure, and stops at the second", async () => {
    const project = await fleet();
    refuseBrands(project, "prod-eu", "prod-us");
    const r = await project.cli(["apply", "--tenant", "*", "--auto-approve", "--tenant-parallelism", "1", "--max-failed-tenants", "2"]);
    expect(r.code, r.stderr).toBe(4);
    expect(row(r.stderr, "prod-eu")[2]).toBe("failed");
    expect(row(r.stderr, "prod-us")[2]).toBe("failed");
    expect(row(r.stderr, "staging")[2]).toBe("not started");
  });

  it("--format json prints the rollout's result: each tenant's outcome, exit code and report", async () => {
    const project = await fleet();
    refuseBrands(project, "staging");
    const summary = path.join(project.dir, "summary.md");
    const r = await project.cli(["apply", "--tenant", "*", "--auto-approve", "--tenant-parallelism", "1", "--format", "json"], {
      env: { GITHUB_STEP_SUMMARY: summary },
    });
    expect(r.code, r.stderr).toBe(4);
    const json = JSON.parse(r.stdout) as { kind: string; tenants: Array<Record<string, unknown>>; resume?: string };
    expect(json.kind).toBe("rollout");
    expect(json.tenants.map((t) => [t.tenant, t.wave, t.outcome, t.exit])).toEqual([
      ["prod-eu", 1, "applied", 0],
      ["prod-us", 1, "applied", 0],
      ["staging", 1, "failed", 4],
    ]);
    expect((json.tenants[0]!.report as { counts: { done: number } }).counts.done).toBe(2);
    expect(json.resume).toBe("pimctl apply --tenant '*' --auto-approve --tenant-parallelism 1");
    // The job summary: the same table as markdown.
    expect(readFileSync(summary, "utf8")).toContain("| 1 | `staging` | failed | 4 | 0 of 2 actions done: 2 failed |\n");
    expect(readFileSync(summary, "utf8")).toContain("Resume with: `pimctl apply --tenant '*' --auto-approve --tenant-parallelism 1`");
  });

  it("one tenant stays today's apply, byte for byte: a glob that matches one prints what its name prints", async () => {
    const project = await fleet();
    const byGlob = await project.cli(["apply", "--tenant", "stag*", "--auto-approve"]);
    await project.cli(["state", "rm", "--tenant", "staging", "--force"]).catch(() => undefined);
    const other = await project.cli(["apply", "--tenant", "prod-eu", "--auto-approve"]);
    const seconds = (s: string) =>
      s
        .replace(/\(\d+\.\d s\)/g, "(N s)")
        .replace(/\([\d.]+\/s, [\d.]+ s\)/g, "(N/s)")
        .replaceAll("prod-eu", "T")
        .replaceAll("staging", "T");
    expect(byGlob.code).toBe(0);
    expect(seconds(byGlob.stderr)).toBe(seconds(other.stderr));
    expect(byGlob.stderr).not.toContain("Rollout:");
    expect(byGlob.stdout).toBe(other.stdout);
  });
});

describe("a rollout's refusals come before any write", () => {
  it("a tenant's plan that deletes without --allow-delete refuses the whole rollout (exit 3, nothing written); with it, the rollout deletes", async () => {
    p = await testProject({
      tenants: TENANTS,
      files: { "catalogue/brands.yaml": BRANDS },
      config: (urls) =>
        [
          "dir: catalogue",
          "prune: { brands: true }",
          "tenants:",
          ...TENANTS.flatMap((n) => [`  ${n}:`, `    base_url: ${urls[n]}`, `    token_env: PIMCTL_${n.toUpperCase()}_TOKEN`]),
          "",
        ].join("\n"),
    });
    const project = p;
    createBrand(project.emulator.store("prod-us"), { name: "Gone", desc: "Only here" });
    const r = await project.cli(["apply", "--tenant", "*", "--auto-approve"]);
    expect(r.code, r.stderr).toBe(3);
    expect(r.stderr).toContain('the plan of tenant "prod-us" deletes 1 record without permission; nothing was applied. Pass --allow-delete');
    expect(r.stderr).toContain('blocked delete: brand["Gone"]');
    for (const t of ["prod-eu", "staging"]) expect(brandNames(project, t)).toEqual([]);
    expect(brandNames(project, "prod-us")).toEqual(["Gone"]);
    // From a fleet file, the remedy names the tenant: a bare 'pimctl plan' would not plan prod-us.
    expect((await project.cli(["plan", "--tenant", "*", "--out", "fleet.json"])).code).toBe(0);
    const saved = await project.cli(["apply", "fleet.json"]);
    expect(saved.code).toBe(3);
    expect(saved.stderr).toContain("'pimctl plan --tenant prod-us --allow-delete --out FILE'");

    const allowed = await project.cli(["apply", "--tenant", "*", "--auto-approve", "--allow-delete"]);
    expect(allowed.code, allowed.stderr).toBe(0);
    for (const t of TENANTS) expect(brandNames(project, t)).toEqual(["Acme", "Zenith"]);
  });

  it("--dry-run and --format json with one tenant are usage errors that say why", async () => {
    const project = await fleet();
    const dry = await project.cli(["apply", "--tenant", "*", "--dry-run"]);
    expect(dry.code).toBe(1);
    expect(dry.stderr).toContain("--dry-run shows the requests of one tenant: name one with --tenant");
    const one = await project.cli(["apply", "--tenant", "staging", "--auto-approve", "--format", "json"]);
    expect(one.code).toBe(1);
    expect(one.stderr).toContain("--format json prints a rollout's result (two tenants or more)");
    for (const t of TENANTS) expect(brandNames(project, t)).toEqual([]);
  });
});

describe("a rollout of tenants that differ", () => {
  it("applies each tenant's own composed catalogue (base and its overlay), and a re-run finds each at its plan", async () => {
    p = await testProject({
      tenants: TENANTS,
      files: { "catalogue/brands.yaml": BRANDS, "overlays/prod-us/brands.yaml": "brands:\n  - name: Liberty\n    desc: Only in the US\n" },
      config: (urls) =>
        [
          "dir: catalogue",
          "overlays: overlays",
          "tenants:",
          ...TENANTS.flatMap((n) => [`  ${n}:`, `    base_url: ${urls[n]}`, `    token_env: PIMCTL_${n.toUpperCase()}_TOKEN`]),
          "",
        ].join("\n"),
    });
    const project = p;
    const r = await project.cli(["apply", "--tenant", "*", "--auto-approve"]);
    expect(r.code, r.stderr).toBe(0);
    expect(brandNames(project, "prod-us")).toEqual(["Acme", "Liberty", "Zenith"]);
    for (const t of ["prod-eu", "staging"]) expect(brandNames(project, t)).toEqual(["Acme", "Zenith"]);
    expect(row(r.stderr, "prod-us")).toEqual(["1", "prod-us", "applied", "0", "3 of 3 actions done"]);
    const again = await project.cli(["apply", "--tenant", "*", "--auto-approve"]);
    expect(again.code, again.stderr).toBe(0);
    for (const t of TENANTS) expect(row(again.stderr, t)[2]).toBe("already applied");
  });
});
