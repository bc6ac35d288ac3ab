/**
 * The house stays small and acyclic (issue 28): no file under src/ over 400 lines, and no
 * import cycle among src/ files, not even of type-only imports. Files that were larger when this test came in are listed
 * with their line count then as a ceiling: they may shrink, not grow, and an entry is taken
 * out once its file is split (the test says so), so the list only ever gets shorter.
 */
import { readdirSync, readFileSync } from "node:fs";
import path from "node:path";
import { describe, expect, it } from "vitest";

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
/** As wc -l counts: newline characters. */
const lineCount = (text: string) => text.split("\n").length - 1;

export interface ImportRef {
  spec: string;
  /**
   * `import type`, `export type` or `import("x").T` in a type: gone at run time. Not
   * `import { type A }`: under verbatimModuleSyntax it stays as `import {} from "x"`.
   */
  typeOnly: boolean;
}

/** Relative specifiers of static imports, re-exports and dynamic imports (type-only ones marked). */
export function importSpecifiers(text: string): ImportRef[] {
  const code = text.replace(/\/\*[\s\S]*?\*\//g, "").replace(/^\s*\/\/.*$/gm, "");
  const out: ImportRef[] = [];
  for (const m of code.matchAll(/^\s*(?:import|export)\s+(type\s+)?(?:[\w*\s{},$]*?\s+from\s+)?["']([^"']+)["']/gm)) {
    out.push({ spec: m[2]!, typeOnly: !!m[1] });
  }
  for (const m of code.matchAll(/\bimport\(\s*["']([^"']+)["']\s*\)(\.)?/g)) out.push({ spec: m[1]!, typeOnly: !!m[2] });
  return out.filter((r) => r.spec.startsWith("."));
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
      }
    }
    return { runtime, all, unresolved };
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
      { spec: "./x.js", typeOnly: false },
      { spec: "../y.js", typeOnly: true },
      { spec: "./ab.js", typeOnly: false },
      { spec: "./z.js", typeOnly: false },
      { spec: "./m.js", typeOnly: false },
      { spec: "./t.js", typeOnly: true },
    ]);
  });
});
