/**
 * Only texts API v1 can write are translation units. Brand and category texts
 * per language version are read-only in API v1 (docs/api-v1-limits.md): export leaves them out and says how many and why, import refuses a
 * unit of one (naming it, the rest is written, exit 4), status reports them
 * apart and does not count them, mark-reviewed records none, and the lock file
 * keeps no line for them.
 */
import { mkdtemp, mkdir, readFile, rm, writeFile } from "node:fs/promises";
import { tmpdir } from "node:os";
import path from "node:path";
import { parse } from "yaml";
import { afterEach, beforeEach, describe, expect, it } from "vitest";
import { memoryIo } from "../../src/cli/io.js";
import { run } from "../../src/cli/run.js";
import { loadManifests } from "../../src/manifest/index.js";
import { isWritable, translatableTexts, textId } from "../../src/plan/texts.js";

const MANIFEST = [
  "attributes:",
  "  - name: Colour",
  "    type: selectbox",
  "    versions: { French: { name: Couleur } }",
  "    values:",
  "      - { value: Red, versions: { French: Rouge } }",
  "brands:",
  "  - name: Acme",
  "    desc: Tools since 1950",
  "    seo_title: Acme tools",
  "    versions: { French: { desc: Outils depuis 1950 } }",
  "    attributes: { Colour: { value: Red, versions: { French: Rouge } } }",
  "categories:",
  "  - name: Apparel",
  "    desc: Clothes",
  "    versions: { French: { name: Vêtements } }",
  "",
].join("\n");

let dir: string;
const cli = async (...args: string[]) => {
  const io = memoryIo({ cwd: dir, env: {} });
  const code = await run(args, io);
  return { code, stdout: io.out.join(""), stderr: io.err.join("") };
};
const lockIds = async () =>
  Object.keys((parse(await readFile(path.join(dir, "translations.lock.yaml"), "utf8")) as { translations: object }).translations).sort();
const manifest = () => readFile(path.join(dir, "catalogue", "a.yaml"), "utf8");
const csv = (rows: Array<[string, string, string]>) =>
  `id,source,target\r\n${rows.map((r) => r.map((c) => `"${c.replace(/"/g, '""')}"`).join(",")).join("\r\n")}\r\n`;

beforeEach(async () => {
  dir = await mkdtemp(path.join(tmpdir(), "pimctl-tr-unwritable-"));
  await mkdir(path.join(dir, "catalogue"));
  await writeFile(path.join(dir, "pimctl.yaml"), "dir: catalogue\n");
  await writeFile(path.join(dir, "catalogue", "a.yaml"), MANIFEST);
});
afterEach(() => rm(dir, { recursive: true, force: true }));

const BRAND_DESC = 'brand["Acme"].version["French"].field["desc"]';
const BRAND_SEO = 'brand["Acme"].version["French"].field["seo_title"]';
const CATEGORY_NAME = 'category["Apparel"].version["French"].field["name"]';
const CATEGORY_DESC = 'category["Apparel"].version["French"].field["desc"]';

describe("which texts are units", () => {
  it("one predicate: brand and category texts are not writable; attribute names, type values and brand attribute values are", async () => {
    const { catalogue } = await loadManifests(path.join(dir, "catalogue"), { cwd: dir });
    const byWritable = (w: boolean) =>
      translatableTexts(catalogue)
        .filter((t) => isWritable(t) === w)
        .map((t) => textId(t, "French"))
        .sort();
    expect(byWritable(false)).toEqual([BRAND_DESC, BRAND_SEO, CATEGORY_DESC, CATEGORY_NAME].sort());
    expect(byWritable(true)).toEqual(
      [
        'attribute["Colour"].version["French"].field["name"]',
        'attribute["Colour"].value["Red"].version["French"]',
        'brand["Acme"].attribute["Colour"].version["French"]',
      ].sort(),
    );
  });
});

describe("translations export", () => {
  it("leaves brand and category texts out and says how many and why, in every format", async () => {
    for (const format of ["po", "xliff", "xliff2", "csv"]) {
      const r = await cli("translations", "export", "--language", "French", "--format", format);
      expect(r.code, r.stderr).toBe(0);
      for (const id of [BRAND_DESC, BRAND_SEO, CATEGORY_NAME, CATEGORY_DESC]) expect(r.stdout, `${format}: ${id}`).not.toContain(id.slice(0, 20));
      expect(r.stdout).toContain("Couleur");
      expect(r.stderr).toContain(
        "Left out 4 brand and category texts: API v1 cannot write brand and category language versions " + "(docs/api-v1-limits.md); set them in the PIM's UI.",
      );
    }
    const missing = await cli("translations", "export", "--language", "German", "--format", "po", "--missing", "--out", "de.po");
    expect(missing.code, missing.stderr).toBe(0);
    expect(missing.stderr).toContain("Wrote 3 units for German to de.po.");
    expect(missing.stderr).toContain("Left out 4 brand and category texts");
  });
});

