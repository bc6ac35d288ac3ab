/**
 * Import edits a hand-formatted manifest in place: comments, flow maps,
 * quoting and order stay byte for byte; only the translated lines change.
 * Category texts are no units (API v1 cannot write category versions): the
 * export leaves them out and the categories stay as they were.
 */
import { mkdtemp, readFile, rm, writeFile, mkdir } from "node:fs/promises";
import { tmpdir } from "node:os";
import path from "node:path";
import { afterEach, beforeEach, describe, expect, it } from "vitest";
import { cliIn } from "../helpers/offline.js";

const MANIFEST = `# Attributes, kept by hand.
attributes:
  - name: Colour   # shown on every product
    type: selectbox
    versions: { French: { name: Couleur } }
    values:
      - { value: Red, versions: { French: Rouge } }
      - value: "Blue"
        # Blue has no German yet
        versions:
          French: 'Bleu'
      - value: Green
  - name: 'Size'
    type: text
    note: "Clothing size, EU"
  - name: Fit
    type: text
    versions:
      French:
        name: Coupe
  - {name: Shade, type: text}

categories:
  - name: Apparel
    versions:
      French:
        name: Vêtements
    children:
      - {name: Shirts}
`;

let dir: string;
const cli = (...args: string[]) => cliIn(dir, args);

beforeEach(async () => {
  dir = await mkdtemp(path.join(tmpdir(), "pimctl-tr-layout-"));
  await mkdir(path.join(dir, "catalogue"));
  await writeFile(path.join(dir, "pimctl.yaml"), "dir: catalogue\n");
  await writeFile(path.join(dir, "catalogue", "catalogue.yaml"), MANIFEST);
});
afterEach(() => rm(dir, { recursive: true, force: true }));

describe("translations import on a hand-formatted manifest", () => {
  it("changes only the translated lines (the rest byte for byte) and records them in the lock file", async () => {
    const exported = await cli("translations", "export", "--language", "German", "--format", "csv", "--out", "de.csv");
    expect(exported.code, exported.stderr).toBe(0);
    const csv = await readFile(path.join(dir, "de.csv"), "utf8");
    const german: Record<string, string> = {
      'attribute["Colour"].version["German"].field["name"]': "Farbe",
      'attribute["Colour"].value["Red"].version["German"]': "Rot",
      'attribute["Colour"].value["Blue"].version["German"]': "Blau, dunkel",
      'attribute["Colour"].value["Green"].version["German"]': "Grün",
      'attribute["Size"].version["German"].field["name"]': "Größe",
      'attribute["Size"].version["German"].field["note"]': "Kleidergröße: EU",
      'attribute["Fit"].version["German"].field["name"]': "Passform",
      'attribute["Shade"].version["German"].field["name"]': "Farbton",
    };
    expect(csv).not.toContain("category[");
    // Fill the target column as a spreadsheet would (ids are the first cell, targets empty).
    const lines = csv.split("\r\n").map((line) => {
      const id = Object.keys(german).find((k) => line.startsWith(`"${k.replace(/"/g, '""')}"`));
      return id ? line.replace(/,new,("(?:[^"]|"")*"|[^,]*),,/, (_m, source: string) => `,new,${source},"${german[id]!.replace(/"/g, '""')}",`) : line;
    });
    await writeFile(path.join(dir, "de.csv"), lines.join("\r\n"));

    const dry = await cli("translations", "import", "de.csv", "--dry-run");
    expect(dry.code, dry.stderr).toBe(0);
    expect(dry.stdout).toContain("+    versions: { French: { name: Couleur }, German: { name: Farbe } }");
    expect(await readFile(path.join(dir, "catalogue", "catalogue.yaml"), "utf8")).toBe(MANIFEST);

    const imported = await cli("translations", "import", "de.csv");
    expect(imported.code, imported.stderr).toBe(0);
    expect(imported.stderr).toContain("Wrote 8 translations");
    const after = await readFile(path.join(dir, "catalogue", "catalogue.yaml"), "utf8");
    expect(after).toBe(`# Attributes, kept by hand.
attributes:
  - name: Colour   # shown on every product
    type: selectbox
    versions: { French: { name: Couleur }, German: { name: Farbe } }
    values:
      - { value: Red, versions: { French: Rouge, German: Rot } }
      - value: "Blue"
        # Blue has no German yet
        versions:
          French: 'Bleu'
          German: Blau, dunkel
      - value: Green
        versions:
          German: Grün
  - name: 'Size'
    type: text
    note: "Clothing size, EU"
    versions:
      German:
        name: Größe
        note: "Kleidergröße: EU"
  - name: Fit
    type: text
    versions:
      French:
        name: Coupe
      German:
        name: Passform
  - {name: Shade, type: text, versions: { German: { name: Farbton } }}

categories:
  - name: Apparel
    versions:
      French:
        name: Vêtements
    children:
      - {name: Shirts}
`);
    const validate = await cli("validate");
    expect(validate.code, validate.stderr).toBe(0);
    const status = JSON.parse((await cli("translations", "status", "--language", "German", "--format", "json")).stdout);
    expect(status.versions[0]).toMatchObject({ version: "German", total: 8, translated: 8, missing: 0, outdated: 0 });
    const lock = await readFile(path.join(dir, "translations.lock.yaml"), "utf8");
    expect(lock.split("\n").filter((l) => l.startsWith("  ")).length).toBe(8);
  });

  it("replaces an existing translation in its own quotes, and --dry-run writes nothing", async () => {
    const manifest = MANIFEST.replace("versions: { French: Rouge }", 'versions: { French: "Rouge" }');
    await writeFile(path.join(dir, "catalogue", "catalogue.yaml"), manifest);
    const csv = [
      "id,source,target",
      '"attribute[""Colour""].value[""Blue""].version[""French""]",Blue,Bleu d\'azur',
      '"attribute[""Colour""].value[""Red""].version[""French""]",Red,Rouge vif',
      "",
    ].join("\r\n");
    await writeFile(path.join(dir, "fr.csv"), csv);
    const dry = await cli("translations", "import", "fr.csv", "--dry-run");
    expect(dry.code, dry.stderr).toBe(0);
    expect(await readFile(path.join(dir, "catalogue", "catalogue.yaml"), "utf8")).toBe(manifest);
    const r = await cli("translations", "import", "fr.csv");
    expect(r.code, r.stderr).toBe(0);
    expect(await readFile(path.join(dir, "catalogue", "catalogue.yaml"), "utf8")).toBe(
      manifest.replace("French: 'Bleu'", "French: 'Bleu d''azur'").replace('French: "Rouge"', 'French: "Rouge vif"'),
    );
  });
});
