/**
 * README's "First contact with your tenant" names every switch of the emulator's table, with its
 * option and each of its readings, so a reading added to the table (and to doctor's detectors)
 * cannot go unexplained to the person reading doctor's report; and every option of
 * `pimctl doctor` is in the Commands table.
 */
import { readFileSync } from "node:fs";
import path from "node:path";
import { expect, it } from "vitest";
import { SWITCHES } from "../../src/emulator/switches.js";
import { memoryIo } from "../../src/cli/io.js";
import { run } from "../../src/cli/run.js";

const readme = readFileSync(path.join(import.meta.dirname, "..", "..", "README.md"), "utf8");
const section = readme.slice(readme.indexOf("## First contact with your tenant"), readme.indexOf("\n## Manifests"));

it("explains every switch and reading in the First contact section", () => {
  expect(section.length).toBeGreaterThan(1000);
  for (const [name, row] of Object.entries(SWITCHES)) {
    const line = section.split("\n").find((l) => l.startsWith(`| \`${name}\` (\`${row.option}\`)`));
    expect(line, name).toBeDefined();
    for (const r of row.readings ?? []) expect(line, `${name}: ${String(r)}`).toContain(`\`${String(r)}\``);
  }
});

it("lists every option of pimctl doctor in the Commands table", async () => {
  const io = memoryIo({ cwd: process.cwd(), env: {} });
  await run(["doctor", "--help"], io);
  const own = [...io.out.join("").matchAll(/^\s+(?:-\w, )?(--[a-z-]+)/gm)].map((m) => m[1]!);
  const row = readme.split("\n").find((l) => l.startsWith("| `pimctl doctor` |"))!;
  const shared = ["--config", "--tenant", "--dir", "--parallelism", "--log-http", "--color", "--quiet", "--help", "--version"];
  for (const o of own.filter((x) => !shared.includes(x))) expect(row, o).toContain(`\`${o}`);
});
