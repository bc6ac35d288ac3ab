/**
 * One reading of every file: the fast YAML path (src/manifest/fast-yaml.ts) and
 * the `yaml` library agree on every generated document, or the fast path
 * declines it. Documents mix plain, single- and double-quoted and block scalars
 * (literal and folded, every chomping indicator), keys, sequences and flow
 * collections with every Unicode white-space class, escapes, comments, CRLF
 * line ends and a byte order mark. Agreement is checked on the data, on the
 * errors (undefined ${variables}) and on the position of every key and every
 * non-null value (a null has no text of its own to point at; the fast path
 * cites its key).
 */
import fc from "fast-check";
import { propertyParams } from "../helpers/seed.js";
import { describe, expect, it } from "vitest";
import { parseFastYaml } from "../../src/manifest/fast-yaml.js";
import { parseYaml, pointer, type ParsedYaml } from "../../src/manifest/yaml.js";

/** Every white-space class YAML writers meet; YAML 1.2 separates with the first two only. */
const WHITE_SPACE = {
  space: " ",
  tab: "\t",
  "no-break space": "\u00a0",
  "ogham space mark": "\u1680",
  ...Object.fromEntries(Array.from({ length: 11 }, (_, i) => [`U+${(0x2000 + i).toString(16).toUpperCase()}`, String.fromCharCode(0x2000 + i)])),
  "line separator": "\u2028",
  "paragraph separator": "\u2029",
  "narrow no-break space": "\u202f",
  "medium mathematical space": "\u205f",
  "ideographic space": "\u3000",
  "zero width no-break space (byte order mark)": "\ufeff",
  "vertical tab": "\v",
  "form feed": "\f",
  "next line": "\u0085",
};
const OTHER_WHITE_SPACE = Object.values(WHITE_SPACE).filter((c) => c !== " " && c !== "\t");

const tab = "\t";
/** Tabs are rare: any tab sends the whole file to the library. */
const ws = fc.oneof(
  { weight: 12, arbitrary: fc.constantFrom(...Object.values(WHITE_SPACE).filter((c) => c !== tab)) },
  { weight: 1, arbitrary: fc.constant(tab) },
);
const letter = fc.constantFrom("a", "B", "z", "é", "中", "0", "7", ".", "-", "_", "/", "~", "😀", " ");
const indicator = fc.constantFrom(":", "#", "'", '"', "[", "]", "{", "}", ",", "&", "*", "!", "|", ">", "?", "%", "@", "`", "\\", "-", "$", "\r");
const char = fc.oneof({ weight: 30, arbitrary: letter }, { weight: 4, arbitrary: ws }, { weight: 1, arbitrary: indicator });
const chars = (max: number) => fc.array(char, { maxLength: max }).map((a) => a.join(""));
const word = fc.oneof(
  { weight: 3, arbitrary: chars(8) },
  {
    weight: 2,
    arbitrary: fc.constantFrom(
      "Acme",
      "name",
      "true",
      "False",
      "null",
      "~",
      "10",
      "-3",
      "0.5",
      "1e3",
      "0x1F",
      "0o17",
      ".inf",
      "-.Inf",
      ".nan",
      "${x}",
      "$${x}",
      "${nope}",
      "Beat 'em up",
      'say "hi"',
      "a: b",
      "a #b",
      "C#",
      "2024-01-01",
      "1_000",
      "- x",
      "-x",
    ),
  },
);
const around = fc.oneof(
  { weight: 2, arbitrary: fc.constant("") },
  { weight: 1, arbitrary: fc.array(ws, { minLength: 1, maxLength: 2 }).map((a) => a.join("")) },
);

const plain = fc.tuple(around, word, around).map(([a, w, b]) => `${a}${w}${b}`);
const singleQuoted = fc
  .array(
    fc.oneof({ weight: 30, arbitrary: char.filter((c) => c !== "'") }, { weight: 3, arbitrary: fc.constant("''") }, { weight: 1, arbitrary: fc.constant("'") }),
    { maxLength: 8 },
  )
  .map((a) => `'${a.join("")}'`);
