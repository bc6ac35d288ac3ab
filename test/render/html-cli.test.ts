/// <reference lib="dom" />
/// <reference lib="dom.iterable" />
/**
 * The HTML page from the CLI against the emulator: plan --format html
 * --print-to writes the page (--out is always the saved plan), --html writes it
 * beside any format from the same read, diff --format html --out writes it too;
 * the commit and time come from the environment the CLI passes in, and a
 * working tree with uncommitted changes is said beside the commit.
 */
import { execFileSync } from "node:child_process";
import { readFile } from "node:fs/promises";
import path from "node:path";
import { parseHTML } from "linkedom";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { testProject, type TestProject } from "../helpers/project.js";
import { repoRoot } from "../helpers/paths.js";

const env = { GITHUB_SHA: "feedc0de", SOURCE_DATE_EPOCH: "1795000000" };

describe("pimctl plan / diff --format html", () => {
  let p: TestProject;
  beforeAll(async () => {
    p = await testProject();
    await p.copyExamples(path.join(repoRoot, "examples/catalogue"));
  });
  afterAll(async () => p.close());

  const facts = (html: string) => {
    const { document } = parseHTML(html);
    return Object.fromEntries(
      [...document.querySelectorAll(".facts > div")].map((d) => [d.querySelector("dt")!.textContent, d.querySelector("dd")!.textContent]),
    );
  };

  it("plan --format html --print-to FILE writes the page there and nothing on stdout", async () => {
    const r = await p.cli(["plan", "--format", "html", "--print-to", "plan.html"], { env });
    expect(r.code, r.stderr).toBe(0);
    expect(r.stdout).toBe("");
    const html = await readFile(path.join(p.dir, "plan.html"), "utf8");
    expect(html.startsWith("<!doctype html>")).toBe(true);
    expect(facts(html)).toMatchObject({ tenant: "demo", commit: "feedc0de", made: "2026-11-18T11:06:40Z" });
    expect(parseHTML(html).document.querySelectorAll("li.node.st-create").length).toBeGreaterThan(5);
  });

  it("--html FILE writes the page beside the markdown comment and the saved plan, from one read", async () => {
    const r = await p.cli(["plan", "--format", "markdown", "--out", "plan.json", "--html", "page.html"], { env });
    expect(r.code, r.stderr).toBe(0);
    expect(r.stdout.startsWith("<!-- pimctl-plan -->")).toBe(true);
    const saved = JSON.parse(await readFile(path.join(p.dir, "plan.json"), "utf8")) as { actions: unknown[] };
    const page = parseHTML(await readFile(path.join(p.dir, "page.html"), "utf8")).document;
    expect(page.querySelector("table.counts tfoot td:last-child")!.textContent).toBe(String(saved.actions.length));
  });

  it("diff --format html --out FILE says what was compared", async () => {
    const r = await p.cli(["diff", "--from", "catalogue", "--to", "demo", "--format", "html", "--out", "diff.html"], { env });
    expect(r.code, r.stderr).toBe(0);
    expect(facts(await readFile(path.join(p.dir, "diff.html"), "utf8"))).toMatchObject({ what: "diff from catalogue to demo", commit: "feedc0de" });
  });

  it("says beside the commit when the working tree has uncommitted changes (a real git checkout)", async () => {
    const git = (...a: string[]) => execFileSync("git", ["-c", "user.name=T", "-c", "user.email=t@example.com", ...a], { cwd: p.dir, encoding: "utf8" });
    git("init", "--quiet");
    git("add", "-A");
    git("commit", "--quiet", "-m", "catalogue");
    const head = git("rev-parse", "HEAD").trim();
    // What a pipeline writes beside the manifests (the shell makes plan.md before pimctl starts) is not an input.
    await p.write("plan.md", "");
    await p.write("plan.html", "<html></html>");
    const clean = await p.cli(["plan", "--format", "html"], { env: { SOURCE_DATE_EPOCH: "1795000000" } });
    const cleanDoc = parseHTML(clean.stdout).document;
    expect(facts(clean.stdout).commit).toBe(head);
    expect(cleanDoc.querySelector(".facts .dirty")).toBeNull();
    await p.write("catalogue/extra.yaml", "brands:\n  - name: Uncommitted\n");
    const dirty = await p.cli(["plan", "--format", "html"], { env: { SOURCE_DATE_EPOCH: "1795000000" } });
    const mark = parseHTML(dirty.stdout).document.querySelector(".facts .dirty");
    expect(mark?.textContent).toBe("+ uncommitted changes in 1 file");
    expect(mark?.getAttribute("title")).toBe("catalogue/extra.yaml");
    expect(facts(dirty.stdout).commit).toBe(`${head} + uncommitted changes in 1 file`);
  });
});
