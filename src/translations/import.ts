/**
 * Import: match a translator's units to the texts of the manifests, and say
 * per unit what happens. A unit is written only when its id names a text of
 * today's manifests and its source is today's master text; a unit whose
 * record was renamed since (found through previous_names) or whose master
 * text changed is stale, reported and not written. A unit of a text API v1
 * cannot write (texts.ts, isWritable) is refused, reported and not written.
 * Unknown ids are errors: nothing is written then. Pure: the workflow reads
 * and writes the files.
 */
import { PimctlError, PimctlErrors } from "../errors.js";
import { compareText } from "../model/catalogue.js";
import { parseAddress, printAddress, type Segment } from "../plan/address.js";
import { sameLineEnd, type ReadUnit } from "./formats/units.js";
import { masterFingerprint, type TranslationLock } from "./lockfile.js";
import { isWritable, textId, unitId, unwritableReason, type TranslatableText } from "../plan/texts.js";
import type { EntryEdits } from "../manifest/edit/texts.js";

export interface ImportReport {
  /** Unit ids whose translation is written into the manifests. */
  written: string[];
  /** Units equal to the manifests' translation (the lock file now records them as reviewed). */
  unchanged: number;
  /** Units without a target: left alone. */
  empty: number;
  /** Units still marked for review (PO fuzzy, XLIFF needs-review): left alone. */
  not_reviewed: string[];
  stale: Array<{ id: string; reason: string }>;
  /** Units of texts API v1 cannot write (brand and category versions), with a target: not written. */
  refused: Array<{ id: string; reason: string }>;
}

export interface ImportPlan {
  report: ImportReport;
  /** Manifest file -> the edits to make in it. */
  edits: Map<string, Array<Omit<EntryEdits, "offset"> & { id: string; line: number; column: number }>>;
  /** The lock's entries after the import. */
  lock: Map<string, string>;
}

const recordKey = (record: Segment[], field: string | undefined) => `${printAddress({ segments: record as [Segment, ...Segment[]] })}|${field ?? ""}`;

/** Splits a unit id into its record, version and field; undefined when it is not one. */
export function splitUnitId(id: string): { record: Segment[]; version: string; field?: string } | undefined {
  const a = parseAddress(id);
  if (!a) return undefined;
  const at = a.segments.findIndex((s) => s.type === "version");
  if (at < 1) return undefined;
  const rest = a.segments.slice(at + 1);
  if (rest.length > 1 || (rest.length === 1 && rest[0]!.type !== "field")) return undefined;
  return { record: a.segments.slice(0, at), version: a.segments[at]!.key, ...(rest[0] ? { field: rest[0].key } : {}) };
}

/** What planImport builds as it goes through the units. */
interface ImportRun {
  fileName: string;
  /** Texts by record and field, under today's names and under earlier ones. */
  current: Map<string, TranslatableText>;
  previous: Map<string, TranslatableText>;
  report: ImportReport;
  edits: ImportPlan["edits"];
  entries: Map<string, string>;
  errors: PimctlError[];
}

export function planImport(units: readonly ReadUnit[], texts: readonly TranslatableText[], lock: TranslationLock, fileName: string): ImportPlan {
  const run: ImportRun = {
    fileName,
    current: new Map(),
    previous: new Map(),
    report: { written: [], unchanged: 0, empty: 0, not_reviewed: [], stale: [], refused: [] },
    edits: new Map(),
    entries: new Map(lock.entries),
    errors: [],
  };
  for (const t of texts) {
    run.current.set(recordKey(t.record, t.field), t);
    for (const p of t.previous) run.previous.set(recordKey(p, t.field), t);
  }
  const seen = new Set<string>();
  for (const u of units) {
    if (seen.has(u.id)) run.errors.push(new PimctlError("duplicate", `${fileName}: unit ${u.id} appears twice`));
    seen.add(u.id);
    const found = findUnitText(run, u);
    if (!found || notTaken(run.report, u, found)) continue;
    takeUnit(run, u, found.text!, found.version);
  }
  if (run.errors.length) throw new PimctlErrors(run.errors);
  const { report } = run;
  report.written.sort(compareText);
  report.not_reviewed.sort(compareText);
  report.stale.sort((a, b) => compareText(a.id, b.id));
  report.refused.sort((a, b) => compareText(a.id, b.id));
  return { report, edits: run.edits, lock: run.entries };
}

/** A unit's text in the manifests: under today's name (text), or only under an earlier name (renamed). */
interface FoundText {
  version: string;
  text?: TranslatableText;
  renamed?: TranslatableText;
}

