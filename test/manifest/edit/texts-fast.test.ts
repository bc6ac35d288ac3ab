/**
 * The import editor's fast path (plain YAML, positions from the loader's fast parser) against the
 * reference editor (the `yaml` library's document): the same edits give the same text, byte for
 * byte, on generated manifests of every layout the fast parser reads (block and flow entries and
 * versions, comments above, inside and after maps, quoted and plain scalars, lists at their key's
 * column), and the result still reads as the data with the translations set.
 */
import { describe, expect, it } from "vitest";
import { parse } from "yaml";
import { parseFastYaml } from "../../../src/manifest/fast-yaml.js";
import { entriesOf } from "../../../src/manifest/entries.js";
import { editPlainYaml } from "../../../src/manifest/edit/texts-fast.js";
import { editYamlDocument, type EntryEdits } from "../../../src/manifest/edit/texts.js";
import { prng } from "../../helpers/random.js";
import { seedNote, seedsOr } from "../../helpers/seed.js";

const VERSIONS = ["French", "German", "Spanish"];

function manifest(rnd: () => number): string {
  const pick = <T>(xs: readonly T[]): T => xs[Math.floor(rnd() * xs.length)]!;
  const text = (w: string) => pick([w, `'${w} l''été'`, `"${w} \\"q\\""`, `${w} # trailing`, `${w}: x`.replace(": ", " - ")]);
  const lines = ["# generated", "attributes:"];
  for (let a = 0; a < 3; a++) {
    const versions = VERSIONS.filter(() => rnd() < 0.5);
    if (rnd() < 0.2) {
      const flow = versions.map((v) => `${v}: ${pick(["Nom", "'Nom'", '"Nom"'])}`).join(", ");
      lines.push(`  - { name: Attr ${a}, type: text${versions.length ? `, note: ${pick(["N", "'N'"])}` : ""}${flow ? `, x: ${flow.length}` : ""} }`);
      continue;
    }
    lines.push(`  - name: ${pick([`Attr ${a}`, `'Attr ${a}'`])}${rnd() < 0.3 ? "   # shown" : ""}`, "    type: selectbox");
    if (rnd() < 0.5) lines.push(`    note: ${text("Note")}`);
    if (versions.length) {
      lines.push("    versions:");
      for (const v of versions) {
        if (rnd() < 0.3) lines.push(`      ${v}: {${rnd() < 0.5 ? "" : ` name: ${text("Nom").replace(/ #.*/, "")} `}}`);
        else lines.push(`      ${v}:`, `        name: ${text("Nom")}`, ...(rnd() < 0.3 ? ["        # after the name"] : []));
      }
      if (rnd() < 0.3) lines.push("    # after the versions");
    }
    if (rnd() < 0.7) {
      lines.push("    values:");
      const dash = rnd() < 0.5 ? "    " : "      ";
      for (let v = 0; v < 3; v++) {
        const has = VERSIONS.filter(() => rnd() < 0.4);
        if (rnd() < 0.2) lines.push(`${dash}- { value: V${v} }`);
        else {
          lines.push(`${dash}- value: ${pick([`V${v}`, `"V${v}"`])}`);
          if (has.length && rnd() < 0.3) lines.push(`${dash}  versions: { ${has.map((x) => `${x}: W${v}`).join(", ")} }`);
          else if (has.length) lines.push(`${dash}  versions:`, ...has.map((x) => `${dash}    ${x}: ${text(`W${v}`)}`));
          if (rnd() < 0.3) lines.push(`${dash}  # a comment under the value`);
        }
      }
    }
    if (rnd() < 0.2) lines.push("", "# between entries");
  }
  return `${lines.join("\n")}\n`;
}

/** Random translations for the entries of a file: names, notes and values in any version, some there already. */
function edits(text: string, rnd: () => number): EntryEdits[] {
  const fast = parseFastYaml(text, (v) => v)!;
  return entriesOf(fast.data).flatMap((e) => {
    if (rnd() < 0.3) return [];
    const isValue = e.path.length === 4;
    const keys = (v: string) => (isValue ? ["versions", v] : ["versions", v, rnd() < 0.7 ? "name" : "note"]);
    const list = VERSIONS.filter(() => rnd() < 0.5).map((v) => ({ keys: keys(v), value: rnd() < 0.2 ? "a, {b} # c" : `T ${v} ${rnd().toFixed(3)}` }));
    return list.length ? [{ offset: fast.offsetOf(e.path)!, where: e.label, edits: list }] : [];
  });
}

describe("the import editor's fast path", () => {
  it("writes what the reference editor writes, on 400 generated manifests (seeded)", () => {
    let fastUsed = 0;
    for (const seed of seedsOr(Array.from({ length: 400 }, (_, i) => i + 1))) {
      const rnd = prng(seed);
      const text = manifest(rnd);
      const entries = edits(text, rnd);
      if (!entries.length) continue;
      let reference: string;
      try {
        reference = editYamlDocument(text, "f.yaml", entries).text;
      } catch {
        // A field that is not a text here (a note on a flow entry with a number): neither writes it.
        expect(editPlainYaml(text, entries), seedNote(seed)).toBeUndefined();
        continue;
      }
      const fast = editPlainYaml(text, entries);
      if (!fast) continue;
      fastUsed++;
      expect(fast.text, `${seedNote(seed)}\n${text}`).toBe(reference);
      expect(() => parse(fast.text)).not.toThrow();
    }
    // The fast path takes most files: a differential test that compares nothing proves nothing.
    expect(fastUsed).toBeGreaterThan(200);
  });
});
