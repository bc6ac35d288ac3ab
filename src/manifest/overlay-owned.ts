/**
 * What a tenant's overlay declares, record by record (issue 35): which base records it patches
 * and which of their fields it sets, which it removes, which it adds. `export --merge` into the
 * base reads it to write each value to the file that declares it for the tenant (the overlay's
 * values to the overlay, the rest to the base) and never to copy a base entry into the overlay.
 * The walk follows compose.ts and overlay-merge.ts rule for rule (overlay-rules.ts): a field the
 * overlay sets is the overlay's whole, but a map keyed by name (versions, web_ids, a brand's
 * attributes) is the overlay's key by key, a version's texts field by field, and child entries
 * (type values, a category's children) are records of their own. Pure.
 */
import { pathKey, type Catalogue, type Kind, type SourceLocation } from "../model/catalogue.js";
import { pointer, type ParsedYaml } from "./yaml.js";
import type { ParsedManifest } from "./compose.js";
import { CHILD_FIELDS, IDENTITY, MAP_FIELDS, REMOVE, identityOf, isEntry, type Entry, type EntryKind } from "./overlay-rules.js";

/** What the overlay does to one record: patches some of its fields, adds it for the tenant, or removes it. */
export interface OwnedRecord {
  how: "patch" | "add" | "remove";
  /** A patch: the paths of the values the overlay sets (`["desc"]`, `["versions", "French", "name"]`, `["web_ids", "Webshop"]`). */
  paths: string[][];
  /** Where the overlay writes it: the entry, or for a removal its `$remove` key. */
  at: SourceLocation;
}

/** A record's identity: a name (slug), a category's path, a type value as [attribute, value]. */
export type RecordId = readonly string[];

type Path = ReadonlyArray<string | number>;
type Rec = Record<string, unknown>;

export class OverlayOwnership {
  private readonly records = new Map<string, OwnedRecord>();

  constructor(private readonly base: BaseRecords) {}

  /** What the overlay does to the record, if anything (a category's removal covers its subtree: `removedAt`). */
  of(kind: Kind | "values", id: RecordId): OwnedRecord | undefined {
    return this.records.get(key(kind, id));
  }

  /** The removal that takes this category away for the tenant: its own, or an ancestor's. */
  removedAt(path: RecordId): OwnedRecord | undefined {
    for (let n = path.length; n > 0; n--) {
      const o = this.of("categories", path.slice(0, n));
      if (o?.how === "remove") return o;
    }
    return undefined;
  }

  /** Whether the base declares the record. */
  inBase(kind: Kind | "values", id: RecordId): boolean {
    return this.base.has(key(kind, id));
  }

  /** The base's record (a category by path, a type value under its attribute). */
  baseRecord(kind: Kind | "values", id: RecordId): Rec | undefined {
    return this.base.get(key(kind, id));
  }

  set(kind: Kind | "values", id: RecordId, owned: OwnedRecord): void {
    this.records.set(key(kind, id), owned);
  }
}

type BaseRecords = ReadonlyMap<string, Rec>;
const key = (kind: Kind | "values", id: RecordId): string => [kind, kind === "categories" ? pathKey([...id]) : id.join("\0")].join("\0");

/** The base's records by kind and identity, type values and categories among them. */
function baseRecords(base: Catalogue): BaseRecords {
  const out = new Map<string, Rec>();
  for (const kind of ["display_groups", "attributes", "attribute_sets", "blocks", "brands"] as const)
    for (const r of base[kind] as Rec[]) out.set(key(kind, [String(kind === "blocks" ? r.slug : r.name)]), r);
  for (const a of base.attributes) for (const v of a.values ?? []) out.set(key("values", [a.name, v.value]), v as unknown as Rec);
  for (const c of base.categories) out.set(key("categories", c.path), c as Rec);
  return out;
}

/** The overlay's files (as parsed with the tenant's variables) over the base's catalogue. */
export function overlayOwnership(files: readonly ParsedManifest[], base: Catalogue): OverlayOwnership {
  const owned = new OverlayOwnership(baseRecords(base));
  for (const file of files)
    for (const [field, list] of Object.entries(file.data)) {
      if (!Array.isArray(list) || !(field in IDENTITY) || field === "type_values") continue;
      const kind = field as Kind;
      list.forEach((entry, j) => {
        const id = identityOf(kind, entry);
        if (id !== undefined && isEntry(entry)) walkEntry(owned, kind, [id], { value: entry, parsed: file.parsed, path: [kind, j] });
      });
    }
  return owned;
}

interface At {
  value: Entry;
  parsed: ParsedYaml;
  path: Path;
}

const recordKind = (kind: EntryKind): Kind | "values" => (kind === "type_values" ? "values" : kind);

/** One overlay entry: its record patched, removed or added, and its child entries after it. */
function walkEntry(owned: OverlayOwnership, kind: EntryKind, id: RecordId, e: At): void {
  const rk = recordKind(kind);
  if (REMOVE in e.value) {
    if (owned.inBase(rk, id)) owned.set(rk, id, { how: "remove", paths: [], at: e.parsed.at(`${pointer([...e.path, REMOVE])}#key`) });
    return;
  }
  const at = e.parsed.atPath(e.path);
  const base = owned.baseRecord(rk, id);
  if (!base) {
    owned.set(rk, id, { how: "add", paths: [], at });
    walkChildren(owned, kind, id, e, true);
    return;
  }
  const paths: string[][] = [];
  for (const [field, value] of Object.entries(e.value)) {
    if (field === IDENTITY[kind] || CHILD_FIELDS[kind]?.[field]) continue;
    const was = base[field];
    if (MAP_FIELDS[kind]?.has(field) && isEntry(value) && isEntry(was)) {
      for (const [k, v] of Object.entries(value))
        if (field === "versions" && isEntry(v) && isEntry(was[k])) for (const f of Object.keys(v)) paths.push([field, k, f]);
        else paths.push([field, k]);
    } else paths.push([field]);
  }
  owned.set(rk, id, { how: "patch", paths, at });
  walkChildren(owned, kind, id, e, false);
}

/** A child entry's identity as a record: a category's path, a type value under its attribute. */
function childId(kind: EntryKind, parent: RecordId, child: string): RecordId {
  return kind === "categories" ? [...parent, child] : [parent[0]!, child];
}

/** Child entries (type values, a category's children); under an added entry every child is added too. */
function walkChildren(owned: OverlayOwnership, kind: EntryKind, id: RecordId, e: At, added: boolean): void {
  for (const [field, childKind] of Object.entries(CHILD_FIELDS[kind] ?? {})) {
    const list = e.value[field];
    if (!Array.isArray(list)) continue;
    list.forEach((child, j) => {
      const cid = identityOf(childKind, child);
      if (cid === undefined || !isEntry(child)) return;
      const at: At = { value: child, parsed: e.parsed, path: [...e.path, field, j] };
      const rid = childId(childKind, id, cid);
      if (added) {
        owned.set(recordKind(childKind), rid, { how: "add", paths: [], at: at.parsed.atPath(at.path) });
        walkChildren(owned, childKind, rid, at, true);
      } else walkEntry(owned, childKind, rid, at);
    });
  }
}
