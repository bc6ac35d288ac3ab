/**
 * A targeted load (src/workflows/targeted-load.ts) parses only some entries
 * of the manifests; the read scope made from what it loads must be the one
 * made from a full load, for any targets and excludes: records, their
 * sources (file:line:col), the managed kinds and the language versions.
 */
import { mkdtemp, rm, writeFile } from "node:fs/promises";
import { tmpdir } from "node:os";
import path from "node:path";
import fc from "fast-check";
import { propertyParams } from "../helpers/seed.js";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { loadManifests, type LoadOptions } from "../../src/manifest/index.js";
import { scanEntries } from "../../src/manifest/entry-scan.js";
import { readScope } from "../../src/plan/read-scope.js";
import { addr } from "../../src/plan/address.js";
import { loadTargeted } from "../../src/workflows/targeted-load.js";
import type { Catalogue } from "../../src/model/catalogue.js";
import { VARIABLES, writeTargetedFixture } from "./targeted-load-fixture.js";

let dir: string;
let full: Catalogue;
let opts: LoadOptions;
let addresses: string[];

beforeAll(async () => {
  dir = await mkdtemp(path.join(tmpdir(), "pimctl-targeted-"));
  await writeTargetedFixture(dir);
  opts = { cwd: dir, variables: VARIABLES, listedVersions: [] };
  const loaded = await loadManifests(path.join(dir, "catalogue"), opts);
  expect(loaded.errors.map((e) => e.format())).toEqual([]);
  full = loaded.catalogue;
  addresses = [
    ...full.display_groups.map((r) => addr.displayGroup(r.name)),
    ...full.attributes.map((r) => addr.attribute(r.name)),
    ...full.attributes.slice(0, 5).flatMap((r) => (r.values ?? []).slice(0, 2).map((v) => addr.typeValue(r.name, v.value))),
    ...full.attribute_sets.map((r) => addr.attributeSet(r.name)),
    ...full.blocks.map((r) => addr.block(r.slug)),
    ...full.brands.map((r) => addr.brand(r.name)),
    ...full.categories.map((r) => addr.category(r.path)),
    // Named nowhere in the manifests: a delete, or (attributes) the full read.
    addr.brand("Not Declared"),
    addr.brand("Old Brand"),
    addr.category(["Old Root"]),
    addr.category(["Gone", "Away"]),
    addr.attribute("Old Attr"),
    addr.block("nowhere"),
  ];
}, 60_000);
afterAll(() => rm(dir, { recursive: true, force: true }));

describe("a targeted load", () => {
  it("scans the fixture's files as meant: anchors and flow style whole, the rest split", async () => {
    const { readFile } = await import("node:fs/promises");
    const scan = async (f: string) => scanEntries(await readFile(path.join(dir, "catalogue", f), "utf8"));
    expect(await scan("extra-anchors.yaml")).toBeUndefined();
    expect(await scan("extra-flow.yaml")).toBeUndefined();
    const brands = (await scan("extra-brands.yaml"))!;
    expect(brands.entries.map((e) => e.name)).toEqual([
      "Quoted 'Single'",
      "Double Quoted",
      "Second Line",
      undefined,
      undefined,
      "Renamed Brand",
      "Commented",
      undefined,
      undefined,
      "3D Printing",
      "Brand 001 copy",
    ]);
    expect(brands.entries[2]!.versions).toEqual(["Spanish"]);
    expect(brands.entries[3]!.versions).toEqual(["Dutch"]);
    expect(brands.entries[1]!.versions).toBeUndefined();
    expect(brands.entries[5]!.previous).toBe(true);
    const categories = (await scan("extra-categories.yaml"))!;
    expect(categories.entries[1]!.versions?.sort()).toEqual(["French", "German", "Portuguese"]);
  });

  it("refuses to split what a line scan could misread", () => {
    const ok = "brands:\n  - name: A\n";
    expect(scanEntries(ok)?.entries.map((e) => e.name)).toEqual(["A"]);
    for (const text of [
      "brands:\n\t- name: A\n",
      "brands:\r\n  - name: A\r\n",
      "---\nbrands:\n  - name: A\n",
      'brands:\n  - name: A\n    desc: "two\n  - name: B"\n',
      "brands:\n  - name: A\n    attributes: { X: {\n      value: y } }\n",
      "brands:\n  - name: &a A\n",
      "brands:\n  - name: !!str A\n",
      "brands:\n  - name: A\nbrands:\n  - name: B\n",
      "brand:\n  - name: A\n",
      "brands:\n",
      "brands: { }\n",
      "%YAML 1.2\n---\nbrands: []\n",
    ])
      expect(scanEntries(text), JSON.stringify(text)).toBeUndefined();
  });

  it("gives the read scope of a full load, for any targets and excludes", async () => {
    type Selection = { targets: string[]; excludes: string[]; ignore: string[] };
    const selection = fc.record({
      targets: fc.uniqueArray(fc.constantFrom(...addresses), { minLength: 1, maxLength: 4 }),
      excludes: fc.uniqueArray(fc.constantFrom(...addresses, "brands", "blocks"), { maxLength: 2 }),
      ignore: fc.uniqueArray(fc.constantFrom(...addresses.filter((a) => a.startsWith("brand[")), 'brand["Brand 00*"]'), { maxLength: 1 }),
    });
    let narrowed = 0;
    await fc.assert(
      fc.asyncProperty(selection, async (s) => {
        const expected = readScope(full, s);
        const partial = await loadTargeted(path.join(dir, "catalogue"), opts, s);
        if (partial && "errors" in partial) throw new Error(partial.errors.map((e) => e.format()).join("\n"));
        if (!partial) {
          expect(expected).toBeUndefined();
          return;
        }
        narrowed++;
        expect(partial.loaded.entries).toBeLessThan(partial.loaded.of);
        expect(readScope(partial.desired, s)).toEqual(expected);
      }),
      propertyParams<[Selection]>({
        numRuns: 60,
        // Found by a CI run: the targets' closure took in what only an ignored brand needed.
        examples: [[{ targets: ['brand["Double Quoted"]', 'display_group["Block Group"]'], excludes: [], ignore: ['brand["Double Quoted"]'] }]],
      }),
    );
    expect(narrowed).toBeGreaterThan(30);
  }, 60_000);

  it("validates what it loads, with file:line:col, and not the rest", async () => {
    const file = path.join(dir, "catalogue", "broken.yaml");
    await writeFile(file, "brands:\n  - name: Broken\n    excluded: maybe\n  - name: Fine\n");
    try {
      const untouched = await loadTargeted(path.join(dir, "catalogue"), opts, { targets: ['brand["Fine"]'], excludes: [], ignore: [] });
      expect(untouched && "desired" in untouched ? untouched.desired.brands.map((b) => b.name) : untouched).toContain("Fine");
      const touched = await loadTargeted(path.join(dir, "catalogue"), opts, { targets: ['brand["Broken"]'], excludes: [], ignore: [] });
      expect(touched && "errors" in touched ? touched.errors.map((e) => e.format()).join("\n") : "no errors").toMatch(/broken\.yaml:3:\d+/);
    } finally {
      await rm(file);
    }
  });
});
