/**
 * Shopify's product taxonomy (vendored in test/data/shopify-taxonomy, or
 * $PIMCTL_TAXONOMY) as a pimctl project, for the benchmarks: every category
 * (10,595, names in English), the attributes deduplicated by English name
 * with their values, French and German names as language versions (or the
 * languages asked for), one attribute set per root category (the attributes
 * its subtree uses, assigned to the root), and generated brands. `roots`
 * keeps a few root categories and only the attributes their trees use.
 * `copies: N` writes the whole of it N times, as a tenant N times the size
 * (issue 27's 10×): copy k > 1 suffixes every root category, attribute,
 * attribute set and brand name with " #k", in files of its own
 * (attributes-02.yaml ...), so each file stays the size of one copy's, as a
 * team that keeps several catalogues would split them.
 */
import { mkdir, writeFile } from "node:fs/promises";
import path from "node:path";
import { stringify } from "yaml";
import { readTaxonomy } from "./taxonomy-data.js";

interface Named {
  id: string;
  name: { en: string; fr?: string; de?: string; es?: string };
}
interface Node extends Named {
  attributes?: string[];
  children?: Node[];
}
interface Taxonomy {
  attributes: Array<Named & { values?: Named[] }>;
  categories: Node[];
}

/** The taxonomy's locales and the language versions they become. */
export const TAXONOMY_LANGUAGES = { fr: "French", de: "German", es: "Spanish" } as const;
export type TaxonomyLanguage = keyof typeof TAXONOMY_LANGUAGES;

export interface TaxonomyProjectOptions {
  brands: number;
  /** Tenant name -> base URL; one config names them all. */
  tenants: Record<string, string>;
  tokenEnv: (tenant: string) => string;
  /** Keep this share of the leaf categories (quick runs); 1 keeps everything. */
  categoryShare?: number;
  /** The language versions to write (default fr and de); a missing name falls back to English. */
  languages?: TaxonomyLanguage[];
  /** Only these root categories (English names), and only the attributes their trees use. */
  roots?: string[];
  /** Version name -> id in pimctl.yaml's versions: (for versions no channel publishes). */
  versionIds?: Record<string, number>;
  /** Category names in each language version too (default false: the benchmark's figures were measured without them). */
  categoryVersions?: boolean;
  /** How many copies of the taxonomy (default 1); see the file's comment. */
  copies?: number;
}

/** The name a record of copy k (1-based) carries: copy 1 keeps the taxonomy's own names. */
export const copyName = (name: string, k: number): string => (k === 1 ? name : `${name} #${k}`);

/** Writes catalogue/*.yaml and pimctl.yaml into dir; returns a one-line summary. */
export async function writeTaxonomyProject(dir: string, o: TaxonomyProjectOptions): Promise<string> {
  const data = readTaxonomy<Taxonomy>();
  const languages = o.languages ?? ["fr", "de"];
  const versions = (n: Named["name"]) => Object.fromEntries(languages.map((l) => [TAXONOMY_LANGUAGES[l], n[l] ?? n.en]));
  const roots = o.roots ? data.categories.filter((r) => o.roots!.includes(r.name.en)) : data.categories;
  const attributes = taxonomyAttributes(data, roots, o, versions);
  const { categories, sets, categoryCount } = taxonomyCategories(data, roots, o, versions);
  const brands = Array.from({ length: o.brands }, (_, i) => ({
    name: `Brand ${String(i + 1).padStart(3, "0")}`,
    desc: `Brand number ${i + 1}, made for the benchmark.`,
  }));
  const copies = o.copies ?? 1;
  await writeCopies(path.join(dir, "catalogue"), copies, { attributes: [...attributes.values()], sets, categories, brands });
  const config = [
    "dir: catalogue",
    ...(o.versionIds ? ["versions:", ...Object.entries(o.versionIds).map(([v, id]) => `  ${v}: ${id}`)] : []),
    "tenants:",
    ...Object.entries(o.tenants).flatMap(([name, url]) => [`  ${name}:`, `    base_url: ${url}`, `    token_env: ${o.tokenEnv(name)}`]),
    "",
  ].join("\n");
  await writeFile(path.join(dir, "pimctl.yaml"), config);
  const values = [...attributes.values()].reduce((n, a) => n + a.values.length, 0);
  const times = (n: number) => n * copies;
  return (
    `${times(categoryCount)} categories, ${times(attributes.size)} attributes with ${times(values)} values, ${times(sets.length)} attribute sets, ` +
    `${times(o.brands)} brands, ` +
    `${languages.map((l) => TAXONOMY_LANGUAGES[l]).join(" and ") || "no language versions"}`
  );
}

