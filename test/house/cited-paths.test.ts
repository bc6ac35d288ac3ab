/**
 * A path the docs or a comment cites is a path a reader will open: every repository path written
 * out in full (`src/plan/file.ts`, `test/cli/drift.test.ts`, `docs/state.md`, `schemas/plan.schema.json`)
 * in committed Markdown, in the code under src/ and in the tests names a file or folder that
 * exists. A file moved without the comments that cite it fails here, naming where it is cited.
 */
import { execFileSync } from "node:child_process";
import { existsSync, readFileSync } from "node:fs";
import path from "node:path";
import { describe, expect, it } from "vitest";

const ROOT = path.resolve(import.meta.dirname, "..", "..");

/** Paths from the repository's root, as text cites them: a top folder, then a file with an extension, or a folder with a slash. */
const CITED = /(?<![\w./@-])((?:src|test|docs|schemas|examples|scripts)\/[\w.@-]+(?:\/[\w.@-]+)*(?:\.[a-z]{2,5}|\/))(?![\w/<*{-])/g;

/** Placeholders and patterns, not paths: `<kind>`, `*`, `{...}`, `NAME`. */
const isPattern = (p: string) => /[<>*{}]|\bNAME\b|\bX\b/.test(p);

function citedPaths(text: string): string[] {
  return [...text.matchAll(CITED)].map((m) => m[1]!.replace(/\.$/, "")).filter((p) => !isPattern(p));
}

const files = execFileSync("git", ["ls-files", "-z", "--cached", "--others", "--exclude-standard"], { cwd: ROOT, encoding: "utf8" })
  .split("\0")
  // Fixtures and vendored data are inputs, not prose; the house's own checks cite made-up paths on purpose.
  .filter((f) => /\.(md|ts|mjs)$/.test(f) && !/^test\/(fixtures|data)\/|^test\/house\/.*\.test\.ts$/.test(f) && existsSync(path.join(ROOT, f)));

describe("paths cited in the docs, the code and the tests", () => {
  it("exist", () => {
    const gone: string[] = [];
    for (const f of files) {
      readFileSync(path.join(ROOT, f), "utf8")
        .split("\n")
        .forEach((line, i) => {
          for (const p of citedPaths(line)) if (!existsSync(path.join(ROOT, p))) gone.push(`${f}:${i + 1}: ${p}`);
        });
    }
    expect(gone, "file:line: a cited path that is not there (moved or renamed?): write where it is now").toEqual([]);
  });

  it("reads a cited path out of prose and leaves patterns alone (the check itself can fail)", () => {
    expect(citedPaths("decided later (src/apply/saved-plan.ts), see docs/state.md.")).toEqual(["src/apply/saved-plan.ts", "docs/state.md"]);
    expect(citedPaths("`test/fixtures/render/` and ../src/x.ts and dist/cli/main.js")).toEqual(["test/fixtures/render/"]);
    expect(citedPaths("`src/plan/kinds/<kind>.ts`, test/<theme>/<case>.test.ts")).toEqual([]);
  });
});
