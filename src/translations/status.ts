/**
 * Translation coverage: per language version and kind of text, how many are
 * translated, missing, or outdated (the lock file records the master text a
 * translation was made against, and the master text changed since). A
 * translation the lock file does not know counts as translated: nothing says
 * what it was made from, so no change can be detected until it is imported
 * or marked reviewed (docs/translations.md). Only units count: texts API v1
 * cannot write (texts.ts, isWritable) are reported apart, as read-only.
 */
import { compareText, type Catalogue } from "../model/catalogue.js";
import { masterFingerprint, type TranslationLock } from "./lockfile.js";
import { TEXT_KINDS, isWritable, textId, translatableTexts, unitId, type TextKind, type TranslatableText } from "../plan/texts.js";

export type TextState = "translated" | "missing" | "outdated";

export interface KindCoverage {
  kind: TextKind;
  total: number;
  translated: number;
  missing: number;
  outdated: number;
}

export interface VersionCoverage {
  version: string;
  total: number;
  translated: number;
  missing: number;
  outdated: number;
  /** translated / total, rounded down to one decimal (100 only when nothing is missing or outdated). */
  percent: number;
  kinds: KindCoverage[];
  /** Unit ids, sorted. */
  missing_ids: string[];
  outdated_ids: string[];
  /** Texts API v1 cannot write (brand and category versions): no units, not in the counts above (absent when none). */
  read_only?: ReadOnlyCoverage;
}

/** Texts of a version that API v1 can read but not write: how many the manifests hold, and how many have a translation. */
export interface ReadOnlyCoverage {
  total: number;
  translated: number;
  kinds: Array<{ kind: TextKind; total: number; translated: number }>;
}

export interface StatusReport {
  versions: VersionCoverage[];
}

/** The lock entry that records this text in this version: under its address, or under an earlier name of the record. */
export function lockedFingerprint(t: TranslatableText, version: string, lock: TranslationLock): { id: string; fingerprint: string } | undefined {
  for (const record of [t.record, ...t.previous]) {
    const id = unitId(record, t.field, version);
    const fp = lock.entries.get(id);
    if (fp !== undefined) return { id, fingerprint: fp };
  }
  return undefined;
}

export function textState(t: TranslatableText, version: string, lock: TranslationLock): TextState {
  if (t.translations[version] === undefined) return "missing";
  const locked = lockedFingerprint(t, version, lock);
  return locked && locked.fingerprint !== masterFingerprint(t.master) ? "outdated" : "translated";
}

export const percentOf = (translated: number, total: number): number => (total === 0 ? 100 : Math.floor((translated / total) * 1000) / 10);

/** Coverage of the given versions (default: every version the manifests mention): units only; read-only texts apart. */
export function translationStatus(
  catalogue: Catalogue,
  lock: TranslationLock,
  versions?: readonly string[],
  texts: TranslatableText[] = translatableTexts(catalogue),
): StatusReport {
  const names = [...new Set(versions?.length ? versions : catalogue.versions)].sort(compareText);
  const units = texts.filter(isWritable);
  const readOnly = texts.filter((t) => !isWritable(t));
  return { versions: names.map((version) => ({ ...versionCoverage(units, version, lock), ...readOnlyCoverage(readOnly, version) })) };
}

function versionCoverage(units: readonly TranslatableText[], version: string, lock: TranslationLock): VersionCoverage {
  const kinds = new Map<TextKind, KindCoverage>(TEXT_KINDS.map((kind) => [kind, { kind, total: 0, translated: 0, missing: 0, outdated: 0 }]));
  const missing: string[] = [];
  const outdated: string[] = [];
  for (const t of units) {
    const k = kinds.get(t.kind)!;
    const state = textState(t, version, lock);
    k.total++;
    k[state]++;
    if (state === "missing") missing.push(textId(t, version));
    if (state === "outdated") outdated.push(textId(t, version));
  }
  const rows = [...kinds.values()].filter((k) => k.total > 0);
  const sum = (f: "total" | "translated" | "missing" | "outdated") => rows.reduce((n, k) => n + k[f], 0);
  return {
    version,
    total: sum("total"),
    translated: sum("translated"),
    missing: sum("missing"),
    outdated: sum("outdated"),
    percent: percentOf(sum("translated"), sum("total")),
    kinds: rows,
    missing_ids: missing.sort(compareText),
    outdated_ids: outdated.sort(compareText),
  };
}

function readOnlyCoverage(texts: readonly TranslatableText[], version: string): { read_only?: ReadOnlyCoverage } {
  if (!texts.length) return {};
  const kinds = new Map<TextKind, { kind: TextKind; total: number; translated: number }>();
  for (const kind of TEXT_KINDS) kinds.set(kind, { kind, total: 0, translated: 0 });
  for (const t of texts) {
    const k = kinds.get(t.kind)!;
    k.total++;
    if (t.translations[version] !== undefined) k.translated++;
  }
  const rows = [...kinds.values()].filter((k) => k.total > 0);
  return { read_only: { total: texts.length, translated: rows.reduce((n, k) => n + k.translated, 0), kinds: rows } };
}

/** Versions below a percentage, for --fail-under and the config rule. */
export function belowThreshold(report: StatusReport, percent: number): VersionCoverage[] {
  return report.versions.filter((v) => v.percent < percent);
}
