/**
 * The GitHub Action's step (action.yml -> src/ci/github-action.ts), run as the
 * runner runs it: INPUT_* variables, GITHUB_OUTPUT, GITHUB_STEP_SUMMARY and an
 * event file, against the emulator, with GitHub's REST API stood in for by a
 * local server that records what the step asks of it.
 */
import { createServer, type Server } from "node:http";
import { mkdtemp, readFile, writeFile } from "node:fs/promises";
import { tmpdir } from "node:os";
import path from "node:path";
import { afterAll, beforeAll, beforeEach, describe, expect, it } from "vitest";
import { memoryIo } from "../../src/cli/io.js";
import { PLAN_MARKER, runAction, splitArgs } from "../../src/ci/github-action.js";
import { testProject, type TestProject } from "../helpers/project.js";

interface Recorded {
  method: string;
  url: string;
  body?: unknown;
}

/** Comments on pull request 7: a person quoting the marker on page 1, the bot's comment on page 2. */
function githubApi(comments: Array<{ id: number; body: string; user: { login: string } }>) {
  const seen: Recorded[] = [];
  /** Answer writes with 403, as GitHub does for a token without pull-requests: write. */
  const state = { forbidWrites: false };
  const server: Server = createServer((req, res) => {
    // A failed answer is a 500 the test sees, never an unhandled rejection in the runner.
    const answer = async () => {
      let text = "";
      for await (const chunk of req) text += chunk;
      seen.push({ method: req.method!, url: req.url!, ...(text ? { body: JSON.parse(text) } : {}) });
      const url = new URL(req.url!, "http://x");
      res.setHeader("content-type", "application/json");
      if (req.method === "GET" && url.pathname === "/repos/acme/catalogue/issues/7/comments") {
        const page = Number(url.searchParams.get("page"));
        const per = Number(url.searchParams.get("per_page"));
        res.end(JSON.stringify(comments.slice((page - 1) * per, page * per)));
      } else if ((req.method === "PATCH" || req.method === "POST") && state.forbidWrites) {
        res.statusCode = 403;
        res.end(JSON.stringify({ message: "Resource not accessible by integration" }));
      } else if (req.method === "PATCH" || req.method === "POST") {
        res.statusCode = req.method === "POST" ? 201 : 200;
        res.end(JSON.stringify({ id: 999 }));
      } else {
        res.statusCode = 404;
        res.end("{}");
      }
    };
    answer().catch((e: unknown) => {
      res.statusCode = 500;
      res.end(String(e));
    });
  });
  return { server, seen, state };
}

