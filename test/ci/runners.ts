/**
 * The example pipelines' shell steps, run as their runners run them (what the
 * YAML asks; not the runners' services): a GitHub job's `run:` steps, each in
 * the shell GitHub picks (`bash -e {0}` by default) with its step's env, `if:`
 * and `${{ }}` expressions, GITHUB_OUTPUT and GITHUB_STEP_SUMMARY; a GitLab
 * job's script entries the way GitLab's bash shell runs them. `uses:` steps
 * (checkout, setup-node, artifacts, github-script) run nothing here.
 *
 * GitLab writes before_script and script into ONE bash script that starts with
 * `set -eo pipefail` and runs its own commands between entries (the `$ entry`
 * echo): a failing entry fails the job, shell variables and `cd` carry over,
 * and `$?` at the start of an entry is the echo's, 0. The harness writes the
 * same script, so a `code=$?` entry passes green here as it does there.
 */
import { spawn } from "node:child_process";
import { readFileSync, writeFileSync } from "node:fs";
import { mkdtemp, readFile, rm, writeFile } from "node:fs/promises";
import { tmpdir } from "node:os";
import path from "node:path";
import { parse } from "yaml";

export interface ShellRun {
  code: number;
  output: string;
}

/** Runs a command without blocking this process (the emulator the CLI talks to lives here). */
export function runProcess(cmd: string, args: string[], opts: { cwd: string; env: NodeJS.ProcessEnv }): Promise<ShellRun> {
  return new Promise((resolve, reject) => {
    const child = spawn(cmd, args, { cwd: opts.cwd, env: opts.env, stdio: ["ignore", "pipe", "pipe"] });
    let output = "";
    child.stdout.on("data", (d: Buffer) => (output += d.toString()));
    child.stderr.on("data", (d: Buffer) => (output += d.toString()));
    child.on("error", reject);
    child.on("close", (code) => resolve({ code: code ?? 1, output }));
  });
}

// ---------------------------------------------------------------- GitHub Actions

type Json = string | number | boolean | null | undefined | Json[] | { [k: string]: Json };
export interface GithubStep {
  id?: string;
  name?: string;
  if?: string;
  uses?: string;
  run?: string;
  shell?: string;
  env?: Record<string, string>;
  "working-directory"?: string;
  "continue-on-error"?: boolean;
}
interface GithubJob {
  env?: Record<string, string>;
  outputs?: Record<string, string>;
  strategy?: { matrix?: Record<string, unknown> };
  defaults?: { run?: { shell?: string } };
  steps: GithubStep[];
}

export interface GithubStepResult {
  name: string;
  outcome: "success" | "failure" | "skipped";
  output: string;
  env: Record<string, string>;
}
export interface GithubJobResult {
  ok: boolean;
  steps: GithubStepResult[];
  outputs: Record<string, Record<string, string>>;
  /** The job's own `outputs:`, evaluated after its steps (what `needs.<job>.outputs` gives later jobs). */
  jobOutputs: Record<string, string>;
  summary: string;
}

/** A GitHub expression (the subset the examples use): paths, strings, numbers, == != && || !, status functions. */
export function evaluate(expr: string, ctx: Record<string, Json>, status: { failed: boolean }): Json {
  const tokens = expr.match(/'(?:[^']|'')*'|==|!=|&&|\|\||[!()]|[A-Za-z_][\w.-]*(?:\(\))?|\d+(?:\.\d+)?|\S/g) ?? [];
  let i = 0;
  const peek = () => tokens[i];
  const truthy = (v: Json) => v !== "" && v !== 0 && v !== false && v !== null && v !== undefined;
  const primary = (): Json => {
    const t = tokens[i++];
    if (t === undefined) throw new Error(`expression ended early: ${expr}`);
    if (t === "(") {
      const v = or();
      i++; // ")"
      return v;
    }
    if (t === "!") return !truthy(primary());
    if (t.startsWith("'")) return t.slice(1, -1).replace(/''/g, "'");
    if (/^\d/.test(t)) return Number(t);
    if (t === "true" || t === "false") return t === "true";
    if (t === "always()") return true;
    if (t === "success()") return !status.failed;
    if (t === "failure()") return status.failed;
    if (t === "cancelled()") return false;
    let v: Json = ctx;
    for (const key of t.split(".")) v = v && typeof v === "object" && !Array.isArray(v) ? v[key] : undefined;
    return v ?? "";
  };
  const compare = (): Json => {
    let left = primary();
    while (peek() === "==" || peek() === "!=") {
      const op = tokens[i++];
      const right = primary();
      const same = String(left).toLowerCase() === String(right).toLowerCase();
      left = op === "==" ? same : !same;
    }
    return left;
  };
  const and = (): Json => {
    let left = compare();
    while (peek() === "&&") {
      i++;
      const right = compare();
      left = truthy(left) ? right : left;
    }
    return left;
  };
  const or = (): Json => {
    let left = and();
    while (peek() === "||") {
      i++;
      const right = and();
      left = truthy(left) ? left : right;
    }
    return left;
  };
  return or();
}