/** The text a unit translates; undefined (an error recorded) when its id is no unit id or names no text. */
function findUnitText(run: ImportRun, u: ReadUnit): FoundText | undefined {
  const parts = splitUnitId(u.id);
  if (!parts) {
    run.errors.push(
      new PimctlError(
        "invalid_value",
        `${run.fileName}: unit ${JSON.stringify(u.id)} is not a pimctl translation id (an address with a version, e.g. ` +
          `attribute["Colour"].version["French"].field["name"])`,
      ),
    );
    return undefined;
  }
  const key = recordKey(parts.record, parts.field);
  const text = run.current.get(key);
  const renamed = text ? undefined : run.previous.get(key);
  if (!text && !renamed) {
    run.errors.push(
      new PimctlError("unknown_reference", `${run.fileName}: unit ${u.id}: no such text in the manifests (its record was removed, or the id was edited)`),
    );
    return undefined;
  }
  return { version: parts.version, ...(text ? { text } : {}), ...(renamed ? { renamed } : {}) };
}

/** Whether the unit is reported instead of written: a text API v1 cannot write, still marked for review, stale, or empty. */
function notTaken(report: ImportReport, u: ReadUnit, { version, text, renamed }: FoundText): boolean {
  if (!isWritable((text ?? renamed)!)) {
    if (u.target.trim() === "") report.empty++;
    else report.refused.push({ id: u.id, reason: unwritableReason((text ?? renamed)!) });
    return true;
  }
  if (u.needsReview && u.target.trim() !== "") {
    report.not_reviewed.push(u.id);
    return true;
  }
  if (renamed) {
    report.stale.push({
      id: u.id,
      reason:
        `the record is now ${textId(renamed, version)}` +
        `${renamed.master !== u.source ? ` and its master text is ${JSON.stringify(renamed.master)}` : ""}; export again`,
    });
    return true;
  }
  if (u.source !== text!.master) {
    report.stale.push({
      id: u.id,
      reason: `the master text changed since the export: ${JSON.stringify(u.source)} is now ${JSON.stringify(text!.master)}; export again`,
    });
    return true;
  }
  if (u.target.trim() === "") {
    report.empty++;
    return true;
  }
  return false;
}

/** A translation taken: recorded in the lock, and an edit of its manifest where it differs from what the file holds. */
function takeUnit(run: ImportRun, u: ReadUnit, text: TranslatableText, version: string): void {
  // Control characters are no text a translator means (and no XML can carry them back out).
  const control = /[\u0000-\u0008\u000b\u000c\u000e-\u001f\u007f-\u009f]/u.exec(u.target);
  if (control) {
    run.errors.push(
      new PimctlError(
        "invalid_value",
        `${run.fileName}: unit ${u.id}: its target holds the control character ` +
          `U+${control[0].codePointAt(0)!.toString(16).toUpperCase().padStart(4, "0")}; remove it`,
      ),
    );
    return;
  }
  const target = sameLineEnd(u.target, text.master);
  // Recorded under today's id; an entry under an earlier name of the record is replaced.
  for (const p of text.previous) run.entries.delete(unitId(p, text.field, version));
  run.entries.set(u.id, masterFingerprint(text.master));
  if (text.translations[version] === target) {
    run.report.unchanged++;
    return;
  }
  if (!text.source) {
    run.errors.push(new PimctlError("internal", `unit ${u.id}: the manifests do not say where its record is declared`));
    return;
  }
  run.report.written.push(u.id);
  const list = run.edits.get(text.source.file) ?? run.edits.set(text.source.file, []).get(text.source.file)!;
  list.push({
    id: u.id,
    line: text.source.line,
    column: text.source.column,
    where: `${text.source.file}:${text.source.line}:${text.source.column}`,
    edits: [{ keys: text.keys(version), value: target }],
  });
}

/**
 * The lock's entries that still name a unit (under its id or an earlier name of its record): the lock file keeps no
 * others, so lines of texts API v1 cannot write (an earlier pimctl exported them) go when it is next written.
 */
export function liveLockEntries(entries: ReadonlyMap<string, string>, texts: readonly TranslatableText[]): Map<string, string> {
  const known = new Set<string>();
  for (const t of texts.filter(isWritable)) for (const r of [t.record, ...t.previous]) known.add(recordKey(r, t.field));
  const out = new Map<string, string>();
  for (const [id, fp] of entries) {
    const parts = splitUnitId(id);
    if (parts && known.has(recordKey(parts.record, parts.field))) out.set(id, fp);
  }
  return out;
}
