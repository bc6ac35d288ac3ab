/**
 * The matrix: pimctl converges under every reading API v1 allows, combined.
 * Covering set over every switch of the emulator's table (its factors generated from SWITCHES:
 * test/helpers/switch-factors.ts, so a new switch joins by itself): each reading alone, a greedy
 * pairwise set (every pair of readings of any two switches meets in some run), plus two runs with
 * every switch off its default at once; each run once without faults and once with 10% faults
 * (500s, dropped connections, answers dropped after the write committed). 18 switches of 2-4
 * readings make tens of millions of combinations; pairwise is what fits in a few minutes.
 */
import { mkdtemp, readFile, rm } from "node:fs/promises";
import { tmpdir } from "node:os";
import path from "node:path";
import { describe, expect, it } from "vitest";
import type { EmulatorSwitches } from "../../src/emulator/index.js";
import { backupExport } from "../../src/apply/backup.js";
import { pathKey } from "../../src/model/catalogue.js";
import { catalogue, changes, pairwise, tenant } from "./fixture.js";
import { assetsOf } from "../../src/emulator/kinds/assets.js";
import { setAssignments } from "../../src/emulator/kinds/attribute-sets.js";
import { typeValuesOf } from "../../src/emulator/kinds/type-values.js";
import { eachReadingAlone, SWITCH_LEVELS, SWITCH_NAMES, switchesOf } from "../helpers/switch-factors.js";

const names = SWITCH_NAMES;
const levels = SWITCH_LEVELS;
const rows = [
  ...eachReadingAlone(),
  ...pairwise(levels),
  names.map((_, i) => levels[i]!.length - 1), // every switch on its last reading
  names.map(() => 1), // every switch on its first alternative
];
const label = (s: Partial<EmulatorSwitches>) =>
  names
    .filter((n, i) => s[n] !== levels[i]![0])
    .map((n) => `${n}=${String(s[n])}`)
    .join(" ") || "defaults";

const desiredAddresses = new Set<string>([
  ...catalogue.brands.map((b) => `brand["${b.name}"]`),
  ...catalogue.categories.map((c) => `category["${pathKey(c.path)}"]`),
  ...catalogue.attributes.map((a) => `attribute["${a.name}"]`),
  ...catalogue.attribute_sets.map((s) => `attribute_set["${s.name}"]`),
]);

describe("every reading API v1 allows, combined, with and without faults", () => {
  it("covers every pair of readings", () => {
    expect(rows.length).toBeGreaterThanOrEqual(16);
    const seen = new Set<string>();
    for (const r of rows) for (let i = 0; i < r.length; i++) for (let j = i + 1; j < r.length; j++) seen.add(`${i}:${r[i]}|${j}:${r[j]}`);
    let pairs = 0;
    for (let i = 0; i < levels.length; i++) for (let j = i + 1; j < levels.length; j++) pairs += levels[i]!.length * levels[j]!.length;
    expect(seen.size).toBe(pairs);
  });

  for (const [n, row] of rows.entries()) {
    const switches = switchesOf(row);
    for (const faulty of [false, true]) {
      it(`#${n} ${faulty ? "10% faults" : "no faults"}: ${label(switches)}`, { timeout: 30_000 }, async () => {
        const t = await tenant(switches, faulty ? { failRate: 0.1, faultSeed: 100 + n, modes: ["error500", "drop", "drop_after_commit"] } : undefined);
        try {
          if (!faulty) {
            // The backup download works under either export reading, and is a real file.
            const dir = await mkdtemp(path.join(tmpdir(), "pimctl-backup-"));
            const out = path.join(dir, "backup.json");
            const b = await backupExport({ api: t.api, profileId: 1, outFile: out, pollMs: 5 });
            expect(b.bytes).toBeGreaterThan(0);
            expect(JSON.parse(await readFile(out, "utf8")).brands.length).toBeGreaterThan(0);
            await rm(dir, { recursive: true });
          }
          let rounds = 0;
          let idsAfterFirst: Map<string, number> | undefined;
          for (let plan = await t.plan(); changes(plan).length; plan = await t.plan()) {
            // Nothing the manifest keeps is ever planned for deletion.
            expect(plan.actions.filter((a) => a.op === "delete" && desiredAddresses.has(a.address)).map((a) => a.address)).toEqual([]);
            expect(++rounds, `still changing after 3 rounds: ${changes(plan).join(", ")}`).toBeLessThanOrEqual(3);
            const r = await t.apply(plan);
            if (!faulty) expect(r.results.filter((x) => x.status === "failed").map((x) => `${x.address}: ${x.error?.message}`)).toEqual([]);
            idsAfterFirst ??= recordIds(t);
          }
          t.emu.setFaults({ failRate: 0 });
          expect(changes(await t.plan())).toEqual([]); // no perpetual diff
          const s = t.emu.store("t");
          // Nothing kept was deleted and re-created: ids seen after the first round stay.
          const ids = recordIds(t);
          for (const [k, id] of idsAfterFirst ?? []) expect(ids.get(k), k).toBe(id);
          expect(s.attributes.has(1) && s.attributes.has(2)).toBe(true);
          // No duplicates: assets, values, assignments exactly as declared.
          const acme = [...s.brands.values()].find((b) => b.name === "Acme")!;
          expect(assetsOf(s, "brand", acme.id)).toHaveLength(1);
          const shoes = [...s.categories.values()].find((c) => c.name === "Shoes")!;
          expect(assetsOf(s, "category", shoes.id)).toHaveLength(1);
          expect([...s.brands.values()].map((b) => b.name).sort()).toEqual(catalogue.brands.map((b) => b.name).sort());
          expect([...s.categories.values()].map((c) => c.name).sort()).toEqual(["Apparel", "Footwear", "Shirts", "Shoes", "Tops"]);
          const colour = [...s.attributes.values()].find((a) => a.name === "Colour")!;
          expect(
            typeValuesOf(s, colour.id)
              .map((v) => v.value)
              .sort(),
          ).toEqual(["Blue", "Red"]);
          const apparel = [...s.attributeSets.values()].find((x) => x.name === "Apparel")!;
          expect(
            setAssignments(s, apparel.id)
              .map((a) => a.attribute_id)
              .sort(),
          ).toEqual([1, colour.id].sort());
          expect([...s.displayGroups.values()]).toHaveLength(catalogue.display_groups.length); // paged lists read whole: no duplicates
        } finally {
          await t.close();
        }
      });
    }
  }
});

function recordIds(t: {
  emu: {
    store(h: string): {
      brands: Map<number, { name: string }>;
      categories: Map<number, { name: string; parent_id: number | null }>;
      attributes: Map<number, { name: string }>;
    };
  };
}): Map<string, number> {
  const s = t.emu.store("t");
  const out = new Map<string, number>();
  for (const b of s.brands.values()) out.set(`brand:${b.name}`, (b as { id?: number }).id ?? -1);
  for (const c of s.categories.values()) out.set(`category:${c.parent_id}:${c.name}`, (c as { id?: number }).id ?? -1);
  for (const a of s.attributes.values()) out.set(`attribute:${a.name}`, (a as { id?: number }).id ?? -1);
  return out;
}
