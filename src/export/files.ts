/**
 * Export: a catalogue as manifest files (categories as trees). Deterministic: sorted,
 * no empty fields, stable formatting, so an unchanged tenant exports
 * byte-identical files and Git diffs stay minimal.
 */
import { stringify } from "yaml";
import { KINDS, compareText, comparePaths, type Catalogue, type Category, type Kind } from "../model/catalogue.js";
import { variableWriter, writeVariables, type VariableWriter } from "./translate.js";

export interface ExportOptions {
  tenant: string;
  kinds?: Kind[];
  /** The $schema reference editors use, relative to the output directory. */
  schemaRef?: string;
  /** The tenant's config variables: a string equal to one is written as `${name}`. */
  variables?: Record<string, string>;
}

/** One file per kind: `<kind>.yaml`. */
export function catalogueToFiles(catalogue: Catalogue, opts: ExportOptions): Record<string, string> {
  return Object.fromEntries(exportFiles(catalogue, opts).map((f) => [f.name, [...f.text()].join("")]));
}

/** An exported file: its name, and its text a piece at a time (made as it is written: src/workflows/export.ts streams it to disk). */
export interface ExportFile {
  name: string;
  kind: Kind;
  text(): Iterable<string>;
}

const YAML_OPTIONS = { lineWidth: 0, indent: 2, sortMapEntries: false, aliasDuplicateObjects: false } as const;

/** The files of `catalogueToFiles`, each written when its text is iterated. */
export function exportFiles(catalogue: Catalogue, opts: ExportOptions): ExportFile[] {
  const kinds = (opts.kinds ?? KINDS).filter((k) => catalogue.managed.includes(k));
  const write = variableWriter(opts.variables ?? {});
  return KINDS.filter((kind) => kinds.includes(kind)).map((kind) => ({
    name: `${kind}.yaml`,
    kind,
    *text() {
      yield exportHeader(kind, opts.schemaRef);
      const items: Iterable<ItemText> =
        kind === "categories"
          ? categoryTree(catalogue.categories).map((root) => (column) => categoryText(root, column, write))
          : (catalogue[kind] as object[]).map((e) => (column) => [listItem(writeVariables(clean(e), write), column)]);
      yield* kindText(kind, items, write);
    },
  }));
}

/** A list item's text at a column, a piece at a time. */
type ItemText = (column: number) => Iterable<string>;

/**
 * `kind:` and its entries, as the yaml library writes the whole document `{ kind: entries }`,
 * but one entry at a time: each entry is written as a list of one and moved right by the two
 * columns of the list under `kind:` (with lineWidth 0 nothing is folded, so a scalar's text does
 * not depend on its column; empty lines of block scalars carry no indentation). The whole
 * document at once held every entry three times (the cleaned copy, the yaml library's node tree,
 * the text): at ten times the taxonomy, a node tree of 1.3 million scalars.
 */
function* kindText(kind: Kind, items: Iterable<ItemText>, write: VariableWriter): Generator<string> {
  let first = true;
  for (const item of items) {
    // The key as the whole document wrote it: written through the variables too, quoted where it must be.
    if (first) yield keyLine(write.literal(kind));
    first = false;
    yield* item(2);
  }
  if (first) yield stringify({ [write.literal(kind)]: [] }, YAML_OPTIONS);
}

/**
 * A category and its subtree, one category at a time (a root of the taxonomy holds thousands:
 * written whole, its node tree outlived the young generation). `children` is an entry's last
 * field (FIELD_ORDER): the entry is written with an empty list there, which is opened for the
 * children, each written the same way four columns further right.
 */
function* categoryText(node: CategoryNode, column: number, write: VariableWriter): Generator<string> {
  const entry = writeVariables(clean(node.category), write) as Record<string, unknown>;
  if (!node.children.length) {
    yield listItem(entry, column);
    return;
  }
  const key = write.literal("children");
  const empty = stringify({ [key]: [] }, YAML_OPTIONS);
  const text = listItem({ ...entry, [key]: [] }, 0);
  // Never seen; should the library ever write the empty list otherwise, the subtree is written whole.
  if (!text.endsWith(`\n  ${empty}`)) {
    yield listItem(writeVariables(nestedCategory(node), write), column);
    return;
  }
  yield indented(`${text.slice(0, -empty.length)}${keyLine(key)}`, column);
  for (const child of node.children) yield* categoryText(child, column + 4, write);
}

/** `value` as an item of a block list at `column`. */
function listItem(value: unknown, column: number): string {
  return indented(stringify([value], YAML_OPTIONS), column);
}

