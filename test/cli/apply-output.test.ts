/**
 * What apply and plan print, for people reading a terminal or a CI log: the
 * plan on one stream, counts instead of one line per action left over, a
 * result line even with -q, and summary modes that fit a screen.
 */
import { readFile } from "node:fs/promises";
import path from "node:path";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { testProject, type TestProject } from "../helpers/project.js";
import { repoRoot } from "../helpers/paths.js";
import { spawnPimctl, until } from "../helpers/spawn-cli.js";
import { createProgress } from "../../src/render/progress.js";
import type { Action } from "../../src/plan/types.js";

describe("an interrupted apply (a real process, SIGTERM)", () => {
  let p: TestProject;
  beforeAll(async () => {
    p = await testProject({ emulator: { latencyMs: 40 } });
    await p.copyExamples(path.join(repoRoot, "examples/catalogue"));
  });
  afterAll(async () => p.close());

  it("counts what was not started per kind, says how to finish, never one line per action", { timeout: 60_000 }, async () => {
    const run = spawnPimctl(p.dir, ["apply", "--auto-approve", "--report", "report.json"], { ...process.env, ...p.env, NO_COLOR: "1" });
    await until(() => (p.emulator.stats().requests.byMethod.POST ?? 0) > 40, 60_000, "the run's writes");
    run.child.kill("SIGTERM");
    const { code } = await run.exit;
    const [stdout, stderr] = [run.stdout(), run.stderr()];
    expect(code, stderr).toBe(4);
    const report = JSON.parse(await readFile(path.join(p.dir, "report.json"), "utf8")) as {
      counts: { done: number; skipped: number };
      results: Array<{ skip_cause?: string }>;
    };
    const notStarted = report.results.filter((r) => r.skip_cause === "interrupted").length;
    expect(notStarted).toBeGreaterThan(100);
    expect(stderr).toMatch(new RegExp(`^${notStarted} actions not started: the run was interrupted \\(attributes \\d+.*\\)$`, "m"));
    expect(stderr).toContain("Run `pimctl apply` again to finish");
    expect(stderr).not.toMatch(/^skipped: /m);
    // The whole run fits a screen: the plan's summary, a few progress lines, the counts.
    expect(stderr.split("\n").length).toBeLessThan(80);
    expect(stdout).toBe("");
    // The last progress line and the result line agree.
    const progress = [...stderr.matchAll(/^apply: \d+\/\d+: (\d+) done, (\d+) failed, (\d+) skipped/gm)].at(-1);
    const result = /^Apply: (\d+) done, (\d+) failed, (\d+) skipped/m.exec(stderr);
    expect(progress?.slice(1)).toEqual(result?.slice(1));
    expect(Number(result![1])).toBe(report.counts.done);
  });
});

