/**
 * The translation workflows of the library (and of `pimctl translations`):
 * status, export, import, mark-reviewed, and the config rule validate
 * enforces. Offline: they read the manifests, pimctl.yaml and
 * translations.lock.yaml, never the tenant.
 */
import { readFile, writeFile } from "node:fs/promises";
import path from "node:path";
import { createTwoFilesPatch } from "diff";
import type { Config } from "../config/index.js";
import { PimctlError } from "../errors.js";
import { compareText, type Catalogue } from "../model/catalogue.js";
import { isUnder, parseAddress } from "../plan/address.js";
import { loadProject, type ProjectOptions } from "../workflows/index.js";
import { exportUnits, type UnitSelection } from "./export.js";
import { languageCode, readUnits, writeUnits, type ExportFormat } from "./formats/index.js";
import { liveLockEntries, planImport, type ImportReport } from "./import.js";
import { lockPath, masterFingerprint, readLock, writeLock, type TranslationLock } from "./lockfile.js";
import { belowThreshold, translationStatus, type StatusReport } from "./status.js";
import { textId, translatableTexts, type TranslatableText } from "./texts.js";
import { editYaml } from "./yaml-edit.js";

async function openProject(opts: ProjectOptions): Promise<{ config: Config; desired: Catalogue; lock: TranslationLock; texts: TranslatableText[] }> {
  const { config, desired } = await loadProject(opts);
  const lock = await readLock(lockPath(config, opts.cwd));
  return { config, desired, lock, texts: translatableTexts(desired) };
}

/** The versions to report: those asked for, else the manifests' and the config's required ones. */
const versionsOf = (desired: Catalogue, config: Config, asked?: readonly string[]): string[] =>
  asked?.length ? [...asked] : [...new Set([...desired.versions, ...(config.translations?.required ?? [])])];

export async function translationsStatus(opts: ProjectOptions & { languages?: string[] }): Promise<StatusReport> {
  const { config, desired, lock, texts } = await openProject(opts);
  return translationStatus(desired, lock, versionsOf(desired, config, opts.languages), texts);
}

export interface TranslationExportOptions extends ProjectOptions, UnitSelection {
  language: string;
  format: ExportFormat;
  /** Write here; without it the text is only returned. */
  out?: string;
  /** BCP 47 codes for the file header (default: English for the master; the version's name mapped to its code). */
  sourceLang?: string;
  targetLang?: string;
}

export async function translationsExport(opts: TranslationExportOptions): Promise<{ text: string; units: number; file?: string }> {
  const { lock, texts } = await openProject(opts);
  const units = exportUnits(texts, lock, opts.language, opts);
  const text = writeUnits(opts.format, { version: opts.language, sourceLanguage: opts.sourceLang ?? "en", targetLanguage: opts.targetLang ?? languageCode(opts.language), units });
  if (!opts.out) return { text, units: units.length };
  const file = path.resolve(opts.cwd, opts.out);
  await writeFile(file, text);
  return { text, units: units.length, file };
}

export interface ImportResult extends ImportReport {
  /** Manifest files changed (or, with dryRun, that would change), relative to the working directory. */
  files: string[];
  /** Unified diff of the manifests (always computed; the CLI prints it with --dry-run). */
  diff: string;
  lockFile: string;
}