/** Every line that is not empty moved right. */
function indented(text: string, column: number): string {
  return column ? text.replace(/^(?=[^\n])/gm, " ".repeat(column)) : text;
}

/** `key:` as the line that opens a block list under it. */
function keyLine(key: string): string {
  return `${stringify({ [key]: [0] }, YAML_OPTIONS).split("\n")[0]!}\n`;
}

/** The comment lines an exported file starts with: the editor's schema, where it came from, what API v1 cannot read. */
export function exportHeader(kind: Kind, schemaRef: string | undefined): string {
  const header = [
    `# yaml-language-server: $schema=${schemaRef ?? "../schemas/manifest.schema.json"}`,
    "# Exported by pimctl: names, not ids; regenerate with pimctl export.",
    ...NOT_READABLE[kind].map((l) => `# ${l}`),
  ];
  return `${header.join("\n")}\n`;
}

const NOT_READABLE: Record<Kind, string[]> = {
  display_groups: [],
  attributes: [],
  attribute_sets: [],
  blocks: ["Block assets are read-only in API v1 and not exported."],
  brands: [
    "API v1 cannot read back web_ids, asset image_url or assigned attribute sets:",
    "they come from this machine's ledger of applied values, and asset image_url falls back to the stored uri.",
  ],
  categories: ["API v1 cannot read back web_ids or asset image_url: they come from the ledger; image_url falls back to the stored uri."],
};

/** Field order in exported entries: identity first, then the API's order, then nested parts. */
const FIELD_ORDER = [
  "name",
  "slug",
  "value",
  "type",
  "display_group",
  "sort_order",
  "publish",
  "in_navigation",
  "note",
  "length",
  "desc",
  "status",
  "is_visible",
  "excluded",
  "exclusion_start_date",
  "exclusion_end_date",
  "exclusion_reason",
  "seo_title",
  "seo_meta_title",
  "seo_meta_desc",
  "seo_meta_keywords",
  "seo_search_keywords",
  "search_keywords",
  "content",
  "attribute_sets",
  "attributes",
  "assigned_attributes",
  "web_ids",
  "assets",
  "versions",
  "values",
  "children",
];

export function clean(entry: object): Record<string, unknown> {
  const out: Record<string, unknown> = {};
  const e = entry as Record<string, unknown>;
  const keys = Object.keys(e)
    .filter((k) => k !== "source" && k !== "path" && k !== "previous_names" && k !== "previous_paths" && k !== "previous_values")
    .sort((a, b) => rank(a) - rank(b) || compareText(a, b));
  for (const k of keys) {
    const v = tidy(e[k]);
    if (v !== undefined) out[k] = v;
  }
  return out;
}

function rank(field: string): number {
  const i = FIELD_ORDER.indexOf(field);
  return i === -1 ? FIELD_ORDER.length : i;
}

/** Drop empty values (null, "", [], {}) recursively: exports carry no empty fields. */
export function tidy(v: unknown): unknown {
  if (v === null || v === undefined || v === "") return undefined;
  if (Array.isArray(v)) {
    const items = v.map((x) => (x !== null && typeof x === "object" ? clean(x) : x)).filter((x) => x !== undefined);
    return items.length ? items : undefined;
  }
  if (typeof v === "object") {
    const o = v as Record<string, unknown>;
    const out: Record<string, unknown> = {};
    for (const k of Object.keys(o).sort((a, b) => rank(a) - rank(b) || compareText(a, b))) {
      const t = tidy(o[k]);
      if (t !== undefined) out[k] = t;
    }
    return Object.keys(out).length ? out : undefined;
  }
  return v;
}

export function nestCategories(categories: Category[]): Record<string, unknown>[] {
  return categoryTree(categories).map(nestedCategory);
}

type CategoryNode = { category: Category; children: CategoryNode[] };

/** The category tree's roots in path order, nothing cleaned yet (export cleans a category as it writes it). */
function categoryTree(categories: Category[]): CategoryNode[] {
  const roots: CategoryNode[] = [];
  const byKey = new Map<string, CategoryNode>();
  for (const c of [...categories].sort((a, b) => comparePaths(a.path, b.path))) {
    const node: CategoryNode = { category: c, children: [] };
    byKey.set(JSON.stringify(c.path), node);
    const parent = c.path.length > 1 ? byKey.get(JSON.stringify(c.path.slice(0, -1))) : undefined;
    (parent ? parent.children : roots).push(node);
  }
  return roots;
}

function nestedCategory(n: CategoryNode): Record<string, unknown> {
  const entry = clean(n.category);
  return n.children.length ? { ...entry, children: n.children.map(nestedCategory) } : entry;
}