const escape = fc.constantFrom(
  "\\n",
  "\\t",
  "\\\\",
  '\\"',
  "\\/",
  "\\ ",
  "\\0",
  "\\a",
  "\\b",
  "\\e",
  "\\f",
  "\\r",
  "\\v",
  "\\N",
  "\\_",
  "\\L",
  "\\P",
  "\\x41",
  "\\xe9",
  "\\u00e9",
  "\\u2028",
  "\\ud83d\\ude00",
  "\\U0001F600",
  "\\U00110000",
  "\\q",
  "\\x4",
  "\\u12",
  "\\\t",
);
const doubleQuoted = fc
  .array(
    fc.oneof(
      { weight: 20, arbitrary: char.filter((c) => c !== '"' && c !== "\\") },
      { weight: 6, arbitrary: escape },
      { weight: 1, arbitrary: fc.constant('"') },
    ),
    { maxLength: 8 },
  )
  .map((a) => `"${a.join("")}"`);
const scalar = fc.oneof({ weight: 4, arbitrary: plain }, { weight: 2, arbitrary: singleQuoted }, { weight: 2, arbitrary: doubleQuoted });
/** What may follow a value on its line: white space, a comment. */
const trailer = fc
  .tuple(around, fc.oneof({ weight: 3, arbitrary: fc.constant("") }, { weight: 1, arbitrary: fc.constantFrom(" # note", "# glued", "  #", " #\u00a0x") }))
  .map(([a, c]) => `${a}${c}`);
/** Mostly names (a key that reads as a number or null sends the file to the library). */
const name = fc.tuple(around, fc.array(letter, { minLength: 1, maxLength: 6 }), around).map(([a, w, b]) => `${a}x${w.join("")}${b}`);
const key = fc.oneof(
  { weight: 10, arbitrary: name },
  { weight: 3, arbitrary: fc.tuple(word, around).map(([w, a]) => `${w}${a}`) },
  { weight: 1, arbitrary: singleQuoted },
  { weight: 1, arbitrary: doubleQuoted },
);
const flow = fc.oneof(
  fc.array(scalar, { maxLength: 3 }).map((xs) => `[${xs.join(", ")}]`),
  fc.array(fc.tuple(key, scalar), { maxLength: 3 }).map((kv) => `{ ${kv.map(([k, v]) => `${k}: ${v}`).join(", ")} }`),
);
/** Lines between entries: blank, white space only, comments. */
/** `weight` in 1 times out of `of`, else nothing. */
const sometimes = <T>(arbitrary: fc.Arbitrary<T>, weight: number, of: number): fc.Arbitrary<T | undefined> =>
  fc.oneof({ weight: of - weight, arbitrary: fc.constant(undefined) }, { weight, arbitrary });
const filler = (pad: string) =>
  sometimes(
    fc.oneof(
      { weight: 8, arbitrary: fc.constantFrom("", "   ", `${pad}# comment`, "#", `${pad}  # deeper`) },
      { weight: 1, arbitrary: fc.constantFrom("\u00a0", `${pad}\u3000`) },
    ),
    1,
    4,
  );

interface Value {
  /** Text after `key:` or `-` on the same line. */
  head: string;
  rest: string[];
}

/** A literal or folded block scalar with a chomping indicator, its lines indented under `indent`. */
const blockScalar = (indent: number): fc.Arbitrary<Value> =>
  fc
    .tuple(
      fc.constantFrom("|", ">"),
      fc.constantFrom("", "-", "+"),
      fc.constantFrom("", "", "2"),
      fc.array(fc.tuple(fc.constantFrom(0, 0, 0, 2), fc.oneof(word, plain, fc.constant(""))), { minLength: 1, maxLength: 4 }),
      trailer,
    )
    .map(([style, chomp, width, lines, after]) => ({
      head: ` ${style}${chomp}${width}${after}`,
      rest: lines.map(([more, text]) => (text === "" ? "" : `${" ".repeat(indent + 2 + more)}${text}`)),
    }));

const inlineValue: fc.Arbitrary<Value> = fc
  .tuple(fc.constantFrom(" ", "  "), fc.oneof({ weight: 5, arbitrary: scalar }, { weight: 1, arbitrary: flow }), trailer)
  .map(([sep, v, t]) => ({ head: `${sep}${v}${t}`, rest: [] }));

