/**
 * The check of export --merge into the base for a tenant with an overlay (issue 35), before
 * anything is written. Each tenant's catalogue is composed (compose.ts) from the texts before and
 * after both merges, and compared record by record (src/manifest/edit/verify.ts):
 * - the merged tenant's changes only where a merge meant to change (a field of a record, a record
 *   added), and every field a merge changed now reads as the tenant has it: a value written to the
 *   wrong file (the base, where the overlay sets it) reads as before, and is caught here;
 * - every other tenant with an overlay changes only where the base merge changed (the others read
 *   the base alone, which the base merge's own check holds).
 * Anything else refuses the merge, naming each tenant and record; nothing is written.
 */
import { parseManifestData, parseManifestText, manifestSchemaErrors } from "../manifest/index.js";
import { composeDocuments, type ParsedManifest } from "../manifest/compose.js";
import { CatalogueBuilder } from "../manifest/catalogue-builder.js";
import { unmeantChanges } from "../manifest/edit/verify.js";
import { PimctlError } from "../errors.js";
import type { Catalogue, Kind } from "../model/catalogue.js";
import { comparable, label, records, RENAME_FIELDS } from "./merge-verify.js";
import { asExported, keepFields, same } from "./merge-rules.js";
import type { TrackedMerge } from "./merge.js";

/** A tenant's manifests as texts, by the names errors show: the base's files and its overlay's. */
export interface ComposedTexts {
  base: Record<string, string>;
  overlay: Record<string, string>;
}

export interface OverlayCheck {
  tenant: string;
  variables: Record<string, string>;
  before: ComposedTexts;
  after: ComposedTexts;
  /** What the tenant holds (export's view of it). */
  exported: Catalogue;
  base: TrackedMerge;
  overlay: TrackedMerge;
  /** The other tenants that have an overlay: their variables and overlay texts (which the merge does not touch). */
  others: ReadonlyArray<{ tenant: string; variables: Record<string, string>; overlay: Record<string, string> }>;
}

type Records = ReturnType<typeof records>;

export function checkOverlayMerge(c: OverlayCheck): void {
  const merges = [c.base, c.overlay];
  const parses: Parses = new Map();
  const meant = (key: string, field: string) => merges.some((m) => m.changed.get(key)?.has(field) === true);
  const after = composed(c.after, c.variables, parses);
  const problems = compare(composed(c.before, c.variables, parses), after, {
    keyAfter: c.base.keyAfter,
    meant,
    added: (key) => merges.some((m) => m.added.has(key)),
  }).map((p) => `${c.tenant}: ${p}`);
  if (after.ok) problems.push(...notReached(c, merges, after.records));
  problems.push(...othersChanged(c, parses));
  if (problems.length)
    throw new PimctlError(
      "invalid_value",
      `export --merge refused: ${c.tenant}'s catalogue (base and overlay) would not read as the tenant, ` +
        "or another tenant's would change in more than the base's changed values; nothing was written",
      {
        details: [
          ...problems.sort(),
          "merge from a tenant without an overlay, or export this tenant into a folder of its own (pimctl export --out DIR) and move the values by hand",
        ],
      },
    );
}

/**
 * The other tenants with an overlay: their overlays are as they were, so only what the base merge
 * edited can change their catalogues. Each is composed from the edited base files alone (a fleet may
 * be large, and so may the base), before and after; an overlay entry that patches or removes a record
 * of a file left out reads the same before and after, so compose's word on it is not taken.
 */
function othersChanged(c: OverlayCheck, parses: Parses): string[] {
  const edited = Object.keys(c.after.base).filter((name) => c.after.base[name] !== c.before.base[name]);
  if (!edited.length) return [];
  const only = (texts: Record<string, string>) => Object.fromEntries(edited.flatMap((name) => (name in texts ? [[name, texts[name]!]] : [])));
  const problems: string[] = [];
  for (const o of c.others) {
    const of = (base: Record<string, string>) => composed({ base: only(base), overlay: o.overlay }, o.variables, parses, { partialBase: true });
    const found = compare(of(c.before.base), of(c.after.base), {
      keyAfter: c.base.keyAfter,
      meant: (key, field) => c.base.changed.get(key)?.has(field) === true,
      added: (key) => c.base.added.has(key),
    });
    problems.push(...found.map((p) => `${o.tenant}: ${p}`));
  }
  return problems;
}

