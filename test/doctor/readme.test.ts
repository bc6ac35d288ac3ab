/**
 * The first-contact guide (docs/doctor.md) names every switch of the emulator's table, with its
 * option and each of its readings, so a reading added to the table (and to doctor's detectors)
 * cannot go unexplained to the person reading doctor's report; and it explains every option of
 * `pimctl doctor` (the reference, docs/reference/doctor.md, only lists them).
 */
import { readFileSync } from "node:fs";
import path from "node:path";
import { expect, it } from "vitest";
import { SWITCHES } from "../../src/emulator/switches.js";
import { memoryIo } from "../../src/cli/io.js";
import { run } from "../../src/cli/run.js";

const guide = readFileSync(path.join(import.meta.dirname, "..", "..", "docs", "doctor.md"), "utf8");
const section = guide.slice(0, guide.indexOf("\n## Support bundles"));

it("explains every switch and reading in the first-contact guide", () => {
  expect(section.length).toBeGreaterThan(1000);
  for (const [name, row] of Object.entries(SWITCHES)) {
    const line = section.split("\n").find((l) => l.startsWith(`| \`${name}\` (\`${row.option}\`)`));
    expect(line, name).toBeDefined();
    for (const r of row.readings ?? []) expect(line, `${name}: ${String(r)}`).toContain(`\`${String(r)}\``);
  }
});

it("explains every option of pimctl doctor in the guide", async () => {
  const io = memoryIo({ cwd: process.cwd(), env: {} });
  await run(["doctor", "--help"], io);
  const own = [...io.out.join("").matchAll(/^\s+(?:-\w, )?(--[a-z-]+)/gm)].map((m) => m[1]!);
  const shared = ["--config", "--tenant", "--dir", "--parallelism", "--log-http", "--color", "--quiet", "--help", "--version"];
  expect(own).toContain("--write-probes");
  for (const o of own.filter((x) => !shared.includes(x))) expect(guide, o).toMatch(new RegExp(`${o}(?![a-z-])`));
});
