/**
 * Shopify's product taxonomy (vendored in test/data/shopify-taxonomy, or
 * $PIMCTL_TAXONOMY) as a pimctl project, for the benchmarks: every category
 * (10,595, names in English), the attributes deduplicated by English name
 * with their values, French and German names as language versions (or the
 * languages asked for), one attribute set per root category (the attributes
 * its subtree uses, assigned to the root), and generated brands. `roots`
 * keeps a few root categories and only the attributes their trees use.
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
}

/** Writes catalogue/*.yaml and pimctl.yaml into dir; returns a one-line summary. */
export async function writeTaxonomyProject(dir: string, o: TaxonomyProjectOptions): Promise<string> {
  const data = readTaxonomy<Taxonomy>();
  const languages = o.languages ?? ["fr", "de"];
  const versions = (n: Named["name"]) => Object.fromEntries(languages.map((l) => [TAXONOMY_LANGUAGES[l], n[l] ?? n.en]));
  const roots = o.roots ? data.categories.filter((r) => o.roots!.includes(r.name.en)) : data.categories;

  const attrById = new Map(data.attributes.map((a) => [a.id, a]));
  const usedIds = new Set<string>();
  const collect = (n: Node) => {
    for (const id of n.attributes ?? []) usedIds.add(id);
    for (const c of n.children ?? []) collect(c);
  };
  if (o.roots) roots.forEach(collect);
  const attributes = new Map<
    string,
    { name: string; type: string; versions: Record<string, { name: string }>; values: Array<{ value: string; versions: Record<string, string> }> }
  >();
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
    return { ...node, attribute_sets: [root.name.en] };
  });
  const brands = Array.from({ length: o.brands }, (_, i) => ({
    name: `Brand ${String(i + 1).padStart(3, "0")}`,
    desc: `Brand number ${i + 1}, made for the benchmark.`,
  }));

  const catalogue = path.join(dir, "catalogue");
  await mkdir(catalogue, { recursive: true });
  const write = (name: string, doc: unknown) => writeFile(path.join(catalogue, name), stringify(doc, { lineWidth: 0 }));
  await write("attributes.yaml", { attributes: [...attributes.values()] });
  await write("attribute_sets.yaml", { attribute_sets: sets });
  await write("categories.yaml", { categories });
  await write("brands.yaml", { brands });
  const config = [
    "dir: catalogue",
    ...(o.versionIds ? ["versions:", ...Object.entries(o.versionIds).map(([v, id]) => `  ${v}: ${id}`)] : []),
    "tenants:",
    ...Object.entries(o.tenants).flatMap(([name, url]) => [`  ${name}:`, `    base_url: ${url}`, `    token_env: ${o.tokenEnv(name)}`]),
    "",
  ].join("\n");
  await writeFile(path.join(dir, "pimctl.yaml"), config);
  const values = [...attributes.values()].reduce((n, a) => n + a.values.length, 0);
  return (
    `${categoryCount} categories, ${attributes.size} attributes with ${values} values, ${sets.length} attribute sets, ${o.brands} brands, ` +
    `${languages.map((l) => TAXONOMY_LANGUAGES[l]).join(" and ") || "no language versions"}`
  );
}