export async function translationsImport(opts: ProjectOptions & { file: string; dryRun?: boolean }): Promise<ImportResult> {
  const { lock, texts } = await openProject(opts);
  const name = path.relative(opts.cwd, path.resolve(opts.cwd, opts.file)) || opts.file;
  let source: string;
  try {
    source = await readFile(path.resolve(opts.cwd, opts.file), "utf8");
  } catch (e) {
    throw new PimctlError("io", `cannot read ${name}: ${(e as NodeJS.ErrnoException).code ?? (e as Error).message}`);
  }
  const planned = planImport(readUnits(source, name), texts, lock, name);
  const changed: Array<{ file: string; before: string; after: string }> = [];
  for (const [file, entries] of [...planned.edits].sort(([a], [b]) => compareText(a, b))) {
    const abs = path.resolve(opts.cwd, file);
    const before = await readFile(abs, "utf8");
    const offsets = lineStarts(before);
    const after = editYaml(before, file, entries.map((e) => ({ ...e, offset: offsets[e.line - 1]! + e.column - 1 })));
    if (after !== before) changed.push({ file: abs, before, after });
  }
  const rel = (f: string) => path.relative(opts.cwd, f) || f;
  const diff = changed.map((c) => createTwoFilesPatch(`a/${rel(c.file)}`, `b/${rel(c.file)}`, c.before, c.after, "", "", { context: 2 })).join("");
  if (!opts.dryRun) {
    for (const c of changed) await writeFile(c.file, c.after);
    await writeLock({ file: lock.file, entries: liveLockEntries(planned.lock, texts) });
  }
  return { ...planned.report, files: changed.map((c) => rel(c.file)), diff, lockFile: rel(lock.file) };
}

function lineStarts(text: string): number[] {
  const starts = [0];
  for (let i = text.indexOf("\n"); i !== -1; i = text.indexOf("\n", i + 1)) starts.push(i + 1);
  return starts;
}

/**
 * Record the present translations under the given addresses (a unit id, a
 * record, or a whole record's subtree) as made against today's master text.
 */
export async function translationsMarkReviewed(opts: ProjectOptions & { addresses: string[]; languages?: string[]; all?: boolean }): Promise<{ marked: string[]; lockFile: string }> {
  const { lock, texts } = await openProject(opts);
  if (!opts.all && !opts.addresses.length) throw new PimctlError("usage", "name the translations to mark reviewed: addresses (unit ids or records), or --all");
  const selectors = opts.addresses.map((a) => {
    const parsed = parseAddress(a);
    if (!parsed) throw new PimctlError("usage", `${JSON.stringify(a)} is not an address (e.g. attribute["Colour"], or a unit id from an export)`);
    return { text: a, parsed, used: false };
  });
  const languages = opts.languages?.length ? new Set(opts.languages) : undefined;
  const marked: string[] = [];
  for (const t of texts) {
    for (const version of Object.keys(t.translations)) {
      if (languages && !languages.has(version)) continue;
      const id = textId(t, version);
      const parsed = parseAddress(id)!;
      const hits = selectors.filter((s) => isUnder(parsed, s.parsed));
      if (!opts.all && !hits.length) continue;
      for (const s of hits) s.used = true;
      lock.entries.set(id, masterFingerprint(t.master));
      marked.push(id);
    }
  }
  const unused = selectors.filter((s) => !s.used);
  if (unused.length) throw new PimctlError("usage", `no translation under ${unused.map((s) => s.text).join(", ")}${languages ? ` in ${[...languages].join(", ")}` : ""}; nothing was recorded`);
  await writeLock({ file: lock.file, entries: liveLockEntries(lock.entries, texts) });
  return { marked: marked.sort(compareText), lockFile: path.relative(opts.cwd, lock.file) || lock.file };
}

/** The config rule (translations: { required, fail_under }) as errors naming each version below it. */
export async function translationRuleProblems(config: Config, desired: Catalogue, cwd: string): Promise<PimctlError[]> {
  const rule = config.translations;
  if (!rule?.required?.length) return [];
  const threshold = rule.fail_under ?? 100;
  const lock = await readLock(lockPath(config, cwd));
  const report = translationStatus(desired, lock, rule.required);
  return belowThreshold(report, threshold).map(
    (v) =>
      new PimctlError("policy_refused", `${v.version}: ${v.percent}% of ${v.total} texts translated (${v.missing} missing, ${v.outdated} outdated), below translations.fail_under ${threshold} in ${config.file ? path.basename(config.file) : "the config"}`, {
        details: [...v.outdated_ids.map((id) => `outdated: ${id}`), ...v.missing_ids.map((id) => `missing: ${id}`)].slice(0, 20).concat(v.missing + v.outdated > 20 ? [`... 'pimctl translations status --language ${v.version}' lists all`] : []),
      }),
  );
}