const substitute = (text: string, ctx: Record<string, Json>, status: { failed: boolean }) =>
  text.replace(/\$\{\{(.*?)\}\}/g, (_, e: string) => String(evaluate(e.trim(), ctx, status) ?? ""));

/** The argv GitHub runs a `run:` script file with, for the step's shell. */
function githubShell(shell: string | undefined, file: string): string[] {
  if (shell === undefined) return ["bash", "-e", file]; // GitHub's default on Linux: bash -e {0}
  if (shell === "bash") return ["bash", "--noprofile", "--norc", "-eo", "pipefail", file];
  if (shell === "sh") return ["sh", "-e", file];
  throw new Error(`shell ${shell} is not run by this harness`);
}

export function githubJob(file: string, job: string): GithubJob {
  const doc = parse(readFileSync(file, "utf8")) as { jobs: Record<string, GithubJob> };
  const found = doc.jobs[job];
  if (!found) throw new Error(`${file} has no job ${job}`);
  return found;
}

/**
 * Runs a job's `run:` steps in order in `cwd`. `env` is the runner's environment (PATH with the
 * shims); `secrets` and `github` fill the expression contexts.
 */
export async function runGithubJob(
  job: GithubJob,
  o: {
    cwd: string;
    env: NodeJS.ProcessEnv;
    secrets: Record<string, string>;
    github: Record<string, Json>;
    inputs?: Record<string, string>;
    /** This job's matrix entry (the `matrix` context), and the jobs it needs (`needs.<job>.outputs`). */
    matrix?: Record<string, Json>;
    needs?: Record<string, { outputs: Record<string, string> }>;
  },
): Promise<GithubJobResult> {
  const tmp = await mkdtemp(path.join(tmpdir(), "pimctl-gha-"));
  const stepsCtx: Record<string, { outputs: Record<string, string>; outcome: string }> = {};
  const results: GithubStepResult[] = [];
  const status = { failed: false };
  let summary = "";
  try {
    for (const [n, step] of job.steps.entries()) {
      const name = step.name ?? step.id ?? step.run?.split("\n")[0] ?? step.uses ?? `step ${n}`;
      const ctx = (): Record<string, Json> => ({
        secrets: o.secrets,
        github: o.github,
        inputs: o.inputs ?? {},
        matrix: o.matrix ?? {},
        needs: (o.needs ?? {}) as unknown as Json,
        steps: stepsCtx as unknown as Json,
      });
      // An if: without a status function implies success(), as GitHub does.
      const condition = step.if ? (/\b(always|success|failure|cancelled)\(\)/.test(step.if) ? step.if : `success() && (${step.if})`) : "success()";
      const runIt = evaluate(condition.replace(/^\$\{\{(.*)\}\}$/s, "$1"), ctx(), status);
      if (!runIt || runIt === "") {
        results.push({ name, outcome: "skipped", output: "", env: {} });
        continue;
      }
      const env: Record<string, string> = {};
      for (const [k, v] of Object.entries({ ...job.env, ...step.env })) env[k] = substitute(String(v), ctx(), status);
      if (!step.run) {
        results.push({ name, outcome: "success", output: "", env });
        if (step.id) stepsCtx[step.id] = { outputs: {}, outcome: "success" };
        continue;
      }
      const script = path.join(tmp, `step-${n}.sh`);
      const outputFile = path.join(tmp, `output-${n}`);
      const summaryFile = path.join(tmp, `summary-${n}`);
      await writeFile(script, substitute(step.run, ctx(), status));
      await writeFile(outputFile, "");
      await writeFile(summaryFile, "");
      const [cmd, ...args] = githubShell(step.shell ?? job.defaults?.run?.shell, script);
      const r = await runProcess(cmd!, args, {
        cwd: path.resolve(o.cwd, substitute(step["working-directory"] ?? ".", ctx(), status)),
        env: { ...o.env, ...env, GITHUB_ACTIONS: "true", GITHUB_OUTPUT: outputFile, GITHUB_STEP_SUMMARY: summaryFile },
      });
      const outputs = Object.fromEntries(
        (await readFile(outputFile, "utf8"))
          .split("\n")
          .filter((l) => l.includes("="))
          .map((l) => [l.slice(0, l.indexOf("=")), l.slice(l.indexOf("=") + 1)]),
      );
      summary += await readFile(summaryFile, "utf8");
      const outcome = r.code === 0 ? "success" : "failure";
      if (step.id) stepsCtx[step.id] = { outputs, outcome };
      results.push({ name, outcome, output: r.output, env });
      if (outcome === "failure" && !step["continue-on-error"]) status.failed = true;
    }
  } finally {
    await rm(tmp, { recursive: true, force: true });
  }
  const ctx = { secrets: o.secrets, github: o.github, steps: stepsCtx as unknown as Json };
  const jobOutputs = Object.fromEntries(Object.entries(job.outputs ?? {}).map(([k, v]) => [k, substitute(v, ctx, status)]));
  return { ok: !status.failed, steps: results, outputs: Object.fromEntries(Object.entries(stepsCtx).map(([k, v]) => [k, v.outputs])), jobOutputs, summary };
}

