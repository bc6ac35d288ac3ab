import { readFileSync, readdirSync } from "node:fs";
import path from "node:path";
import { describe, expect, it } from "vitest";
import { prng } from "../helpers/random.js";
import { parse } from "yaml";
import { parseFastYaml } from "../../src/manifest/fast-yaml.js";
import { parseYaml, pointer } from "../../src/manifest/yaml.js";
import { seeded } from "../helpers/seed.js";

/** Every pointer of a value, keys included. */
function pointers(v: unknown, parts: Array<string | number> = [], out: string[] = []): string[] {
  out.push(pointer(parts));
  if (Array.isArray(v)) v.forEach((x, i) => pointers(x, [...parts, i], out));
  else if (v && typeof v === "object")
    for (const [k, x] of Object.entries(v)) {
      out.push(`${pointer([...parts, k])}#key`);
      pointers(x, [...parts, k], out);
    }
  return out;
}

/** The fast path and the `yaml` library agree on data, and on the position of every key and non-null value. */
function agree(text: string): boolean {
  const fast = parseFastYaml(text, (v) => v);
  if (!fast) return false;
  expect(fast.data, text).toEqual(parse(text) ?? null);
  const quick = parseYaml(text, "f.yaml");
  const full = parseYaml(text, "f.yaml", undefined, { fast: false });
  for (const p of pointers(fast.data)) {
    const value = p.endsWith("#key")
      ? "key"
      : p
          .split("/")
          .slice(1)
          .reduce<unknown>((n, k) => (n as Record<string, unknown>)?.[k.replace(/~1/g, "/").replace(/~0/g, "~")], fast.data);
    if (value === null) continue;
    expect(quick.at(p), `${p} in\n${text}`).toEqual(full.at(p));
  }
  return true;
}

const words = [
  "Red",
  "name",
  "Bull's eye",
  "Beat 'em up",
  'say "hi" twice',
  "a 'b # c'",
  "x - 'y'",
  "- 'z'x",
  "C#",
  "a:b",
  "x-y",
  "10",
  "-3",
  "0.5",
  "1e3",
  "0x1F",
  "0o17",
  "true",
  "False",
  "null",
  "~",
  "yes",
  "2024-01-01",
  "é ü",
  ".inf",
  "-.Inf",
  ".nan",
  "007",
  "+12",
  "1_000",
  "a b  c",
];
const quoted = ['"Red"', '"a: b"', '"tab\\there"', '"quote \\" and \\\\"', "'single'", "'it''s'", '"\\u00e9"', '"# not a comment"', "''", '""'];

function scalar(r: () => number): string {
  const pick = <T>(xs: T[]) => xs[Math.floor(r() * xs.length)]!;
  return r() < 0.7 ? pick(words) : pick(quoted);
}

function doc(r: () => number, depth: number, indent: number): string[] {
  const pad = " ".repeat(indent);
  const lines: string[] = [];
  const n = 1 + Math.floor(r() * 4);
  const asSeq = r() < 0.4;
  const keys = new Set<string>();
  for (let i = 0; i < n; i++) {
    const comment = r() < 0.1 ? "  # note" : "";
    const child = depth > 0 && r() < 0.4;
    const flow = !child && r() < 0.15;
    const value = flow ? (r() < 0.5 ? `[${scalar(r)}, ${scalar(r)}]` : `{ k${i}: ${scalar(r)}, "q k": ${scalar(r)} }`) : scalar(r);
    if (asSeq) {
      if (child) {
        const inner = doc(r, depth - 1, indent + 2);
        lines.push(`${pad}- ${inner[0]!.trimStart()}`, ...inner.slice(1));
      } else lines.push(`${pad}- ${value}${comment}`);
    } else {
      let key = `key${Math.floor(r() * 6)}`;
      while (keys.has(key)) key += "x";
      keys.add(key);
      if (child) lines.push(`${pad}${key}:`, ...doc(r, depth - 1, indent + (r() < 0.8 ? 2 : 4)));
      else lines.push(`${pad}${key}: ${value}${comment}`);
    }
    if (r() < 0.1) lines.push("");
  }
  return lines;
}