interface Meant {
  keyAfter(key: string): string;
  meant(key: string, field: string): boolean;
  added(key: string): boolean;
}

/** What changed between two compositions that was not meant; a composition that no longer loads is one problem per error. */
function compare(was: Composed, now: Composed, m: Meant): string[] {
  // A tenant whose manifests did not load before is not this merge's to check.
  if (!was.ok) return [];
  if (!now.ok) return now.errors;
  const plain = (r: Records) => new Map([...r].map(([key, { record }]) => [key, comparable(record)]));
  const found = unmeantChanges(plain(was.records), plain(now.records), {
    keyAfter: m.keyAfter,
    meant: (change, key) => {
      const field = String(change.path[0]);
      return m.meant(key.after, field) || (key.after !== key.before && RENAME_FIELDS.includes(field));
    },
  });
  return [
    ...found.gone.map((key) => `${label(key)} would be gone`),
    ...found.changed.map(
      ({ key, changes }) =>
        `${label(key)} would change (${[...new Set(changes.map((x) => String(x.path[0])))].sort().join(", ")}), which merge did not mean to change`,
    ),
    ...found.appeared.filter((key) => !m.added(key)).map((key) => `${label(key)} would appear, which merge did not add`),
  ];
}

/** Fields a merge changed that the tenant's composed catalogue does not read as the tenant has them (written where another file wins). */
function notReached(c: OverlayCheck, merges: readonly TrackedMerge[], after: Records): string[] {
  const exported = records(c.exported);
  const out: string[] = [];
  for (const m of merges)
    for (const [key, fields] of m.changed) {
      const kind = key.split("\0")[0] as Kind | "values";
      const now = after.get(key)?.record;
      const want = exported.get(key)?.record;
      if (!now || !want) continue;
      const keep = kind === "values" ? [] : keepFields(kind);
      for (const field of fields)
        if (!keep.includes(field) && !same(asExported(kind, now)[field], asExported(kind, want)[field]))
          out.push(`${c.tenant}: ${label(key)}: ${field} would not read as the tenant has it (written where another file's value wins)`);
    }
  return out;
}

/** A tenant's catalogue composed from texts, as the loader composes it (overlay-load.ts), by recordKey. */
interface Composed {
  ok: boolean;
  errors: string[];
  records: Records;
}

/** Files as parsed, by text, then by schema, name and variables: a file that reads the same before and after is parsed once. */
type Parses = Map<string, Map<string, ReturnType<typeof parseManifestData>>>;

function composed(texts: ComposedTexts, variables: Record<string, string>, parses: Parses, opts: { partialBase?: boolean } = {}): Composed {
  const errors: PimctlError[] = [];
  const vars = JSON.stringify(Object.entries(variables).sort());
  const parse = (files: Record<string, string>, schema: boolean): ParsedManifest[] =>
    Object.keys(files)
      .sort()
      .flatMap((file) => {
        const text = files[file]!;
        const byText = parses.get(text) ?? parses.set(text, new Map()).get(text)!;
        const key = `${schema}\0${file}\0${vars}`;
        const read = byText.get(key) ?? byText.set(key, (schema ? parseManifestText : parseManifestData)(text, file, { variables })).get(key)!;
        errors.push(...read.errors);
        return read.data && !read.errors.length ? [{ file, data: read.data, parsed: read.parsed }] : [];
      });
  const base = parse(texts.base, true);
  const { documents, errors: composeErrors } = composeDocuments(base, { files: parse(texts.overlay, false) });
  if (!opts.partialBase) errors.push(...composeErrors);
  const builder = new CatalogueBuilder({});
  for (const doc of documents) {
    // A base file as parsed was checked; a patched one is checked again; an overlay's own entries, but
    // not over a partial base (they may patch records of files left out, and read as partial records).
    const checked = base.includes(doc) || (opts.partialBase && !(doc.file in texts.base));
    const own = checked ? [] : manifestSchemaErrors(doc.parsed, doc.data);
    errors.push(...own);
    if (!own.length) builder.add(doc.data, doc.parsed);
  }
  const catalogue = builder.build();
  errors.push(...builder.errors);
  return { ok: !errors.length, errors: errors.map((e) => e.format()), records: records(catalogue) };
}
