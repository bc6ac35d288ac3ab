/**
 * The translation workflows of the library (and of `pimctl translations`):
 * status, export, import, mark-reviewed, and the config rule validate
 * enforces. Offline: they read the manifests, pimctl.yaml and
 * translations.lock.yaml, never the tenant.
 */
import path from "node:path";
import { PimctlError } from "../errors.js";
import { compareText, type Catalogue } from "../model/catalogue.js";
import { isUnder, parseAddress } from "../plan/address.js";
import type { ProjectOptions } from "./project.js";
import type { Config } from "../config/index.js";
import { commitFiles } from "../files/atomic-files.js";
import { exportUnits, type UnitSelection } from "../translations/export.js";
import { languageCode, writeUnits, type ExportFormat } from "../translations/formats/index.js";
import { liveLockEntries } from "../translations/import.js";
import { lockPath, masterFingerprint, readLock, serialiseLock } from "../translations/lockfile.js";
import { openProject } from "./translations-project.js";
import { loadTemplates, variableNames } from "../translations/load-templates.js";
import { belowThreshold, translationStatus, type StatusReport } from "../translations/status.js";
import { isWritable, textId } from "../plan/texts.js";

export { translationsImport, type ImportResult } from "./translations-import.js";

/** The versions to report: those asked for, else the manifests' and the config's required ones. */
export const versionsOf = (desired: Catalogue, config: Config, asked?: readonly string[]): string[] =>
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

export interface TranslationExportResult {
  text: string;
  units: number;
  /** Texts left out because API v1 cannot write them (brand and category versions), and why. */
  leftOut: { count: number; reason: string };
  file?: string;
}

export async function translationsExport(opts: TranslationExportOptions): Promise<TranslationExportResult> {
  const { lock, texts } = await openProject(opts);
  const { units, leftOut } = exportUnits(texts, lock, opts.language, opts);
  const text = writeUnits(opts.format, {
    version: opts.language,
    sourceLanguage: opts.sourceLang ?? "en",
    targetLanguage: opts.targetLang ?? languageCode(opts.language),
    units,
  });
  const left = { count: leftOut, reason: UNWRITABLE_EXPORT_REASON };
  if (!opts.out) return { text, units: units.length, leftOut: left };
  const file = path.resolve(opts.cwd, opts.out);
  await commitFiles([{ file, text }], { ...(opts.signal ? { signal: opts.signal } : {}) });
  return { text, units: units.length, leftOut: left, file };
}

/** Why export leaves brand and category texts out (the CLI prints it with their number). */
const UNWRITABLE_EXPORT_REASON = `API v1 cannot write brand and category language versions (docs/api-v1-limits.md); set them in the PIM's UI`;

/**
 * Record the present translations under the given addresses (a unit id, a
 * record, or a whole record's subtree) as made against today's master text.
 */
export async function translationsMarkReviewed(
  opts: ProjectOptions & { addresses: string[]; languages?: string[]; all?: boolean },
): Promise<{ marked: string[]; lockFile: string; earlier: string[] }> {
  const { lock, texts, earlier } = await openProject(opts, true);
  if (!opts.all && !opts.addresses.length) throw new PimctlError("usage", "name the translations to mark reviewed: addresses (unit ids or records), or --all");
  const selectors = opts.addresses.map((a) => {
    const parsed = parseAddress(a);
    if (!parsed) throw new PimctlError("usage", `${JSON.stringify(a)} is not an address (e.g. attribute["Colour"], or a unit id from an export)`);
    return { text: a, parsed, used: false };
  });
  const languages = opts.languages?.length ? new Set(opts.languages) : undefined;
  const marked: string[] = [];
  for (const t of texts.filter(isWritable)) {
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
  if (unused.length)
    throw new PimctlError(
      "usage",
      `no translation under ${unused.map((s) => s.text).join(", ")}${languages ? ` in ${[...languages].join(", ")}` : ""}; nothing was recorded`,
    );
  const show = (f: string) => path.relative(opts.cwd, f) || f;
  const commit = await commitFiles([{ file: lock.file, text: serialiseLock({ file: lock.file, entries: liveLockEntries(lock.entries, texts) }) }], {
    journalDir: path.dirname(lock.file),
    show,
    ...(opts.signal ? { signal: opts.signal } : {}),
  });
  return { marked: marked.sort(compareText), lockFile: show(lock.file), earlier: [...earlier, ...commit.earlier] };
}

/** The config rule (translations: { required, fail_under }) as errors naming each version below it. */
export async function translationRuleProblems(config: Config, cwd: string): Promise<PimctlError[]> {
  const rule = config.translations;
  if (!rule?.required?.length) return [];
  // The texts as translations status sees them (templates, whatever the tenant), so both agree.
  const desired = await loadTemplates(config, config.dir, cwd, variableNames(config));
  const threshold = rule.fail_under ?? 100;
  const lock = await readLock(lockPath(config, cwd));
  const report = translationStatus(desired, lock, rule.required);
  return belowThreshold(report, threshold).map(
    (v) =>
      new PimctlError(
        "policy_refused",
        `${v.version}: ${v.percent}% of ${v.total} texts translated (${v.missing} missing, ${v.outdated} outdated), below translations.fail_under ` +
          `${threshold} in ${config.file ? path.basename(config.file) : "the config"}`,
        {
          details: [...v.outdated_ids.map((id) => `outdated: ${id}`), ...v.missing_ids.map((id) => `missing: ${id}`)]
            .slice(0, 20)
            .concat(v.missing + v.outdated > 20 ? [`... 'pimctl translations status --language ${v.version}' lists all`] : []),
        },
      ),
  );
}
