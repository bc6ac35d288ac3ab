/**
 * The example pipelines in examples/ci/, run as their runners run them (see
 * runners.ts) against the emulator: `npx pimctl` is the built CLI (a shim on
 * PATH), `npm ci` is the real npm on a project whose install script records the
 * PIMCTL_ variables it can see. For plans that exit 0, 1, 2 and 3 each plan job
 * must pass (0 no changes, 2 changes) or fail (1 an error, 3 destructive).
 */
import { execFileSync } from "node:child_process";
import { createServer, type Server } from "node:http";
import { existsSync, readFileSync, readdirSync } from "node:fs";
import { chmod, mkdir, mkdtemp, readFile, rm, writeFile } from "node:fs/promises";
import { tmpdir } from "node:os";
import path from "node:path";
import { parse } from "yaml";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { testProject, type TestProject } from "../helpers/project.js";
import { repoRoot } from "../helpers/paths.js";
import { githubJob, githubMatrix, gitlabJob, runGithubJob, runGitlabJob, type GithubStep } from "./runners.js";
import { updateBrand } from "../../src/emulator/kinds/brands.js";

const ci = (f: string) => path.join(repoRoot, "examples", "ci", f);
const MARKER = "<!-- pimctl-plan -->";
const count = (text: string, part: string) => text.split(part).length - 1;

/** The manifests of each outcome; the tenant holds BASE (applied in beforeAll). prune: categories makes deleting "Old" destructive. */
const BASE = 'brands:\n  - name: Acme\n    desc: "Tools for ${shop}"\ncategories:\n  - name: Keep\n  - name: Old\n';
const MANIFESTS: Record<"none" | "changes" | "destructive", string> = {
  none: BASE,
  changes: `${BASE.replace("categories:", "  - name: New\ncategories:")}`,
  destructive: 'brands:\n  - name: Acme\n    desc: "Tools for ${shop}"\ncategories:\n  - name: Keep\n',
};

/** The fleet the fan-out examples review ('prod-*'): prod and staging are not in it. */
const FLEET = ["prod-eu", "prod-us"];

/** The variables pimctl reads for the fleet's tenants (token_env PIMCTL_PROD_EU_TOKEN), or the examples' secrets (`_READONLY`). */
const fleetTokens = (suffix: "" | "_READONLY"): Record<string, string> =>
  Object.fromEntries(FLEET.map((t) => [`PIMCTL_${t.toUpperCase().replace(/-/g, "_")}${suffix}_TOKEN`, p.tokens[t]!]));

let p: TestProject;
/** The GitHub CLI stood in for (runs and artifacts of this workflow, issues), like GitLab's API below: it answers from this folder and logs each call. */
let ghDir: string;
/** The folder of the npx and gh shims on PATH. */
let bin: string;
let env: NodeJS.ProcessEnv;
let token: string;
/** GitLab's notes API, stood in for: what the plan:mr job posts. */
let gitlab: { server: Server; notes: string[]; url: string };

/** The tenant back to BASE, whatever a test applied. */
async function restore(): Promise<void> {
  await outcome("none");
  const r = await p.cli(["apply", "--tenant", "prod", "--auto-approve", "--allow-delete"], { env: { PIMCTL_PROD_TOKEN: token } });
  expect(r.code, r.stderr).toBe(0);
}

async function outcome(kind: keyof typeof MANIFESTS): Promise<void> {
  await p.write("catalogue/catalogue.yaml", MANIFESTS[kind]);
  for (const f of ["plan.md", "plan.json", "pimctl-plan.json", "plan-exitcode", "install-script-env.txt", "gl-code-quality-report.json"])
    await rm(path.join(p.dir, f), { force: true });
}

