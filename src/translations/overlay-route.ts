/**
 * translations import for a tenant with an overlay (issue 35): each text goes to the file that
 * declares it for that tenant, the overlay when the overlay sets it, else the base. The import's
 * edits are made against the tenant's composed catalogue, whose records stand where the base
 * declares them; an edit whose text the overlay declares moves to the overlay's entry. A base
 * entry is never copied into an overlay: an edit the overlay does not declare stays in the base.
 */
import type { ParsedYaml } from "../manifest/yaml.js";
import { pointer } from "../manifest/yaml.js";
import { ComposedPlaces } from "../manifest/overlay-places.js";
import { KINDS } from "../model/catalogue.js";
import type { ImportPlan } from "./import.js";

type Edits = ImportPlan["edits"];
type EntryEdit = Edits extends Map<string, Array<infer E>> ? E : never;

/** The edits, each in the file that declares its text for the tenant whose composed documents `places` are. */
export function routeToDeclaringFiles(edits: Edits, places: ReadonlyMap<string, ParsedYaml>): Edits {
  const out: Edits = new Map();
  const add = (file: string, e: EntryEdit) => (out.get(file) ?? out.set(file, []).get(file)!).push(e);
  for (const [file, entries] of edits) {
    const doc = places.get(file);
    for (const entry of entries) {
      const path = doc instanceof ComposedPlaces ? entryPath(doc, entry.line, entry.column) : undefined;
      if (!doc || !(doc instanceof ComposedPlaces) || !path) {
        add(file, entry);
        continue;
      }
      for (const edit of entry.edits) {
        const origin = doc.origin(pointer([...path, ...edit.keys]));
        // The entry, in the file the text comes from: the origin's pointer less the keys (their tail is the same in both files).
        const at = origin.parsed.at(origin.pointer.split("/").slice(0, -edit.keys.length).join("/"));
        if (at.file === file) add(file, { ...entry, edits: [edit] });
        else add(at.file, { ...entry, line: at.line, column: at.column, where: `${at.file}:${at.line}:${at.column}`, edits: [edit] });
      }
    }
  }
  return merged(out);
}

/** One entry per place again, its edits together (the editor takes an entry once). */
function merged(edits: Edits): Edits {
  const out: Edits = new Map();
  for (const [file, entries] of edits) {
    const byPlace = new Map<string, EntryEdit>();
    for (const e of entries) {
      const key = `${e.line}:${e.column}`;
      const had = byPlace.get(key);
      byPlace.set(key, had ? { ...had, edits: [...had.edits, ...e.edits] } : e);
    }
    out.set(file, [...byPlace.values()]);
  }
  return out;
}

/** The path in the composed document of the entry that starts at line:column (categories and type values searched through their parents). */
function entryPath(doc: ComposedPlaces, line: number, column: number): Array<string | number> | undefined {
  const starts = (parts: Array<string | number>) => {
    const at = doc.atPath(parts);
    return at.line === line && at.column === column;
  };
  const walk = (list: unknown, parts: Array<string | number>): Array<string | number> | undefined => {
    if (!Array.isArray(list)) return undefined;
    for (let i = 0; i < list.length; i++) {
      const here = [...parts, i];
      if (starts(here)) return here;
      const item = list[i] as { children?: unknown; values?: unknown } | null;
      const deeper = walk(item?.children, [...here, "children"]) ?? walk(item?.values, [...here, "values"]);
      if (deeper) return deeper;
    }
    return undefined;
  };
  const data = doc.data as Record<string, unknown>;
  for (const kind of KINDS) {
    const found = walk(data[kind], [kind]);
    if (found) return found;
  }
  return undefined;
}
