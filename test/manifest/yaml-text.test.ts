/**
 * scalarText's shortcut for words (written plain without asking the yaml library) against the
 * library itself: on every generated word the shortcut takes, both write the same text, in a block
 * and in a flow map, and it reads back as the word.
 */
import { describe, expect, it } from "vitest";
import { parse, stringify } from "yaml";
import { scalarText } from "../../src/manifest/yaml-text.js";
import { prng } from "../helpers/random.js";
import { seeded } from "../helpers/seed.js";

const ALPHABET = [..."aZéÜß中ѐ0 9'()-./&+", "\u0301", "true", "null", "False", "yes", "No", "e3", "inf", "nan", "x"];

describe("scalarText", () => {
  it("writes a word as the yaml library does, and every text so that it reads back (seeded words of letters, digits, spaces and marks)", () =>
    seeded(32, (seed) => {
      const rnd = prng(seed);
      let words = 0;
      for (let i = 0; i < 20_000; i++) {
        const length = 1 + Math.floor(rnd() * 6);
        const value = Array.from({ length }, () => ALPHABET[Math.floor(rnd() * ALPHABET.length)]).join("");
        const ours = scalarText(value);
        // The shortcut for words gives what the library gives; other texts may be quoted where the
        // library writes them otherwise (a text starting "..." it writes as a block scalar, which
        // does not read back in every place pimctl writes one).
        if (/^\p{L}/u.test(value) && !value.endsWith(" ")) {
          expect(ours, JSON.stringify(value)).toBe(stringify(value, { lineWidth: 0 }).trimEnd());
          words++;
        }
        expect(parse(`k: ${ours}`).k, JSON.stringify(value)).toBe(value);
        expect(parse(`{ k: ${scalarText(value, { flow: true })} }`).k, JSON.stringify(value)).toBe(value);
      }
      expect(words).toBeGreaterThan(5_000);
    }));
});