describe("the GitHub Action's step", () => {
  let project: TestProject;
  let work: string;
  let env: NodeJS.ProcessEnv;
  let api: ReturnType<typeof githubApi>;

  beforeAll(async () => {
    project = await testProject({ files: { "catalogue/c.yaml": "brands:\n  - name: Acme\n    desc: Tools since 1950\n" } });
    const person = { id: 1, body: `I wonder what ${PLAN_MARKER} means`, user: { login: "alice" } };
    const fillers = Array.from({ length: 99 }, (_, i) => ({ id: 10 + i, body: "lgtm", user: { login: "bob" } }));
    const bot = { id: 500, body: `${PLAN_MARKER}\nold plan`, user: { login: "github-actions[bot]" } };
    api = githubApi([person, ...fillers, bot]);
    await new Promise<void>((r) => api.server.listen(0, "127.0.0.1", () => r()));
  });
  afterAll(async () => {
    api.server.close();
    await project.close();
  });
  beforeEach(async () => {
    api.seen.length = 0;
    work = await mkdtemp(path.join(tmpdir(), "pimctl-action-"));
    const event = path.join(work, "event.json");
    await writeFile(event, JSON.stringify({ pull_request: { number: 7 } }));
    const address = api.server.address() as { port: number };
    env = {
      ...project.env,
      GITHUB_ACTIONS: "true",
      GITHUB_OUTPUT: path.join(work, "output"),
      GITHUB_STEP_SUMMARY: path.join(work, "summary"),
      GITHUB_EVENT_PATH: event,
      GITHUB_REPOSITORY: "acme/catalogue",
      GITHUB_API_URL: `http://127.0.0.1:${address.port}`,
      INPUT_COMMAND: "plan",
      INPUT_GITHUB_TOKEN: "gh-token",
    };
  });

  it("plan: outputs, job summary, and the bot's own comment updated (found by marker and author, on page 2)", async () => {
    const io = memoryIo({ cwd: project.dir, env });
    const r = await runAction(env, project.dir, io);
    expect(r).toMatchObject({ exitcode: 2, hasChanges: true, planFile: "pimctl-plan.json", stepExit: 0, comment: "updated" });
    expect(await readFile(env.GITHUB_OUTPUT!, "utf8")).toBe("exitcode=2\nhas-changes=true\nplan-file=pimctl-plan.json\n");
    expect(await readFile(env.GITHUB_STEP_SUMMARY!, "utf8")).toContain('+ brand["Acme"]');
    const patch = api.seen.find((s) => s.method === "PATCH")!;
    expect(patch.url).toBe("/repos/acme/catalogue/issues/comments/500");
    expect((patch.body as { body: string }).body).toContain(PLAN_MARKER);
    expect(api.seen.filter((s) => s.method === "GET").map((s) => new URL(s.url, "http://x").searchParams.get("page"))).toEqual(["1", "2"]);
    expect(io.out.join("")).toContain('brand["Acme"]');
  });

  it("plan with fail-on-changes fails the step; a new comment is created when there is none of the bot's", async () => {
    const r = await runAction({ ...env, INPUT_FAIL_ON_CHANGES: "true", INPUT_COMMENT_AUTHOR: "pimctl-bot" }, project.dir, memoryIo({ cwd: project.dir, env }));
    expect([r.stepExit, r.comment]).toEqual([2, "created"]);
    expect(api.seen.find((s) => s.method === "POST")!.url).toBe("/repos/acme/catalogue/issues/7/comments");
  });

  it("a failed plan posts no comment and says so in the outputs", async () => {
    const io = memoryIo({ cwd: project.dir, env });
    const r = await runAction({ ...env, INPUT_TENANT: "nope" }, project.dir, io);
    expect(r).toMatchObject({ exitcode: 1, hasChanges: false, stepExit: 1 });
    expect(r.comment).toBeUndefined();
    expect(api.seen).toEqual([]);
    expect(await readFile(env.GITHUB_OUTPUT!, "utf8")).toBe("exitcode=1\nhas-changes=false\nplan-file=\n");
  });

  it("apply of the saved plan, with args split as a shell would (never run by one)", async () => {
    const planned = await runAction({ ...env, INPUT_COMMENT: "false" }, project.dir, memoryIo({ cwd: project.dir, env }));
    expect(planned.planFile).toBe("pimctl-plan.json");
    const r = await runAction({ ...env, INPUT_COMMAND: "apply", INPUT_ARGS: "pimctl-plan.json" }, project.dir, memoryIo({ cwd: project.dir, env }));
    expect([r.exitcode, r.stepExit]).toEqual([0, 0]);
    expect(splitArgs(`a "b c" 'd e' f\\ g $(rm -rf /)`)).toEqual(["a", "b c", "d e", "f g", "$(rm", "-rf", "/)"]);
  });

  it("a 403 on the comment says which permission the job needs", async () => {
    api.state.forbidWrites = true;
    try {
      await expect(runAction({ ...env, INPUT_COMMENT_AUTHOR: "pimctl-bot" }, project.dir, memoryIo({ cwd: project.dir, env }))).rejects.toThrow(
        "creating the plan comment failed: HTTP 403: the token may not write pull-request comments. Give the job `permissions: pull-requests: write`",
      );
    } finally {
      api.state.forbidWrites = false;
    }
  });

  it("a plan a policy refuses (exit 3) has changes: has-changes is true, the step fails, the plan is still posted", async () => {
    await project.write("pimctl.yaml", `${await readFile(path.join(project.dir, "pimctl.yaml"), "utf8")}prune: { brands: true }\n`);
    await project.write("catalogue/c.yaml", "brands:\n  - name: Acme\n    desc: Tools since 1950\n  - name: Gone\n");
    expect((await project.cli(["apply", "--auto-approve"])).code).toBe(0);
    await project.write("catalogue/c.yaml", "brands:\n  - name: Acme\n    desc: Tools since 1950\n");
    const r = await runAction({ ...env, INPUT_ARGS: "--fail-on-delete" }, project.dir, memoryIo({ cwd: project.dir, env }));
    expect(r).toMatchObject({ exitcode: 3, hasChanges: true, stepExit: 3, comment: "updated" });
    expect(await readFile(env.GITHUB_OUTPUT!, "utf8")).toBe("exitcode=3\nhas-changes=true\nplan-file=pimctl-plan.json\n");
  });
});
