/**
 * export --merge into the base for a tenant with an overlay (issue 35): the tenant's catalogue
 * split in two, one for each merge (merge.ts runs on the base's files, then on the overlay's).
 * - For the base: the tenant's records the base declares, each value the overlay sets replaced
 *   by the base's own (so the base merge leaves it as it is), a record the overlay removes as the
 *   base has it. Records the base lacks are not there: they are the overlay's.
 * - For the overlay: the values the overlay sets, from the tenant, on records holding only their
 *   identity (the base's other fields are never copied); the records the overlay adds and the
 *   tenant's new records whole; and for a new type value or category under a base record the
 *   overlay does not name, that record's identity alone to hang it on (a `stub`).
 * A record the overlay removes but the tenant has is in neither: reported where the `$remove` is.
 * Pure.
 */
import { KIND_NOUN, comparePaths, emptyCatalogue, pathKey, type Attribute, type Catalogue, type Category, type Kind } from "../model/catalogue.js";
import type { OverlayOwnership, OwnedRecord } from "../manifest/overlay-owned.js";
import { recordKey } from "./merge-state.js";
import { isObject, type Json } from "./merge-rules.js";

export interface OverlaySplit {
  base: Catalogue;
  overlay: Catalogue;
  /** `file:line: what`: records the overlay removes that the tenant has. */
  removed: string[];
  /** recordKey of the records in `overlay` that only carry a new child: not added, not changed. */
  stubs: Set<string>;
}

type Named = Exclude<Kind, "categories">;
const NAMED: readonly Named[] = ["display_groups", "attributes", "attribute_sets", "blocks", "brands"];
const idOf = (kind: Kind, r: object): string => String((r as Json)[kind === "blocks" ? "slug" : "name"]);

/** `base`: the base's catalogue as loaded with the tenant's variables (what the overlay is composed over). */
export function splitForOverlay(exported: Catalogue, base: Catalogue, owned: OverlayOwnership, tenant: string): OverlaySplit {
  const out: OverlaySplit = { base: emptyCatalogue(), overlay: emptyCatalogue(), removed: [], stubs: new Set() };
  for (const c of [out.base, out.overlay]) c.managed = [...exported.managed];
  const removedNote = (o: OwnedRecord, what: string) =>
    out.removed.push(
      `${o.at.file}:${o.at.line}: ${what} is removed for ${tenant} here ($remove), but the tenant has it: left as the manifests have it ` +
        `(delete it in the tenant, or delete this $remove to give ${tenant} the base's record and merge again)`,
    );
  for (const kind of NAMED) {
    const seen = new Set<string>();
    for (const record of exported[kind] as object[]) {
      const id = idOf(kind, record);
      seen.add(id);
      const o = owned.of(kind, [id]);
      const base = owned.baseRecord(kind, [id]);
      if (o?.how === "remove") {
        removedNote(o, `${KIND_NOUN[kind]} "${id}"`);
        push(out.base, kind, base!);
      } else if (!base) push(out.overlay, kind, record);
      else {
        const forBase = o?.how === "patch" ? withValuesAt(record, base, o.paths) : record;
        const forOverlay = o?.how === "patch" ? identityWith(kind, record, o.paths) : undefined;
        if (kind === "attributes") {
          const values = splitValues(owned, id, record as Attribute, removedNote);
          push(out.base, kind, { ...forBase, values: values.base });
          if (forOverlay || values.overlay.length) push(out.overlay, kind, { ...(forOverlay ?? { name: id }), values: values.overlay });
          if (!forOverlay && values.overlay.length) out.stubs.add(recordKey(kind, id));
        } else {
          push(out.base, kind, forBase);
          if (forOverlay) push(out.overlay, kind, forOverlay);
        }
      }
    }
    // What the overlay removes and the tenant lacks stays as the base has it: not "only in the folder".
    for (const r of base[kind] as object[]) if (!seen.has(idOf(kind, r)) && owned.of(kind, [idOf(kind, r)])?.how === "remove") push(out.base, kind, r);
  }
  splitCategories(out, { exported: exported.categories, base: base.categories }, owned, removedNote);
  return out;
}

type RemovedNote = (o: OwnedRecord, what: string) => void;

