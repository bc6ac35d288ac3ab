/**
 * One overlay entry merged into the base entry of the same identity, and lists of child entries
 * merged by identity (overlay-rules.ts). Pure: the base's data is never changed (what changes is
 * copied), and every value the result takes from a file is told to `place`, so the composed
 * document can say where each one is written (overlay-places.ts).
 */
import { PimctlError } from "../errors.js";
import type { ParsedYaml } from "./yaml.js";
import { CHILD_FIELDS, IDENTITY, MAP_FIELDS, REMOVE, entryNoun, identityOf, isEntry, type Entry, type EntryKind } from "./overlay-rules.js";

type Path = ReadonlyArray<string | number>;

/** An entry or a list as written: its value, the file it is in and its path there. */
export interface Written<T> {
  value: T;
  parsed: ParsedYaml;
  path: Path;
}

/** Told where the value at `rel` (a path in the composed result) is written. */
export type Place = (rel: Path, parsed: ParsedYaml, original: Path) => void;

/** `true` when the entry removes its identity; an error (and `true`: it adds nothing) when `$remove` is misused. */
export function removes(kind: EntryKind, entry: Written<Entry>, errors: PimctlError[]): boolean {
  if (!(REMOVE in entry.value)) return false;
  const at = entry.parsed.at(`${pathPointer([...entry.path, REMOVE])}#key`);
  const details = ["to change fields for this tenant, write the entry without $remove"];
  // `$remove: false` beside fields is one mistake (the entry meant to patch): one error, not a second about what a removal holds.
  if (entry.value[REMOVE] !== true) {
    errors.push(new PimctlError("schema", `${REMOVE} takes true (remove this ${entryNoun(kind)} for this tenant)`, { location: at, details }));
    return true;
  }
  const extra = Object.keys(entry.value).filter((k) => k !== REMOVE && k !== IDENTITY[kind]);
  if (extra.length)
    errors.push(
      new PimctlError("schema", `an entry with ${REMOVE}: true holds only its ${IDENTITY[kind]}, not ${extra.join(", ")}`, { location: at, details }),
    );
  return true;
}

export function nothingToRemove(kind: EntryKind, entry: Written<Entry>): PimctlError {
  const id = identityOf(kind, entry.value);
  return new PimctlError(
    "unknown_reference",
    `${REMOVE}: the base declares no ${entryNoun(kind)} ${JSON.stringify(id ?? "")} here, so there is nothing to remove`,
    {
      location: entry.parsed.atPath(entry.path),
      details: ["check the name (and, for a category or a type value, the entry it is under), or delete this entry"],
    },
  );
}

function pathPointer(path: Path): string {
  return path.map((p) => `/${String(p).replace(/~/g, "~0").replace(/\//g, "~1")}`).join("");
}

/** The base entry with the fields the overlay sets: maps key by key, child lists by identity, the rest replaced. */
export function mergeEntry(kind: EntryKind, base: Written<Entry>, over: Written<Entry>, rel: Path, place: Place, errors: PimctlError[]): Entry {
  const out: Entry = { ...base.value };
  for (const key of Object.keys(over.value)) {
    if (key === IDENTITY[kind]) continue;
    const ov = over.value[key];
    const bv = base.value[key];
    const child = CHILD_FIELDS[kind]?.[key];
    if (MAP_FIELDS[kind]?.has(key) && isEntry(ov) && isEntry(bv))
      out[key] = mergeMap(key, { ...over, value: ov, path: [...over.path, key] }, bv, [...rel, key], place);
    else if (child && Array.isArray(ov) && Array.isArray(bv))
      out[key] = mergeChildren(
        child,
        { ...base, value: bv, path: [...base.path, key] },
        { ...over, value: ov, path: [...over.path, key] },
        [...rel, key],
        place,
        errors,
      );
    else {
      out[key] = ov;
      place([...rel, key], over.parsed, [...over.path, key]);
    }
  }
  return out;
}

/** A map keyed by name: each key the overlay gives replaces the base's; a version's fields replace field by field. */
function mergeMap(field: string, over: Written<Entry>, base: Entry, rel: Path, place: Place): Entry {
  const out: Entry = { ...base };
  for (const [key, value] of Object.entries(over.value)) {
    const was = base[key];
    if (field === "versions" && isEntry(value) && isEntry(was)) {
      out[key] = { ...was, ...value };
      for (const f of Object.keys(value)) place([...rel, key, f], over.parsed, [...over.path, key, f]);
    } else {
      out[key] = value;
      place([...rel, key], over.parsed, [...over.path, key]);
    }
  }
  return out;
}