describe("the fast YAML path agrees with the yaml library", () => {
  it("on 2,000 random documents of the plain subset", () => {
    seeded(424242, (seed) => {
      const r = prng(seed);
      let taken = 0;
      for (let i = 0; i < 2000; i++) if (agree(`${doc(r, 3, 0).join("\n")}\n`)) taken++;
      expect(taken).toBeGreaterThan(1500);
    });
  });

  it("on the shipped examples and the test fixtures", () => {
    const dirs = ["examples/catalogue", "examples/promotion/catalogue", "examples/promotion"].map((d) => path.resolve(import.meta.dirname, "../..", d));
    let taken = 0;
    for (const dir of dirs)
      for (const f of readdirSync(dir).filter((x) => x.endsWith(".yaml"))) {
        const text = readFileSync(path.join(dir, f), "utf8").replace(/\$\{[^}]+\}/g, "x");
        if (agree(text)) taken++;
      }
    // blocks.yaml and brands.yaml use block scalars, the promotion catalogue nested flow maps: those take the full parser.
    expect(taken).toBe(5);
  });

  it("takes plain scalars with quotes inside (the taxonomy's `Beat 'em up`) and agrees", () => {
    for (const text of ["- value: Beat 'em up\n  versions:\n    French: Jeu d'action\n", 'a: say "hi" twice\n', "a: b 'c' # d\n", "- it's\n- 'quoted'\n"]) {
      expect(
        parseFastYaml(text, (v) => v),
        text,
      ).toBeDefined();
      expect(agree(text), text).toBe(true);
    }
  });

  it("hands anything outside the subset to the full parser", () => {
    for (const text of [
      "a: &x 1\nb: *x\n",
      "a: !!str 1\n",
      "a: |\n  block\n",
      "a: >\n  folded\n",
      "a: multi\n  line\n",
      "---\na: 1\n",
      "a: 1\na: 2\n",
      "a:\n\t- 1\n",
      "? complex\n: key\n",
      "a: { b: { c: 1 } }\n",
      '"\\x41": 1\n',
      "1: one\n",
      "a: b: c\n",
    ]) {
      expect(
        parseFastYaml(text, (v) => v),
        text,
      ).toBeUndefined();
    }
  });
});

describe("positions are found when asked", () => {
  it("sequence items from the first parse; keys from one second parse that reports nothing again", () => {
    const text = "brands:\n  - name: ${who}\n    desc: ${missing}\n  - name: B\n";
    const seen: string[] = [];
    const quiet: string[] = [];
    const fast = parseFastYaml(
      text,
      (v) => (seen.push(v), v.replace("${who}", "A")),
      (v) => (quiet.push(v), v.replace("${who}", "A")),
    )!;
    expect(seen).toEqual(["${who}", "${missing}"]);
    // An entry's own line needs no second parse.
    expect(fast.offsetOf(["brands", 1])).toBe(text.indexOf("name: B"));
    expect(quiet).toEqual([]);
    // A key's position does, once, through the quiet twin of the substitution.
    expect(fast.offset("/brands/0/desc#key")).toBe(text.indexOf("desc"));
    expect(fast.offset("/brands/1/name")).toBe(text.indexOf("B\n"));
    expect(quiet).toEqual(["${who}", "${missing}"]);
    expect(seen).toHaveLength(2);
  });

  it("an undefined variable is one error, however many positions are looked up after", () => {
    const parsed = parseYaml("a:\n  - x: ${nope}\n    y: 1\n", "f.yaml", {});
    expect(parsed.errors).toHaveLength(1);
    expect(parsed.at("/a/0/y#key")).toEqual({ file: "f.yaml", line: 3, column: 5 });
    expect(parsed.atPath(["a", 0])).toEqual({ file: "f.yaml", line: 2, column: 5 });
    expect(parsed.errors).toHaveLength(1);
  });
});
