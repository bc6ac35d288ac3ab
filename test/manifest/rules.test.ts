/** Bad manifests are refused up front, all at once, at the right line. */
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

async function load(files: Record<string, string>, opts: Parameters<typeof loadManifests>[1] = {}) {
  const dir = await mkdtemp(path.join(tmpdir(), "pimctl-rules-"));
  dirs.push(dir);
  for (const [name, text] of Object.entries(files)) {
    await mkdir(path.dirname(path.join(dir, name)), { recursive: true });
    await writeFile(path.join(dir, name), text);
  }
  const result = await loadManifests(dir, { ...opts, cwd: dir });
  const line = (e: (typeof result.errors)[number]) => `${e.location ? `${e.location.file}:${e.location.line}: ` : ""}${e.message}`;
  return { ...result, messages: result.errors.map(line), warningMessages: result.warnings.map(line) };
}

describe("values", () => {
  it("negative or non-integer lengths and sort orders, empty or whitespace-only names, non-ISO dates: all in one run", async () => {
    const r = await load({
      "a.yaml": [
        "attributes:",
        "  - name: A",
        "    type: text",
        "    length: -5",
        "    sort_order: 1.5",
        '  - name: "   "',
        "    type: text",
        "    sort_order: -1",
        "brands:",
        '  - name: ""',
        "  - name: B",
        "    exclusion_start_date: 01/03/2025",
        "    exclusion_end_date: 2025-03-01T08:00:00Z",
        "",
      ].join("\n"),
    });
    expect(r.messages).toEqual([
      'a.yaml:4: "length" must be >= 0',
      'a.yaml:5: "sort_order" must be a whole number',
      'a.yaml:6: "name" must not be empty or only whitespace',
      'a.yaml:8: "sort_order" must be >= 0',
      'a.yaml:10: "name" must not be empty or only whitespace',
      'a.yaml:12: "exclusion_start_date" is "01/03/2025", which is not an ISO 8601 date (2025-03-01) or date-time (2025-03-01T08:00:00Z)',
    ]);
  });

  it("leading or trailing whitespace in a name is a warning, and the name is kept as written", async () => {
    const r = await load({ "a.yaml": 'brands:\n  - name: " Acme "\ncategories:\n  - name: Tools\n    children: [{ name: "Saws " }]\n' });
    expect(r.messages).toEqual([]);
    expect(r.warningMessages).toEqual([
      'a.yaml:2: brand " Acme ": the name " Acme " has leading or trailing whitespace (kept as written)',
      'a.yaml:5: category "Saws " under "Tools": the name "Saws " has leading or trailing whitespace (kept as written)',
    ]);
    expect(r.catalogue.brands[0]!.name).toBe(" Acme ");
  });

  it("a duplicate is reported together with the schema errors of the same run", async () => {
    const r = await load({ "a.yaml": "brands:\n  - name: A\n    colour: red\n", "b.yaml": "brands:\n  - name: A\n" });
    expect(r.messages).toEqual(['a.yaml:3: unknown field "colour" in brands[0]', 'b.yaml:2: brand "A" is declared twice (first at a.yaml:2:5)']);
  });
});

describe("YAML", () => {
  it("an unterminated quoted string points to the line where the quote opens", async () => {
    const r = await load({ "a.yaml": 'brands:\n  - name: B\n  - name: "Acme\n    desc: x\n  - name: C\n\n\n' });
    expect(r.messages).toEqual(["a.yaml:3: YAML syntax: this quoted string is never closed"]);
  });

  it("merge keys (<<: *defaults) work, with anchors under an x- extension key", async () => {
    const r = await load({
      "a.yaml":
        "x-defaults: &text\n  type: text\n  publish: true\nattributes:\n  - <<: *text\n    name: Care\n  - <<: *text\n    name: Fit\n    publish: false\n",
    });
    expect(r.messages).toEqual([]);
    expect(r.catalogue.attributes.map((a) => [a.name, a.type, a.publish])).toEqual([
      ["Care", "text", true],
      ["Fit", "text", false],
    ]);
  });

  it("a file with several documents gets a pimctl message", async () => {
    const r = await load({ "a.yaml": "brands:\n  - name: A\n---\nbrands:\n  - name: B\n" });
    expect(r.messages).toEqual([
      "a.yaml:3: this file holds several YAML documents (a '---' line); pimctl reads one document per file: put each document in a file of its own",
    ]);
  });
});

describe("references and previous names, offline", () => {
  const files = {
    "a.yaml": [
      "display_groups:",
      "  - name: Basics",
      "attributes:",
      "  - name: Colour",
      "    type: text",
      "    display_group: Basix",
      "attribute_sets:",
      "  - name: Apparel",
      "    attributes: [Colour, Size]",
      "brands:",
      "  - name: Acme",
      "    attribute_sets: [Apparel]",
      "    web_ids: { Webshop: acme }",
      "categories:",
      "  - name: Shirts",
      "    attribute_sets: [Aparel]",
      "",
    ].join("\n"),
  };

  it("references nothing declares are errors, with did-you-mean, each at the line that names the record", async () => {
    const r = await load(files);
    expect(r.messages).toEqual([
      'a.yaml:6: attribute "Colour" refers to display group "Basix", which no manifest declares',
      'a.yaml:9: attribute set "Apparel" refers to attribute "Size", which no manifest declares',
      'a.yaml:16: category "Shirts" refers to attribute set "Aparel", which no manifest declares',
    ]);
    expect(r.errors[0]!.details[0]).toBe('did you mean: "Basics"?');
  });

  it("unless the config marks them tenant-owned (external:); channels are checked when listed", async () => {
    const r = await load(files, { external: { display_groups: "*", attributes: ["Size"], attribute_sets: ["Aparel"], channels: ["Web shop"] } });
    expect(r.messages).toEqual(['a.yaml:13: brand "Acme" refers to channel "Webshop", which no manifest declares']);
  });

  it("two records claiming one old name, and a cycle of renames, are errors", async () => {
    const r = await load({
      "a.yaml":
        "brands:\n  - name: A\n    previous_names: [X]\n  - name: B\n    previous_names: [X]\n  - name: C\n    previous_names: [D]\n  - name: D\n    previous_names: [C]\n",
    });
    expect(r.messages).toEqual([
      'a.yaml:4: brands "A" and "B" both claim the previous name "X"',
      'a.yaml:6: brand "C" lists "D" as a previous name, but "D" is declared too (a rename cannot keep the old record)',
      'a.yaml:8: brand "D" lists "C" as a previous name, but "C" is declared too (a rename cannot keep the old record)',
    ]);
  });

  it("two categories claiming one previous path are an error", async () => {
    const r = await load({ "a.yaml": 'categories:\n  - name: A\n    previous_paths: [["Old", "Shoes"]]\n  - name: B\n    previous_paths: ["Old/Shoes"]\n' });
    expect(r.messages).toEqual(['a.yaml:4: categories "A" and "B" both claim the previous path "Old/Shoes"']);
  });
});