type Versions = (n: Named["name"]) => Record<string, string>;
type TaxonomyAttribute = {
  name: string;
  type: string;
  versions: Record<string, { name: string }>;
  values: Array<{ value: string; versions: Record<string, string> }>;
};

/** The taxonomy's attributes by English name (those the roots use, when roots are chosen), each a selectbox with its values. */
function taxonomyAttributes(data: Taxonomy, roots: Node[], o: TaxonomyProjectOptions, versions: Versions): Map<string, TaxonomyAttribute> {
  const usedIds = new Set<string>();
  const collect = (n: Node) => {
    for (const id of n.attributes ?? []) usedIds.add(id);
    for (const c of n.children ?? []) collect(c);
  };
  if (o.roots) roots.forEach(collect);
  const attributes = new Map<string, TaxonomyAttribute>();
  for (const a of data.attributes) {
    if (attributes.has(a.name.en) || (o.roots && !usedIds.has(a.id))) continue;
    const seen = new Set<string>();
    const values = (a.values ?? []).filter((v) => !seen.has(v.name.en) && seen.add(v.name.en)).map((v) => ({ value: v.name.en, versions: versions(v.name) }));
    const names = versions(a.name);
    attributes.set(a.name.en, {
      name: a.name.en,
      type: "selectbox",
      versions: Object.fromEntries(Object.entries(names).map(([v, name]) => [v, { name }])),
      values,
    });
  }
  return attributes;
}

/** Each root as a category tree with an attribute set of the attributes its nodes use (a share of the leaves, for a quick run). */
function taxonomyCategories(data: Taxonomy, roots: Node[], o: TaxonomyProjectOptions, versions: Versions) {
  const attrById = new Map(data.attributes.map((a) => [a.id, a]));
  const share = o.categoryShare ?? 1;
  let categoryCount = 0;
  const sets: Array<{ name: string; attributes: string[] }> = [];
  const tree = (n: Node, used: Set<string>, keep: () => boolean): Record<string, unknown> => {
    categoryCount++;
    for (const id of n.attributes ?? []) {
      const a = attrById.get(id);
      if (a) used.add(a.name.en);
    }
    // A quick run drops leaves only, so the tree keeps its shape and depth.
    const children = (n.children ?? []).filter((c) => (c.children ?? []).length > 0 || keep()).map((c) => tree(c, used, keep));
    const names = o.categoryVersions ? versions(n.name) : {};
    const named = Object.keys(names).length ? { versions: Object.fromEntries(Object.entries(names).map(([v, name]) => [v, { name }])) } : {};
    return { name: n.name.en, ...named, ...(children.length ? { children } : {}) };
  };
  const categories = roots.map((root) => {
    const used = new Set<string>();
    let i = 0;
    const keep = () => share >= 1 || i++ % Math.round(1 / share) === 0;
    const node = tree(root, used, keep);
    sets.push({ name: root.name.en, attributes: [...used].sort() });
    return { ...node, name: root.name.en, attribute_sets: [root.name.en] };
  });
  return { categories, sets, categoryCount };
}

/** The catalogue files, once per copy: copy k is one copy's objects with its names suffixed, written before the next is built. */
async function writeCopies(
  catalogue: string,
  copies: number,
  c: {
    attributes: TaxonomyAttribute[];
    sets: Array<{ name: string; attributes: string[] }>;
    categories: Array<Record<string, unknown> & { name: string; attribute_sets: string[] }>;
    brands: Array<{ name: string; desc: string }>;
  },
): Promise<void> {
  await mkdir(catalogue, { recursive: true });
  for (let k = 1; k <= copies; k++) {
    const name = (n: string) => copyName(n, k);
    const file = (kind: string) => (k === 1 ? `${kind}.yaml` : `${kind}-${String(k).padStart(2, "0")}.yaml`);
    const write = (kind: string, list: unknown[]) => writeFile(path.join(catalogue, file(kind)), stringify({ [kind]: list }, { lineWidth: 0 }));
    await write(
      "attributes",
      c.attributes.map((a) => ({ ...a, name: name(a.name) })),
    );
    await write(
      "attribute_sets",
      c.sets.map((x) => ({ name: name(x.name), attributes: x.attributes.map(name).sort() })),
    );
    await write(
      "categories",
      c.categories.map((x) => ({ ...x, name: name(x.name), attribute_sets: x.attribute_sets.map(name) })),
    );
    await write(
      "brands",
      c.brands.map((b) => ({ ...b, name: name(b.name) })),
    );
  }
}