beforeAll(async () => {
  p = await testProject({
    tenants: ["prod", "staging", ...FLEET],
    config: (urls) =>
      [
        "dir: catalogue",
        "prune: { categories: true, brands: true }",
        "tenants:",
        ...Object.entries(urls).flatMap(([n, u]) => [
          `  ${n}:`,
          `    base_url: ${u}`,
          `    token_env: PIMCTL_${n.toUpperCase().replace(/-/g, "_")}_TOKEN`,
          "    variables: { shop: Webshop }",
        ]),
        "",
      ].join("\n"),
  });
  token = p.tokens.prod!;
  await p.write("catalogue/catalogue.yaml", BASE);
  for (const tenant of ["prod", "staging", ...FLEET])
    expect((await p.cli(["apply", "--tenant", tenant, "--auto-approve"], { env: fleetTokens("") })).code).toBe(0);
  // The team's project: a package.json whose install script (a pull request controls it) records the PIMCTL_ variables it sees.
  await p.write(
    "package.json",
    JSON.stringify({
      name: "team-catalogue",
      version: "1.0.0",
      private: true,
      scripts: {
        preinstall: `node -e "require('fs').writeFileSync('install-script-env.txt', Object.keys(process.env).filter((k) => k.startsWith('PIMCTL_')).join(','))"`,
      },
    }),
  );
  await p.write(
    "package-lock.json",
    JSON.stringify({
      name: "team-catalogue",
      version: "1.0.0",
      lockfileVersion: 3,
      requires: true,
      packages: { "": { name: "team-catalogue", version: "1.0.0" } },
    }),
  );
  execFileSync("git", ["init", "-q"], { cwd: p.dir });
  execFileSync("git", ["remote", "add", "origin", path.join(p.dir, "no-such-remote.git")], { cwd: p.dir });
  // `npx pimctl` is the CLI this repository builds; any other npx is npx.
  bin = await mkdtemp(path.join(tmpdir(), "pimctl-shim-"));
  const npx = execFileSync("bash", ["-c", "command -v npx"], { encoding: "utf8" }).trim();
  await writeFile(
    path.join(bin, "npx"),
    `#!/bin/sh\nif [ "$1" = pimctl ]; then shift; exec "${process.execPath}" "${path.join(repoRoot, "dist", "cli", "main.js")}" "$@"; fi\nexec "${npx}" "$@"\n`,
  );
  await chmod(path.join(bin, "npx"), 0o755);
  ghDir = await mkdtemp(path.join(tmpdir(), "pimctl-gh-"));
  await writeFile(
    path.join(bin, "gh"),
    [
      "#!/bin/sh",
      `echo "gh $*" >> "${ghDir}/calls.log"`,
      'case "$1 $2" in',
      `  "run list") cat "${ghDir}/run-id" 2>/dev/null; exit 0 ;;`,
      `  "run download") [ -d "${ghDir}/artifacts/$3/$5" ] || { echo "no artifact $5 in run $3" >&2; exit 1; }; cp -r "${ghDir}/artifacts/$3/$5/." . ;;`,
      '  "issue list") exit 0 ;;',
      '  "issue create"|"issue edit") exit 0 ;;',
      "  *) exit 1 ;;",
      "esac",
      "",
    ].join("\n"),
  );
  await chmod(path.join(bin, "gh"), 0o755);
  env = { PATH: `${bin}:${process.env.PATH}`, HOME: process.env.HOME, LANG: "C.UTF-8", NO_COLOR: "1" };
  const notes: string[] = [];
  const server = createServer((req, res) => {
    // A failed answer is a 500 the test sees, never an unhandled rejection in the runner.
    const answer = async () => {
      let body = "";
      for await (const chunk of req) body += chunk;
      res.setHeader("content-type", "application/json");
      if (req.url === "/api/v4/user") res.end(JSON.stringify({ username: "pimctl-bot" }));
      else if (req.method === "GET") res.end("[]");
      else {
        notes.push((JSON.parse(body) as { body: string }).body);
        res.statusCode = 201;
        res.end("{}");
      }
    };
    answer().catch((e: unknown) => {
      res.statusCode = 500;
      res.end(String(e));
    });
  });
  await new Promise<void>((r) => server.listen(0, "127.0.0.1", () => r()));
  gitlab = { server, notes, url: `http://127.0.0.1:${(server.address() as { port: number }).port}/api/v4` };
}, 60_000);

afterAll(async () => {
  gitlab?.server.close();
  await p?.close();
  for (const dir of [bin, ghDir]) if (dir) await rm(dir, { recursive: true, force: true });
});

const pr = { event: { action: "synchronize", pull_request: { number: 7, head: { sha: "abc123" } } } };

describe("github-actions.yml, job plan, run as GitHub runs it", () => {
  const job = githubJob(ci("github-actions.yml"), "plan");
  const run = (secrets: Record<string, string>) => runGithubJob(job, { cwd: p.dir, env, secrets, github: pr });
  const step = (r: Awaited<ReturnType<typeof run>>, name: string) => r.steps.find((s) => s.name === name)!;

  it("exit 0 and 2 pass; the plan is in the job summary once; npm ci's install scripts never run and never see a token", { timeout: 90_000 }, async () => {
    for (const [kind, code] of [
      ["none", "0"],
      ["changes", "2"],
    ] as const) {
      await outcome(kind);
      const r = await run({ PIMCTL_PROD_READONLY_TOKEN: token });
      expect(r.ok, r.steps.map((s) => s.output).join("\n")).toBe(true);
      expect(r.outputs.plan).toEqual({ exitcode: code, planned: "true" });
      expect(count(r.summary, MARKER)).toBe(1);
      expect(step(r, "Post or update the plan comment").outcome).toBe("success");
      expect(step(r, "Block destructive plans").outcome).toBe("skipped");
      expect(existsSync(path.join(p.dir, "install-script-env.txt"))).toBe(false);
      expect(step(r, "npm ci --ignore-scripts").env).toEqual({});
    }
    expect(readFileSync(path.join(p.dir, "plan.md"), "utf8")).toContain('brand["New"]');
  });

  it("exit 3 (destructive) comments, then fails the job; exit 1 fails at the plan and comments nothing", { timeout: 90_000 }, async () => {
    await outcome("destructive");
    const destructive = await run({ PIMCTL_PROD_READONLY_TOKEN: token });
    expect(destructive.ok).toBe(false);
    expect(destructive.outputs.plan!.exitcode).toBe("3");
    expect(step(destructive, "Post or update the plan comment").outcome).toBe("success");
    expect(step(destructive, "Block destructive plans").outcome).toBe("failure");
    await outcome("none");
    const failed = await run({ PIMCTL_PROD_READONLY_TOKEN: "a-token-the-tenant-refuses" });
    expect(failed.ok).toBe(false);
    expect(failed.outputs.plan!.exitcode).toBe("1");
    expect(step(failed, "Plan").outcome).toBe("failure");
    expect(step(failed, "Post or update the plan comment").outcome).toBe("skipped");
  });

  it("a fork or Dependabot pull request (no secrets) validates, plans nothing, says so, and passes", { timeout: 90_000 }, async () => {
    await outcome("changes");
    const r = await run({});
    expect(r.ok).toBe(true);
    expect(step(r, "Validate").outcome).toBe("success");
    expect(r.outputs.plan).toEqual({ planned: "false" });
    expect(r.summary).toContain("No plan: this pull request's run gets no secrets (it comes from a fork or Dependabot)");
    expect(step(r, "Post or update the plan comment").outcome).toBe("skipped");
    expect(existsSync(path.join(p.dir, "plan.json"))).toBe(false);
  });
});