describe("translations import", () => {
  it("refuses a unit of a brand or category text, naming it and why; the rest is written (exit 4)", async () => {
    await writeFile(
      path.join(dir, "fr.csv"),
      csv([
        [BRAND_DESC, "Tools since 1950", "Outils depuis toujours"],
        [CATEGORY_NAME, "Apparel", "Habits"],
        [CATEGORY_DESC, "Clothes", ""],
        ['attribute["Colour"].value["Red"].version["French"]', "Red", "Rouge vif"],
      ]),
    );
    const r = await cli("translations", "import", "fr.csv");
    expect(r.code, r.stderr).toBe(4);
    expect(r.stderr).toContain(
      `refused, not written: ${BRAND_DESC}: API v1 cannot write brand language versions (docs/api-v1-limits.md); set it in the PIM's UI`,
    );
    expect(r.stderr).toContain(`refused, not written: ${CATEGORY_NAME}: API v1 cannot write category language versions`);
    // An empty target asks for nothing: not refused.
    expect(r.stderr).not.toContain(`refused, not written: ${CATEGORY_DESC}`);
    expect(r.stderr).toMatch(/Wrote 1 translation into 1 file .*2 refused/);
    expect(await manifest()).toBe(MANIFEST.replace("French: Rouge } }\nbrands", "French: Rouge vif } }\nbrands"));
    expect(await lockIds()).toEqual(['attribute["Colour"].value["Red"].version["French"]']);
  });
});

describe("translations status", () => {
  it("counts only units; brand and category texts are reported apart as read-only, in text, markdown and JSON", async () => {
    const json = await cli("translations", "status", "--format", "json");
    expect(json.code, json.stderr).toBe(0);
    const report = JSON.parse(json.stdout);
    expect(report.format_version).toBe("1.1");
    expect(report.versions).toHaveLength(1);
    const fr = report.versions[0];
    expect(fr).toMatchObject({ version: "French", total: 3, translated: 3, missing: 0, outdated: 0, percent: 100, missing_ids: [], outdated_ids: [] });
    expect(fr.kinds.map((k: { kind: string }) => k.kind)).toEqual(["attributes", "type_values", "brand_attribute_values"]);
    expect(fr.read_only).toEqual({
      total: 4,
      translated: 2,
      kinds: [
        { kind: "categories", total: 2, translated: 1 },
        { kind: "brands", total: 2, translated: 1 },
      ],
    });

    const text = await cli("translations", "status");
    expect(text.stdout).toContain("French: 3 of 3 translated (100%), 0 missing, 0 outdated\n");
    expect(text.stdout).toContain("  read-only in API v1 (not units, not counted): categories: 1 of 2 translated; brand texts: 1 of 2 translated\n");
    expect(text.stdout).not.toContain(CATEGORY_DESC);

    const md = await cli("translations", "status", "--format", "markdown");
    expect(md.stdout).toContain("| **French** | **all (100%)** | **3 / 3** | **0** | **0** |");
    expect(md.stdout).toContain("| French | categories (read-only in API v1, not counted) | 1 / 2 | – | – |");
    expect(md.stdout).toContain("| French | brand texts (read-only in API v1, not counted) | 1 / 2 | – | – |");
  });

  it("the config rule (validate) counts only units: a missing category text does not fail it", async () => {
    await writeFile(path.join(dir, "pimctl.yaml"), "dir: catalogue\ntranslations:\n  required: [French]\n  fail_under: 100\n");
    const r = await cli("validate");
    expect(r.code, r.stderr).toBe(0);
  });

  it("mark-reviewed --all records units only", async () => {
    const r = await cli("translations", "mark-reviewed", "--all");
    expect(r.code, r.stderr).toBe(0);
    expect(r.stderr).toContain("Marked 3 translations reviewed");
    expect(await lockIds()).toEqual(
      [
        'attribute["Colour"].value["Red"].version["French"]',
        'attribute["Colour"].version["French"].field["name"]',
        'brand["Acme"].attribute["Colour"].version["French"]',
      ].sort(),
    );
  });
});
