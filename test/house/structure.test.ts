/**
 * The house stays small and acyclic (issue 28): no file under src/ over 400 lines, and no
 * import cycle among src/ files, not even of type-only imports. Its layers are a rule (issue 34):
 * every import between folders is one the table in src/README.md allows (test/house/layers.ts
 * reads it), and no two folders import each other. Files that were larger when this test came in are listed
 * with their line count then as a ceiling: they may shrink, not grow, and an entry is taken
 * out once its file is split (the test says so), so the list only ever gets shorter.
 */
import { readdirSync, readFileSync } from "node:fs";
import path from "node:path";
import { describe, expect, it } from "vitest";
import { layerViolations, parseLayerTable, tableProblems, unitGraph, type Arrow } from "./layers.js";

const ROOT = path.resolve(import.meta.dirname, "..", "..");
const SRC = path.join(ROOT, "src");
const MAX_LINES = 400;
/** The print width of .prettierrc.json. */
const MAX_COLUMNS = 160;

/** Files larger than MAX_LINES, each with its line count (wc -l) as a ceiling; split them, then delete the line. None today. */
const ALLOWED_OVER: Record<string, number> = {};

function tsFiles(dir: string): string[] {
  return readdirSync(dir, { withFileTypes: true }).flatMap((e) => {
    const full = path.join(dir, e.name);
    if (e.isDirectory()) return tsFiles(full);
    return e.name.endsWith(".ts") ? [full] : [];
  });
}

const rel = (f: string) => path.relative(ROOT, f).split(path.sep).join("/");
/** A path relative to src/, as the table of src/README.md names folders. */
const fromSrc = (f: string) => path.relative(SRC, f).split(path.sep).join("/");
/** As wc -l counts: newline characters. */
const lineCount = (text: string) => text.split("\n").length - 1;

export interface ImportRef {
  spec: string;
  /**
   * `import type`, `export type` or `import("x").T` in a type: gone at run time. Not
   * `import { type A }`: under verbatimModuleSyntax it stays as `import {} from "x"`.
   */
  typeOnly: boolean;
  /** The line of its `import` or `export` keyword (1-based). */
  line: number;
}