function value(indent: number, depth: number, inMap: boolean): fc.Arbitrary<Value> {
  const options: Array<fc.WeightedArbitrary<Value>> = [
    { weight: 6, arbitrary: inlineValue },
    { weight: 1, arbitrary: blockScalar(indent) },
    { weight: 1, arbitrary: trailer.map((t) => ({ head: t, rest: [] })) },
  ];
  if (depth > 0) {
    options.push({ weight: 3, arbitrary: fc.tuple(trailer, node(indent + 2, depth - 1)).map(([t, rest]) => ({ head: t, rest })) });
    if (inMap) options.push({ weight: 1, arbitrary: sequence(indent, depth - 1).map((rest) => ({ head: "", rest })) });
  }
  return fc.oneof(...options);
}

function mapping(indent: number, depth: number): fc.Arbitrary<string[]> {
  const pad = " ".repeat(indent);
  const entry = fc.tuple(key, value(indent, depth, true), filler(pad)).map(([k, v, f]) => [`${pad}${k}:${v.head}`, ...v.rest, ...(f === undefined ? [] : [f])]);
  return fc.array(entry, { minLength: 1, maxLength: 3 }).map((es) => es.flat());
}

function sequence(indent: number, depth: number): fc.Arbitrary<string[]> {
  const pad = " ".repeat(indent);
  const item = fc.oneof(
    { weight: 4, arbitrary: value(indent, depth, false).map((v) => [`${pad}-${v.head}`, ...v.rest]) },
    // A mapping that starts on the item's line.
    ...(depth > 0
      ? [{ weight: 2, arbitrary: mapping(indent + 2, depth - 1).map((lines) => [`${pad}- ${lines[0]!.slice(indent + 2)}`, ...lines.slice(1)]) }]
      : []),
  );
  return fc
    .array(fc.tuple(item, filler(pad)), { minLength: 1, maxLength: 3 })
    .map((xs) => xs.flatMap(([lines, f]) => (f === undefined ? lines : [...lines, f])));
}

function node(indent: number, depth: number): fc.Arbitrary<string[]> {
  return fc.oneof({ weight: 3, arbitrary: mapping(indent, depth) }, { weight: 1, arbitrary: sequence(indent, depth) });
}

const document = fc
  .tuple(
    sometimes(fc.constant(true), 1, 6),
    fc.oneof({ weight: 2, arbitrary: fc.constant("\n") }, { weight: 1, arbitrary: fc.constant("\r\n") }),
    node(0, 2),
    fc.boolean(),
    sometimes(fc.nat(), 1, 20),
  )
  .map(([bom, eol, lines, final, loneCr]) => {
    const text = `${bom ? "\ufeff" : ""}${lines.join(eol)}${final ? eol : ""}`;
    // Now and then a CR that is not part of a line end.
    return loneCr === undefined ? text : `${text.slice(0, loneCr % (text.length + 1))}\r${text.slice(loneCr % (text.length + 1))}`;
  });

const variables = { x: "X" };

/** Every path of a value with the value at it, keys included (maps first, as written). */
function paths(v: unknown, parts: Array<string | number> = [], out: Array<{ parts: Array<string | number>; value: unknown }> = []) {
  out.push({ parts, value: v });
  if (Array.isArray(v)) v.forEach((x, i) => paths(x, [...parts, i], out));
  else if (v && typeof v === "object") for (const [k, x] of Object.entries(v)) paths(x, [...parts, k], out);
  return out;
}

const errorsOf = (p: ParsedYaml) => p.errors.map((e) => ({ code: e.code, message: e.message, location: e.location }));

const stats = { runs: 0, taken: 0, takenWith: new Set<string>(), crlf: 0, bom: 0, escapes: 0 };

