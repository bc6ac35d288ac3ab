import { mkdtemp, mkdir, rm, writeFile } from "node:fs/promises";
import { tmpdir } from "node:os";
import path from "node:path";
import { afterEach, describe, expect, it } from "vitest";
import { loadManifests } from "../../src/manifest/index.js";

let dirs: string[] = [];
afterEach(async () => {
  await Promise.all(dirs.map((d) => rm(d, { recursive: true, force: true })));
  dirs = [];
});

/** Writes files into a fresh directory and loads it; returns "file:line:col: message" lines (file relative to the dir). */
async function load(files: Record<string, string>, opts: Parameters<typeof loadManifests>[1] = {}) {
  const dir = await mkdtemp(path.join(tmpdir(), "pimctl-manifest-"));
  dirs.push(dir);
  for (const [name, text] of Object.entries(files)) {
    await mkdir(path.dirname(path.join(dir, name)), { recursive: true });
    await writeFile(path.join(dir, name), text);
  }
  const result = await loadManifests(dir, opts);
  const rel = (f: string) => path.relative(dir, path.resolve(process.cwd(), f));
  return {
    ...result,
    messages: result.errors.map(
      (e) =>
        `${e.location ? `${rel(e.location.file)}:${e.location.line}:${e.location.column}: ` : ""}${e.message}${e.details.length ? ` (${e.details.join("; ")})` : ""}`,
    ),
  };
}

