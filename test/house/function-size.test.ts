/**
 * Functions you read in one sitting (issue 34): the project's ESLint config limits a function in
 * src/ to 80 lines (blank lines and comments not counted) and a complexity of 25. Planted
 * functions, linted through ESLint's Node API with the rules as eslint.config.js sets them, show
 * that the rules bite where they should (src/) and nowhere else (test/).
 */
import path from "node:path";
import { pathToFileURL } from "node:url";
import { ESLint, type Linter } from "eslint";
import tseslint from "typescript-eslint";
import { describe, expect, it } from "vitest";

const ROOT = path.resolve(import.meta.dirname, "..", "..");
const RULES = ["max-lines-per-function", "complexity"];

/** The project's config blocks that set the function rules, as eslint.config.js exports them. */
async function functionRuleBlocks(): Promise<Linter.Config[]> {
  const { default: config } = (await import(pathToFileURL(path.join(ROOT, "eslint.config.js")).href)) as { default: Linter.Config[] };
  const blocks = config.filter((b) => Object.keys(b.rules ?? {}).some((r) => RULES.includes(r)));
  expect(blocks.length, "eslint.config.js sets max-lines-per-function and complexity").toBeGreaterThan(0);
  return blocks;
}

/** The rule ids ESLint reports for `source` as the file at `file` (relative to the repository). */
async function violations(source: string, file: string): Promise<string[]> {
  // Only the parser besides the project's function rules: the type-aware rules need the file in the TS project.
  const eslint = new ESLint({
    cwd: ROOT,
    overrideConfigFile: true,
    overrideConfig: [{ files: ["**/*.ts"], languageOptions: { parser: tseslint.parser } }, ...(await functionRuleBlocks())],
  });
  const [result] = await eslint.lintText(source, { filePath: path.join(ROOT, file) });
  return result!.messages.map((m) => m.ruleId ?? `fatal: ${m.message}`);
}

/** A function of `statements` lines of code, each followed by a blank line and a comment (neither counted). */
function longFunction(statements: number): string {
  const body = Array.from({ length: statements }, (_, i) => `  total += ${i};\n\n  // step ${i}\n`).join("");
  return `export function planted(): number {\n  let total = 0;\n${body}  return total;\n}\n`;
}

/** A function with `branches` if statements: complexity branches + 1. */
function branchyFunction(branches: number): string {
  const body = Array.from({ length: branches }, (_, i) => `  if (x === ${i}) return ${i};`).join("\n");
  return `export function planted(x: number): number {\n${body}\n  return -1;\n}\n`;
}

describe("function size and complexity (eslint.config.js)", () => {
  it("a planted 120-line function in src/ fails max-lines-per-function", async () => {
    expect(await violations(longFunction(116), "src/planted.ts")).toEqual(["max-lines-per-function"]);
  });

  it("80 lines of code pass, however many blank lines and comments they carry; 81 fail", async () => {
    // 2 lines of signature and `let`, N statements, the return and the closing brace: N + 4.
    expect(await violations(longFunction(76), "src/planted.ts")).toEqual([]);
    expect(await violations(longFunction(77), "src/planted.ts")).toEqual(["max-lines-per-function"]);
  });

  it("a function of complexity 26 in src/ fails complexity; 25 passes", async () => {
    expect(await violations(branchyFunction(25), "src/planted.ts")).toEqual(["complexity"]);
    expect(await violations(branchyFunction(24), "src/planted.ts")).toEqual([]);
  });

  it("tests are not held to it: the same 120-line function under test/ passes", async () => {
    expect(await violations(longFunction(116), "test/planted.test.ts")).toEqual([]);
  });
});
