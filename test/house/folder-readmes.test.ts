/**
 * A folder's README is its map, so it names every file of its folder and every folder in it:
 * a file added, split or moved without its README's line fails here, naming what is missing.
 * Each README under src/ (src/README.md included) is checked against the entries directly in
 * its folder; a subfolder is named as `name/`, and describes its own files in its own README
 * when it has one.
 */
import { readdirSync, readFileSync, existsSync } from "node:fs";
import path from "node:path";
import { describe, expect, it } from "vitest";

const ROOT = path.resolve(import.meta.dirname, "..", "..");
const SRC = path.join(ROOT, "src");

function readmeFolders(dir: string): string[] {
  const here = existsSync(path.join(dir, "README.md")) ? [dir] : [];
  const subs = readdirSync(dir, { withFileTypes: true }).filter((e) => e.isDirectory());
  return [...here, ...subs.flatMap((e) => readmeFolders(path.join(dir, e.name)))];
}

const escape = (s: string) => s.replace(/[.*+?^${}()|[\]\\]/g, "\\$&");

/**
 * Whether a README names an entry of its own folder: as a word of its own (`merge.ts`, `kinds/`),
 * or as a path from this folder (`./merge.ts`), but not inside another path (`../plan/file.ts`
 * does not name this folder's `file.ts`) or another name (`yaml-edit.ts` is not `edit.ts`).
 */
function names(readme: string, entry: string): boolean {
  const after = entry.endsWith("/") ? "" : "(?![\\w-]|\\.\\w)";
  return new RegExp(`(?:^|[^\\w./-]|\\./)${escape(entry)}${after}`, "m").test(readme);
}

/** The entries of a README's folder it does not name. */
function unnamed(folder: string): string[] {
  const readme = readFileSync(path.join(folder, "README.md"), "utf8");
  return readdirSync(folder, { withFileTypes: true })
    .filter((e) => e.name !== "README.md")
    .map((e) => (e.isDirectory() ? `${e.name}/` : e.name))
    .filter((entry) => !names(readme, entry));
}

describe("folder READMEs under src/", () => {
  const folders = readmeFolders(SRC);

  it("are found (src/README.md and the stage folders')", () => {
    expect(folders).toContain(SRC);
    expect(folders.length).toBeGreaterThan(5);
  });

  it("each name every file and folder of their folder", () => {
    const missing = folders.flatMap((f) => unnamed(f).map((e) => `${path.relative(ROOT, f)}/README.md does not name ${e}`));
    expect(missing).toEqual([]);
  });

  it("tell a name of this folder from a longer name or another folder's path (the check itself can fail)", () => {
    expect(names("`merge.ts` merges", "merge.ts")).toBe(true);
    expect(names("merge-map.ts  one map", "merge.ts")).toBe(false);
    expect(names("see `yaml-edit.ts`", "edit.ts")).toBe(false);
    expect(names("`../plan/file.ts` checks", "file.ts")).toBe(false);
    expect(names("(`./file.ts`)", "file.ts")).toBe(true);
    expect(names("kinds/         one file per kind", "kinds/")).toBe(true);
    expect(names("`backends/git.ts`", "backends/")).toBe(true);
    expect(names("`index.ts.map`", "index.ts")).toBe(false);
    expect(names("| `semaphore.ts`, `retry.ts` |", "retry.ts")).toBe(true);
  });
});
