/**
 * One vocabulary: what doctor reports of a tenant starts an emulator that reads API v1 the same
 * way, from its JSON (`pimctl emulator --switches FILE`) or from the options it prints, and doctor
 * run against that emulator reports the same switches. An option given beside the file wins; a
 * file naming a switch or a reading the table does not have is refused.
 */
import { writeFile } from "node:fs/promises";
import path from "node:path";
import { afterEach, expect, it } from "vitest";
import { SWITCHES, type EmulatorSwitches } from "../../src/emulator/switches.js";
import { spawnPimctl, until } from "../helpers/spawn-cli.js";
import { testProject, type TestProject } from "../helpers/project.js";
import { runDoctor, seedTenant } from "./fixture.js";

let p: TestProject | undefined;
const emulators: Array<ReturnType<typeof spawnPimctl>> = [];
afterEach(async () => {
  for (const e of emulators.splice(0)) {
    e.child.kill("SIGTERM");
    await e.exit;
  }
  await p?.close();
  p = undefined;
});

const THE_TENANT: Partial<EmulatorSwitches> = {
  categoryAttributeSetsRead: "csv",
  assetUri: "echo",
  searchCase: "insensitive",
  versionFallback: false,
  categoryDeleteWithChildren: "cascade",
  changelogSubtreeDeletes: "root",
  boolFormat: "string",
  idFormat: "string",
  idSequence: "global",
  setAttributeDeleteId: "attribute",
  searchEmpty: "null",
  maxPageSize: 250,
  paginateAllLists: true,
  dateFormat: "iso-offset",
  exportDownload: "redirect",
};

/** `pimctl emulator` in its own process; the base URL of its tenant "copy", seeded like the first. */
async function startCopy(args: string[]): Promise<{ url: string; stdout: () => string }> {
  const e = spawnPimctl(p!.dir, ["emulator", "--port", "0", "--tenant", "copy=copy-token", "--export-step-ms", "5", ...args], { PATH: process.env.PATH });
  emulators.push(e);
  await until(() => /copy: (\S+)/.test(e.stdout()) || e.child.exitCode !== null, 30_000, "the emulator's start line");
  const url = /copy: (\S+)/.exec(e.stdout())?.[1];
  if (!url) throw new Error(`the emulator did not start:\n${e.stderr()}`);
  await seedTenant(url, "copy", "copy-token");
  await p!.write(
    "pimctl.yaml",
    `dir: catalogue\ntenants:\n  demo:\n    base_url: ${p!.emulator.tenantUrl("demo")}\n    token_env: PIMCTL_DEMO_TOKEN\n  copy:\n    base_url: ${url}\n    token_env: PIMCTL_COPY_TOKEN\n`,
  );
  return { url, stdout: e.stdout };
}

const probe = ["--write-probes", "--export-profile", "1"];

it("replays a tenant's readings in an emulator, from doctor's JSON and from the options it prints", { timeout: 90_000 }, async () => {
  p = await testProject({ emulator: { switches: THE_TENANT, exportStepMs: 5 } });
  await seedTenant(p.emulator, "demo", p.tokens.demo!);
  const first = await runDoctor(p, [...probe, "--tenant", "demo"]);
  expect(Object.keys(first.report.switches).sort()).toEqual(Object.keys(SWITCHES).sort());
  const file = path.join(p.dir, "readings.json");
  await writeFile(file, JSON.stringify(first.report));

  // From the file, with one option given beside it: the option wins.
  const fromFile = await startCopy(["--switches", "readings.json", "--date-format", "sql"]);
  const options = first.report.emulator_options.join(" ").replace("--date-format iso-offset", "--date-format sql");
  expect(fromFile.stdout()).toContain(`reading API v1 as readings.json and the options given say: ${options}\n`);
  const copied = await runDoctor(p, [...probe, "--tenant", "copy"], { PIMCTL_COPY_TOKEN: "copy-token" });
  expect(copied.report.switches).toEqual({ ...first.report.switches, dateFormat: "sql" });

  // From the printed options.
  await startCopy(first.report.emulator_options);
  const again = await runDoctor(p, [...probe, "--tenant", "copy"], { PIMCTL_COPY_TOKEN: "copy-token" });
  expect(again.report.switches).toEqual(first.report.switches);
});

it("takes every switch from the file unless an option is given, the changelog's total and a larger limit's answer too", { timeout: 60_000 }, async () => {
  p = await testProject();
  await p.write("readings.json", JSON.stringify({ switches: { changelogTotal: "lagging", oversizedLimit: "clamp", maxPageSize: 100 } }));
  const start = async (args: string[]) => {
    const e = spawnPimctl(p!.dir, ["emulator", "--port", "0", "--switches", "readings.json", ...args], { PATH: process.env.PATH });
    emulators.push(e);
    await until(() => /the options given say: .*\n/.test(e.stdout()) || e.child.exitCode !== null, 30_000, "the emulator's start line");
    return /the options given say: (.*)\n/.exec(e.stdout())?.[1] ?? e.stderr();
  };
  // No option given: nothing of the file is overridden by a default.
  expect(await start([])).toBe("--changelog-total lagging --max-page-size 100 --oversized-limit clamp");
  expect(await start(["--changelog-total", "tenant", "--oversized-limit", "refuse"])).toBe("--changelog-total tenant --max-page-size 100");
});

it("refuses a switches file naming a switch or a reading the table does not have", async () => {
  p = await testProject();
  await p.write("typo.json", JSON.stringify({ switches: { boolFormats: "int" } }));
  await p.write("bad.json", JSON.stringify({ searchCase: "fuzzy" }));
  const typo = await p.cli(["emulator", "--port", "0", "--switches", "typo.json"]);
  expect(typo.code).toBe(1);
  expect(typo.stderr).toContain('--switches typo.json: "boolFormats" is not a switch (the switches: categoryAttributeSetsRead, ');
  const bad = await p.cli(["emulator", "--port", "0", "--switches", "bad.json"]);
  expect(bad.code).toBe(1);
  expect(bad.stderr).toContain('--switches bad.json: searchCase takes "sensitive", "insensitive", not "fuzzy"');
});
