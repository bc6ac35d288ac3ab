/**
 * Write probes leave nothing behind when the process is told to stop mid-probe, in a real
 * process with real signals: the first SIGINT or SIGTERM stops the probes and removes their
 * records; a second one removes what it can within 2 s and exits. SIGKILL cannot be caught: the
 * next doctor run finds what it left by the prefix, and --remove-leftovers removes it.
 */
import { afterEach, describe, expect, it } from "vitest";
import { spawnPimctl, until } from "../helpers/spawn-cli.js";
import { testProject, type TestProject } from "../helpers/project.js";
import { probeRecordsLeft, runDoctor } from "./fixture.js";

let p: TestProject | undefined;
afterEach(async () => {
  await p?.close();
  p = undefined;
});

/** A doctor with write probes in its own process, against a slow tenant; resolves once it has made probe records. */
async function probing(latencyMs: number) {
  p = await testProject({ emulator: { latencyMs, exportStepMs: 5 } });
  const project = p;
  const run = spawnPimctl(p.dir, ["doctor", "--write-probes", "--pings", "1"], { PATH: process.env.PATH, ...p.env });
  await until(() => probeRecordsLeft(project.emulator, "demo").length >= 3, 30_000, "probe records");
  return run;
}

describe.each(["SIGINT", "SIGTERM"] as const)("%s mid-probe", (signal) => {
  it("stops the probes, removes every probe record, and exits 1 saying so", { timeout: 60_000 }, async () => {
    const run = await probing(150);
    run.child.kill(signal);
    const end = await run.exit;
    expect(end.signal, run.stderr()).toBeNull();
    expect(end.code, run.stderr()).toBe(1);
    expect(run.stderr()).toContain(`Interrupted (${signal}): stopping the probes, then removing their records (again to quit at once).`);
    expect(run.stdout()).toMatch(/removed \d+ probe records; nothing left behind/);
    expect(run.stdout()).toContain(`Interrupted (${signal})`);
    expect(probeRecordsLeft(p!.emulator, "demo")).toEqual([]);
  });
});

it("a second signal removes what it can within 2 s and exits 1, listing what was removed", { timeout: 60_000 }, async () => {
  const run = await probing(150);
  run.child.kill("SIGINT");
  await new Promise((r) => setTimeout(r, 30));
  run.child.kill("SIGINT");
  const end = await run.exit;
  expect(end.code, run.stderr()).toBe(1);
  expect(run.stderr()).toContain("Interrupted again (SIGINT): quitting now, releasing what is held (at most 2 s).");
  expect(run.stderr()).toMatch(/removed \d+ probe records?/);
  expect(run.stderr()).toContain("pimctl doctor stopped; a record listed above as left is found again by its prefix");
  expect(run.stderr()).not.toContain("Nothing was written to the tenant.");
  expect(probeRecordsLeft(p!.emulator, "demo")).toEqual([]);
});

it("after SIGKILL, the next run lists what was left by its prefix, and --remove-leftovers removes it", { timeout: 60_000 }, async () => {
  const run = await probing(150);
  run.child.kill("SIGKILL");
  await run.exit;
  const left = probeRecordsLeft(p!.emulator, "demo");
  expect(left.length).toBeGreaterThanOrEqual(3);
  p!.emulator.setFaults({ latencyMs: 0 });
  const next = await runDoctor(p!);
  expect(next.code).toBe(1);
  expect(next.report.leftovers.map((l) => l.name).sort()).toEqual(left.filter((n) => !n.endsWith(" asset")).sort());
  const removed = await runDoctor(p!, ["--remove-leftovers"]);
  expect(removed.code, removed.stderr).toBe(0);
  expect(probeRecordsLeft(p!.emulator, "demo")).toEqual([]);
});

it("a second signal that cannot remove everything within 2 s lists each record left, with its id and the command", { timeout: 60_000 }, async () => {
  // Every request takes 700 ms: removing three records or more takes longer than the 2 s a forced end waits.
  const run = await probing(700);
  run.child.kill("SIGINT");
  await new Promise((r) => setTimeout(r, 30));
  run.child.kill("SIGINT");
  const end = await run.exit;
  expect(end.code, run.stderr()).toBe(1);
  expect(run.stderr()).toContain("not released within 2 s");
  const store = p!.emulator.store("demo");
  const left = [...store.brands.values(), ...store.categories.values(), ...store.attributes.values(), ...store.attributeSets.values()].filter((r) =>
    r.name.startsWith("pimctl-doctor-"),
  );
  expect(left.length).toBeGreaterThan(0);
  for (const r of left) expect(run.stderr()).toMatch(new RegExp(`left: \\w+ ${r.id} "${r.name}"; remove it with: pimctl doctor --remove-leftovers`));
});
