/**
 * Before an import writes a file: the file's text before (as the loader read it) and after the edit,
 * both read by the manifest loader's YAML reader (anchors, aliases and merge
 * keys resolved, variables as templates), must hold the same data everywhere
 * but at the translations written, and each of those must read back as the
 * translator's text. Every value of every entry is compared (the master texts,
 * every version, every record, the fields that are no text), not only the
 * targets: an edit that reached another record through shared YAML is refused,
 * naming the unit and the record it would have changed. Pure.
 */
import { PimctlError } from "../errors.js";
import { parseYaml, type ParsedYaml } from "../manifest/yaml.js";
import { entriesOf, readAt, type DataEntry, type DataPath } from "../manifest/entries.js";
import { unmeantChanges, type Change } from "../manifest/edit/verify.js";

/** A translation written into a file: its entry (where the loader located it), the keys below it, the text. */
export interface WrittenUnit {
  id: string;
  line: number;
  column: number;
  keys: readonly string[];
  value: string;
}

type Path = DataPath;
type Entry = DataEntry;

const startsWith = (path: Path, prefix: Path): boolean => prefix.length <= path.length && prefix.every((p, i) => path[i] === p);
const shown = (v: unknown): string => (v === undefined ? "nothing" : JSON.stringify(v));

/**
 * Errors (none when the edit is only the translations) for one file: `before` and `after` its
 * text, `units` the translations written into it.
 */
export function onlyTranslationsChange(
  file: string,
  old: ParsedYaml,
  after: string,
  units: readonly WrittenUnit[],
  variables: Record<string, string>,
): PimctlError[] {
  const now = parseYaml(after, file, variables);
  if (now.errors.length)
    return [
      new PimctlError("internal", `the import would leave ${file} unreadable (${now.errors[0]!.message}), so nothing was written`, {
        details: ["please report this with the file you imported"],
      }),
    ];
  const entries = entriesOf(old.data);
  const at = new Map(entries.map((e) => [place(old, e.path), e]));
  const expected = new Map<string, WrittenUnit>();
  for (const u of units) {
    const entry = at.get(`${u.line}:${u.column}`);
    if (entry) expected.set(JSON.stringify([...entry.path, ...u.keys]), u);
  }
  // The file's data as one record: each change is meant only where a unit writes its text.
  const found = unmeantChanges(new Map([[file, old.data]]), new Map([[file, now.data]]), {
    meant: (d) => expected.get(JSON.stringify(d.path))?.value === d.after,
  });
  const unexpected = found.changed.flatMap((c) => c.changes);
  const notWritten = units.filter((u) => !expected.has(JSON.stringify(pathOf(u, at))) || readAt(now.data, pathOf(u, at)) !== u.value);
  const errors = refusals(file, unexpected, entries, units, old, at);
  if (notWritten.length)
    errors.push(
      new PimctlError(
        "internal",
        `the import would not write ${notWritten.map((u) => u.id).join(", ")} so that ${file} reads it back, so nothing was written`,
        { details: ["please report this with the file you imported"] },
      ),
    );
  return errors;
}

function place(parsed: ParsedYaml, path: Path): string {
  const loc = parsed.atPath(path);
  return `${loc.line}:${loc.column}`;
}

function pathOf(u: WrittenUnit, at: Map<string, Entry>): Path {
  const entry = at.get(`${u.line}:${u.column}`);
  return entry ? [...entry.path, ...u.keys] : [];
}

/** One error per record changed that no unit names: the units that reached it, and what would have changed. */
function refusals(
  file: string,
  unexpected: readonly Change[],
  entries: readonly Entry[],
  units: readonly WrittenUnit[],
  old: ParsedYaml,
  at: Map<string, Entry>,
): PimctlError[] {
  const byRecord = new Map<Entry | undefined, Change[]>();
  for (const d of unexpected) {
    // The deepest record holding the value (a type value rather than its attribute).
    const entry = entries.filter((e) => startsWith(d.path, e.path)).sort((a, b) => b.path.length - a.path.length)[0];
    byRecord.set(entry, [...(byRecord.get(entry) ?? []), d]);
  }
  return [...byRecord].map(([entry, diffs]) => {
    const first = diffs[0]!;
    const own = units.filter((u) => entry && at.get(`${u.line}:${u.column}`) === entry);
    const same = units.filter((u) => diffs.some((d) => d.after === u.value));
    const culprits = (own.length ? own : same.length ? same : units).map((u) => u.id);
    const what = diffs
      .slice(0, 3)
      .map((d) => `${d.path.slice(entry?.path.length ?? 0).join(".")}: ${shown(d.before)} -> ${shown(d.after)}`)
      .join("; ");
    const location = entry ? old.atPath(entry.path) : old.atPath(first.path.slice(0, 1));
    return new PimctlError(
      "invalid_value",
      `unit ${culprits.slice(0, 3).join(", ")}${culprits.length > 3 ? ` (or one of ${culprits.length - 3} more)` : ""} would also change ` +
        `${entry?.label ?? "the file"} (${what}${diffs.length > 3 ? `; ${diffs.length - 3} more` : ""}), so nothing was written`,
      {
        location: { ...location, file },
        details: ["the two share that text through a YAML anchor and alias, or a merge key (<<); give the record its own copy of it, then import again"],
      },
    );
  });
}