/**
 * Child entries (a category's children, an attribute's type values) by identity: an overlay child
 * with a base child's identity patches it, `$remove` removes it, a new identity is added after the
 * base's (the catalogue sorts them).
 */
export function mergeChildren(kind: EntryKind, base: Written<unknown[]>, over: Written<unknown[]>, rel: Path, place: Place, errors: PimctlError[]): unknown[] {
  const byId = new Map<string, number>();
  base.value.forEach((entry, i) => {
    const id = identityOf(kind, entry);
    if (id !== undefined && !byId.has(id)) byId.set(id, i);
  });
  const patches = new Map<number, number>();
  const removed = new Set<number>();
  const added: number[] = [];
  over.value.forEach((entry, j) => {
    const id = identityOf(kind, entry);
    const i = id === undefined ? undefined : byId.get(id);
    const written = { value: entry as Entry, parsed: over.parsed, path: [...over.path, j] };
    if (isEntry(entry) && removes(kind, written, errors)) {
      if (i === undefined) errors.push(nothingToRemove(kind, written));
      else if (!claim(kind, i, written, patches, removed, base, errors)) removed.add(i);
    } else if (i !== undefined && isEntry(entry)) {
      if (!claim(kind, i, written, patches, removed, base, errors)) patches.set(i, j);
    } else added.push(j);
  });
  const out: unknown[] = [];
  base.value.forEach((entry, i) => {
    if (removed.has(i)) return;
    const k = out.length;
    place([...rel, k], base.parsed, [...base.path, i]);
    const j = patches.get(i);
    if (j === undefined) out.push(entry);
    else
      out.push(
        mergeEntry(
          kind,
          { ...base, value: entry as Entry, path: [...base.path, i] },
          { ...over, value: over.value[j] as Entry, path: [...over.path, j] },
          [...rel, k],
          place,
          errors,
        ),
      );
  });
  for (const j of added) {
    place([...rel, out.length], over.parsed, [...over.path, j]);
    out.push(withoutRemovals(kind, { ...over, value: over.value[j], path: [...over.path, j] }, errors));
  }
  return out;
}

/** A base entry the overlay already patched or removed: a second overlay entry for it is an error naming the first. */
function claim(
  kind: EntryKind,
  i: number,
  entry: Written<Entry>,
  patches: Map<number, number>,
  removed: Set<number>,
  base: Written<unknown[]>,
  errors: PimctlError[],
): boolean {
  if (!patches.has(i) && !removed.has(i)) return false;
  errors.push(
    new PimctlError("duplicate", `the overlay names the ${entryNoun(kind)} ${JSON.stringify(identityOf(kind, entry.value))} twice`, {
      location: entry.parsed.atPath(entry.path),
      details: [`the base entry is at ${where(base.parsed, [...base.path, i])}; write one overlay entry for it`],
    }),
  );
  return true;
}

function where(parsed: ParsedYaml, path: Path): string {
  const at = parsed.atPath(path);
  return `${at.file}:${at.line}:${at.column}`;
}

/** An entry the overlay adds: a `$remove` among its children removes nothing there (an error at its line). */
export function withoutRemovals(kind: EntryKind, entry: Written<unknown>, errors: PimctlError[]): unknown {
  if (!isEntry(entry.value)) return entry.value;
  const children = CHILD_FIELDS[kind];
  if (!children) return entry.value;
  let out: Entry | undefined;
  for (const [field, childKind] of Object.entries(children)) {
    const list = entry.value[field];
    if (!Array.isArray(list)) continue;
    const kept = list.flatMap((child, j) => {
      const written = { value: child as Entry, parsed: entry.parsed, path: [...entry.path, field, j] };
      if (isEntry(child) && removes(childKind, written, errors)) {
        errors.push(nothingToRemove(childKind, written));
        return [];
      }
      return [withoutRemovals(childKind, written, errors)];
    });
    out = { ...(out ?? entry.value), [field]: kept };
  }
  return out ?? entry.value;
}
