/**
 * The switch table (src/emulator/switches.ts) is the one list of API v1's alternative
 * readings: the `pimctl emulator` options and the README's assumptions must name every
 * switch it holds, with every reading, so a reading added to the table cannot go
 * unreachable from the command line or undocumented.
 */
import { readFileSync } from "node:fs";
import path from "node:path";
import { describe, expect, it } from "vitest";
import { DEFAULT_SWITCHES, SWITCHES, type EmulatorSwitches } from "../../src/emulator/switches.js";
import { memoryIo } from "../../src/cli/io.js";
import { run } from "../../src/cli/run.js";

const rows = Object.entries(SWITCHES) as Array<[keyof EmulatorSwitches, (typeof SWITCHES)[keyof EmulatorSwitches]]>;

describe("the switch table", () => {
  it("gives every switch its default", () => {
    for (const [name, row] of rows) {
      expect(DEFAULT_SWITCHES[name], name).toBe(row.default);
      if (row.readings) expect(row.readings, name).toContain(row.default);
    }
    expect(Object.keys(DEFAULT_SWITCHES).sort()).toEqual(rows.map(([n]) => n).sort());
  });

  it("is offered by `pimctl emulator`, every reading off the default included", async () => {
    const io = memoryIo({ cwd: process.cwd(), env: {} });
    await run(["emulator", "--help"], io);
    const help = io.out.join("") + io.err.join("");
    for (const [name, row] of rows) {
      const flag = row.option.replace(/^--no-/, "--");
      expect(help, `${name}: ${row.option}`).toContain(flag);
      // The option's own lines, from where it starts a line (another option's help may name it) up to the next option.
      const from = help.search(new RegExp(`\\n {1,8}${flag}\\s`)) + 1;
      expect(from, `${name}: ${flag} starts a line of the help`).toBeGreaterThan(0);
      const next = help.slice(from + flag.length).search(/\n\s+--/);
      const block = help.slice(from, next === -1 ? undefined : from + flag.length + next);
      expect(block.length, name).toBeLessThan(400);
      for (const r of row.readings ?? []) if (r !== row.default && typeof r === "string") expect(block, `${name}: ${r}`).toContain(`"${r}"`);
    }
  });

  it("is documented in src/emulator/README.md, option by option", () => {
    const readme = readFileSync(path.join(import.meta.dirname, "..", "..", "src", "emulator", "README.md"), "utf8");
    for (const [name, row] of rows) {
      expect(readme, name).toContain(`\`${row.option}`);
      expect(readme, name).toContain(name);
      for (const r of row.readings ?? []) if (r !== row.default && typeof r === "string") expect(readme, `${name}: ${r}`).toContain(r);
    }
  });

  it("names for each switch a file that exists and reads it", () => {
    const emulator = path.join(import.meta.dirname, "..", "..", "src", "emulator");
    for (const [name, row] of rows) {
      const file = row.consultedBy.split(/[ ,(]/)[0]!;
      const text = readFileSync(path.join(emulator, file), "utf8");
      expect(text, `${name} in ${file}`).toMatch(new RegExp(`\\b${name}\\b`));
    }
  });
});
