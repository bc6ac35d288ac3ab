/**
 * The real TypeScript compiler on a small program: the lines it reports errors on.
 * For tests that a type refuses what it should (a planted mistake per line), with
 * no @types and no lib checks, so one run takes about a second.
 */
import { execFile } from "node:child_process";
import { mkdtempSync, rmSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import path from "node:path";
import { promisify } from "node:util";
import { repoRoot } from "./paths.js";

/** An import specifier for a file under src/, from anywhere: its absolute path, as NodeNext resolves it (.js names the .ts). */
export const srcModule = (file: string) => JSON.stringify(path.join(repoRoot, "src", file.replace(/\.ts$/, ".js")));

/** Compile `program` (an ES module) strictly; the compiler's output and the line numbers of its errors, sorted. */
export async function compileErrors(program: string): Promise<{ lines: number[]; output: string }> {
  const dir = mkdtempSync(path.join(tmpdir(), "pimctl-tsc-"));
  try {
    writeFileSync(path.join(dir, "program.mts"), program);
    const compilerOptions = { strict: true, target: "ES2023", module: "NodeNext", moduleResolution: "NodeNext", types: [], noEmit: true, skipLibCheck: true };
    writeFileSync(path.join(dir, "tsconfig.json"), JSON.stringify({ compilerOptions, files: ["program.mts"] }));
    const tsc = path.join(repoRoot, "node_modules", "typescript", "bin", "tsc");
    const output = await promisify(execFile)(process.execPath, [tsc, "-p", dir, "--pretty", "false"]).then(
      (r) => r.stdout,
      (e: { stdout: string }) => e.stdout,
    );
    const lines = [...new Set([...output.matchAll(/program\.mts\((\d+),\d+\): error/g)].map((m) => Number(m[1])))].sort((a, b) => a - b);
    return { lines, output };
  } finally {
    rmSync(dir, { recursive: true, force: true });
  }
}

/** The numbers of the lines that end in "// planted". */
export const plantedLines = (program: string) => program.split("\n").flatMap((line, i) => (line.endsWith("// planted") ? [i + 1] : []));