describe("gitlab-pimctl.yml, included and extended, run as GitLab runs it", () => {
  const file = ci("gitlab-pimctl.yml");
  const project = {
    plan: { extends: ".pimctl-plan", variables: { PIMCTL_TENANT: "prod" } },
    apply: { extends: ".pimctl-apply", needs: ["plan"], variables: { PIMCTL_TENANT: "prod" } },
  };
  const run = (name: "plan" | "apply", t = token) =>
    runGitlabJob(gitlabJob(file, name, project), { cwd: p.dir, env, projectVariables: { PIMCTL_PROD_TOKEN: t } });

  it("the plan job passes on exit 0 and 2 and fails on 1 and 3; validate resolves the tenant's ${variables}", { timeout: 120_000 }, async () => {
    for (const [kind, ok] of [
      ["none", true],
      ["changes", true],
      ["destructive", false],
    ] as const) {
      await outcome(kind);
      const r = await run("plan");
      expect(r.code === 0, `${kind}:\n${r.output}`).toBe(ok);
      expect(JSON.parse(await readFile(path.join(p.dir, "gl-code-quality-report.json"), "utf8"))).toEqual([]);
    }
    await outcome("none");
    expect((await run("plan", "a-token-the-tenant-refuses")).code).not.toBe(0);
  });

  it(
    "the harness reproduces the old template's bug: `code=$?` on the entry after the plan reads GitLab's echo, and a destructive plan passed",
    { timeout: 90_000 },
    async () => {
      await outcome("destructive");
      const old = {
        plan: {
          extends: ".pimctl",
          variables: { PIMCTL_TENANT: "prod" },
          script: [
            "set +e",
            'npx pimctl plan --tenant "$PIMCTL_TENANT" --out "$PIMCTL_PLAN_FILE" --detailed-exitcode --fail-on-destructive > plan.md',
            "code=$?",
            "set -e",
            'test "$code" -eq 0 -o "$code" -eq 2',
          ],
        },
      };
      const r = await runGitlabJob(gitlabJob(file, "plan", old), { cwd: p.dir, env, projectVariables: { PIMCTL_PROD_TOKEN: token } });
      expect(r.code).toBe(0);
    },
  );

  it("the apply job applies the plan job's saved plan (no new plan), and refuses to run without one", { timeout: 120_000 }, async () => {
    await outcome("changes");
    const none = await run("apply");
    expect(none.code).not.toBe(0);
    expect(none.output).toContain("No saved plan pimctl-plan.json: give this job needs: [<the plan job>].");
    expect((await run("plan")).code).toBe(0);
    const saved = JSON.parse(readFileSync(path.join(p.dir, "pimctl-plan.json"), "utf8")) as { actions: unknown[] };
    const applied = await run("apply");
    expect(applied.code, applied.output).toBe(0);
    expect(applied.output).toContain("--lock-timeout 30m");
    expect(saved.actions.length).toBeGreaterThan(0);
    expect((await p.cli(["plan", "--tenant", "prod", "--detailed-exitcode"], { env: { PIMCTL_PROD_TOKEN: token } })).code).toBe(0);
    await restore();
  });
});

describe("gitlab-ci.yml, run as GitLab runs it", () => {
  const file = ci("gitlab-ci.yml");
  const predefined = () => ({
    CI_API_V4_URL: gitlab.url,
    CI_PROJECT_ID: "1",
    CI_MERGE_REQUEST_IID: "7",
    CI_JOB_URL: "https://gitlab.example/job/1",
    CI_SERVER_HOST: "gitlab.example",
    CI_PROJECT_PATH: "acme/catalogue",
  });
  // A project that still has a PIMCTL_PROD_TOKEN variable (the write token, unprotected): the MR plan must not use it.
  const variables = (readonly: string, write: string) => ({
    PIMCTL_PROD_READONLY_TOKEN: readonly,
    PIMCTL_PROD_WRITE_TOKEN: write,
    PIMCTL_PROD_TOKEN: write,
    GITLAB_API_TOKEN: "gl-token",
    GITLAB_STATE_TOKEN: "state-token",
  });
  const run = (name: string, readonly: string, write: string) =>
    runGitlabJob(gitlabJob(file, name), { cwd: p.dir, env, projectVariables: variables(readonly, write), predefined: predefined() });

  it(
    "plan:mr reads with the read-only token, even beside a project variable PIMCTL_PROD_TOKEN; 0 and 2 pass with a note, 3 fails after its note, 1 fails with none",
    { timeout: 120_000 },
    async () => {
      for (const [kind, readonly, ok, notes] of [
        ["none", token, true, 1],
        ["changes", token, true, 1],
        ["destructive", token, false, 1],
        ["none", "a-token-the-tenant-refuses", false, 0],
      ] as const) {
        await outcome(kind);
        gitlab.notes.length = 0;
        const r = await run("plan:mr", readonly, "the-write-token-the-tenant-refuses-here");
        expect(r.code === 0, `${kind}:\n${r.output}`).toBe(ok);
        expect(gitlab.notes.length, kind).toBe(notes);
        if (notes) expect(gitlab.notes[0]).toContain(MARKER);
      }
    },
  );

  it("validate resolves prod's variables with no token; apply writes with the write token the saved plan:main made", { timeout: 120_000 }, async () => {
    await outcome("changes");
    expect((await run("validate", "", "")).code).toBe(0);
    expect((await run("plan:main", token, "unused")).code).toBe(0);
    const applied = await run("apply", "the-read-only-token-cannot-write", token);
    expect(applied.code, applied.output).toBe(0);
    expect((await p.cli(["plan", "--tenant", "prod", "--detailed-exitcode"], { env: { PIMCTL_PROD_TOKEN: token } })).code).toBe(0);
    await restore();
  });
});

