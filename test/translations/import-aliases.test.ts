/**
 * Import into manifests that share text through YAML anchors, aliases and merge keys (issue 32):
 * a translation changes its own text and no other. Each case reads the file back as data (the
 * `yaml` library, merge keys on, as the loader reads it) and expects exactly the data before with
 * the translation set, or a refusal that names the unit and the record it would have changed,
 * with the file untouched.
 */
import { writeFile } from "node:fs/promises";
import path from "node:path";
import { parse } from "yaml";
import { afterEach, describe, expect, it } from "vitest";
import { offlineProject, type OfflineProject } from "./offline-project.js";

let p: OfflineProject;
afterEach(() => p.close());

async function project(manifest: string): Promise<void> {
  p = await offlineProject(manifest, undefined, "pimctl-tr-alias-");
}
const cli = (...args: string[]) => p.cli(...args);
const manifest = () => p.manifest();
const data = (text: string) => parse(text, { merge: true }) as Record<string, Array<Record<string, unknown>>>;

/** Import [unit id, master text, translation] rows from a CSV. */
async function importRows(rows: Array<[string, string, string]>) {
  const q = (c: string) => `"${c.replace(/"/g, '""')}"`;
  await writeFile(
    path.join(p.dir, "t.csv"),
    `id,state,source,target,notes\n${rows.map(([id, s, t]) => [q(id), "new", q(s), q(t), ""].join(",")).join("\n")}\n`,
  );
  return cli("translations", "import", "t.csv");
}
/** Colour with an anchored versions map (French and German), and Size taking it through `sizeLine`. */
const sharingColour = (sizeLine: string) =>
  ["attributes:", "  - name: Colour", "    type: text", "    versions: &v", "      French: { name: Couleur }", "      German: { name: Farbe }"]
    .concat(["  - name: Size", "    type: text", sizeLine, ""])
    .join("\n");
const nameUnit = (attribute: string, version: string) => `attribute["${attribute}"].version["${version}"].field["name"]`;

/** The data of `before` with the translation of `attribute`'s name in `version` set: what import must leave. */
function withName(before: string, attribute: string, version: string, text: string) {
  const d = data(before);
  const a = d.attributes!.find((x) => x.name === attribute)!;
  const versions = { ...(a.versions as Record<string, Record<string, string>> | undefined) };
  versions[version] = { ...versions[version], name: text };
  a.versions = versions;
  return d;
}

describe("import and YAML anchors", () => {
  it("an anchored translation (&g) aliased by a master text (note: *g): the note keeps the old text", async () => {
    const before = ["attributes:", "  - name: Colour", "    type: text", "    versions:", "      German:", "        name: &g Farbe", "    note: *g", ""].join(
      "\n",
    );
    await project(before);
    const r = await importRows([[nameUnit("Colour", "German"), "Colour", "Farbton"]]);
    expect(r.code, r.stderr).toBe(0);
    const after = await manifest();
    expect(data(after)).toEqual(withName(before, "Colour", "German", "Farbton"));
    expect(data(after).attributes![0]!.note).toBe("Farbe");
    expect((await cli("validate")).code).toBe(0);
  });

  it("across records: one attribute's import never changes another's aliased translation, either way round", async () => {
    const before = [
      "attributes:",
      "  - name: Colour",
      "    type: text",
      "    versions: { German: { name: &n Farbe } }",
      "  - name: Hue",
      "    type: text",
      "    versions: { German: { name: *n } }",
      "  - name: Tint",
      "    type: text",
      "    versions:",
      "      German:",
      "        name: *n",
      "",
    ].join("\n");
    await project(before);
    const first = await importRows([[nameUnit("Colour", "German"), "Colour", "Farbton"]]);
    expect(first.code, first.stderr).toBe(0);
    const once = await manifest();
    expect(data(once)).toEqual(withName(before, "Colour", "German", "Farbton"));
    // The alias that was translated is written as its own text; the anchor stays with the others.
    const second = await importRows([[nameUnit("Hue", "German"), "Hue", "Farbwert"]]);
    expect(second.code, second.stderr).toBe(0);
    expect(data(await manifest())).toEqual(withName(once, "Hue", "German", "Farbwert"));
    expect((await cli("validate")).code).toBe(0);
  });

  it("a versions map shared through an alias (versions: *v): the other record keeps its translations and gets no new one", async () => {
    const before = sharingColour("    versions: *v");
    await project(before);
    const colour = await importRows([[nameUnit("Colour", "Spanish"), "Colour", "Color"]]);
    expect(colour.code, colour.stderr).toBe(0);
    const once = await manifest();
    expect(data(once)).toEqual(withName(before, "Colour", "Spanish", "Color"));
    const size = await importRows([[nameUnit("Size", "French"), "Size", "Taille"]]);
    expect(size.code, size.stderr).toBe(0);
    expect(data(await manifest())).toEqual(withName(once, "Size", "French", "Taille"));
    expect((await cli("validate")).code).toBe(0);
  });
});

