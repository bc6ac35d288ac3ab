/**
 * The exchange files open in real tools (msgfmt for PO, an XML parser for
 * XLIFF) and read back to the same units, with names no format likes
 * (quotes, ampersands, angle brackets, commas, line breaks, accents); and
 * import's refusals: unknown ids name the unit, stale units are not written.
 */
import { mkdtemp, readFile, rm, writeFile, mkdir } from "node:fs/promises";
import { tmpdir } from "node:os";
import path from "node:path";
import { XMLValidator } from "fast-xml-parser";
import { afterEach, beforeEach, describe, expect, it } from "vitest";
import { readUnits, writeUnits, type Unit } from "../../src/translations/formats/index.js";
import { HAS_MSGFMT, MSGFMT_REQUIRED, MSGFMT_SKIP, msgfmtCheck } from "./msgfmt.js";
import { cliIn } from "../helpers/offline.js";

const units: Unit[] = [
  {
    id: 'attribute["Colour \\"dark\\""].version["French"].field["name"]',
    source: 'Colour "dark"',
    target: "Couleur « sombre »",
    state: "translated",
    notes: ["attribute (selectbox)", "field: name"],
  },
  {
    id: 'attribute["Colour \\"dark\\""].value["Red & <b>"].version["French"]',
    source: "Red & <b>",
    target: "",
    state: "new",
    notes: ['a selectable value of the attribute "Colour"'],
  },
  {
    id: 'category["Home/Bath, Body"].version["French"].field["desc"]',
    source: "Two lines,\r\nwith a comma\tand a tab &amp;",
    target: "Deux lignes,\navec une virgule",
    state: "needs-review",
    notes: ["category Home > Bath, Body"],
  },
];
const file = { version: "French", sourceLanguage: "en", targetLanguage: "fr", units };
const back = units.map((u) => ({ id: u.id, source: u.source, target: u.target }));

describe("exchange formats", () => {
  it.each(["xliff", "xliff2"] as const)("%s is well-formed XML and reads back to the same units", (format) => {
    const text = writeUnits(format, file);
    expect(XMLValidator.validate(text)).toBe(true);
    expect(readUnits(text, `fr.xlf`).map(({ id, source, target }) => ({ id, source, target }))).toEqual(back);
    // An outdated unit is marked for review; import leaves such a unit out until the translator clears it.
    expect(readUnits(text, "fr.xlf").map((u) => u.needsReview)).toEqual([false, false, true]);
  });

  it("csv reads back (quotes, commas, line breaks) and ignores the state column", () => {
    const text = writeUnits("csv", file);
    expect(text.startsWith("\uFEFFid,state,source,target,notes\r\n")).toBe(true);
    expect(readUnits(text, "fr.csv")).toEqual(back.map((u) => ({ ...u, needsReview: false })));
  });

  it("po reads back; outdated is fuzzy", () => {
    const text = writeUnits("po", file);
    expect(text).toContain("#, fuzzy");
    expect(text).toContain('#. a selectable value of the attribute "Colour"');
    expect(readUnits(text, "fr.po").map(({ id, source, target }) => ({ id, source, target }))).toEqual(back);
  });

  it.skipIf(!HAS_MSGFMT && !MSGFMT_REQUIRED)(
    `po passes msgfmt --check (GNU gettext)${HAS_MSGFMT || MSGFMT_REQUIRED ? "" : ` [skipped: ${MSGFMT_SKIP}]`}`,
    () => {
      expect(HAS_MSGFMT, MSGFMT_SKIP).toBe(true);
      expect(() => msgfmtCheck(writeUnits("po", file))).not.toThrow();
      // msgfmt is a real check: a broken file fails it.
      expect(() => msgfmtCheck('msgid "a"\nmsgstr "b\n')).toThrow();
    },
  );
});

const MANIFEST =
  "attributes:\n  - name: Colour\n    type: selectbox\n    versions: { French: { name: Couleur } }\n    values:\n      - { value: Red, versions: { French: Rouge } }\n";
let dir: string;
const cli = (...args: string[]) => cliIn(dir, args);
beforeEach(async () => {
  dir = await mkdtemp(path.join(tmpdir(), "pimctl-tr-formats-"));
  await mkdir(path.join(dir, "catalogue"));
  await writeFile(path.join(dir, "pimctl.yaml"), "dir: catalogue\n");
  await writeFile(path.join(dir, "catalogue", "a.yaml"), MANIFEST);
});
afterEach(() => rm(dir, { recursive: true, force: true }));

describe("translations import refuses what it cannot place", () => {
  it("an unknown unit id is an error naming it; nothing is written", async () => {
    await writeFile(
      path.join(dir, "fr.csv"),
      'id,source,target\r\n"attribute[""Colour""].version[""French""].field[""name""]",Colour,Teinte\r\n"attribute[""Hue""].version[""French""].field[""name""]",Hue,Teinte\r\n',
    );
    const r = await cli("translations", "import", "fr.csv");
    expect(r.code).toBe(1);
    expect(r.stderr).toContain('unit attribute["Hue"].version["French"].field["name"]: no such text in the manifests');
    expect(await readFile(path.join(dir, "catalogue", "a.yaml"), "utf8")).toBe(MANIFEST);
  });

  it("a unit whose source is no longer the master text is stale: reported, not written (exit 4); the rest is", async () => {
    await writeFile(
      path.join(dir, "fr.csv"),
      'id,source,target\r\n"attribute[""Colour""].version[""French""].field[""name""]",Color,Teinte\r\n"attribute[""Colour""].value[""Red""].version[""French""]",Red,Rouge vif\r\n',
    );
    const r = await cli("translations", "import", "fr.csv");
    expect(r.code, r.stderr).toBe(4);
    expect(r.stderr).toContain(
      'stale, not written: attribute["Colour"].version["French"].field["name"]: the master text changed since the export: "Color" is now "Colour"',
    );
    expect(await readFile(path.join(dir, "catalogue", "a.yaml"), "utf8")).toBe(MANIFEST.replace("Rouge }", "Rouge vif }"));
  });

  it("status --fail-under exits 3 below the threshold; mark-reviewed records, and a changed master is then outdated", async () => {
    expect((await cli("translations", "status", "--language", "German", "--fail-under", "50")).code).toBe(3);
    const ok = await cli("translations", "status", "--fail-under", "100");
    expect(ok.code, ok.stderr).toBe(0);
    expect(ok.stdout).toContain("French: 2 of 2 translated (100%), 0 missing, 0 outdated");
    expect((await cli("translations", "mark-reviewed", 'attribute["Nope"]')).code).toBe(1);
    const marked = await cli("translations", "mark-reviewed", 'attribute["Colour"]');
    expect(marked.stderr).toContain("Marked 2 translations reviewed in translations.lock.yaml");
    await writeFile(path.join(dir, "catalogue", "a.yaml"), MANIFEST.replace("- { value: Red,", "- { value: Crimson, previous_values: [Red],"));
    const status = await cli("translations", "status", "--format", "markdown");
    expect(status.stdout).toContain("| **French** | **all (50%)** | **1 / 2** | **0** | **1** |");
    expect(status.stdout).toContain('- `attribute["Colour"].value["Crimson"].version["French"]`');
  });
});