describe("github-actions.yml, job apply: the reviewed plan, or a reason", () => {
  const job = githubJob(ci("github-actions.yml"), "apply");
  const merged = {
    event: { action: "closed", pull_request: { number: 7, merged: true, head: { sha: "abc123" }, merge_commit_sha: "def456" } },
    token: "gh-token",
  };
  const run = () => runGithubJob(job, { cwd: p.dir, env, secrets: { PIMCTL_PROD_TOKEN: token }, github: merged });
  const step = (r: Awaited<ReturnType<typeof run>>, name: string) => r.steps.find((s) => s.name === name)!;
  /** The PR's successful run 42 and its artifact plan-abc123, holding the plan saved now. */
  async function reviewedPlan(): Promise<void> {
    await writeFile(path.join(ghDir, "run-id"), "42\n");
    const dir = path.join(ghDir, "artifacts", "42", "plan-abc123");
    await rm(dir, { recursive: true, force: true });
    await mkdir(dir, { recursive: true });
    expect((await p.cli(["plan", "--tenant", "prod", "--out", path.join(dir, "plan.json")], { env: { PIMCTL_PROD_TOKEN: token } })).code).toBe(0);
  }

  it("no successful plan run for the PR's last commit: the fetch step says what happened, nothing is applied", { timeout: 90_000 }, async () => {
    await rm(path.join(ghDir, "run-id"), { force: true });
    await outcome("changes");
    const r = await run();
    expect(r.ok).toBe(false);
    expect(step(r, "Fetch the reviewed plan").output).toContain(
      "Nothing applied: no successful plan run of catalogue.yml for the pull request's last commit abc123",
    );
    expect(step(r, "Apply the reviewed plan").outcome).toBe("skipped");
    expect(readFileSync(path.join(ghDir, "calls.log"), "utf8")).toContain(
      "gh run list --workflow catalogue.yml --event pull_request --commit abc123 --status success",
    );
  });

  it(
    "applies the downloaded plan with the write token on that step; a stale plan (exit 5) passes the job and asks for a replan",
    { timeout: 120_000 },
    async () => {
      await outcome("changes");
      await reviewedPlan();
      const r = await run();
      expect(r.ok, r.steps.map((s) => s.output).join("\n")).toBe(true);
      expect(step(r, "Apply the reviewed plan").env).toEqual({ PIMCTL_PROD_TOKEN: token });
      expect(step(r, "Fetch the reviewed plan").env.PIMCTL_PROD_TOKEN).toBeUndefined();
      expect((await p.cli(["plan", "--tenant", "prod", "--detailed-exitcode"], { env: { PIMCTL_PROD_TOKEN: token } })).code).toBe(0);
      await restore();
      // Reviewed, then applied by someone else before the merge: the job's apply finds it done (exit 0).
      await outcome("changes");
      await reviewedPlan();
      expect((await p.cli(["apply", "--tenant", "prod", "--auto-approve"], { env: { PIMCTL_PROD_TOKEN: token } })).code).toBe(0);
      const again = await run();
      expect(again.ok).toBe(true);
      expect(step(again, "Apply the reviewed plan").output).toContain("was already applied");
      await restore();
      // Reviewed, then the tenant changed by hand before the merge: stale.
      await outcome("changes");
      await reviewedPlan();
      const store = p.emulator.store("prod");
      const acme = [...store.brands.values()].find((b) => b.name === "Acme")!;
      updateBrand(store, acme.id, { desc: "Changed by hand" });
      const stale = await run();
      expect(stale.ok).toBe(true);
      expect(stale.outputs.apply).toEqual({ stale: "true" });
      expect(stale.summary).toContain("The reviewed plan is stale");
      await restore();
    },
  );
});