describe("apply and plan output", () => {
  let p: TestProject;
  beforeAll(async () => {
    p = await testProject();
    await p.copyExamples(path.join(repoRoot, "examples/catalogue"));
  });
  afterAll(async () => p.close());

  it("plan --summary: counts per kind and the summary line, no line per action", async () => {
    const full = await p.cli(["plan", "--compact"]);
    const r = await p.cli(["plan", "--summary"]);
    expect(r.code, r.stderr).toBe(0);
    expect(full.stdout.split("\n").length).toBeGreaterThan(1000);
    expect(r.stdout.split("\n").length).toBeLessThan(20);
    expect(r.stdout).toMatch(/^Attributes \(\d+ create\)$/m);
    expect(r.stdout).toMatch(/^Plan: \d+ to create/m);
    expect(r.stdout).not.toMatch(/^ {2}\+ /m);
    const md = await p.cli(["plan", "--summary", "--format", "markdown"]);
    expect(md.stdout).toMatch(/^- \*\*Attributes\*\*: \d+ create$/m);
    expect(md.stdout).not.toContain("too long for a comment");
  });

  it("the plan apply shows goes to stderr with or without --report; -q prints the result line and nothing else", async () => {
    await p.write("catalogue-small/a.yaml", "brands:\n  - name: Acme\n    desc: Tools\n");
    const small = ["--dir", "catalogue-small"];
    const withReport = await p.cli(["apply", "--auto-approve", ...small, "--report", "r.json", "--dry-run"]);
    const without = await p.cli(["apply", "--auto-approve", ...small, "--dry-run"]);
    for (const r of [withReport, without]) {
      expect(r.stderr).toContain('Plan for tenant "demo"');
      expect(r.stdout).not.toContain("Plan for tenant");
    }
    const quiet = await p.cli(["apply", "--auto-approve", ...small, "-q"]);
    expect(quiet.code, quiet.stderr).toBe(0);
    expect(quiet.stdout).toBe("");
    expect(quiet.stderr).toMatch(/^Apply: 1 done, 0 failed, 0 skipped, 0 not possible through API v1 \(\d+\.\d s\)\.\n$/);
    const none = await p.cli(["apply", "--auto-approve", ...small, "-q"]);
    expect(none.stderr).toBe("No changes. The tenant matches the manifests.\n");
  });

  it("apply --summary and --compact choose how the plan is shown; above 200 actions the summary is the default", async () => {
    const summary = await p.cli(["apply", "--dry-run", "--summary"]);
    expect(summary.stderr).toMatch(/^Attributes \(\d+ create\)$/m);
    expect(summary.stderr).not.toMatch(/^ {2}\+ attribute/m);
    const compact = await p.cli(["apply", "--dry-run", "--compact"]);
    expect(compact.stderr).toMatch(/^ {2}\+ attribute\["[^"]+"\]$/m);
    const dflt = await p.cli(["apply", "--dry-run"]);
    expect(dflt.stderr).not.toMatch(/^ {2}\+ attribute/m);
    expect(dflt.stderr).toMatch(/actions: counts per kind above; --compact lists every one/);
  });

  it("plan --out always saves the plan (JSON); --print-to writes what --format renders; a rendered-looking --out name is refused", async () => {
    const r = await p.cli(["plan", "--format", "markdown", "--out", "plan.json", "--print-to", "plan.md"]);
    expect(r.code, r.stderr).toBe(0);
    expect(r.stdout).toBe("");
    expect(JSON.parse(await readFile(path.join(p.dir, "plan.json"), "utf8"))).toHaveProperty("actions");
    expect(await readFile(path.join(p.dir, "plan.md"), "utf8")).toMatch(/^<!-- pimctl-plan -->/);
    const html = await p.cli(["plan", "--format", "html", "--out", "saved.json"]);
    expect(html.stdout).toMatch(/^<!doctype html>/i);
    expect(JSON.parse(await readFile(path.join(p.dir, "saved.json"), "utf8"))).toHaveProperty("actions");
    for (const name of ["plan.md", "plan.html"]) {
      const before = p.emulator.stats().requests.total;
      const refused = await p.cli(["plan", "--format", "markdown", "--out", name]);
      expect(refused.code).toBe(1);
      expect(refused.stderr).toContain(
        `--out saves the plan for 'pimctl apply FILE' and is always JSON, so ${name} would hold JSON; write what --format renders with --print-to ${name}`,
      );
      // Refused before the tenant is read.
      expect(p.emulator.stats().requests.total).toBe(before);
    }
    // diff keeps --out as another name of --print-to: it makes no plan to apply.
    const d = await p.cli(["diff", "--from", "catalogue", "--to", "demo", "--format", "markdown", "--out", "diff.md"]);
    expect(d.code, d.stderr).toBe(0);
    expect(await readFile(path.join(p.dir, "diff.md"), "utf8")).toContain("<!-- pimctl-plan -->");
  });
});

describe("progress counts", () => {
  it("done, failed, skipped and not possible apart; the final line agrees with them", () => {
    const lines: string[] = [];
    let t = 0;
    const progress = createProgress({ write: (s) => lines.push(s), live: false, color: false, quiet: false, now: () => (t += 10) });
    progress.hooks.onStart!(10);
    const a = {} as Action;
    const statuses = ["done", "done", "failed", "skipped", "skipped", "skipped", "unsupported", "done", "skipped", "skipped"] as const;
    for (const status of statuses) progress.hooks.postAction!(a, { address: "x", status });
    progress.finish();
    const last = lines.at(-1)!;
    expect(last).toMatch(/^apply: 10\/10: 3 done, 1 failed, 5 skipped, 1 not possible \(/);
    expect(lines.filter((l) => l.includes("10/10"))).toHaveLength(1);
  });
});
