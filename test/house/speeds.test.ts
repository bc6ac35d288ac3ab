/**
 * The suite's three speeds hold (test/speeds.ts, vitest.config.ts): every test file is in exactly
 * one project, every listed file exists, and a unit file starts no process and no server, nor
 * reaches one through a helper it imports: its imports, and its test helpers' imports, name no
 * child process, no socket or HTTP module, no emulator and no build output. What an import does
 * not show (the CLI run in-process spawning git) the unit project's setup file refuses at run time.
 */
import { existsSync, readdirSync, readFileSync } from "node:fs";
import { createServer } from "node:net";
import path from "node:path";
import { describe, expect, it } from "vitest";
import config from "../../vitest.config.js";
import { E2E, SLOW } from "../speeds.js";

const ROOT = path.resolve(import.meta.dirname, "..", "..");
/** This file opens a socket on purpose: to see the unit project's guard refuse it. */
const GUARD_TEST = "test/house/speeds.test.ts";

function filesUnder(dir: string): string[] {
  return readdirSync(path.join(ROOT, dir), { withFileTypes: true }).flatMap((e) => {
    const rel = `${dir}/${e.name}`;
    if (e.isDirectory()) return rel === "test/data" || rel === "test/fixtures" ? [] : filesUnder(rel);
    return rel.endsWith(".ts") ? [rel] : [];
  });
}
const testFiles = filesUnder("test").filter((f) => f.endsWith(".test.ts"));

/** What a unit file may not import, with why; checked on every module specifier of the file. */
const FORBIDDEN: Array<[RegExp, string]> = [
  [/^(node:)?child_process$/, "starts a process"],
  [/^(node:)?(net|http|https|http2|tls|dgram)$/, "opens a socket"],
  [/^undici$/, "makes HTTP requests"],
  [/\/src\/emulator\/index\.js$/, "starts an emulator"],
  [/\/dist\//, "runs the build"],
];

/** Every module specifier a file names: static imports and re-exports, dynamic imports. */
export function specifiers(text: string): string[] {
  const code = text.replace(/\/\*[\s\S]*?\*\//g, "").replace(/^\s*\/\/.*$/gm, "");
  const stat = [...code.matchAll(/^\s*(?:import|export)\s+(?:type\s+)?(?:[\w*\s{},$]*?\s+from\s+)?["']([^"']+)["']/gm)].map((m) => m[1]!);
  const dyn = [...code.matchAll(/\bimport\(\s*["']([^"']+)["']\s*\)/g)].map((m) => m[1]!);
  return [...stat, ...dyn];
}

const readRepoFile = (f: string) => (existsSync(path.join(ROOT, f)) ? readFileSync(path.join(ROOT, f), "utf8") : undefined);

/** Why a unit file may not be one: each forbidden import of it or of a test helper it reaches, with the path there. */
export function unitOffences(file: string, read: (f: string) => string | undefined = readRepoFile): string[] {
  const out: string[] = [];
  const seen = new Set<string>();
  const visit = (f: string, via: string[]) => {
    if (seen.has(f)) return;
    seen.add(f);
    for (const spec of specifiers(read(f) ?? "")) {
      const target = spec.startsWith(".") ? path.posix.normalize(path.posix.join(path.posix.dirname(f), spec)).replace(/\.js$/, ".ts") : spec;
      for (const [re, why] of FORBIDDEN) if (re.test(spec) || re.test(`/${target}`)) out.push(`${[...via, f].join(" -> ")} imports ${spec}: ${why}`);
      if (target.startsWith("test/") && target.endsWith(".ts")) visit(target, [...via, f]);
    }
  };
  visit(file, []);
  return out;
}

type Project = { test: { name: string; include: string[]; exclude?: string[] } };
const projects = (config.test?.projects ?? []) as Project[];
/** A project's include is a list of files, or the one glob of every test file. */
const matches = (pattern: string, file: string) =>
  pattern === file || (pattern === "test/**/*.test.ts" && file.startsWith("test/") && file.endsWith(".test.ts"));
const inProject = (p: Project, file: string) => p.test.include.some((g) => matches(g, file)) && !(p.test.exclude ?? []).some((g) => matches(g, file));
const UNIT = testFiles.filter((f) => !E2E.includes(f) && !SLOW.includes(f));

describe("the suite at three speeds", () => {
  it("has the projects unit, e2e and slow", () => {
    expect(projects.map((p) => p.test.name)).toEqual(["unit", "e2e", "slow"]);
  });

  it("puts every test file in exactly one project", () => {
    const wrong = testFiles.flatMap((f) => {
      const names = projects.filter((p) => inProject(p, f)).map((p) => p.test.name);
      return names.length === 1 ? [] : [`${f}: ${names.length === 0 ? "in no project" : names.join(", ")}`];
    });
    expect(wrong).toEqual([]);
  });

  it("lists only test files that exist, each once", () => {
    const listed = [...E2E, ...SLOW];
    expect(listed.filter((f) => !testFiles.includes(f))).toEqual([]);
    expect(listed.filter((f, i) => listed.indexOf(f) !== i)).toEqual([]);
  });

  it("starts no process and no server in a unit file, nor through a helper it imports", () => {
    expect(UNIT.length).toBeGreaterThan(40);
    expect(UNIT.filter((f) => f !== GUARD_TEST).flatMap((f) => unitOffences(f))).toEqual([]);
  });

  it("finds a planted process, a server and an emulator, directly or through a helper", () => {
    const files: Record<string, string> = {
      "test/x/a.test.ts": 'import { spawn } from "node:child_process";\nimport { h } from "../helpers/h.js";',
      "test/helpers/h.ts": 'export { startEmulator } from "../../src/emulator/index.js";\nconst s = await import("node:http");',
    };
    const found = unitOffences("test/x/a.test.ts", (f) => files[f]);
    expect(found).toEqual([
      "test/x/a.test.ts imports node:child_process: starts a process",
      "test/x/a.test.ts -> test/helpers/h.ts imports ../../src/emulator/index.js: starts an emulator",
      "test/x/a.test.ts -> test/helpers/h.ts imports node:http: opens a socket",
    ]);
  });

  it("refuses a socket in a unit file at run time, naming where the file belongs", () => {
    expect(() => createServer().listen(0)).toThrow(/list the file under e2e or slow in test\/speeds\.ts/);
  });
});
