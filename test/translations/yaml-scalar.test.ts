/**
 * A translation is written into a manifest as a YAML scalar (src/manifest/yaml-text.ts
 * scalarText) and must read back as exactly that string: `---` and `...` (document markers),
 * `--- x`, white space YAML does not trim (no-break space, U+2028, NEL, a byte order mark),
 * control and format characters, indicators, numbers and booleans. A property test over
 * arbitrary strings in every place import writes one (a block map's value or key, a flow
 * map's, a replaced single- or double-quoted or plain scalar), read by the loader
 * (src/manifest/yaml.ts) and by the `yaml` library; then the same texts through
 * `translations import`.
 */
import { mkdtemp, mkdir, readFile, rm, writeFile } from "node:fs/promises";
import { tmpdir } from "node:os";
import path from "node:path";
import fc from "fast-check";
import { propertyParams } from "../helpers/seed.js";
import { parse } from "yaml";
import { afterEach, describe, expect, it } from "vitest";
import { memoryIo } from "../../src/cli/io.js";
import { run } from "../../src/cli/run.js";
import { parseYaml } from "../../src/manifest/yaml.js";
import { scalarText, templateText } from "../../src/manifest/yaml-text.js";

/** Texts whose plain YAML form would mean something else (or nothing), found by review and by the property below. */
const AWKWARD = [
  "---",
  "...",
  "--- a",
  "... a",
  "---a",
  "- a",
  "-",
  "? a",
  ": a",
  "a: b",
  "a:",
  "a #b",
  "#a",
  "&a",
  "*a",
  "!a",
  "%a",
  "@a",
  "`a",
  "|",
  ">",
  "'a",
  '"a',
  "true",
  "null",
  "~",
  "1",
  "0x1F",
  ".inf",
  "1e3",
  " a",
  "a ",
  "",
  "a\u00a0",
  "\u00a0",
  "a\u2028",
  "\u2028",
  "\u0085",
  "\ufeffa",
  "a\ufeff",
  "\t",
  "a\tb",
  "\u200b",
  "a\u0000b",
  "\u007f",
  "{a",
  "[a",
  "a, b",
  "a}b",
  "a\\b",
  'a"b',
  "a'b",
  "a\nb",
  "a\r\nb",
  "\ud83d\ude00",
  "\udb40\udc01",
];

/** Every place import writes a scalar, as a document with the scalar at `k`. */
const PLACES: Record<string, (text: string) => string> = {
  "block map value": (t) => `a:\n  k: ${t}\n`,
  "flow map value": (t) => `a: { k: ${t} }\n`,
  "flow map value, before another pair": (t) => `a: { k: ${t}, z: 1 }\n`,
  "value on the line below its key": (t) => `a:\n  k:\n    ${t}\n`,
};
const OPTIONS: Array<{ name: string; opts: Parameters<typeof scalarText>[1]; place: keyof typeof PLACES }> = [
  { name: "new, block", opts: {}, place: "block map value" },
  { name: "new, flow", opts: { flow: true }, place: "flow map value" },
  { name: "new, flow (not last)", opts: { flow: true }, place: "flow map value, before another pair" },
  { name: "replacing a plain scalar", opts: { like: "PLAIN" }, place: "block map value" },
  { name: "replacing a plain scalar on its own line", opts: { like: "PLAIN" }, place: "value on the line below its key" },
  { name: "replacing a single-quoted scalar", opts: { like: "QUOTE_SINGLE" }, place: "block map value" },
  { name: "replacing a single-quoted scalar in a flow map", opts: { flow: true, like: "QUOTE_SINGLE" }, place: "flow map value" },
  { name: "replacing a double-quoted scalar", opts: { like: "QUOTE_DOUBLE" }, place: "block map value" },
];

/** The text at a.k as the manifest loader reads it, and as the yaml library does. */
function readsBack(doc: string): { loader: unknown; library: unknown } {
  const loaded = parseYaml(doc, "t.yaml", {});
  expect(loaded.errors.map((e) => e.message)).toEqual([]);
  return {
    loader: (loaded.data as { a: { k: unknown } }).a.k,
    library: (parse(doc) as { a: { k: unknown } }).a.k,
  };
}

