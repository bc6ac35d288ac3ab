/**
 * The one manifest editor (src/manifest/edit/editor.ts) that `translations import` and
 * `export --merge` both write through, tested on its own: a scalar written over in every style
 * it can stand in (plain, quoted, block, flow, empty, an alias, an anchored text) reads back as
 * exactly the string written, for any string (a property test; its seed is printed on failure),
 * and nothing else in the file reads differently; an alias split, an anchor handed on, pairs
 * added to flow and block maps, a merge-key-inherited map written out, a pair removed, CRLF
 * line ends kept.
 */
import fc from "fast-check";
import { isMap, isSeq, parseDocument, type Alias, type Node, type Pair, type Scalar, type YAMLMap } from "yaml";
import { describe, expect, it } from "vitest";
import { YamlEdit } from "../../../src/manifest/edit/editor.js";
import { editYamlDocument } from "../../../src/manifest/edit/texts.js";
import { parseYaml } from "../../../src/manifest/yaml.js";
import { templateText } from "../../../src/manifest/yaml-text.js";
import { seedOr } from "../../helpers/seed.js";

type Path = Array<string | number>;

/** The data a text reads as (the yaml library with merge keys, as the loader reads YAML). */
const data = (text: string): unknown => {
  const doc = parseDocument(text, { merge: true });
  expect(
    doc.errors.map((e) => e.message),
    text,
  ).toEqual([]);
  return doc.toJS({ maxAliasCount: 100 });
};

/** `value` at `path` of a copy of `tree`. */
function setAt(tree: unknown, path: Path, value: unknown): unknown {
  const copy = structuredClone(tree) as Record<string | number, unknown>;
  let at = copy;
  for (const k of path.slice(0, -1)) at = at[k] as Record<string | number, unknown>;
  at[path.at(-1)!] = value;
  return copy;
}

/** Every style a scalar the editor writes over can stand in: the file, where the scalar is, whether it sits in flow. */
const PLACES: Array<{ name: string; text: string; path: Path; flow: boolean }> = [
  { name: "plain, with a comment after it", text: "a:\n  k: old # note\n  z: 1\n", path: ["a", "k"], flow: false },
  { name: "single-quoted", text: "a:\n  k: 'old'\n  z: 1\n", path: ["a", "k"], flow: false },
  { name: "double-quoted", text: 'a:\n  k: "old"\n  z: 1\n', path: ["a", "k"], flow: false },
  { name: "on the line below its key", text: "a:\n  k:\n    old\n  z: 1\n", path: ["a", "k"], flow: false },
  { name: "a literal block", text: "a:\n  k: |\n    old\n    lines\n  z: 1\n", path: ["a", "k"], flow: false },
  { name: "a folded block, last in the file", text: "a:\n  z: 1\n  k: >-\n    old\n", path: ["a", "k"], flow: false },
  { name: "empty", text: "a:\n  k:\n  z: 1\n", path: ["a", "k"], flow: false },
  { name: "in a flow map, before another pair", text: "a: { k: old, z: 1 }\n", path: ["a", "k"], flow: true },
  { name: "in a flow list", text: "a: [old, 'z']\n", path: ["a", 0], flow: true },
  { name: "an alias (the anchor keeps its text)", text: "d: &x old\na:\n  k: *x\n  z: *x\n", path: ["a", "k"], flow: false },
  { name: "an alias in a flow map", text: "d: &x old\na: { k: *x, z: *x }\n", path: ["a", "k"], flow: true },
  { name: "an anchored text (its aliases keep the old one)", text: "a:\n  k: &x old\n  z: *x\nb: [*x]\n", path: ["a", "k"], flow: false },
  { name: "in a CRLF file", text: "a:\r\n  k: 'old'\r\n  z: 1\r\n", path: ["a", "k"], flow: false },
];

/** The file with `value` written over the scalar at `path`. */
function written(text: string, path: Path, value: string, flow: boolean): string {
  const edit = new YamlEdit("t.yaml", text);
  const node = edit.doc!.getIn(path, true) as Scalar | Alias;
  edit.setScalar(node, value, flow);
  return edit.result();
}