describe("manifest errors name the file, line and column, and say what to do", () => {
  it("YAML syntax", async () => {
    const r = await load({ "a.yaml": "attributes:\n  - name: Colour\n    type: [selectbox\n" });
    expect(r.errors[0]!.code).toBe("yaml_syntax");
    expect(r.messages[0]).toMatch(/^a\.yaml:\d+:\d+: YAML syntax: /);
  });

  it("unknown key, with a did-you-mean", async () => {
    const r = await load({ "a.yaml": "attributes:\n  - name: Colour\n    type: selectbox\n    publsh: true\n" });
    expect(r.messages).toEqual(['a.yaml:4:5: unknown field "publsh" in attributes[0] (did you mean "publish"?)']);
  });

  it("wrong type", async () => {
    const r = await load({ "a.yaml": "attributes:\n  - name: Colour\n    type: selectbox\n    sort_order: first\n" });
    expect(r.messages).toEqual(['a.yaml:4:17: "sort_order" must be a whole number']);
  });

  it("bad enum: an attribute type outside the documented list", async () => {
    const r = await load({ "a.yaml": "attributes:\n  - name: Colour\n    type: selectbx\n" });
    expect(r.messages).toEqual([
      'a.yaml:3:11: "type" is "selectbx", which is not one of: selectbox, date, datetime, text, textarea, multiselect, json, markdown (did you mean "selectbox"?)',
    ]);
  });

  it("read-only fields say they are read-only and what to write instead", async () => {
    const r = await load({
      "a.yaml": "attributes:\n  - name: Colour\n    type: selectbox\n    display_group_id: 4\ncategories:\n  - name: A\n    parent_id: 0\n",
    });
    expect(r.messages).toEqual([
      'a.yaml:4:5: "display_group_id" is read-only in API v1: write display_group: <name>',
      'a.yaml:7:5: "parent_id" is read-only in API v1: nest the category under its parent\'s children:',
    ]);
  });

  it("duplicates across files name both places", async () => {
    const r = await load({
      "a.yaml": "brands:\n  - name: Acme\n",
      "b.yaml": "brands:\n  - name: Zenith\n  - name: Acme\n",
    });
    expect(r.messages).toEqual([expect.stringMatching(/^b\.yaml:3:5: brand "Acme" is declared twice \(first at .*a\.yaml:2:5\)$/)]);
  });

  it("duplicate sibling categories and duplicate type values", async () => {
    const r = await load({
      "a.yaml":
        "categories:\n  - name: A\n    children:\n      - name: B\n      - name: B\nattributes:\n  - name: Size\n    type: selectbox\n    values:\n      - value: S\n      - value: S\n",
    });
    expect(r.messages).toEqual([
      'a.yaml:11:9: value "S" of attribute "Size" is declared twice (first at line 10)',
      expect.stringMatching(/^a\.yaml:5:9: category "B" under "A" is declared twice/),
    ]);
  });

  it("type values on an attribute type that has none", async () => {
    const r = await load({ "a.yaml": "attributes:\n  - name: Notes\n    type: text\n    values:\n      - value: x\n" });
    expect(r.messages).toEqual(['a.yaml:4:5: attribute "Notes" has type text, which has no selectable values; remove values: or use selectbox or multiselect']);
  });

  it("a rename cycle through previous_names", async () => {
    const r = await load({ "a.yaml": "brands:\n  - name: A\n    previous_names: [B]\n  - name: B\n    previous_names: [A]\n" });
    expect(r.errors.map((e) => e.code)).toEqual(["cycle", "cycle"]);
    expect(r.messages[0]).toMatch(/^a\.yaml:2:5: brand "A" lists "B" as a previous name, but "B" is declared too/);
  });

  it("a category that claims to have moved from its own subtree", async () => {
    const r = await load({ "a.yaml": "categories:\n  - name: A\n    previous_paths: [A/B]\n    children:\n      - name: B\n" });
    expect(r.errors.map((e) => e.code)).toContain("cycle");
  });

  it("unknown version names, when the config names the versions", async () => {
    const r = await load(
      { "a.yaml": "attributes:\n  - name: Colour\n    type: selectbox\n    versions: { Frech: { name: Couleur } }\n" },
      { knownVersions: ["French", "German"] },
    );
    expect(r.messages).toEqual(['a.yaml:4:17: unknown language version "Frech" (did you mean "French"?)']);
  });

  it("undefined variables, with the defined ones listed", async () => {
    const r = await load(
      { "a.yaml": 'brands:\n  - name: Acme\n    web_ids: { "${channel}": acme }\n    desc: "${descr}"\n' },
      { variables: { channel: "Webshop", desc: "x" } },
    );
    expect(r.messages).toEqual(["a.yaml:4:11: variable ${descr} is not defined for this tenant (did you mean: ${desc}?; write $${ for a literal ${)"]);
  });

  it("reports every error of the run together", async () => {
    const r = await load({ "a.yaml": "attributes:\n  - name: A\n    type: nope\n", "b.yaml": "brands:\n  - nme: X\n", "c.yaml": "blocks: [\n" });
    expect(r.errors.length).toBeGreaterThanOrEqual(3);
    expect(new Set(r.messages.map((m) => m.split(":")[0]))).toEqual(new Set(["a.yaml", "b.yaml", "c.yaml"]));
  });
});

describe("a valid directory", () => {
  it("merges files, substitutes variables (keys too), flattens category trees in pre-order", async () => {
    const r = await load(
      {
        "one.yaml": "categories:\n  - name: B\n  - name: A\n    children:\n      - name: Z\n      - name: Y\n",
        "two.yaml": 'brands:\n  - name: Acme\n    web_ids: { "${shop}": "acme-${n}" }\n    desc: \'costs $${price}\'\n',
      },
      { variables: { shop: "Webshop", n: "7" } },
    );
    expect(r.errors).toEqual([]);
    expect(r.catalogue.categories.map((c) => c.path.join("/"))).toEqual(["A", "A/Y", "A/Z", "B"]);
    expect(r.catalogue.brands[0]).toMatchObject({ name: "Acme", web_ids: { Webshop: "acme-7" }, desc: "costs ${price}" });
    expect(r.catalogue.managed).toEqual(["brands", "categories"]);
  });

  it("the shipped examples validate", async () => {
    const result = await loadManifests(path.resolve(import.meta.dirname, "../../examples/catalogue"));
    expect(result.errors.map((e) => e.format())).toEqual([]);
    expect(result.catalogue.attributes.length).toBeGreaterThan(24);
    expect(result.catalogue.versions).toEqual(["French", "German"]);
    expect(Math.max(...result.catalogue.categories.map((c) => c.path.length))).toBe(3);
  });
});