describe("a text written as a YAML scalar reads back as exactly that text", () => {
  it.each(OPTIONS)("$name: every awkward text", ({ opts, place }) => {
    for (const text of AWKWARD) {
      const doc = PLACES[place]!(scalarText(templateText(text, new Set()), opts));
      expect(readsBack(doc), JSON.stringify(doc)).toEqual({ loader: text, library: text });
    }
  });

  it.each(OPTIONS)("$name: any string (property)", ({ opts, place }) => {
    const texts = fc.oneof(
      fc.string({ unit: "binary", maxLength: 12 }),
      fc.string({ unit: fc.constantFrom(..."-.:#'\"?!&*|>{}[], \t\n\u00a0\u2028\ufeffa1"), maxLength: 8 }),
      fc.constantFrom(...AWKWARD),
    );
    fc.assert(
      fc.property(texts, (text) => {
        const doc = PLACES[place]!(scalarText(templateText(text, new Set()), opts));
        expect(readsBack(doc), JSON.stringify(doc)).toEqual({ loader: text, library: text });
      }),
      propertyParams({ numRuns: 400 }),
    );
  });

  it("a key (a version's or a field's name) reads back too", () => {
    fc.assert(
      fc.property(fc.oneof(fc.string({ unit: "grapheme", minLength: 1, maxLength: 10 }), fc.constantFrom(...AWKWARD.filter((t) => t !== ""))), (key) => {
        const block = parse(`a:\n  ${scalarText(key)}: x\n`) as { a: Record<string, string> };
        const flow = parse(`a: { ${scalarText(key, { flow: true })}: x }\n`) as { a: Record<string, string> };
        expect(Object.keys(block.a)).toEqual([key]);
        expect(Object.keys(flow.a)).toEqual([key]);
      }),
      propertyParams({ numRuns: 300 }),
    );
  });

  it("plain stays plain where it can, and quotes keep their kind", () => {
    expect(scalarText("Rouge vif")).toBe("Rouge vif");
    expect(scalarText("Couleur (sombre)", { flow: true })).toBe("Couleur (sombre)");
    expect(scalarText("L'été", { like: "QUOTE_SINGLE" })).toBe("'L''été'");
    expect(scalarText("Rouge", { like: "QUOTE_DOUBLE" })).toBe('"Rouge"');
    expect(scalarText("---")).toBe('"---"');
    expect(scalarText("a\u00a0")).toBe('"a\\u00A0"');
  });
});

let dir: string;
afterEach(async () => {
  if (dir) await rm(dir, { recursive: true, force: true });
});

describe("translations import writes such texts", () => {
  it("`---`, `...`, `--- x` and trailing no-break spaces are imported into block and flow maps and read back", async () => {
    dir = await mkdtemp(path.join(tmpdir(), "pimctl-tr-scalar-"));
    await mkdir(path.join(dir, "catalogue"));
    await writeFile(path.join(dir, "pimctl.yaml"), "dir: catalogue\n");
    const manifest =
      "attributes:\n  - name: Finish\n    type: text\n    versions:\n      French:\n        name: Fini\n" +
      "  - name: Size\n    type: selectbox\n    values:\n      - { value: Small, versions: { French: 'Petit' } }\n      - { value: Large }\n";
    await writeFile(path.join(dir, "catalogue", "c.yaml"), manifest);
    const rows: Array<[string, string, string]> = [
      ['attribute["Finish"].version["French"].field["name"]', "Finish", "---"],
      ['attribute["Finish"].version["Spanish"].field["name"]', "Finish", "..."],
      ['attribute["Size"].version["French"].field["name"]', "Size", "--- Taille"],
      ['attribute["Size"].value["Small"].version["French"]', "Small", "... petit"],
      ['attribute["Size"].value["Large"].version["French"]', "Large", "Grand\u00a0"],
    ];
    const csv = `id,source,target\n${rows.map((r) => r.map((c) => `"${c.replace(/"/g, '""')}"`).join(",")).join("\n")}\n`;
    await writeFile(path.join(dir, "t.csv"), csv);
    const io = memoryIo({ cwd: dir, env: {} });
    const code = await run(["translations", "import", "t.csv"], io);
    expect(code, io.err.join("")).toBe(0);
    const exported = memoryIo({ cwd: dir, env: {} });
    expect(await run(["translations", "export", "--language", "French", "--format", "csv"], exported)).toBe(0);
    for (const [id] of rows.filter(([id]) => id.includes("French"))) expect(exported.out.join(""), id).toContain(`${id.replace(/"/g, '""')}",translated,`);
    const text = await readFile(path.join(dir, "catalogue", "c.yaml"), "utf8");
    expect(text).toContain('name: "---"');
    expect(text).toContain('Spanish:\n        name: "..."');
    expect(text).toContain("French: '... petit'");
    expect(text).toContain('French: "Grand\\u00A0"');
  });
});
