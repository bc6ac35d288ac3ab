import { readFileSync, readdirSync } from "node:fs";
import path from "node:path";
import { describe, expect, it } from "vitest";
import { buildParser } from "../../src/cli/run.js";
import { memoryIo } from "../../src/cli/io.js";

const ciDir = path.resolve(import.meta.dirname, "../../examples/ci");

/** Every `pimctl ...` command line in a file, shell redirections and trailing `;` cut off. */
function pimctlCommands(text: string): string[][] {
  const out: string[][] = [];
  const code = text
    .split("\n")
    .filter((l) => !l.trim().startsWith("#"))
    .join("\n");
  for (const m of code.matchAll(/(?:npx )?pimctl ((?:[^\n;>|&#]|'[^']*')+)/g)) {
    const words = m[1]!.trim().split(/\s+/).filter(Boolean);
    if (words[0] && /^[a-z]+$/.test(words[0])) out.push(words);
  }
  return out;
}

async function parses(argv: string[]): Promise<string | undefined> {
  try {
    await buildParser(argv, memoryIo({ cwd: process.cwd() }), { parseOnly: true }).parseAsync();
    return undefined;
  } catch (e) {
    return (e as Error).message;
  }
}

describe("example pipeline files use only documented options", () => {
  const files = readdirSync(ciDir).filter((f) => f.endsWith(".yml"));
  it("has GitHub Actions (PR and promotion) and GitLab CI examples", () => {
    expect(files.sort()).toEqual(["github-actions.yml", "github-promotion.yml", "gitlab-ci.yml", "gitlab-pimctl.yml"]);
  });
  for (const file of files) {
    it(`${file}: every pimctl command parses`, async () => {
      const cmds = pimctlCommands(readFileSync(path.join(ciDir, file), "utf8"));
      expect(cmds.length).toBeGreaterThanOrEqual(3);
      for (const argv of cmds) expect(await parses(argv), `pimctl ${argv.join(" ")}`).toBeUndefined();
    });
  }
  it("the check itself rejects an unknown option", async () => {
    expect(await parses(["plan", "--no-such-option"])).toMatch(/Unknown argument/);
  });
});