describe("import and merge keys", () => {
  it("versions inherited through <<: { versions: *v } are kept when a new version is added", async () => {
    const before = sharingColour("    <<: { versions: *v }");
    await project(before);
    const r = await importRows([[nameUnit("Size", "Spanish"), "Size", "Talla"]]);
    expect(r.code, r.stderr).toBe(0);
    const after = data(await manifest());
    expect(after).toEqual(withName(before, "Size", "Spanish", "Talla"));
    expect(after.attributes![1]!.versions).toEqual({ French: { name: "Couleur" }, German: { name: "Farbe" }, Spanish: { name: "Talla" } });
    expect((await cli("validate")).code).toBe(0);
  });

  it("an inherited translation replaced, and a version added below a merged versions map (<<: *base)", async () => {
    const before = [
      "attributes:",
      "  - name: Colour",
      "    type: text",
      "    versions: &v",
      "      French: { name: Couleur, note: Teinte }",
      "  - name: Size",
      "    type: text",
      "    note: EU sizes",
      "    versions:",
      "      <<: *v",
      "      German: { name: Größe }",
      "",
    ].join("\n");
    await project(before);
    // Size's French name is inherited with a note: replacing the name keeps the note.
    const r = await importRows([
      [nameUnit("Size", "French"), "Size", "Taille"],
      [`attribute["Size"].version["German"].field["note"]`, "EU sizes", "EU-Größen"],
    ]);
    expect(r.code, r.stderr).toBe(0);
    const expected = withName(before, "Size", "French", "Taille");
    (expected.attributes![1]!.versions as Record<string, Record<string, string>>).German!.note = "EU-Größen";
    expect(data(await manifest())).toEqual(expected);
    expect(data(await manifest()).attributes![0]).toEqual(data(before).attributes![0]);
  });

  it("a whole entry merged into another (<<: *colour): a version added to the one is refused, naming the unit and the record it would change", async () => {
    const before = [
      "attributes:",
      "  - &colour",
      "    name: Colour",
      "    type: text",
      "    versions: { French: { name: Couleur } }",
      "  - <<: *colour",
      "    name: Hue",
      "",
    ].join("\n");
    await project(before);
    const r = await importRows([[nameUnit("Colour", "Spanish"), "Colour", "Color"]]);
    expect(r.code).toBe(1);
    expect(r.stderr).toContain(`unit ${nameUnit("Colour", "Spanish")} would also change attribute["Hue"]`);
    expect(r.stderr).toMatch(/catalogue\/c\.yaml:6:\d+/);
    expect(r.stderr).toContain("nothing was written");
    expect(await manifest()).toBe(before);
    // The record that inherits nothing that changes is written: Hue's own version is its own text.
    const hue = await importRows([[nameUnit("Hue", "Spanish"), "Hue", "Matiz"]]);
    expect(hue.code, hue.stderr).toBe(0);
    expect(data(await manifest())).toEqual(withName(before, "Hue", "Spanish", "Matiz"));
  });
});
