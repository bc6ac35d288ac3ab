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
import type { EntryEdits } from "./yaml-edit.js";

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

export function planImport(units: readonly ReadUnit[], texts: readonly TranslatableText[], lock: TranslationLock, fileName: string): ImportPlan {
  const current = new Map<string, TranslatableText>();
  const previous = new Map<string, TranslatableText>();
  for (const t of texts) {
    current.set(recordKey(t.record, t.field), t);
    for (const p of t.previous) previous.set(recordKey(p, t.field), t);
  }
  const report: ImportReport = { written: [], unchanged: 0, empty: 0, not_reviewed: [], stale: [], refused: [] };
  const edits: ImportPlan["edits"] = new Map();
  const entries = new Map(lock.entries);
  const errors: PimctlError[] = [];
  const seen = new Set<string>();
  for (const u of units) {
    if (seen.has(u.id)) errors.push(new PimctlError("duplicate", `${fileName}: unit ${u.id} appears twice`));
    seen.add(u.id);
    const parts = splitUnitId(u.id);
    if (!parts) {
      errors.push(
        new PimctlError(
          "invalid_value",
          `${fileName}: unit ${JSON.stringify(u.id)} is not a pimctl translation id (an address with a version, e.g. ` +
            `attribute["Colour"].version["French"].field["name"])`,
        ),
      );
      continue;
    }
    const key = recordKey(parts.record, parts.field);
    const t = current.get(key);
    const renamed = t ? undefined : previous.get(key);
    if (!t && !renamed) {
      errors.push(
        new PimctlError("unknown_reference", `${fileName}: unit ${u.id}: no such text in the manifests (its record was removed, or the id was edited)`),
      );
      continue;
    }
    if (!isWritable((t ?? renamed)!)) {
      if (u.target.trim() === "") report.empty++;
      else report.refused.push({ id: u.id, reason: unwritableReason((t ?? renamed)!) });
      continue;
    }
    if (u.needsReview && u.target.trim() !== "") {
      report.not_reviewed.push(u.id);
      continue;
    }
    if (renamed) {
      report.stale.push({
        id: u.id,
        reason:
          `the record is now ${textId(renamed, parts.version)}` +
          `${renamed.master !== u.source ? ` and its master text is ${JSON.stringify(renamed.master)}` : ""}; export again`,
      });
      continue;
    }
    if (u.source !== t!.master) {
      report.stale.push({
        id: u.id,
        reason: `the master text changed since the export: ${JSON.stringify(u.source)} is now ${JSON.stringify(t!.master)}; export again`,
      });
      continue;
    }
    if (u.target.trim() === "") {
      report.empty++;
      continue;
    }
    // Control characters are no text a translator means (and no XML can carry them back out).
    const control = /[\u0000-\u0008\u000b\u000c\u000e-\u001f\u007f-\u009f]/u.exec(u.target);
    if (control) {
      errors.push(
        new PimctlError(
          "invalid_value",
          `${fileName}: unit ${u.id}: its target holds the control character ` +
            `U+${control[0].codePointAt(0)!.toString(16).toUpperCase().padStart(4, "0")}; remove it`,
        ),
      );
      continue;
    }
    const target = sameLineEnd(u.target, t!.master);
    const text = t!;
    // Recorded under today's id; an entry under an earlier name of the record is replaced.
    for (const p of text.previous) entries.delete(unitId(p, text.field, parts.version));
    entries.set(u.id, masterFingerprint(text.master));
    if (text.translations[parts.version] === target) {
      report.unchanged++;
      continue;
    }
    if (!text.source) {
      errors.push(new PimctlError("internal", `unit ${u.id}: the manifests do not say where its record is declared`));
      continue;
    }
    report.written.push(u.id);
    const list = edits.get(text.source.file) ?? edits.set(text.source.file, []).get(text.source.file)!;
    list.push({
      id: u.id,
      line: text.source.line,
      column: text.source.column,
      where: `${text.source.file}:${text.source.line}:${text.source.column}`,
      edits: [{ keys: text.keys(parts.version), value: target }],
    });
  }
  if (errors.length) throw new PimctlErrors(errors);
  report.written.sort(compareText);
  report.not_reviewed.sort(compareText);
  report.stale.sort((a, b) => compareText(a.id, b.id));
  report.refused.sort((a, b) => compareText(a.id, b.id));
  return { report, edits, lock: entries };
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
