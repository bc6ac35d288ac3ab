/**
 * A tenant's catalogue documents: the base's files with an overlay's entries applied (issue 35,
 * README "Fleets"), in the manner of kustomize's base and overlays. An overlay entry with a base
 * entry's identity patches it (overlay-merge.ts), `{ name: X, $remove: true }` removes it, a new
 * identity adds a record for this tenant. Pure: the base's parsed data is shared by every tenant and
 * never changed; a base file the overlay does not touch is passed on as it is. Each composed
 * document answers "where is this written" with the overlay's place for what the overlay set and
 * the base's for the rest (overlay-places.ts), so every later error names the file that caused it.
 */
import { KINDS, type Kind } from "../model/catalogue.js";
import { PimctlError } from "../errors.js";
import type { ParsedYaml } from "./yaml.js";
import { ComposedPlaces } from "./overlay-places.js";
import { mergeEntry, nothingToRemove, removes, withoutRemovals, type Written } from "./overlay-merge.js";
import { entryNoun, identityOf, isEntry, type Entry } from "./overlay-rules.js";
import { addedByMistake, baseNames, type BaseNames } from "./overlay-adds.js";

/** One file as parsed (its data valid YAML, a mapping), with the name errors show. */
export interface ParsedManifest {
  file: string;
  data: Record<string, unknown>;
  parsed: ParsedYaml;
}

/** A tenant's overlay: its files as parsed. */
export interface OverlayEntries {
  files: readonly ParsedManifest[];
}

/** What the overlay does to one base entry. */
type Edit = { remove: true; by: Written<Entry> } | { remove?: false; by: Written<Entry> };

interface BaseEntry {
  doc: number;
  index: number;
}

/** `warnings`: overlay entries that add a record where a patch was likely meant (overlay-adds.ts). */
export function composeDocuments(
  base: readonly ParsedManifest[],
  overlay: OverlayEntries,
): { documents: ParsedManifest[]; errors: PimctlError[]; warnings: PimctlError[] } {
  const errors: PimctlError[] = [];
  const warnings: PimctlError[] = [];
  const index = baseIndex(base);
  const edits = new Map<string, Edit>();
  // Built once, and only when an overlay entry adds a record: most overlays only patch, and the walk covers every base category.
  let names: BaseNames | undefined;
  const found = { errors, warnings, names: () => (names ??= baseNames(base)) };
  const added = overlay.files.map((file) => additions(file, index, edits, found));
  const documents = base.map((file, d) => editedDocument(file, d, edits, errors) ?? file);
  for (const doc of added) if (doc) documents.push(doc);
  return { documents, errors, warnings };
}

const editKey = (kind: Kind, doc: number, i: number) => `${kind}\0${doc}\0${i}`;

/** Every top-level base entry by kind and identity (the first, where a name is declared twice: the builder reports the second). */
function baseIndex(base: readonly ParsedManifest[]): Map<string, BaseEntry> {
  const index = new Map<string, BaseEntry>();
  base.forEach((file, doc) => {
    for (const kind of KINDS) {
      const list = file.data[kind];
      if (!Array.isArray(list)) continue;
      list.forEach((entry, i) => {
        const id = identityOf(kind, entry);
        if (id !== undefined && !index.has(`${kind}\0${id}`)) index.set(`${kind}\0${id}`, { doc, index: i });
      });
    }
  });
  return index;
}

/** An overlay file's own document: what it adds (and its keys that are not kinds); its patches and removals go to `edits`. */
function additions(
  file: ParsedManifest,
  index: Map<string, BaseEntry>,
  edits: Map<string, Edit>,
  found: { errors: PimctlError[]; warnings: PimctlError[]; names: () => BaseNames },
): ParsedManifest | undefined {
  const { errors } = found;
  const data: Record<string, unknown> = {};
  const places = new ComposedPlaces(data, file.parsed);
  for (const [key, value] of Object.entries(file.data)) {
    if (!(KINDS as readonly string[]).includes(key) || !Array.isArray(value)) {
      data[key] = value;
      continue;
    }
    const kind = key as Kind;
    const kept: unknown[] = [];
    value.forEach((entry, j) => {
      const written: Written<Entry> = { value: entry as Entry, parsed: file.parsed, path: [kind, j] };
      const id = identityOf(kind, entry);
      const hit = id === undefined ? undefined : index.get(`${kind}\0${id}`);
      const remove = isEntry(entry) && removes(kind, written, errors);
      if (hit && isEntry(entry)) recordEdit(kind, hit, remove ? { remove: true, by: written } : { by: written }, edits, errors);
      else if (remove) errors.push(nothingToRemove(kind, written));
      else {
        const mistake = isEntry(entry) ? addedByMistake(kind, written, found.names()) : undefined;
        if (mistake) found.warnings.push(mistake);
        places.map([kind, kept.length], file.parsed, [kind, j]);
        kept.push(withoutRemovals(kind, written, errors));
      }
    });
    if (kept.length) data[kind] = kept;
  }
  return Object.keys(data).length ? { file: file.file, data, parsed: places } : undefined;
}

function recordEdit(kind: Kind, hit: BaseEntry, edit: Edit, edits: Map<string, Edit>, errors: PimctlError[]): void {
  const key = editKey(kind, hit.doc, hit.index);
  const first = edits.get(key);
  if (!first) {
    edits.set(key, edit);
    return;
  }
  const at = first.by.parsed.atPath(first.by.path);
  errors.push(
    withLocation(
      edit.by,
      `the overlay names the ${entryNoun(kind)} ${JSON.stringify(identityOf(kind, edit.by.value))} twice (first at ${at.file}:${at.line}:${at.column})`,
    ),
  );
}

function withLocation(entry: Written<Entry>, message: string): PimctlError {
  return new PimctlError("duplicate", message, { location: entry.parsed.atPath(entry.path) });
}

/** A base file with the overlay's patches and removals applied, or undefined when the overlay does not touch it. */
function editedDocument(file: ParsedManifest, d: number, edits: Map<string, Edit>, errors: PimctlError[]): ParsedManifest | undefined {
  const touched = KINDS.filter((kind) => Array.isArray(file.data[kind]) && (file.data[kind] as unknown[]).some((_, i) => edits.has(editKey(kind, d, i))));
  if (!touched.length) return undefined;
  const data: Record<string, unknown> = { ...file.data };
  const places = new ComposedPlaces(data, file.parsed);
  for (const kind of touched) {
    const out: unknown[] = [];
    (file.data[kind] as unknown[]).forEach((entry, i) => {
      const edit = edits.get(editKey(kind, d, i));
      if (edit?.remove) return;
      const k = out.length;
      places.map([kind, k], file.parsed, [kind, i]);
      if (!edit) out.push(entry);
      else {
        const place = (rel: ReadonlyArray<string | number>, parsed: ParsedYaml, original: ReadonlyArray<string | number>) => places.map(rel, parsed, original);
        out.push(mergeEntry(kind, { value: entry as Entry, parsed: file.parsed, path: [kind, i] }, edit.by, [kind, k], place, errors));
      }
    });
    data[kind] = out;
  }
  return { file: file.file, data, parsed: places };
}