/**
 * A job's matrix entries as GitHub expands `strategy.matrix` of the form the fleet example uses,
 * `KEY: ${{ fromJSON(needs.JOB.outputs.NAME).FIELD }}` (one entry per element of that list), from
 * the outputs of the jobs it needs. Any other form is an error here, not a guess.
 */
export function githubMatrix(job: GithubJob, needs: Record<string, { outputs: Record<string, string> }>): Array<Record<string, Json>> {
  const entries = Object.entries(job.strategy?.matrix ?? {});
  if (entries.length !== 1) throw new Error(`the harness expands a matrix of one key, not ${entries.length}`);
  const [key, value] = entries[0]!;
  const m = /^\$\{\{\s*fromJSON\(needs\.([\w-]+)\.outputs\.([\w-]+)\)\.(\w+)\s*\}\}$/.exec(String(value));
  if (!m) throw new Error(`matrix ${key}: ${String(value)} is not a form the harness expands`);
  const list = (JSON.parse(needs[m[1]!]?.outputs[m[2]!] ?? "null") as Record<string, Json> | null)?.[m[3]!];
  if (!Array.isArray(list)) throw new Error(`matrix ${key}: needs.${m[1]}.outputs.${m[2]} has no list ${m[3]}`);
  return list.map((v) => ({ [key]: v }));
}

// ---------------------------------------------------------------- GitLab CI

type GitlabJob = Record<string, unknown> & { extends?: string | string[]; variables?: Record<string, string>; script?: string[]; before_script?: string[] };

/** A job as GitLab resolves it: `extends` merged in (hashes deeply, the rest replaced), then `default:`. */
export function gitlabJob(file: string, name: string, including: Record<string, GitlabJob> = {}): GitlabJob & { globalVariables: Record<string, string> } {
  // `including`: jobs of a project that includes the file (extending its hidden jobs).
  const doc = { ...(parse(readFileSync(file, "utf8")) as Record<string, GitlabJob>), ...including };
  const merge = (a: Record<string, unknown>, b: Record<string, unknown>): Record<string, unknown> => {
    const out: Record<string, unknown> = { ...a };
    for (const [k, v] of Object.entries(b)) {
      const prev = out[k];
      out[k] =
        prev && v && typeof prev === "object" && typeof v === "object" && !Array.isArray(prev) && !Array.isArray(v)
          ? merge(prev as Record<string, unknown>, v as Record<string, unknown>)
          : v;
    }
    return out;
  };
  const resolve = (n: string): GitlabJob => {
    const job = doc[n];
    if (!job) throw new Error(`${file} has no job ${n}`);
    const { extends: bases = [], ...own } = job;
    return merge(
      [bases].flat().reduce<Record<string, unknown>>((acc, b) => merge(acc, resolve(b)), {}),
      own,
    ) as GitlabJob;
  };
  const job = resolve(name);
  const dflt = (doc.default ?? {}) as GitlabJob;
  return { ...dflt, ...job, globalVariables: (doc.variables ?? {}) as Record<string, string> };
}

/** $NAME and ${NAME} in a variables: value, expanded as GitLab does (unknown names become empty). */
const expand = (value: string, vars: Record<string, string>) =>
  value.replace(/\$(?:\{(\w+)\}|(\w+))/g, (_, a: string | undefined, b: string | undefined) => vars[(a ?? b)!] ?? "");

/**
 * Runs a job's before_script and script in `cwd` as GitLab's bash shell does. Variables, lowest
 * precedence first: the runner's environment, the file's `variables:`, the job's `variables:`, then
 * the project's CI/CD variables (Settings), which win over both YAML levels.
 */
export async function runGitlabJob(
  job: ReturnType<typeof gitlabJob>,
  o: { cwd: string; env: NodeJS.ProcessEnv; projectVariables: Record<string, string>; predefined?: Record<string, string> },
): Promise<ShellRun> {
  const vars: Record<string, string> = { ...o.predefined, ...o.projectVariables };
  for (const level of [job.globalVariables, job.variables ?? {}]) {
    for (const [k, v] of Object.entries(level)) if (!(k in o.projectVariables)) vars[k] = expand(String(v), vars);
  }
  const entries = [...(job.before_script ?? []), ...(job.script ?? [])];
  const quote = (s: string) => `'${s.replace(/'/g, `'\\''`)}'`;
  const script = ["set -eo pipefail", "set +o noclobber", ...entries.flatMap((e) => [`echo ${quote(`$ ${e.split("\n")[0]}`)}`, e])].join("\n");
  const dir = await mkdtemp(path.join(tmpdir(), "pimctl-gitlab-"));
  writeFileSync(path.join(dir, "script.sh"), `${script}\n`);
  try {
    return await runProcess("bash", ["--noprofile", "--norc", path.join(dir, "script.sh")], {
      cwd: o.cwd,
      env: { ...o.env, ...vars, GITLAB_CI: "true", CI: "true" },
    });
  } finally {
    await rm(dir, { recursive: true, force: true });
  }
}
