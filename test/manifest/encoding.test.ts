/** Finding the first byte that is not UTF-8, for a file:line:col: the same verdict as the platform's strict decoder. */
import fc from "fast-check";
import { propertyParams } from "../helpers/seed.js";
import { describe, expect, it } from "vitest";
import { decodeManifest, firstInvalidUtf8 } from "../../src/manifest/encoding.js";

const strict = new TextDecoder("utf-8", { fatal: true });
const valid = (bytes: Uint8Array) => {
  try {
    strict.decode(bytes);
    return true;
  } catch {
    return false;
  }
};

describe("firstInvalidUtf8", () => {
  it("finds the offending byte of overlong forms, surrogates, code points past U+10FFFF and cut sequences", () => {
    const cases: Array<[number[], number]> = [
      [[0x61, 0xe9, 0x62], 1], // Latin-1 é
      [[0x61, 0xc3, 0xa9], -1], // UTF-8 é
      [[0xc0, 0xaf], 0], // overlong /
      [[0xe0, 0x80, 0xaf], 0], // overlong
      [[0xed, 0xa0, 0x80], 0], // U+D800
      [[0xf4, 0x90, 0x80, 0x80], 0], // U+110000
      [[0x61, 0xf0, 0x9f, 0x98], 1], // a cut emoji at the end
      [[0xf0, 0x9f, 0x98, 0x80], -1], // 😀
      [[0x80], 0], // a lone continuation byte
    ];
    for (const [bytes, at] of cases) expect(firstInvalidUtf8(Uint8Array.from(bytes)), bytes.map((b) => b.toString(16)).join(" ")).toBe(at);
  });

  it("agrees with TextDecoder's fatal mode on any bytes, and everything before the offset decodes", () => {
    const bytes = fc.oneof(
      fc.uint8Array({ maxLength: 12 }),
      fc
        .string({ unit: "binary", maxLength: 6 })
        .map((s) => new TextEncoder().encode(s))
        .chain((b) =>
          fc.tuple(fc.nat(b.length), fc.integer({ min: 0x80, max: 0xff })).map(([i, x]) => Uint8Array.from([...b.subarray(0, i), x, ...b.subarray(i)])),
        ),
    );
    fc.assert(
      fc.property(bytes, (b) => {
        const at = firstInvalidUtf8(b);
        expect(at === -1).toBe(valid(b));
        if (at !== -1) expect(valid(b.subarray(0, at))).toBe(true);
      }),
      propertyParams({ numRuns: 1000, seed: 8 }),
    );
  });
});

it("decodeManifest drops a UTF-8 byte order mark and keeps everything else as written", () => {
  expect(decodeManifest(new TextEncoder().encode("\ufeffa: Acme\u00a0\n"), "f.yaml")).toEqual({ text: "a: Acme\u00a0\n" });
  const nul = decodeManifest(new TextEncoder().encode("a: 1\nb: x\u0000\n"), "f.yaml");
  expect("error" in nul && nul.error.format()).toBe("f.yaml:2:5: this file holds a NUL byte (0x00), which no YAML text holds: is it a binary file, or UTF-16?");
});