/** The property: the fast path declines, or its reading is the library's. */
function agrees(text: string): void {
  stats.runs++;
  if (!parseFastYaml(text, (v) => v)) return;
  stats.taken++;
  for (const c of OTHER_WHITE_SPACE) if (text.includes(c)) stats.takenWith.add(c);
  if (text.includes("\r\n")) stats.crlf++;
  if (text.startsWith("\ufeff")) stats.bom++;
  if (/"[^"\n]*\\/.test(text)) stats.escapes++;
  const quick = parseYaml(text, "f.yaml", variables);
  const full = parseYaml(text, "f.yaml", variables, { fast: false });
  expect(errorsOf(quick), "errors").toEqual(errorsOf(full));
  expect(quick.data, "data").toEqual(full.data ?? null);
  for (const { parts, value } of paths(quick.data)) {
    if (parts.length && typeof parts[parts.length - 1] === "string")
      expect(quick.at(`${pointer(parts)}#key`), `key of ${pointer(parts)}`).toEqual(full.at(`${pointer(parts)}#key`));
    if (value !== null) expect(quick.atPath(parts), `value at ${pointer(parts)}`).toEqual(full.atPath(parts));
  }
}

const show = (text: string) => JSON.stringify(text).replace(/[\u0080-\uffff]/g, (c) => `\\u${c.charCodeAt(0).toString(16).padStart(4, "0")}`);

describe("the fast YAML path and the yaml library read every document one way", () => {
  it("on generated documents of every scalar style, white-space class, escape, comment, CRLF and BOM", () => {
    fc.assert(
      fc.property(document, (text) => {
        try {
          agrees(text);
        } catch (e) {
          throw new Error(`${(e as Error).message}\nin ${show(text)}`);
        }
      }),
      propertyParams({ numRuns: 10_000, seed: 23 }),
    );
    // The property holds because the fast path reads these documents, not because it declines them all.
    expect(stats.taken).toBeGreaterThan(stats.runs / 10);
    expect([...stats.takenWith].map(show).sort()).toEqual(
      OTHER_WHITE_SPACE.filter((c) => c !== "\ufeff")
        .map(show)
        .sort(),
    );
    expect(stats.crlf).toBeGreaterThan(50);
    // A byte order mark sends the text to the library (which reads "\ufeff- a" as an error and "\ufeff a: 1" as a
    // mapping); the loader strips it from the start of a file before either parser sees it.
    expect(stats.bom).toBe(0);
    expect(stats.escapes).toBeGreaterThan(50);
  });

  it("on token soups (anything the fast path takes, it reads as the library does)", () => {
    const token = fc.oneof(
      char,
      fc.constantFrom("\n", "\r\n", " ", "  ", "- ", ": ", "key", "|-", ">+", "# c", '"\\u00e9"', "'it''s'", "[a, b]", "{ a: b }", "${x}"),
    );
    fc.assert(
      fc.property(
        fc.array(token, { maxLength: 40 }).map((ts) => ts.join("")),
        (text) => {
          try {
            agrees(text);
          } catch (e) {
            throw new Error(`${(e as Error).message}\nin ${show(text)}`);
          }
        },
      ),
      propertyParams({ numRuns: 3000, seed: 230 }),
    );
  });

  it("keeps every white-space class but space and tab around a plain name, as the library does (issue 23's `name: Acme<NBSP>`)", () => {
    for (const c of OTHER_WHITE_SPACE.filter((c) => c !== "\ufeff")) {
      const text = `brands:\n  - name: Acme${c}\n    desc: x\n  - name: ${c}Zenith\n`;
      const fast = parseFastYaml(text, (v) => v);
      expect(fast, show(text)).toBeDefined();
      expect(fast!.data, show(text)).toEqual({ brands: [{ name: `Acme${c}`, desc: "x" }, { name: `${c}Zenith` }] });
      // The same file with an unrelated block scalar takes the library: the same names.
      const block = text.replace("desc: x", "desc: |-\n      x");
      expect(
        parseFastYaml(block, (v) => v),
        show(block),
      ).toBeUndefined();
      expect(parseYaml(block, "f.yaml").data).toEqual(fast!.data);
    }
  });

  it("reads a CRLF file itself, at the library's positions; leaves a byte order mark to the library", () => {
    const text = "brands:\r\n  - name: Acme # c\r\n    desc: 'x'\r\n";
    expect(parseFastYaml(text, (v) => v)).toBeDefined();
    agrees(text);
    expect(parseFastYaml(`\ufeff${text}`, (v) => v)).toBeUndefined();
  });
});
