/**
 * A manifest directory for the targeted-load tests: three root categories of
 * the vendored taxonomy (with versions, sets and brands), and files written
 * by hand in the styles a line scan must not get wrong: quoting, variables,
 * escapes, block scalars, multi-line plain names, compact sequences, flow
 * style, anchors and merge keys, renames and moves, a version named only
 * deep inside an entry.
 */
import { readFile, writeFile } from "node:fs/promises";
import path from "node:path";
import { writeTaxonomyProject } from "../../src/bench/taxonomy.js";
import { loadManifests } from "../../src/manifest/index.js";

export const ROOTS = ["Luggage & Bags", "Religious & Ceremonial", "Media", "Software"];
export const VARIABLES = { prefix: "Var" };

/** Writes the project (pimctl.yaml names one tenant at `url`); returns nothing, the files are the fixture. */
export async function writeTargetedFixture(dir: string, url = "http://127.0.0.1:1/demo/api/v1"): Promise<void> {
  await writeTaxonomyProject(dir, { brands: 12, tenants: { demo: url }, tokenEnv: () => "PIMCTL_DEMO_TOKEN", roots: ROOTS, categoryVersions: true });
  const base = await loadManifests(path.join(dir, "catalogue"), { cwd: dir });
  const [a1, a2, a3] = base.catalogue.attributes.map((a) => a.name);
  const value = base.catalogue.attributes[0]!.values![0]!.value;
  const set = base.catalogue.attribute_sets[0]!.name;
  const q = (s: string | undefined) => JSON.stringify(s);
  const files: Record<string, string> = {
    "extra-brands.yaml": [
      "# Brands written by hand",
      "brands:",
      "- name: 'Quoted ''Single'''",
      "  desc: |",
      "    A block scalar",
      "    - name: Not a brand",
      `  assigned_attributes: [${q(a2)}]`,
      '- name: "Double Quoted"',
      `  attributes: { ${q(a1)}: { value: ${q(value)}, versions: { French: Rouge } } }`,
      `  attribute_sets: [${q(set)}]`,
      "-",
      "  desc: the name on the second line",
      "  name: Second Line",
      "  versions:",
      "    Spanish:",
      "      desc: Hola",
      "- name: ${prefix} Variable",
      `  attributes:`,
      `    ${q(a3)}:`,
      `      value: plain`,
      `      versions:`,
      `        Dutch: vlak`,
      '- name: "Esc\\u00e9"',
      "- name: Renamed Brand",
      "  previous_names: [Old Brand]",
      "- name: Commented # a comment",
      "  desc: >-",
      "    folded",
      "    text",
      "- { name: Flow Item, desc: in flow }",
      "- name: Multi",
      "    Line Plain",
      "- name: 3D Printing",
      "- name: Brand 001 copy",
      "",
    ].join("\n"),
    "extra-categories.yaml": [
      "categories:",
      "  - name: Moved Root",
      "    previous_names: [Old Root]",
      `    attribute_sets: [${q(set)}]`,
      "    children:",
      "      - name: Child",
      '        previous_paths: ["Gone/Away"]',
      '  - name: "Quoted Root"',
      "    versions: { French: { name: Racine } }",
      "    children:",
      "      - name: Kid",
      "        versions:",
      "          German: { name: Kind }",
      "        children:",
      "          - name: Grandkid",
      "            versions: { Portuguese: { name: Neto } }",
      "",
    ].join("\n"),
    "extra-flow.yaml": "{ display_groups: [ { name: Flow Group } ], attributes: [ { name: Flow Attr, type: text, display_group: Flow Group } ] }\n",
    "extra-anchors.yaml": [
      "display_groups:",
      "  - name: Block Group",
      "attributes:",
      "  - &base",
      "    name: Anchored",
      "    type: text",
      "    display_group: Block Group",
      "  - <<: *base",
      "    name: Merged",
      "",
    ].join("\n"),
    "extra-compact.yaml": [
      "display_groups:",
      "- name: Compact Group   # a comment",
      "  in_navigation: true",
      "attributes:",
      "- name: Compact Attr",
      "  type: selectbox",
      "  display_group: Compact Group",
      "  values:",
      "  - value: One",
      "    versions: { Italian: Uno }",
      "  - value: Two",
      "    versions:",
      "      German: Zwei",
      "- name: 'Renamed Attr'",
      "  type: text",
      "  previous_names: [Old Attr]",
      "attribute_sets:",
      "- name: Compact Set",
      `  attributes: [Compact Attr, ${q(a1)}]`,
      "blocks:",
      "- slug: footer",
      "  content: |",
      "    text",
      '- slug: "header"',
      "brands: []",
      "",
    ].join("\n"),
    // Parsed whole: a quoted scalar over two lines, carriage returns, a tab.
    "extra-multiline.yaml": 'brands:\n  - name: Long Desc\n    desc: "first line\n      second line"\n  - name: After Long\n',
    "extra-crlf.yaml": "brands:\r\n  - name: Windows\r\n    desc: crlf\r\n",
    "extra-tab.yaml": "brands:\n  - name: Tabbed\n    desc:\tafter a tab\n",
    // Split: the decoder drops the byte order mark.
    "extra-bom.yaml": "\ufeffbrands:\n  - name: Bom Brand\n",
  };
  for (const [name, text] of Object.entries(files)) await writeFile(path.join(dir, "catalogue", name), text);
  // The tenant's variables (the load resolves ${prefix} with them).
  const config = path.join(dir, "pimctl.yaml");
  await writeFile(config, (await readFile(config, "utf8")).replace("    token_env:", `    variables: { prefix: ${VARIABLES.prefix} }\n    token_env:`));
}