/** Checks a property with a seed of its own; a failure names the seed that finds it again. */
function holds<T>(name: string, property: fc.IProperty<T>, numRuns: number): void {
  const seed = seedOr(20261127);
  const run = fc.check(property, { seed, numRuns, endOnFailure: true });
  if (run.failed)
    throw new Error(
      `${name}: failed with seed ${run.seed} (PIMCTL_TEST_SEED=${run.seed} runs it again), path ${run.counterexamplePath}, ` +
        `counterexample ${JSON.stringify(run.counterexample)}: ${String(run.errorInstance)}`,
    );
}

/** Any string: every code point, the characters YAML gives a meaning, and texts that look like other values. */
const anyText = fc.oneof(
  fc.string({ unit: "binary", maxLength: 16 }),
  fc.string({ unit: fc.constantFrom(..."-.:#'\"?!&*|>%@`{}[], \t\n\r\\\u0085\u00a0\u2028\ufeffa1$"), maxLength: 10 }),
  fc.constantFrom("", "---", "...", "- a", "a: b", "true", "null", "~", "1e3", ".inf", "0x1F", " a", "a ", "${x}", "$${x}", "|", "a\n"),
);

describe("a scalar the editor writes over reads back as exactly the string written", () => {
  it.each(PLACES)("$name: any string (property)", ({ text, path, flow }) => {
    const before = data(text);
    holds(
      "scalar read back",
      fc.property(anyText, (value) => {
        const after = written(text, path, value, flow);
        // Exactly the string at the path, and everything else as it read before (aliases of an anchored text too).
        expect(data(after), JSON.stringify(after)).toEqual(setAt(before, path, value));
      }),
      150,
    );
  });

  it("as the manifest loader reads it too: a `${` written as the template of the text reads back as the text", () => {
    holds(
      "loader read back",
      fc.property(anyText, (value) => {
        const after = written("a:\n  k: 'old'\n  z: 1\n", ["a", "k"], templateText(value, new Set()), false);
        const loaded = parseYaml(after, "t.yaml", {});
        expect(loaded.errors.map((e) => e.message)).toEqual([]);
        expect((loaded.data as { a: { k: unknown } }).a.k).toBe(value);
      }),
      300,
    );
  });

  it("a failing property names its seed (so it can be run again)", () => {
    expect(() =>
      holds(
        "planted",
        fc.property(fc.integer(), (n) => n < 5),
        100,
      ),
    ).toThrow(/failed with seed 20261127 \(PIMCTL_TEST_SEED=20261127 runs it again\)/);
  });

  it("keeps the old scalar's quoting where it can, and everything around it byte for byte", () => {
    expect(written("a:\n  k: 'old' # c\n  z: 1\n", ["a", "k"], "L'été", false)).toBe("a:\n  k: 'L''été' # c\n  z: 1\n");
    expect(written('a: { k: "old", z: 1 }\n', ["a", "k"], "neu", true)).toBe('a: { k: "neu", z: 1 }\n');
    expect(written("a:\n  k: |\n    old\n  z: 1\n", ["a", "k"], "x\ny", false)).toBe('a:\n  k: "x\\ny"\n  z: 1\n');
    expect(written("a:\n  k:\n  z: 1\n", ["a", "k"], "v", false)).toBe("a:\n  k: v\n  z: 1\n");
  });

  it("an anchored text that changes hands its anchor and old text on to its first alias", () => {
    expect(written("a:\n  k: &x old\n  z: *x\nb: [*x]\n", ["a", "k"], "new", false)).toBe("a:\n  k: new\n  z: &x old\nb: [*x]\n");
  });
});

