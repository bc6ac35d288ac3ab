/**
 * The matrix: for every switch of the emulator's table (src/emulator/switches.ts) and each of its
 * readings, doctor against an emulator started with that reading reports it, with evidence: the
 * read switches from reads alone (a seeded tenant, no write), every switch with --write-probes
 * (which also leave nothing behind). The table is iterated, never copied, so a reading another
 * change adds to it is covered here, and fails here until doctor can tell it.
 *
 * Few emulators: run k sets every switch to its k-th reading at once (readings interact the way
 * they would on a real tenant), and a run is added only for a reading no run shows (one that needs
 * another switch: a subtree's changelog needs a delete that takes the subtree, meta.total a feed
 * with meta, a cut limit a maximum below 1000). Where a run hides a read reading, doctor must say
 * it could not tell (undetermined), never name one.
 */
import { describe, expect, it } from "vitest";
import { DEFAULT_SWITCHES, SWITCHES, type EmulatorSwitches } from "../../src/emulator/switches.js";
import { DETECTORS, type Detector } from "../../src/doctor/detectors.js";
import type { SwitchName } from "../../src/doctor/types.js";
import { testProject } from "../helpers/project.js";
import { findingOf, probeRecordsLeft, runDoctor, seedTenant } from "./fixture.js";

const names = Object.keys(SWITCHES) as SwitchName[];
// Undefined for a switch without a detector: the first test names it (and tsc refuses DETECTORS).
const detector = (n: SwitchName) => DETECTORS[n] as Detector<SwitchName> | undefined;
const readingsOf = (n: SwitchName): readonly unknown[] => SWITCHES[n].readings ?? detector(n)?.samples ?? [];
function observable(run: Partial<EmulatorSwitches>, n: SwitchName): boolean {
  const d = detector(n);
  if (d?.observableUnder) return d.observableUnder(run[n] as never, run);
  return Object.entries(d?.observableWith?.(run[n] as never) ?? {}).every(([k, v]) => run[k as SwitchName] === v);
}
const json = (v: unknown) => (v === undefined ? null : v);
/** Requests that may write, by route. */
const writes = (byRoute: Record<string, number>) =>
  Object.fromEntries(Object.entries(byRoute).filter(([r]) => /^(PUT|PATCH|DELETE) /.test(r) || (r.startsWith("POST ") && !r.endsWith("/search"))));

function coveringRuns(): Array<Partial<EmulatorSwitches>> {
  const most = Math.max(...names.map((n) => readingsOf(n).length));
  const runs = Array.from({ length: most }, (_, k) => Object.fromEntries(names.map((n) => [n, readingsOf(n)[k % readingsOf(n).length]])));
  for (const n of names)
    for (const r of readingsOf(n))
      if (!runs.some((run) => run[n] === r && observable(run, n))) runs.push({ ...DEFAULT_SWITCHES, [n]: r, ...detector(n)?.observableWith?.(r as never) });
  return runs as Array<Partial<EmulatorSwitches>>;
}
const runs = coveringRuns();
const label = (run: Partial<EmulatorSwitches>) =>
  names
    .filter((n) => run[n] !== DEFAULT_SWITCHES[n])
    .map((n) => `${n}=${String(run[n])}`)
    .join(" ") || "defaults";

describe("doctor names every reading of the switches table", () => {
  it("has one detector per switch, and readings (or samples) for each", () => {
    expect(Object.keys(DETECTORS).sort()).toEqual([...names].sort());
    for (const n of names) expect(readingsOf(n).length, n).toBeGreaterThanOrEqual(2);
  });

  it("runs every reading of every switch where doctor can see it", () => {
    for (const n of names)
      for (const r of readingsOf(n))
        expect(
          runs.some((run) => run[n] === r && observable(run, n)),
          `${n}=${String(r)}`,
        ).toBe(true);
  });

  for (const run of runs) {
    it(`reports ${label(run)}`, { timeout: 60_000 }, async () => {
      const p = await testProject({ emulator: { switches: run, exportStepMs: 5 } });
      try {
        await seedTenant(p.emulator, "demo", p.tokens.demo!);
        const before = writes(p.emulator.stats().requests.byRoute);
        const read = await runDoctor(p);
        // Read-only: nothing PUT, DELETEd or POSTed but exact-match searches (which write nothing).
        expect(writes(p.emulator.stats().requests.byRoute)).toEqual(before);
        for (const n of names.filter((x) => DETECTORS[x].needs === "read")) {
          const f = findingOf(read.report, n);
          if (!observable(run, n)) {
            // Hidden by another reading: said so, and never taken for a known one.
            expect({ n, outcome: f.outcome }, f.means).toEqual({ n, outcome: "undetermined" });
            if (f.candidates) expect(f.candidates, n).toContain(json(run[n]));
            continue;
          }
          expect({ n, outcome: f.outcome, reading: f.reading }, f.means).toEqual({ n, outcome: "known", reading: json(run[n]) });
          expect(f.evidence.length, n).toBeGreaterThan(0);
        }
        for (const n of names.filter((x) => DETECTORS[x].needs === "write")) expect(findingOf(read.report, n).outcome, n).toBe("not-probed");

        const probed = await runDoctor(p, ["--write-probes", "--export-profile", "1"]);
        for (const n of names.filter((x) => observable(run, x))) {
          const f = findingOf(probed.report, n);
          expect({ n, outcome: f.outcome, reading: f.reading }, f.means).toEqual({ n, outcome: "known", reading: json(run[n]) });
          expect(f.evidence.length, n).toBeGreaterThan(0);
          expect(f.means.length, n).toBeGreaterThan(20);
        }
        expect(probed.report.write_probes.left).toEqual([]);
        expect(probeRecordsLeft(p.emulator, "demo")).toEqual([]);
        expect(probed.code, probed.stderr).toBe(0);
        // One vocabulary: the report's switches are the run's, by the table's names.
        for (const [n, v] of Object.entries(probed.report.switches)) expect(v, n).toEqual(json(run[n as SwitchName]));
      } finally {
        await p.close();
      }
    });
  }
});