describe("github-promotion.yml and github-drift.yml, run as GitHub runs them", () => {
  it(
    "the PR plan job passes on 0 and 2, fails on 1 and 3, validates only without secrets; the staging plan and the prod diff are in the summary once each",
    { timeout: 180_000 },
    async () => {
      const job = githubJob(ci("github-promotion.yml"), "plan");
      const secrets = (t: string) => ({ PIMCTL_STAGING_READONLY_TOKEN: p.tokens.staging!, PIMCTL_PROD_READONLY_TOKEN: t });
      for (const [kind, t, ok] of [
        ["none", token, true],
        ["changes", token, true],
        ["destructive", token, false],
        ["none", "a-token-the-tenant-refuses", false],
      ] as const) {
        await outcome(kind);
        // Staging holds BASE too: its plan exits 3 on the destructive manifests; the prod diff fails on the refused token.
        const r = await runGithubJob(job, { cwd: p.dir, env, secrets: secrets(t), github: pr });
        expect(r.ok, `${kind}: ${r.steps.map((s) => s.output).join("\n")}`).toBe(ok);
        // Once each: the staging plan (appended by pimctl plan) and the prod diff (by the step).
        if (r.ok) expect(count(r.summary, MARKER)).toBe(2);
      }
      const fork = await runGithubJob(job, { cwd: p.dir, env, secrets: {}, github: pr });
      expect(fork.ok).toBe(true);
      expect(fork.summary).toContain("No plan: this pull request's run gets no secrets");
    },
  );

  it("prod-plan: the heading and the plan once in the summary; a destructive plan fails the job before anyone approves", { timeout: 120_000 }, async () => {
    const job = githubJob(ci("github-promotion.yml"), "prod-plan");
    const release = { event: { release: { tag_name: "v1.2.0" } } };
    await outcome("changes");
    const r = await runGithubJob(job, { cwd: p.dir, env, secrets: { PIMCTL_PROD_READONLY_TOKEN: token }, github: release });
    expect(r.ok, r.steps.map((s) => s.output).join("\n")).toBe(true);
    expect(r.summary.indexOf("## Production plan for v1.2.0")).toBeLessThan(r.summary.indexOf(MARKER));
    expect(count(r.summary, MARKER)).toBe(1);
    await outcome("destructive");
    expect((await runGithubJob(job, { cwd: p.dir, env, secrets: { PIMCTL_PROD_READONLY_TOKEN: token }, github: release })).ok).toBe(false);
  });

  it("drift: none passes with no issue; drift opens the issue; an error fails the job", { timeout: 120_000 }, async () => {
    const job = githubJob(ci("github-drift.yml"), "drift");
    const run = (t: string) => runGithubJob(job, { cwd: p.dir, env, secrets: { PIMCTL_PROD_READONLY_TOKEN: t }, github: { token: "gh-token" } });
    await restore();
    const none = await run(token);
    expect(none.ok, none.steps.map((s) => s.output).join("\n")).toBe(true);
    expect(none.outputs.drift).toEqual({ code: "0" });
    expect(none.steps.at(-1)!.outcome).toBe("skipped");
    // Someone adds a brand by hand.
    await outcome("changes");
    expect((await p.cli(["apply", "--tenant", "prod", "--auto-approve"], { env: { PIMCTL_PROD_TOKEN: token } })).code).toBe(0);
    await outcome("none");
    const drifted = await run(token);
    expect(drifted.ok, drifted.steps.map((s) => s.output).join("\n")).toBe(true);
    expect(drifted.outputs.drift).toEqual({ code: "2" });
    expect(readFileSync(path.join(ghDir, "calls.log"), "utf8")).toContain(
      "gh issue create --title Catalogue drift on prod --label catalogue-drift --body-file drift.md",
    );
    expect((await run("a-token-the-tenant-refuses")).ok).toBe(false);
    await restore();
  });
});

