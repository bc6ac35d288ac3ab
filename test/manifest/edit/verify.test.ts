/**
 * The one "only these records changed" check (src/manifest/edit/verify.ts) both `translations
 * import` and `export --merge` make before they write: every record compared whole, the caller
 * saying which changes it meant; what else changed, what is gone and what appeared comes back.
 */
import { describe, expect, it } from "vitest";
import { unmeantChanges } from "../../../src/manifest/edit/verify.js";

const records = (entries: Record<string, unknown>) => new Map(Object.entries(entries));
const nothingMeant = { meant: () => false };

describe("unmeantChanges", () => {
  it("finds nothing when the records read the same (maps in any key order)", () => {
    const r = { a: { name: "A", versions: { F: { name: "Fa" } }, list: [1, "x"] } };
    const same = { a: { list: [1, "x"], versions: { F: { name: "Fa" } }, name: "A" } };
    expect(unmeantChanges(records(r), records(same), nothingMeant)).toEqual({ changed: [], gone: [], appeared: [] });
  });

  it("names each change at its deepest path, a key one side lacks read as absent", () => {
    const before = records({ a: { v: { F: "x", G: "y" }, l: [1, 2] } });
    const after = records({ a: { v: { F: "z", H: "w", G: "y" }, l: [1] } });
    expect(unmeantChanges(before, after, nothingMeant).changed).toEqual([
      {
        key: "a",
        before: "a",
        changes: [
          { path: ["v", "F"], before: "x", after: "z" },
          { path: ["v", "H"], before: undefined, after: "w" },
          { path: ["l", 1], before: 2, after: undefined },
        ],
      },
    ]);
  });

  it("leaves out what the caller meant, and only that", () => {
    const before = records({ a: { name: "A", desc: "old", note: "n" }, b: { desc: "b" } });
    const after = records({ a: { name: "A", desc: "new", note: "changed" }, b: { desc: "changed too" } });
    const found = unmeantChanges(before, after, { meant: (c, key) => key.after === "a" && c.path[0] === "desc" });
    expect(found.changed.map((c) => [c.key, c.changes.map((x) => x.path.join("."))])).toEqual([
      ["a", ["note"]],
      ["b", ["desc"]],
    ]);
  });

  it("follows a record the caller renamed, and reports what is gone and what appeared", () => {
    const before = records({ old: { v: 1 }, lost: { v: 2 } });
    const after = records({ renamed: { v: 1 }, extra: { v: 3 } });
    const found = unmeantChanges(before, after, { keyAfter: (k) => (k === "old" ? "renamed" : k), meant: () => false });
    expect(found).toEqual({ changed: [], gone: ["lost"], appeared: ["extra"] });
  });

  it("sees a change between values of other types (a text become a map, a list become a text)", () => {
    const found = unmeantChanges(records({ a: { x: "t", y: [1] } }), records({ a: { x: { t: 1 }, y: "1" } }), nothingMeant);
    expect(found.changed[0]!.changes).toEqual([
      { path: ["x"], before: "t", after: { t: 1 } },
      { path: ["y"], before: [1], after: "1" },
    ]);
  });
});