describe("the editor's other edits", () => {
  const mapAtPath = (edit: YamlEdit, path: Path): YAMLMap => {
    const node = edit.doc!.getIn(path, true) as Node;
    if (!isMap(node)) throw new Error(`no map at ${path.join(".")}`);
    return node;
  };

  it("an alias split is written out as a copy of what it stood for, the copy changed, the anchor untouched", () => {
    const text = "base: &b { name: Farbe, n: 2 }\nx:\n  v: *b\n";
    const edit = new YamlEdit("t.yaml", text);
    const copy = edit.splitAlias(edit.doc!.getIn(["x", "v"], true) as Alias);
    expect(copy).toBeInstanceOf(Map);
    (copy as Map<string, unknown>).set("name", "Couleur");
    const after = edit.result();
    expect(after).toBe('base: &b { name: Farbe, n: 2 }\nx:\n  v: { name: "Couleur", n: 2 }\n');
    expect(data(after)).toEqual({ base: { name: "Farbe", n: 2 }, x: { v: { name: "Couleur", n: 2 } } });
  });

  it("a touched anchored map has its aliases written out, so the records that alias it read what they read", () => {
    const text = "d: &d\n  k: a\nr:\n  s: *d\n";
    const edit = new YamlEdit("t.yaml", text);
    const d = mapAtPath(edit, ["d"]);
    edit.touch(d);
    edit.setScalar(d.items[0]!.value as Scalar, "b", false);
    const after = edit.result();
    expect(data(after)).toEqual({ d: { k: "b" }, r: { s: { k: "a" } } });
  });

  it("new pairs go into a flow map after its last pair, and into a block map in its column after its last flat pair", () => {
    const text = "a: { k: 1 }\nb:\n  k: 1\n  list:\n    - x\n  # a comment stays below\nc: 2\n";
    const edit = new YamlEdit("t.yaml", text);
    edit.addPairs(mapAtPath(edit, ["a"]), (s) => (s.flow ? "n: 2" : "wrong"));
    edit.addPairs(mapAtPath(edit, ["b"]), (s) => (s.flow ? "wrong" : "n: 2\nm: 3\n"));
    expect(edit.result()).toBe("a: { k: 1, n: 2 }\nb:\n  k: 1\n  n: 2\n  m: 3\n  list:\n    - x\n  # a comment stays below\nc: 2\n");
  });

  it("a block list gets lines after its last item; a removed pair takes its lines, a list item's first key stays", () => {
    const text = "l:\n  - name: a\n    x: 1\n";
    const edit = new YamlEdit("t.yaml", text);
    const seq = edit.doc!.get("l", true) as Node;
    if (!isSeq(seq)) throw new Error("no list");
    const item = seq.items[0] as YAMLMap;
    expect(edit.appendToList(seq, () => "- name: b\n")).toBe(true);
    expect(edit.removePair(item.items[0] as Pair)).toBe(false);
    expect(edit.removePair(item.items[1] as Pair)).toBe(true);
    expect(edit.result()).toBe("l:\n  - name: a\n  - name: b\n");
  });

  it("inserted lines take a CRLF file's line ends", () => {
    const edit = new YamlEdit("t.yaml", "a:\r\n  k: 1\r\n");
    edit.addPairs(mapAtPath(edit, ["a"]), () => "n: 2\n");
    expect(edit.result()).toBe("a:\r\n  k: 1\r\n  n: 2\r\n");
  });

  it("reads merge keys as the loader does: what `<<` gives a map, its own pairs apart", () => {
    const edit = new YamlEdit("t.yaml", "d: &d { k: 1, v: { F: x } }\ne:\n  <<: *d\n  k: 2\n");
    const e = mapAtPath(edit, ["e"]);
    expect([...edit.givenByMergeKeys(e)]).toEqual([
      ["k", 1],
      ["v", { F: "x" }],
    ]);
    expect(edit.findPair(e, "v")).toBeUndefined();
    expect(edit.keyOf(e.items[0] as Pair)).toBe("<<");
  });

  it("a text set below a key a merge key gives writes out the inherited map with the text in it (the anchor's map as it was)", () => {
    const text = "d: &d\n  versions: { F: { name: Fr } }\nattributes:\n  - <<: *d\n    name: A\n";
    const offset = text.indexOf("<<");
    const { text: after } = editYamlDocument(text, "t.yaml", [{ offset, where: "t.yaml:4", edits: [{ keys: ["versions", "S", "name"], value: "Es" }] }]);
    expect(data(after)).toEqual({
      d: { versions: { F: { name: "Fr" } } },
      attributes: [{ name: "A", versions: { F: { name: "Fr" }, S: { name: "Es" } } }],
    });
  });

  it("refuses a text with an alias of no anchor: nothing in it is edited", () => {
    const edit = new YamlEdit("t.yaml", "a: *nowhere\n");
    expect(edit.doc).toBeUndefined();
    expect(edit.error).toMatch(/alias/);
  });
});
