/**
 * The step behind action.yml (the repository's GitHub Action): runs pimctl in
 * this process, writes the step's outputs, and for a plan on a pull request
 * posts the markdown plan as one comment, updated on every push. The comment
 * is found by its marker AND its author, so a person who quotes the marker is
 * never overwritten. A failed plan posts nothing.
 */
import { existsSync } from "node:fs";
import { appendFile, readFile } from "node:fs/promises";
import path from "node:path";
import { run } from "../cli/run.js";
import { processIo, type Io } from "../cli/io.js";
import { EXIT } from "../cli/exit-codes.js";

export const PLAN_MARKER = "<!-- pimctl-plan -->";

export interface ActionInputs {
  command: string;
  tenant: string;
  args: string[];
  planFile: string;
  comment: boolean;
  failOnChanges: boolean;
  commentAuthor: string;
  githubToken: string;
}

/** Inputs as the composite action passes them: INPUT_* environment variables. */
export function readInputs(env: NodeJS.ProcessEnv): ActionInputs {
  const get = (name: string, fallback = "") => (env[`INPUT_${name}`] ?? "").trim() || fallback;
  return {
    command: get("COMMAND", "plan"),
    tenant: get("TENANT"),
    args: splitArgs(get("ARGS")),
    planFile: get("PLAN_FILE", "pimctl-plan.json"),
    comment: get("COMMENT", "true") === "true",
    failOnChanges: get("FAIL_ON_CHANGES", "false") === "true",
    commentAuthor: get("COMMENT_AUTHOR", "github-actions[bot]"),
    githubToken: get("GITHUB_TOKEN"),
  };
}

/** Words as a shell splits them (quotes group, backslash escapes); never evaluated by a shell. */
export function splitArgs(text: string): string[] {
  const out: string[] = [];
  let cur = "";
  let quote: '"' | "'" | undefined;
  let started = false;
  for (let i = 0; i < text.length; i++) {
    const ch = text[i]!;
    if (quote) {
      if (ch === quote) quote = undefined;
      else if (ch === "\\" && quote === '"' && i + 1 < text.length) cur += text[++i];
      else cur += ch;
    } else if (ch === '"' || ch === "'") {
      quote = ch;
      started = true;
    } else if (ch === "\\" && i + 1 < text.length) {
      cur += text[++i];
      started = true;
    } else if (/\s/.test(ch)) {
      if (started) out.push(cur);
      cur = "";
      started = false;
    } else {
      cur += ch;
      started = true;
    }
  }
  if (started) out.push(cur);
  return out;
}

export interface ActionResult {
  exitcode: number;
  hasChanges: boolean;
  planFile?: string;
  /** What the step itself exits with: a plan with changes is not a failure unless asked. */
  stepExit: number;
  comment?: "created" | "updated" | "skipped";
}

export async function runAction(env: NodeJS.ProcessEnv, cwd: string, io: Io = { ...processIo(), env, cwd }): Promise<ActionResult> {
  const inputs = readInputs(env);
  const tenant = inputs.tenant ? ["--tenant", inputs.tenant] : [];
  const isPlan = inputs.command === "plan";
  const argv = isPlan
    ? ["plan", "--format", "markdown", "--out", inputs.planFile, "--detailed-exitcode", ...tenant, ...inputs.args]
    : [inputs.command, ...tenant, ...inputs.args];
  let markdown = "";
  const captured: Io = { ...io, env, cwd, stdout: (t) => void (isPlan ? (markdown += t) : io.stdout(t)) };
  const exitcode = await run(argv, captured);
  if (isPlan) io.stdout(markdown);
  // A plan a policy refused (exit 3: destructive, deletes) has changes too: they are why it was refused.
  const hasChanges = isPlan && (exitcode === EXIT.changes || exitcode === EXIT.policy);
  const planFile = isPlan && exitcode !== EXIT.error && existsSync(path.resolve(cwd, inputs.planFile)) ? inputs.planFile : undefined;
  const result: ActionResult = {
    exitcode,
    hasChanges,
    ...(planFile ? { planFile } : {}),
    stepExit: exitcode === EXIT.changes && !inputs.failOnChanges ? 0 : exitcode,
  };
  if (env.GITHUB_OUTPUT) {
    await appendFile(env.GITHUB_OUTPUT, `exitcode=${exitcode}\nhas-changes=${hasChanges}\nplan-file=${planFile ?? ""}\n`);
  }
  // Only a plan that was made is worth a comment (exit 0 or 2, or 3: a policy gate saw it).
  if (isPlan && inputs.comment && exitcode !== EXIT.error && markdown.includes(PLAN_MARKER)) {
    result.comment = await upsertComment(env, inputs, markdown, io);
  }
  return result;
}

interface Comment {
  id: number;
  body?: string;
  user?: { login?: string };
}

/** Find this action's plan comment on the pull request (marker and author) and update it, or create one. */
async function upsertComment(env: NodeJS.ProcessEnv, inputs: ActionInputs, body: string, io: Io): Promise<ActionResult["comment"]> {
  const pr = await pullRequestNumber(env);
  if (pr === undefined || !inputs.githubToken || !env.GITHUB_REPOSITORY) return "skipped";
  const api = (env.GITHUB_API_URL ?? "https://api.github.com").replace(/\/$/, "");
  const headers = { authorization: `Bearer ${inputs.githubToken}`, accept: "application/vnd.github+json", "content-type": "application/json" };
  const base = `${api}/repos/${env.GITHUB_REPOSITORY}/issues`;
  let mine: Comment | undefined;
  for (let page = 1; !mine; page++) {
    const res = await fetch(`${base}/${pr}/comments?per_page=100&page=${page}`, { headers });
    if (!res.ok) throw new Error(commentFailure("listing the pull request's comments", res.status));
    const comments = (await res.json()) as Comment[];
    mine = comments.find((c) => c.user?.login === inputs.commentAuthor && c.body?.includes(PLAN_MARKER));
    if (comments.length < 100) break;
  }
  const res = mine
    ? await fetch(`${base}/comments/${mine.id}`, { method: "PATCH", headers, body: JSON.stringify({ body }) })
    : await fetch(`${base}/${pr}/comments`, { method: "POST", headers, body: JSON.stringify({ body }) });
  if (!res.ok) throw new Error(commentFailure(`${mine ? "updating" : "creating"} the plan comment`, res.status));
  io.stderr(`${mine ? "Updated" : "Posted"} the plan comment on pull request #${pr}.\n`);
  return mine ? "updated" : "created";
}

/** What failed, and for a 403 (the usual cause: the job's token may not write comments) what to change. */
function commentFailure(what: string, status: number): string {
  const hint =
    status === 403
      ? ": the token may not write pull-request comments. Give the job `permissions: pull-requests: write`; a pull request from a fork or " +
        "Dependabot only gets a read-only token (set `comment: false` there)"
      : "";
  return `${what} failed: HTTP ${status}${hint}`;
}

async function pullRequestNumber(env: NodeJS.ProcessEnv): Promise<number | undefined> {
  if (!env.GITHUB_EVENT_PATH) return undefined;
  try {
    const event = JSON.parse(await readFile(env.GITHUB_EVENT_PATH, "utf8")) as { pull_request?: { number?: number } };
    return event.pull_request?.number;
  } catch {
    return undefined;
  }
}
