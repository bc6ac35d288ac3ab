/**
 * The README stays the front door, not the manual: at most 250 lines, no issue numbers, the quick
 * start's two commands as test/cli/quickstart.test.ts runs them, and a row in the command table for
 * every command the CLI lists. What a user does with pimctl lives in docs/, by task.
 */
import { readFileSync } from "node:fs";
import path from "node:path";
import { describe, expect, it } from "vitest";
import { helpText, listedCommands } from "../../src/cli/reference.js";

const README = readFileSync(path.resolve(import.meta.dirname, "..", "..", "README.md"), "utf8");
const MAX_LINES = 250;

describe("the README", () => {
  it(`is at most ${MAX_LINES} lines`, () => {
    expect(README.split("\n").length - 1, "README.md's lines: put the detail in its page under docs/ and link it").toBeLessThanOrEqual(MAX_LINES);
  });

  it("cites no issue numbers (the changelog does)", () => {
    expect(README.match(/\bissues? #?\d+/gi) ?? []).toEqual([]);
  });

  it("opens the quick start with the two commands a fresh machine runs", () => {
    const quick = README.slice(README.indexOf("## Quick start"));
    const start = quick.indexOf("```sh\n") + "```sh\n".length;
    const block = quick.slice(start, quick.indexOf("\n```", start));
    expect(block.split("\n").map((l) => l.replace(/\s+#.*$/, ""))).toEqual(["npm ci && npm run demo", "npm test"]);
  });

  it("has a row in the command table for every command the CLI lists", async () => {
    const rows = README.split("\n").filter((l) => l.startsWith("| [`pimctl ") || l.startsWith("| `pimctl "));
    const commands = listedCommands(await helpText([])).map(([c]) => c!);
    expect(commands.length).toBeGreaterThan(10);
    for (const c of commands)
      expect(
        rows.some((r) => r.includes(`\`pimctl ${c}`)),
        `README.md's command table has no row for pimctl ${c}`,
      ).toBe(true);
  });
});
