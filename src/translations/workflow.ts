/**
 * The translation workflows of the library (and of `pimctl translations`):
 * status, export, import, mark-reviewed, and the config rule validate
 * enforces. Offline: they read the manifests, pimctl.yaml and
 * translations.lock.yaml, never the tenant.
 */
import { cp, mkdtemp, readFile, rm, writeFile } from "node:fs/promises";
import { tmpdir } from "node:os";
import path from "node:path";
import { createTwoFilesPatch } from "diff";
import { PimctlError, PimctlErrors } from "../errors.js";
import { compareText, type Catalogue } from "../model/catalogue.js";
import { isUnder, parseAddress, printAddress } from "../plan/address.js";
import type { ProjectOptions } from "../workflows/index.js";
import { projectConfig } from "../workflows/project.js";
import type { Config } from "../config/index.js";
import { decodeManifest } from "../manifest/encoding.js";
import { templateText } from "../manifest/yaml-text.js";
import { exportUnits, type UnitSelection } from "./export.js";
import { languageCode, readUnits, writeUnits, type ExportFormat } from "./formats/index.js";
import { liveLockEntries, planImport, type ImportReport } from "./import.js";
import { lockPath, masterFingerprint, readLock, writeLock, type TranslationLock } from "./lockfile.js";
import { belowThreshold, translationStatus, type StatusReport } from "./status.js";
import { isWritable, textId, translatableTexts, type TranslatableText } from "./texts.js";
import { editYaml } from "./yaml-edit.js";
import { loadTemplates, variableNames } from "./load-templates.js";

/**
 * The manifests as translators see them, whatever the tenant: a `${name}` reference in a text
 * stays `${name}` (every tenant's variable is read as itself), so a master text is the same
 * template for every tenant and a translation keeps the reference.
 */
async function openProject(
  opts: ProjectOptions,
): Promise<{ config: Config; desired: Catalogue; lock: TranslationLock; texts: TranslatableText[]; variables: Set<string> }> {
  const config = await projectConfig(opts);
  const variables = variableNames(config);
  const desired = await loadTemplates(config, config.dir, opts.cwd, variables);
  const lock = await readLock(lockPath(config, opts.cwd));
  return { config, desired, lock, texts: translatableTexts(desired), variables };
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
  await writeFile(file, text);
  return { text, units: units.length, leftOut: left, file };
}

/** Why export leaves brand and category texts out (the CLI prints it with their number). */
const UNWRITABLE_EXPORT_REASON = `API v1 cannot write brand and category language versions (README "What API v1 cannot do"); set them in the PIM's UI`;

export interface ImportResult extends ImportReport {
  /** Manifest files changed (or, with dryRun, that would change), relative to the working directory. */
  files: string[];
  /** Unified diff of the manifests (always computed; the CLI prints it with --dry-run). */
  diff: string;
  lockFile: string;
}

export async function translationsImport(opts: ProjectOptions & { file: string; dryRun?: boolean }): Promise<ImportResult> {
  const { config, lock, texts, variables } = await openProject(opts);
  const name = path.relative(opts.cwd, path.resolve(opts.cwd, opts.file)) || opts.file;
  let bytes: Buffer;
  try {
    bytes = await readFile(path.resolve(opts.cwd, opts.file));
  } catch (e) {
    throw new PimctlError("io", `cannot read ${name}: ${(e as NodeJS.ErrnoException).code ?? (e as Error).message}`);
  }
  // Read as the manifests are: UTF-8 only, never a U+FFFD written into a translation.
  const decoded = decodeManifest(bytes, name);
  if ("error" in decoded) throw new PimctlErrors([decoded.error]);
  const planned = planImport(readUnits(decoded.text, name), texts, lock, name);
  const changed: Array<{ file: string; before: string; after: string }> = [];
  for (const [file, entries] of [...planned.edits].sort(([a], [b]) => compareText(a, b))) {
    const abs = path.resolve(opts.cwd, file);
    const before = await readFile(abs, "utf8");
    const offsets = lineStarts(before);
    const located = entries.map((e) => ({
      ...e,
      offset: offsets[e.line - 1]! + e.column - 1,
      edits: e.edits.map((x) => ({ ...x, value: templateText(x.value, variables) })),
    }));
    const after = editYaml(before, file, located);
    if (after !== before) changed.push({ file: abs, before, after });
  }
  await checkReadsBack(config, changed, planned.targets, variables);
  const rel = (f: string) => path.relative(opts.cwd, f) || f;
  const diff = changed.map((c) => createTwoFilesPatch(`a/${rel(c.file)}`, `b/${rel(c.file)}`, c.before, c.after, "", "", { context: 2 })).join("");
  if (!opts.dryRun) {
    for (const c of changed) await writeFile(c.file, c.after);
    await writeLock({ file: lock.file, entries: liveLockEntries(planned.lock, texts) });
  }
  return { ...planned.report, files: changed.map((c) => rel(c.file)), diff, lockFile: rel(lock.file) };
}

/**
 * The edited manifests, loaded again in a copy of the folder before anything is written: every
 * file still loads and every written translation reads back as the translator's text. An edit
 * that would break a file is refused with the loader's own message.
 */
async function checkReadsBack(
  config: Config,
  changed: ReadonlyArray<{ file: string; after: string }>,
  targets: ReadonlyMap<string, string>,
  variables: ReadonlySet<string>,
): Promise<void> {
  if (!changed.length) return;
  const copy = await mkdtemp(path.join(tmpdir(), "pimctl-import-"));
  try {
    await cp(config.dir, copy, { recursive: true, dereference: true });
    for (const c of changed) await writeFile(path.join(copy, path.relative(config.dir, c.file)), c.after);
    const reread = await loadTemplates(config, copy, copy, variables).catch((e: unknown) => {
      const detail = e instanceof PimctlErrors ? e.errors.map((x) => x.format()).join("; ") : String(e);
      throw new PimctlError("internal", `the import would leave the manifests unreadable, so nothing was written: ${detail}`, {
        details: ["please report this with the file you imported"],
      });
    });
    const canonical = (id: string) => printAddress(parseAddress(id)!);
    const readBack = new Map<string, string | undefined>();
    for (const t of translatableTexts(reread))
      for (const [version, value] of Object.entries(t.translations)) readBack.set(canonical(textId(t, version)), value);
    const wrong = [...targets].filter(([id, value]) => readBack.get(canonical(id)) !== value).map(([id]) => id);
    if (wrong.length)
      throw new PimctlError("internal", `the import would not write ${wrong.join(", ")} so that the manifests read it back, so nothing was written`, {
        details: ["please report this with the file you imported"],
      });
  } finally {
    await rm(copy, { recursive: true, force: true });
  }
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
export async function translationsMarkReviewed(
  opts: ProjectOptions & { addresses: string[]; languages?: string[]; all?: boolean },
): Promise<{ marked: string[]; lockFile: string }> {
  const { lock, texts } = await openProject(opts);
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
  await writeLock({ file: lock.file, entries: liveLockEntries(lock.entries, texts) });
  return { marked: marked.sort(compareText), lockFile: path.relative(opts.cwd, lock.file) || lock.file };
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