describe("prune: on and a brand deleted in the pull request: the pull request's job and the merge's apply agree", () => {
  /** The tenant holds a second brand, Zenith; the pull request's manifests (BASE) no longer declare it. */
  async function zenithDeletedInThePullRequest(): Promise<void> {
    await p.write("catalogue/catalogue.yaml", BASE.replace("categories:", "  - name: Zenith\ncategories:"));
    expect((await p.cli(["apply", "--tenant", "prod", "--auto-approve"], { env: { PIMCTL_PROD_TOKEN: token } })).code).toBe(0);
    await outcome("none");
  }
  const zenith = () => [...p.emulator.store("prod").brands.values()].some((b) => b.name === "Zenith");
  const step = (r: { steps: Array<{ name: string; outcome: string; output: string }> }, name: string) => r.steps.find((s) => s.name === name)!;

  it("GitHub: the PR plan passes (exit 2) showing the delete, and the merge applies that reviewed plan: Zenith is deleted", { timeout: 180_000 }, async () => {
    await zenithDeletedInThePullRequest();
    const plan = await runGithubJob(githubJob(ci("github-actions.yml"), "plan"), {
      cwd: p.dir,
      env,
      secrets: { PIMCTL_PROD_READONLY_TOKEN: token },
      github: pr,
    });
    expect(plan.ok, plan.steps.map((x) => x.output).join("\n")).toBe(true);
    expect(plan.outputs.plan).toEqual({ exitcode: "2", planned: "true" });
    expect(readFileSync(path.join(p.dir, "plan.md"), "utf8")).toContain('brand["Zenith"]');
    // The artifact of that run is what the merge's apply downloads.
    const artifact = path.join(ghDir, "artifacts", "42", "plan-abc123");
    await rm(artifact, { recursive: true, force: true });
    await mkdir(artifact, { recursive: true });
    await writeFile(path.join(artifact, "plan.json"), await readFile(path.join(p.dir, "plan.json")));
    await writeFile(path.join(ghDir, "run-id"), "42\n");
    await rm(path.join(p.dir, "plan.json"));
    const merged = { event: { action: "closed", pull_request: { number: 7, merged: true, head: { sha: "abc123" }, merge_commit_sha: "def456" } }, token: "gh" };
    const apply = await runGithubJob(githubJob(ci("github-actions.yml"), "apply"), { cwd: p.dir, env, secrets: { PIMCTL_PROD_TOKEN: token }, github: merged });
    expect(apply.ok, apply.steps.map((x) => x.output).join("\n")).toBe(true);
    expect(zenith()).toBe(false);
    await restore();
  });

  it("GitLab (the include template and the example): the plan job passes, and the apply job deletes what it showed", { timeout: 180_000 }, async () => {
    const template = {
      plan: { extends: ".pimctl-plan", variables: { PIMCTL_TENANT: "prod" } },
      apply: { extends: ".pimctl-apply", needs: ["plan"], variables: { PIMCTL_TENANT: "prod" } },
    };
    await zenithDeletedInThePullRequest();
    const run = (name: "plan" | "apply") =>
      runGitlabJob(gitlabJob(ci("gitlab-pimctl.yml"), name, template), { cwd: p.dir, env, projectVariables: { PIMCTL_PROD_TOKEN: token } });
    const plan = await run("plan");
    expect(plan.code, plan.output).toBe(0);
    expect(plan.output).toContain("pimctl plan exited 2");
    const apply = await run("apply");
    expect(apply.code, apply.output).toBe(0);
    expect(zenith()).toBe(false);

    await zenithDeletedInThePullRequest();
    const variables = { PIMCTL_PROD_READONLY_TOKEN: token, PIMCTL_PROD_WRITE_TOKEN: token, GITLAB_API_TOKEN: "gl", GITLAB_STATE_TOKEN: "st" };
    const predefined = {
      CI_API_V4_URL: gitlab.url,
      CI_PROJECT_ID: "1",
      CI_MERGE_REQUEST_IID: "7",
      CI_JOB_URL: "https://gl/job/1",
      CI_SERVER_HOST: "gl",
      CI_PROJECT_PATH: "a/b",
    };
    const example = (name: string) => runGitlabJob(gitlabJob(ci("gitlab-ci.yml"), name), { cwd: p.dir, env, projectVariables: variables, predefined });
    const mr = await example("plan:mr");
    expect(mr.code, mr.output).toBe(0);
    expect((await example("plan:main")).code).toBe(0);
    const applied = await example("apply");
    expect(applied.code, applied.output).toBe(0);
    expect(zenith()).toBe(false);
    await restore();
  });

  it(
    "a plan pimctl refuses (exit 3: a file that declares nothing) fails the PR check, and the comment says why there is no plan",
    { timeout: 120_000 },
    async () => {
      await zenithDeletedInThePullRequest();
      await p.write("catalogue/moved.yaml", "# the brands moved to brands.yaml\n");
      try {
        const r = await runGithubJob(githubJob(ci("github-actions.yml"), "plan"), {
          cwd: p.dir,
          env,
          secrets: { PIMCTL_PROD_READONLY_TOKEN: token },
          github: pr,
        });
        expect(r.ok).toBe(false);
        expect(r.outputs.plan!.exitcode).toBe("3");
        expect(step(r, "Post or update the plan comment").outcome).toBe("success");
        const body = readFileSync(path.join(p.dir, "plan.md"), "utf8");
        expect(body.startsWith(MARKER)).toBe(true);
        expect(body).toContain("No plan to review: pimctl refused it (exit 3)");
        expect(step(r, "Block destructive plans").outcome).toBe("failure");
        expect(zenith()).toBe(true);
      } finally {
        await rm(path.join(p.dir, "catalogue", "moved.yaml"));
        await restore();
      }
    },
  );

  it("every plan in the examples that is applied or previews an apply, and every apply that plans itself, permits deletes the same way", () => {
    const commands = readdirSync(path.join(repoRoot, "examples", "ci"))
      .flatMap((f) => {
        const text = readFileSync(ci(f), "utf8");
        // GitLab's plans take their flags from the PIMCTL_PLAN_ARGS variable the file sets.
        const args = /PIMCTL_PLAN_ARGS: ([^#\n]+)/.exec(text)?.[1]?.trim() ?? "";
        return text.split("\n").map((line) => ({ f, line: line.replace("$PIMCTL_PLAN_ARGS", args) }));
      })
      // A plan, or an apply that plans itself (its first argument an option); not an apply of a saved plan, which carries its permission.
      .filter(({ line }) => !/^\s*#/.test(line) && (/npx pimctl plan /.test(line) || /npx pimctl apply --/.test(line)));
    expect(commands.length).toBeGreaterThan(5);
    for (const { f, line } of commands) expect(line, f).toContain("--allow-delete");
    const staging = githubJob(ci("github-promotion.yml"), "staging").steps.find((x) => x.uses === "./node_modules/pimctl")!;
    expect((staging as { with?: { args?: string } }).with?.args).toContain("--allow-delete");
  });
});

describe("GitHub examples: secrets only on the steps that use them", () => {
  const files = readdirSync(path.join(repoRoot, "examples", "ci")).filter((f) => f.startsWith("github-"));
  it("no job-level env holds a secret; a step with a tenant secret runs pimctl; every job has timeout-minutes; npm ci runs no install scripts", () => {
    for (const f of files) {
      const jobs = (
        parse(readFileSync(ci(f), "utf8")) as { jobs: Record<string, { env?: Record<string, string>; "timeout-minutes"?: number; steps: GithubStep[] }> }
      ).jobs;
      for (const [name, job] of Object.entries(jobs)) {
        expect(JSON.stringify(job.env ?? {}), `${f} ${name}`).not.toContain("secrets.");
        expect(job["timeout-minutes"], `${f} ${name}`).toBeGreaterThan(0);
        for (const s of job.steps) {
          if (JSON.stringify(s.env ?? {}).includes("secrets.PIMCTL"))
            expect(`${s.run ?? ""}${s.uses ?? ""}`, `${f} ${name}`).toMatch(/npx pimctl|node_modules\/pimctl/);
          if (s.run?.includes("npm ci")) expect(s.run, `${f} ${name}`).toContain("npm ci --ignore-scripts");
        }
      }
    }
  });
});

describe("the fleet fan-out (github-fleet.yml, gitlab-fleet.yml), run as the runners run it: the matrix jobs' review is the one-run review", () => {
  const planArgs = ["--allow-delete", "--fail-on-destructive"];
  /** Every tenant of the fleet gets brand New (shared); prod-us also had Acme changed by hand (its own update). */
  async function fleetChanges(): Promise<void> {
    await outcome("changes");
    const store = p.emulator.store("prod-us");
    const acme = [...store.brands.values()].find((b) => b.name === "Acme")!;
    updateBrand(store, acme.id, { desc: "Changed by hand in prod-us" });
    for (const f of ["review.md", "review.html", "tenants.json", "fleet-plans.yml", "review-exitcode", ...FLEET.map((t) => `plan-${t}.json`)])
      await rm(path.join(p.dir, f), { force: true });
    await rm(path.join(p.dir, "plans"), { recursive: true, force: true });
  }
  /** The same review from one run of `pimctl plan --tenant 'prod-*'`, markdown and the HTML page. */
  async function oneRun(): Promise<{ markdown: string; html: string }> {
    const r = await p.cli(["plan", "--tenant", "prod-*", "--format", "markdown", "--html", "one-run.html", ...planArgs], {
      env: { ...fleetTokens(""), SOURCE_DATE_EPOCH: "1790000000" },
    });
    expect(r.code, r.stderr).toBe(0);
    return { markdown: r.stdout, html: await readFile(path.join(p.dir, "one-run.html"), "utf8") };
  }
  const fixedTime = { ...process.env, SOURCE_DATE_EPOCH: "1790000000" };

  it(
    "GitHub: tenants feeds the matrix; each plan job saves plan-X.json; the review job's comment and page equal the one-run review",
    { timeout: 180_000 },
    async () => {
      await fleetChanges();
      const file = ci("github-fleet.yml");
      const runEnv = { ...env, SOURCE_DATE_EPOCH: fixedTime.SOURCE_DATE_EPOCH };
      const tenants = await runGithubJob(githubJob(file, "tenants"), { cwd: p.dir, env: runEnv, secrets: {}, github: pr });
      expect(tenants.ok, tenants.steps.map((x) => x.output).join("\n")).toBe(true);
      const matrix = githubMatrix(githubJob(file, "plan"), { tenants: { outputs: tenants.jobOutputs } });
      expect(matrix).toEqual(FLEET.map((name) => ({ tenant: { name, wave: 1 } })));
      const secrets = fleetTokens("_READONLY");
      for (const entry of matrix) {
        const r = await runGithubJob(githubJob(file, "plan"), { cwd: p.dir, env: runEnv, secrets, github: pr, matrix: entry });
        expect(r.ok, r.steps.map((x) => x.output).join("\n")).toBe(true);
      }
      // download-artifact (pattern plan-*, merge-multiple) puts every job's plan-X.json in plans/.
      await mkdir(path.join(p.dir, "plans"));
      for (const t of FLEET) await writeFile(path.join(p.dir, "plans", `plan-${t}.json`), await readFile(path.join(p.dir, `plan-${t}.json`)));
      const review = await runGithubJob(githubJob(file, "review"), { cwd: p.dir, env: runEnv, secrets: {}, github: pr });
      expect(review.ok, review.steps.map((x) => x.output).join("\n")).toBe(true);
      expect(review.outputs.review).toEqual({ exitcode: "2" });
      const expected = await oneRun();
      const markdown = readFileSync(path.join(p.dir, "review.md"), "utf8");
      expect(markdown).toBe(expected.markdown);
      expect(markdown.startsWith("<!-- pimctl-fleet-plan -->")).toBe(true);
      expect(markdown).toContain("prod-us");
      expect(readFileSync(path.join(p.dir, "review.html"), "utf8")).toBe(expected.html);
      expect(count(review.summary, "<!-- pimctl-fleet-plan -->")).toBe(1);
      expect(review.steps.find((x) => x.name === "Block destructive plans")!.outcome).toBe("skipped");
      await restoreFleet();
    },
  );

  it(
    "GitLab: fleet:tenants writes the child pipeline's matrix from pimctl tenants; its plan jobs and review post ONE note equal to the one-run review",
    { timeout: 180_000 },
    async () => {
      await fleetChanges();
      await mkdir(path.join(p.dir, ".gitlab"), { recursive: true });
      await writeFile(path.join(p.dir, ".gitlab", "fleet-plans.yml"), readFileSync(ci("gitlab-fleet-plans.yml")));
      const parent = ci("gitlab-fleet.yml");
      const made = await runGitlabJob(gitlabJob(parent, "fleet:tenants"), { cwd: p.dir, env, projectVariables: {} });
      expect(made.code, made.output).toBe(0);
      const trigger = gitlabJob(parent, "fleet:plans") as unknown as { trigger: unknown; variables: Record<string, string> };
      expect(trigger.trigger).toEqual({ include: [{ artifact: "fleet-plans.yml", job: "fleet:tenants" }], strategy: "depend" });
      expect(trigger.variables).toEqual({ PIMCTL_MR_IID: "$CI_MERGE_REQUEST_IID" });
      const child = path.join(p.dir, "fleet-plans.yml");
      const plan = gitlabJob(child, "plan") as unknown as { parallel: { matrix: Array<{ PIMCTL_TENANT: string[] }> } };
      expect(plan.parallel.matrix).toEqual([{ PIMCTL_TENANT: FLEET }]);
      const predefined = {
        CI_API_V4_URL: gitlab.url,
        CI_PROJECT_ID: "1",
        PIMCTL_MR_IID: "7",
        CI_JOB_URL: "https://gitlab.example/job/1",
        SOURCE_DATE_EPOCH: fixedTime.SOURCE_DATE_EPOCH,
      };
      // A refused token fails that tenant's job (exit 1): no plan file, and the pipeline stops before its review.
      const refused = await runGitlabJob(gitlabJob(child, "plan"), {
        cwd: p.dir,
        env,
        projectVariables: { ...fleetTokens("_READONLY"), PIMCTL_PROD_US_READONLY_TOKEN: "a-token-the-tenant-refuses" },
        predefined: { ...predefined, PIMCTL_TENANT: "prod-us" },
      });
      expect(refused.code).not.toBe(0);
      expect(existsSync(path.join(p.dir, "plan-prod-us.json"))).toBe(false);
      for (const tenant of plan.parallel.matrix[0]!.PIMCTL_TENANT) {
        const r = await runGitlabJob(gitlabJob(child, "plan"), {
          cwd: p.dir,
          env,
          projectVariables: fleetTokens("_READONLY"),
          predefined: { ...predefined, PIMCTL_TENANT: tenant },
        });
        expect(r.code, r.output).toBe(0);
        expect(r.output).toContain(`pimctl plan --tenant ${tenant} exited 2`);
      }
      gitlab.notes.length = 0;
      const review = await runGitlabJob(gitlabJob(child, "review"), { cwd: p.dir, env, projectVariables: { GITLAB_API_TOKEN: "gl-token" }, predefined });
      expect(review.code, review.output).toBe(0);
      const expected = await oneRun();
      expect(readFileSync(path.join(p.dir, "review.html"), "utf8")).toBe(expected.html);
      expect(gitlab.notes).toEqual([`${expected.markdown}\n[Review page (review.html)](https://gitlab.example/job/1/artifacts/file/review.html)\n`]);
      await restoreFleet();
    },
  );

  it(
    "github-fleet-drift.yml: no drift opens nothing; drift in one tenant opens ONE issue for the fleet; a tenant that cannot be read fails the job after the issue",
    { timeout: 180_000 },
    async () => {
      await outcome("none");
      const job = githubJob(ci("github-fleet-drift.yml"), "drift");
      const all = { ...fleetTokens("_READONLY"), PIMCTL_STAGING_READONLY_TOKEN: p.tokens.staging!, PIMCTL_PROD_READONLY_TOKEN: token };
      // The example names prod-eu, prod-us, prod-apac and staging; this project's '*' is prod, staging, prod-eu, prod-us: prod's token goes where prod-apac's would.
      const run = (secrets: Record<string, string>) =>
        runGithubJob(
          {
            ...job,
            steps: job.steps.map((s) => (s.id === "drift" ? { ...s, env: { ...s.env, PIMCTL_PROD_TOKEN: "${{ secrets.PIMCTL_PROD_READONLY_TOKEN }}" } } : s)),
          },
          { cwd: p.dir, env, secrets, github: { token: "gh-token" } },
        );
      await rm(path.join(ghDir, "calls.log"), { force: true });
      const none = await run(all);
      expect(none.ok, none.steps.map((x) => x.output).join("\n")).toBe(true);
      expect(none.outputs.drift).toEqual({ code: "0" });
      expect(existsSync(path.join(ghDir, "calls.log"))).toBe(false);
      // Someone changes prod-us by hand.
      const store = p.emulator.store("prod-us");
      const acme = [...store.brands.values()].find((b) => b.name === "Acme")!;
      updateBrand(store, acme.id, { desc: "Changed by hand in prod-us" });
      const drifted = await run(all);
      expect(drifted.ok, drifted.steps.map((x) => x.output).join("\n")).toBe(true);
      expect(drifted.outputs.drift).toEqual({ code: "2" });
      const calls = readFileSync(path.join(ghDir, "calls.log"), "utf8").trim().split("\n");
      expect(calls.filter((c) => c.startsWith("gh issue create"))).toEqual([
        "gh issue create --title Catalogue drift in the fleet --label catalogue-drift --body-file drift.md",
      ]);
      const body = readFileSync(path.join(p.dir, "drift.md"), "utf8");
      for (const t of ["prod", "staging", ...FLEET]) expect(body).toContain(t);
      const unreadable = await run({ ...all, PIMCTL_PROD_EU_READONLY_TOKEN: "a-token-the-tenant-refuses" });
      expect(unreadable.ok).toBe(false);
      expect(unreadable.outputs.drift).toEqual({ code: "1" });
      expect(unreadable.steps.find((x) => x.name === "open or update the fleet's drift issue")!.outcome).toBe("success");
      await restoreFleet();
    },
  );
});

/** Every tenant of the fleet back to BASE (and no plan files left), whatever a test applied or changed by hand. */
async function restoreFleet(): Promise<void> {
  await outcome("none");
  for (const tenant of FLEET) {
    const r = await p.cli(["apply", "--tenant", tenant, "--auto-approve", "--allow-delete"], { env: fleetTokens("") });
    expect(r.code, r.stderr).toBe(0);
  }
}
