/**
 * Output a pipeline consumes: problems as JSON (schemas/errors.schema.json) and
 * GitLab code quality on stdout, GitHub annotations on stderr, the plan and the
 * apply in the job summary. Each compared with a golden file.
 */
import { readFileSync } from "node:fs";
import { mkdtemp, readFile } from "node:fs/promises";
import { tmpdir } from "node:os";
import path from "node:path";
import { Ajv } from "ajv";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { testProject, type TestProject } from "../helpers/project.js";

const golden = (name: string) => `../fixtures/pipeline-output/${name}`;
const errorsSchema = new Ajv({ allErrors: true, strict: false }).compile(
  JSON.parse(readFileSync(new URL("../../schemas/errors.schema.json", import.meta.url), "utf8")) as object,
);

/** Two files with problems in them, so sorting by file, line and column shows. */
const BROKEN = {
  "catalogue/b.yaml": ["brands:", "  - name: Acme", "    desk: Tools", "  - name: Acme", ""].join("\n"),
  "catalogue/a.yaml": ["attributes:", "  - name: Colour", "    type: selectbx", "  - name: Size", "    type: text", "    length: -3", ""].join("\n"),
};

describe("problems for pipelines", () => {
  let project: TestProject;
  beforeAll(async () => {
    project = await testProject({ files: BROKEN });
  });
  afterAll(async () => project.close());

  it("validate --format json: every problem on stdout, sorted, in the documented shape", async () => {
    const r = await project.cli(["validate", "--format", "json"]);
    expect(r.code).toBe(1);
    const doc = JSON.parse(r.stdout) as { ok: boolean; errors: Array<{ file: string; line: number }> };
    expect(errorsSchema(doc), JSON.stringify(errorsSchema.errors)).toBe(true);
    expect(doc.ok).toBe(false);
    const places = doc.errors.map((e) => `${e.file}:${e.line}`);
    expect(places).toEqual([...places].sort((x, y) => x.localeCompare(y, "en", { numeric: true })));
    await expect(r.stdout).toMatchFileSnapshot(golden("validate-errors.json"));
    // People still read the same errors on stderr, in the same order.
    expect(
      r.stderr
        .split("\n")
        .filter((l) => l.startsWith("error: "))
        .map((l) => l.split(": ")[1]),
    ).toEqual(doc.errors.map((e) => `catalogue/${path.basename(e.file)}:${e.line}:${(e as { column?: number }).column}`));
  });

  it("validate --format codeclimate: GitLab's code-quality report", async () => {
    const r = await project.cli(["validate", "--format", "codeclimate"]);
    expect(r.code).toBe(1);
    await expect(r.stdout).toMatchFileSnapshot(golden("validate.codeclimate.json"));
  });

  it("in GitHub Actions, problems are also workflow annotations on stderr (stdout stays clean)", async () => {
    const r = await project.cli(["validate"], { env: { GITHUB_ACTIONS: "true" } });
    expect(r.code).toBe(1);
    expect(r.stdout).toBe("");
    const annotations = r.stderr.split("\n").filter((l) => l.startsWith("::"));
    await expect(`${annotations.join("\n")}\n`).toMatchFileSnapshot(golden("validate.annotations.txt"));
  });

  it("plan --format json with broken manifests prints the errors as JSON on stdout", async () => {
    const r = await project.cli(["plan", "--format", "json"]);
    expect(r.code).toBe(1);
    const doc = JSON.parse(r.stdout) as { ok: boolean; errors: unknown[] };
    expect(errorsSchema(doc)).toBe(true);
    expect(doc.errors.length).toBeGreaterThanOrEqual(2);
  });

  it("an API error carries its request, never the token", async () => {
    const p = await testProject({ files: { "catalogue/c.yaml": "brands:\n  - name: Acme\n" } });
    try {
      const r = await p.cli(["plan", "--format", "json"], { env: { PIMCTL_DEMO_TOKEN: "wrong-token" } });
      expect(r.code).toBe(1);
      const doc = JSON.parse(r.stdout) as { errors: Array<{ code: string; request?: { status?: number } }> };
      expect(errorsSchema(doc)).toBe(true);
      expect(doc.errors[0]).toMatchObject({ code: "api_unauthorized", request: { status: 401 } });
      expect(r.stdout + r.stderr).not.toContain("wrong-token");
    } finally {
      await p.close();
    }
  });
});

describe("the job summary (GITHUB_STEP_SUMMARY)", () => {
  let project: TestProject;
  let summary: string;
  beforeAll(async () => {
    project = await testProject({ files: { "catalogue/c.yaml": "brands:\n  - name: Acme\n    desc: Tools since 1950\n" } });
    summary = path.join(await mkdtemp(path.join(tmpdir(), "pimctl-summary-")), "summary.md");
  });
  afterAll(async () => project.close());

  it("plan and apply append their markdown", async () => {
    const env = { GITHUB_STEP_SUMMARY: summary };
    expect((await project.cli(["plan"], { env })).code).toBe(0);
    const apply = await project.cli(["apply", "--auto-approve"], { env });
    expect(apply.code).toBe(0);
    const text = (await readFile(summary, "utf8")).replace(/\| \d+\.\d \|$/m, "| (seconds) |");
    await expect(text).toMatchFileSnapshot(golden("step-summary.md"));
  });
});
