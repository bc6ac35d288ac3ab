/**
 * Export: a tenant's state as manifests, in the language people write (names,
 * never ids; versions by name; categories as trees). Deterministic: sorted,
 * no empty fields, stable formatting, so an unchanged tenant exports
 * byte-identical files and Git diffs stay minimal.
 */
import { stringify } from "yaml";
import {
  KINDS,
  compareText,
  comparePaths,
  pathKey,
  type Asset,
  type Attribute,
  type Brand,
  type Catalogue,
  type Category,
  type Kind,
  type OwnedTable,
  type TypeValue,
} from "../model/catalogue.js";
import type { RemoteAsset, RemoteCatalogue } from "../model/remote.js";
import type { LedgerView } from "../plan/context.js";
import { judgeIdentity } from "../plan/identity.js";
import { variableWriter, writeVariables, type VariableWriter } from "./translate.js";

/**
 * Version fields that only repeat the master text carry nothing (a tenant may
 * fall back to master where no translation exists): leave them out.
 */
export function ownVersions<T extends object>(versions: Record<string, T> | undefined, master: Record<string, unknown>): Record<string, T> | undefined {
  if (!versions) return undefined;
  const out: Record<string, T> = {};
  for (const [v, fields] of Object.entries(versions)) {
    const own = Object.fromEntries(Object.entries(fields).filter(([k, x]) => x !== master[k] && x !== undefined && x !== null)) as T;
    if (Object.keys(own).length) out[v] = own;
  }
  return Object.keys(out).length ? out : undefined;
}

/** The tenant's state as a desired catalogue: what a manifest would say to keep it as it is. */
export function remoteToCatalogue(remote: RemoteCatalogue, ledger?: LedgerView): Catalogue {
  const byName = (a: { name: string }, b: { name: string }) => compareText(a.name, b.name);
  // The ledger's write-only values of a record only while the record under that id is the one pimctl wrote them for,
  // as the plan decides (plan/identity.ts): another record given that id (a restore, a rename and an edit) has none of them.
  const trusted = (table: OwnedTable, id: number, key: string, record: object): LedgerView | undefined =>
    ledger && judgeIdentity(ledger, table, id, key, record).is !== "other" ? ledger : undefined;
  const assets = (own: LedgerView | undefined, owner: string, list: RemoteAsset[] | undefined): Asset[] | undefined =>
    list?.length
      ? list
          .map((a) => ({
            image_url: own?.assets[owner]?.[String(a.id)]?.image_url ?? a.uri,
            ...(a.alttext ? { alttext: a.alttext } : {}),
            ...(a.thumbnail !== undefined ? { thumbnail: a.thumbnail } : {}),
          }))
          .sort((x, y) => compareText(x.image_url, y.image_url))
      : undefined;
  /** Brands and categories: own version text, and the write-only values the ledger remembers. */
  const withWriteOnly = <T extends Brand | Category>(out: T, owner: string, remoteAssets: RemoteAsset[] | undefined, own: LedgerView | undefined): T => {
    const versions = ownVersions(out.versions as Record<string, object> | undefined, out as unknown as Record<string, unknown>);
    if (versions) out.versions = versions as T["versions"];
    else delete out.versions;
    const a = assets(own, owner, remoteAssets);
    if (a) out.assets = a;
    const w = own?.web_ids[owner];
    if (w && Object.keys(w).length) out.web_ids = w;
    return out;
  };

  const attributes: Attribute[] = remote.attributes
    .map((r) => {
      const { id: _id, values, ...rest } = r;
      const sorted = [...values].sort((x, y) => (x.sort_order ?? 0) - (y.sort_order ?? 0) || compareText(x.value, y.value));
      const out: Attribute = {
        ...rest,
        values: sorted.map(({ id: _vid, versions, ...v }) => {
          const own = Object.fromEntries(Object.entries(versions ?? {}).filter(([, text]) => text !== v.value));
          return { ...v, ...(Object.keys(own).length ? { versions: own } : {}) } as TypeValue;
        }),
      };
      const versions = ownVersions(rest.versions, rest as unknown as Record<string, unknown>);
      if (versions) out.versions = versions;
      else delete out.versions;
      return out;
    })
    .sort(byName);

  const brands: Brand[] = remote.brands
    .map((r) => {
      const { id, product_count: _pc, assets: ra, attributes: battrs, ...rest } = r;
      const own = trusted("brands", id, r.name, r);
      const out: Brand = withWriteOnly({ ...rest }, `brand:${id}`, ra, own);
      if (battrs) {
        const values: NonNullable<Brand["attributes"]> = {};
        const assigned: string[] = [];
        for (const [name, ba] of Object.entries(battrs)) {
          const master = ba.values[""];
          if (!master) {
            assigned.push(name);
            continue;
          }
          const versions = Object.fromEntries(
            Object.entries(ba.values)
              .filter(([v]) => v !== "")
              .map(([v, rec]) => [v, rec.value]),
          );
          values[name] = { value: master.value, ...(Object.keys(versions).length ? { versions } : {}) };
        }
        if (Object.keys(values).length) out.attributes = values;
        if (assigned.length) out.assigned_attributes = assigned.sort();
      }
      const sets = own?.brand_attribute_sets[String(id)];
      if (sets?.length) out.attribute_sets = [...sets].sort();
      return out;
    })
    .sort(byName);

  const categories: Category[] = remote.categories
    .map((r) => {
      const { id, parent_id: _p, child_count: _c, assets: ra, ...rest } = r;
      return withWriteOnly({ ...rest } as Category, `category:${id}`, ra, trusted("categories", id, pathKey(r.path), r));
    })
    .sort((a, b) => comparePaths(a.path, b.path));

  return {
    managed: [...remote.read],
    versions: Object.keys(remote.version_ids).sort(),
    display_groups: remote.display_groups.map(({ id: _id, ...d }) => d).sort(byName),
    attributes,
    attribute_sets: remote.attribute_sets.map(({ id: _id, assignment_ids: _a, ...s }) => ({ ...s, attributes: [...s.attributes].sort() })).sort(byName),
    blocks: remote.blocks.map(({ id: _id, asset_count: _n, ...b }) => b).sort((a, b) => compareText(a.slug, b.slug)),
    brands,
    categories,
  };
}

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
