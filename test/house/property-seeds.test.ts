/**
 * Every property test can be run again from its failure (test/README.md): each fast-check
 * `fc.assert` takes its parameters from `propertyParams` (PIMCTL_TEST_SEED and PIMCTL_TEST_PATH
 * replace its seed), and each seeded random run (`prng`) takes its seed from test/helpers/seed.ts,
 * which names it in the failure.
 */
import { readdirSync, readFileSync } from "node:fs";
import path from "node:path";
import { expect, it } from "vitest";

const ROOT = path.resolve(import.meta.dirname, "..", "..");
const testFiles = (readdirSync(path.join(ROOT, "test"), { recursive: true }) as string[])
  .map((f) => `test/${f.split(path.sep).join("/")}`)
  .filter((f) => f.endsWith(".test.ts"));
const count = (text: string, re: RegExp) => [...text.matchAll(re)].length;

it("gives every fast-check property its seed through propertyParams", () => {
  const wrong = testFiles.flatMap((f) => {
    const text = readFileSync(path.join(ROOT, f), "utf8");
    const asserts = count(text, /\bfc\.assert\(/g);
    const settled = count(text, /\bpropertyParams(<[^>]*>)?\(/g);
    return asserts === settled ? [] : [`${f}: ${asserts} fc.assert, ${settled} propertyParams`];
  });
  expect(wrong).toEqual([]);
});

it("draws every seeded random run from a seed PIMCTL_TEST_SEED can replace", () => {
  const wrong = testFiles.filter((f) => {
    const text = readFileSync(path.join(ROOT, f), "utf8");
    return /\bprng\(/.test(text) && !/from "(\.\.\/)+helpers\/seed\.js"/.test(text);
  });
  expect(wrong).toEqual([]);
});