/** An attribute's type values: the base's (with the base's values where the overlay sets them), and the overlay's. */
function splitValues(owned: OverlayOwnership, id: string, record: Attribute, removedNote: RemovedNote): { base: Json[]; overlay: Json[] } {
  const out = { base: [] as Json[], overlay: [] as Json[] };
  const seen = new Set<string>();
  for (const v of (record.values ?? []) as unknown as Array<Json & { value: string }>) {
    seen.add(v.value);
    const o = owned.of("values", [id, v.value]);
    const base = owned.baseRecord("values", [id, v.value]);
    if (o?.how === "remove") {
      removedNote(o, `value "${v.value}" of attribute "${id}"`);
      out.base.push(base!);
    } else if (!base) out.overlay.push(v);
    else if (o?.how === "patch") {
      out.base.push(withValuesAt(v, base, o.paths));
      out.overlay.push(identityWith("values", v, o.paths));
    } else out.base.push(v);
  }
  const inBase = (owned.baseRecord("attributes", [id])?.values as Json[] | undefined) ?? [];
  for (const b of inBase) if (!seen.has(String(b.value)) && owned.of("values", [id, String(b.value)])?.how === "remove") out.base.push(b);
  return out;
}

/**
 * Categories, by path: a removal covers the subtree (reported once, at its top the tenant has); a
 * new category under base categories the overlay does not name hangs on their identities (stubs).
 */
function splitCategories(out: OverlaySplit, c: { exported: Category[]; base: Category[] }, owned: OverlayOwnership, removedNote: RemovedNote): void {
  const have = new Set(c.exported.map((x) => pathKey(x.path)));
  const inOverlay = new Set<string>();
  for (const record of c.exported) {
    const base = owned.baseRecord("categories", record.path) as Category | undefined;
    const removal = owned.removedAt(record.path);
    const parent = record.path.slice(0, -1);
    if (removal) {
      if (!(parent.length && have.has(pathKey(parent)) && owned.removedAt(parent))) removedNote(removal, `category "${pathKey(record.path)}"`);
      if (base) out.base.categories.push(base);
      continue;
    }
    const o = owned.of("categories", record.path);
    if (!base) out.overlay.categories.push(record);
    else if (o?.how === "patch") {
      out.base.categories.push(withValuesAt(record, base, o.paths) as Category);
      out.overlay.categories.push(identityWith("categories", record, o.paths) as Category);
    } else {
      out.base.categories.push(record);
      continue;
    }
    inOverlay.add(pathKey(record.path));
  }
  for (const b of c.base) if (!have.has(pathKey(b.path)) && owned.removedAt(b.path)) out.base.categories.push(b);
  for (const record of [...out.overlay.categories])
    for (let n = 1; n < record.path.length; n++) {
      const path = record.path.slice(0, n);
      if (inOverlay.has(pathKey(path)) || !owned.inBase("categories", path)) continue;
      inOverlay.add(pathKey(path));
      out.overlay.categories.push({ name: path[n - 1]!, path });
      out.stubs.add(recordKey("categories", pathKey(path)));
    }
  out.overlay.categories.sort((a, b) => comparePaths(a.path, b.path));
}

function push(c: Catalogue, kind: Kind, record: object): void {
  (c[kind] as object[]).push(record);
}

/** A path of keys read from a record. */
function get(record: unknown, path: readonly string[]): unknown {
  let v = record;
  for (const k of path) v = isObject(v) ? v[k] : undefined;
  return v;
}

/** A copy of `record` with `value` at `path` (undefined: none there), the maps on the way copied. */
function setAt(record: Json, path: readonly string[], value: unknown): Json {
  const [head, ...rest] = path;
  const out: Json = { ...record };
  if (!rest.length) {
    if (value === undefined) delete out[head!];
    else out[head!] = value;
    return out;
  }
  const inner = setAt(isObject(out[head!]) ? (out[head!] as Json) : {}, rest, value);
  if (Object.keys(inner).length) out[head!] = inner;
  else delete out[head!];
  return out;
}

/** The tenant's record with the base's values where the overlay sets them: what the base merge should find. */
function withValuesAt(record: object, base: Json, paths: readonly string[][]): Json {
  let out = record as Json;
  for (const p of paths) out = setAt(out, p, get(base, p));
  return out;
}

/** The record's identity with the tenant's values where the overlay sets them: what the overlay merge should find. */
function identityWith(kind: Kind | "values", record: object, paths: readonly string[][]): Json {
  const r = record as Json;
  let out: Json =
    kind === "categories" ? { name: r.name, path: r.path } : kind === "values" ? { value: r.value } : { [kind === "blocks" ? "slug" : "name"]: idOf(kind, r) };
  for (const p of paths) out = setAt(out, p, get(r, p));
  return out;
}
