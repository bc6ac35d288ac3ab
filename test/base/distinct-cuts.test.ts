/**
 * Long names cut for a table stay told apart (issue 35, review 2, md2): two tenants whose names
 * differ only after character 100 looked the same in the fleet's markdown.
 */
import { describe, expect, it } from "vitest";
import { distinctCuts } from "../../src/base/distinct-cuts.js";
import { prng } from "../helpers/random.js";
import { seedNote, seedOr } from "../helpers/seed.js";

const a100 = `shop-${"a".repeat(100)}`;

describe("distinctCuts", () => {
  it("cuts a long name to its first characters when no other cut reads the same", () => {
    const shown = distinctCuts(["eu", `x${"y".repeat(200)}`], 100);
    expect(shown("eu")).toBe("eu");
    expect(shown(`x${"y".repeat(200)}`)).toBe(`x${"y".repeat(98)}…`);
  });

  it("keeps a distinguishing tail when two cuts would read the same (the review's md2)", () => {
    const shown = distinctCuts([`${a100}-eu`, `${a100}-us`], 100);
    expect(shown(`${a100}-eu`)).toBe(`shop-${"a".repeat(55)}…${"a".repeat(27)}-eu`);
    expect(shown(`${a100}-us`)).toBe(`shop-${"a".repeat(55)}…${"a".repeat(27)}-us`);
  });

  it("shows names whole when they differ only in the middle, and never reads as another name shown whole", () => {
    const mid = (c: string) => `${"p".repeat(150)}${c}${"q".repeat(149)}`;
    const shown = distinctCuts([mid("1"), mid("2"), `${"p".repeat(99)}…`], 100);
    expect(shown(mid("1"))).toBe(mid("1"));
    expect(shown(mid("2"))).toBe(mid("2"));
    expect(shown(`${"p".repeat(99)}…`)).toBe(`${"p".repeat(99)}…`);
  });

  it("tells any names apart, and cuts a name only when it is long: 300 random sets (a seeded generator)", () => {
    const seed = seedOr(100);
    const next = prng(seed);
    const rnd = (n: number) => Math.floor(next() * n);
    for (let run = 0; run < 300; run++) {
      const stem = "s".repeat(rnd(200));
      const names = [
        ...new Set(
          Array.from({ length: 1 + rnd(30) }, () => {
            const bits = Array.from({ length: rnd(6) }, () => "ab…"[rnd(3)]!).join("");
            return rnd(2) ? `${stem}${bits}${"t".repeat(rnd(60))}` : `${bits}${stem}${bits}`;
          }),
        ),
      ];
      const shown = distinctCuts(names, 100);
      const seen = names.map(shown);
      expect(new Set(seen).size, `${seedNote(seed)}, run ${run}`).toBe(names.length);
      for (const n of names) if (n.length <= 100) expect(shown(n)).toBe(n);
      for (const n of names) expect(shown(n).length).toBeLessThanOrEqual(Math.max(100, n.length));
    }
  });
});