/** Relative specifiers of static imports, re-exports and dynamic imports (type-only ones marked), in the order of their lines. */
export function importSpecifiers(text: string): ImportRef[] {
  // Comments are blanked but their line breaks kept, so an import's line is its line in the file.
  const code = text.replace(/\/\*[\s\S]*?\*\//g, (c) => c.replace(/[^\n]/g, "")).replace(/^[ \t]*\/\/.*$/gm, "");
  const lineAt = (index: number) => code.slice(0, index).split("\n").length;
  const out: ImportRef[] = [];
  for (const m of code.matchAll(/^\s*(?:import|export)\s+(type\s+)?(?:[\w*\s{},$]*?\s+from\s+)?["']([^"']+)["']/gm)) {
    out.push({ spec: m[2]!, typeOnly: !!m[1], line: lineAt(m.index + m[0].search(/\S/)) });
  }
  for (const m of code.matchAll(/\bimport\(\s*["']([^"']+)["']\s*\)(\.)?/g)) out.push({ spec: m[1]!, typeOnly: !!m[2], line: lineAt(m.index) });
  return out.filter((r) => r.spec.startsWith(".")).sort((a, b) => a.line - b.line);
}

function resolve(from: string, spec: string, known: Set<string>): string | undefined {
  const base = path.resolve(path.dirname(from), spec);
  for (const c of [base.replace(/\.js$/, ".ts"), `${base}.ts`, path.join(base, "index.ts")]) if (known.has(c)) return c;
  return undefined;
}

/** Every cycle's files, one cycle per strongly connected component (Tarjan), each as a path a -> b -> a. */
export function importCycles(graph: Map<string, string[]>): string[][] {
  let index = 0;
  const idx = new Map<string, number>();
  const low = new Map<string, number>();
  const stack: string[] = [];
  const on = new Set<string>();
  const cycles: string[][] = [];
  const visit = (v: string): void => {
    idx.set(v, index);
    low.set(v, index++);
    stack.push(v);
    on.add(v);
    for (const w of graph.get(v) ?? []) {
      if (!idx.has(w)) {
        visit(w);
        low.set(v, Math.min(low.get(v)!, low.get(w)!));
      } else if (on.has(w)) low.set(v, Math.min(low.get(v)!, idx.get(w)!));
    }
    if (low.get(v) !== idx.get(v)) return;
    const scc: string[] = [];
    let w: string;
    do {
      w = stack.pop()!;
      on.delete(w);
      scc.push(w);
    } while (w !== v);
    if (scc.length > 1 || (graph.get(v) ?? []).includes(v)) cycles.push(pathThrough(graph, new Set(scc)));
  };
  for (const v of [...graph.keys()].sort()) if (!idx.has(v)) visit(v);
  return cycles;
}

/** One concrete cycle inside a strongly connected component, from its first file (sorted) back to it. */
function pathThrough(graph: Map<string, string[]>, scc: Set<string>): string[] {
  const start = [...scc].sort()[0]!;
  const prev = new Map<string, string>();
  const queue = [start];
  while (queue.length) {
    const v = queue.shift()!;
    for (const w of graph.get(v) ?? []) {
      if (!scc.has(w)) continue;
      if (w === start) {
        const chain = [v];
        while (chain[0] !== start) chain.unshift(prev.get(chain[0]!)!);
        return [...chain, start];
      }
      if (!prev.has(w)) {
        prev.set(w, v);
        queue.push(w);
      }
    }
  }
  return [...scc];
}

describe("the house's structure", () => {
  const files = tsFiles(SRC).sort();

  it(`has no line in src/ over ${MAX_COLUMNS} columns (Prettier wraps code at that width; long messages are split by hand)`, () => {
    const wide: string[] = [];
    for (const f of files)
      readFileSync(f, "utf8")
        .split("\n")
        .forEach((line, i) => line.length > MAX_COLUMNS && wide.push(`${rel(f)}:${i + 1}: ${line.length} columns`));
    expect(wide).toEqual([]);
  });

  it(`has no file under src/ over ${MAX_LINES} lines, beyond the listed ceilings`, () => {
    const over: string[] = [];
    for (const f of files) {
      const n = lineCount(readFileSync(f, "utf8"));
      const ceiling = ALLOWED_OVER[rel(f)] ?? MAX_LINES;
      if (n > ceiling) over.push(`${rel(f)}: ${n} lines (at most ${ceiling}${ceiling > MAX_LINES ? ", its ceiling: it may only shrink" : ""})`);
    }
    expect(over).toEqual([]);
  });

  it("lists no file that is gone or back under the limit (take its line out)", () => {
    const stale = Object.keys(ALLOWED_OVER).filter((f) => {
      const full = path.join(ROOT, f);
      return !files.includes(full) || lineCount(readFileSync(full, "utf8")) <= MAX_LINES;
    });
    expect(stale).toEqual([]);
  });

  const graphs = () => {
    const known = new Set(files);
    const runtime = new Map<string, string[]>();
    const all = new Map<string, string[]>();
    const unresolved: string[] = [];
    const arrows: Arrow[] = [];
    for (const f of files) {
      runtime.set(f, []);
      all.set(f, []);
      for (const r of importSpecifiers(readFileSync(f, "utf8"))) {
        const to = resolve(f, r.spec, known);
        if (!to) {
          if (!r.spec.endsWith(".json")) unresolved.push(`${rel(f)}: ${r.spec}`);
          continue;
        }
        all.get(f)!.push(to);
        if (!r.typeOnly) runtime.get(f)!.push(to);
        arrows.push({ from: fromSrc(f), line: r.line, to: fromSrc(to) });
      }
    }
    return { runtime, all, unresolved, arrows };
  };

  it("has no import cycle among src/ files", () => {
    const { runtime, unresolved } = graphs();
    expect(unresolved, "imports this test could not resolve to a src/ file").toEqual([]);
    expect(importCycles(runtime).map((c) => c.map(rel).join(" -> "))).toEqual([]);
  });

  it("has no cycle of type-only imports either", () => {
    // Gone at run time, but still two files that cannot be read one without the other.
    expect(importCycles(graphs().all).map((c) => c.map(rel).join(" -> "))).toEqual([]);
  });

  it("finds a cycle when there is one, and names its files", () => {
    const g = new Map([
      ["a", ["b"]],
      ["b", ["c"]],
      ["c", ["a", "d"]],
      ["d", []],
    ]);
    expect(importCycles(g)).toEqual([["a", "b", "c", "a"]]);
    const text =
      'import { x } from "./x.js";\nimport type {\n  Y,\n} from "../y.js";\nimport { type A, type B } from "./ab.js";\nexport * from "./z.js";\nconst m = await import("./m.js");\nlet t: import("./t.js").T;\nimport "node:fs";';
    expect(importSpecifiers(text)).toEqual([
      { spec: "./x.js", typeOnly: false, line: 1 },
      { spec: "../y.js", typeOnly: true, line: 2 },
      { spec: "./ab.js", typeOnly: false, line: 5 },
      { spec: "./z.js", typeOnly: false, line: 6 },
      { spec: "./m.js", typeOnly: false, line: 7 },
      { spec: "./t.js", typeOnly: true, line: 8 },
    ]);
    // A comment before an import keeps the import's line.
    expect(importSpecifiers('/**\n * two\n */\n// one\n\nimport { a } from "./a.js";').map((r) => r.line)).toEqual([6]);
  });

  describe("the layers: the table of src/README.md", () => {
    const rules = parseLayerTable(readFileSync(path.join(SRC, "README.md"), "utf8"));

    it("is a table whose every row may import only rows above it (so no two folders can import each other)", () => {
      expect(rules.length).toBeGreaterThan(10);
      expect(tableProblems(rules)).toEqual([]);
    });

    it("allows every import between folders in src/, type-only ones included, and has a row for every folder and root file", () => {
      expect(layerViolations(rules, graphs().arrows, files.map(fromSrc))).toEqual([]);
    });

    it("has no cycle between folders", () => {
      expect(importCycles(unitGraph(graphs().arrows)).map((c) => c.join(" -> "))).toEqual([]);
    });

    it("fails on a planted arrow back up, naming the rule and the file:line of the import", () => {
      // A copy of the real graph with one more file: plan/ importing a workflow, type-only.
      const planted = importSpecifiers(
        '/** A planted file. */\nimport { KINDS } from "../model/catalogue.js";\nimport type { PlanResult } from "../workflows/plan.js";\n',
      );
      const arrows = [
        ...graphs().arrows,
        ...planted.map((r) => ({ from: "plan/planted.ts", line: r.line, to: path.posix.join("plan", r.spec).replace(/\.js$/, ".ts") })),
      ];
      const plan = rules.find((r) => r.unit === "plan/")!;
      expect(layerViolations(rules, arrows, [...files.map(fromSrc), "plan/planted.ts"])).toContain(
        `src/plan/planted.ts:3 imports src/workflows/plan.ts: workflows/ is not among what plan/ may import ` +
          `(rule "plan/ is pure: no I/O, no later stage", src/README.md:${plan.line}: errors.ts, model/, plural.ts)`,
      );
    });

    it("fails on a folder without a row, on a row that may import one below it, and finds a cycle between folders", () => {
      expect(layerViolations(rules, [], ["newfolder/a.ts"])).toEqual([
        'src/newfolder/ has no row in the table of src/README.md "## Which folder may import which": add one',
      ]);
      const table = ["## Which folder may import which", "", "| folder | may import | the rule |", "|---|---|---|"];
      const two = parseLayerTable([...table, "| `a/` | `b/` | a over b |", "| `b/` | `a/` | b over a |", ""].join("\n"));
      expect(tableProblems(two)).toEqual(["src/README.md:5: a/ may import b/, which is not above it: a row may import only rows above it"]);
      const cycle = unitGraph([
        { from: "a/x.ts", line: 1, to: "b/y.ts" },
        { from: "b/y.ts", line: 2, to: "a/z.ts" },
      ]);
      expect(importCycles(cycle)).toEqual([["a/", "b/", "a/"]]);
    });
  });
});
