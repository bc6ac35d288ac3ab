/**
 * A folder's README is its map, so it names every file of its folder and every folder in it:
 * a file added, split or moved without its README's line fails here, naming what is missing.
 * Each README under src/ (src/README.md included) is checked against the entries directly in
 * its folder; a subfolder is named as `name/`, and describes its own files in its own README
 * when it has one. The other way round, a README's listing (a line of a code block that starts
 * with a file's name, or a name in a table's first column) names only what is in its folder, so
 * a file moved away or renamed does not stay listed where it was.
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

/**
 * The names a README lists as its folder's: a line of a code block that starts with a file's name
 * and the space before its description (`planner.ts     buildPlan: ...`), and the names in
 * backticks in a table's first column (`| \`status.ts\`, \`render-status.ts\` | ...`), paths
 * (`api/kinds/x.ts`) and names that are not files (`brands`) left out.
 */
function listed(readme: string): string[] {
  const names: string[] = [];
  let fence = false;
  for (const line of readme.split("\n")) {
    if (/^ {0,3}(`{3,}|~{3,})/.test(line)) fence = !fence;
    else if (fence) {
      const m = /^([\w][\w.-]*\.[a-z]{2,4}|[\w-]+\/)\s/.exec(line);
      if (m) names.push(m[1]!);
    } else if (line.startsWith("|")) {
      const first = line.split("|")[1] ?? "";
      for (const m of first.matchAll(/`([\w][\w.-]*\.[a-z]{2,4}|[\w-]+\/)`/g)) names.push(m[1]!);
    }
  }
  return names;
}

/** The names a README's listing holds that are not in its folder. */
function gone(folder: string): string[] {
  const readme = readFileSync(path.join(folder, "README.md"), "utf8");
  return listed(readme).filter((name) => !existsSync(path.join(folder, name)));
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
    const missing = folders.flatMap((f) => {
      const dir = path.relative(ROOT, f);
      return unnamed(f).map((e) => `${dir}/README.md does not name ${e}, which is in ${dir}/: add a line for it`);
    });
    expect(missing).toEqual([]);
  });

  it("list no file that is not in their folder (moved, renamed or removed)", () => {
    const stale = folders.flatMap((f) => {
      const dir = path.relative(ROOT, f);
      return gone(f).map((e) => `${dir}/README.md lists ${e}, which is not in ${dir}/: move its line to the README of its new folder, rename or remove it`);
    });
    expect(stale).toEqual([]);
  });

  it("read a listing as code-block lines and first table cells (the check itself can fail)", () => {
    const readme = [
      "```",
      "planner.ts     buildPlan",
      "kinds/         one file per kind",
      "               kinds/index.ts is the registry",
      "```",
      "| file | what |",
      "|---|---|",
      "| `status.ts`, `render-status.ts` | see `other.ts` |",
      "| `api/kinds/x.ts` | a path |",
      "Prose naming `prose.ts`.",
    ].join("\n");
    expect(listed(readme)).toEqual(["planner.ts", "kinds/", "status.ts", "render-status.ts"]);
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
