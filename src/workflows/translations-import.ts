/**
 * `pimctl translations import FILE`: read the translator's file, decide per
 * unit (import.ts), edit each manifest in one pass (manifest/edit/texts.ts), prove the
 * edit changes nothing but the translations (import-check.ts) and that the
 * manifests still load, then write the manifests and the lock file as one
 * commit (src/files/atomic-files.ts): all of them or none, whatever signal comes.
 */
import { cp, mkdtemp, readFile, rm, writeFile } from "node:fs/promises";
import { tmpdir } from "node:os";
import path from "node:path";
import { PimctlError, PimctlErrors } from "../errors.js";
import { compareText } from "../model/catalogue.js";
import type { ProjectOptions } from "./project.js";
import type { Config } from "../config/index.js";
import { decodeManifest } from "../manifest/encoding.js";
import { templateText, type TextSplice } from "../manifest/yaml-text.js";
import { parseYaml } from "../manifest/yaml.js";
import { commitFiles } from "../files/atomic-files.js";
import { spliceDiff } from "../base/splice-diff.js";
import { readUnits } from "../translations/formats/index.js";
import { liveLockEntries, planImport, type ImportPlan, type ImportReport } from "../translations/import.js";
import { onlyTranslationsChange } from "../translations/import-check.js";
import { serialiseLock } from "../translations/lockfile.js";
import { loadTenantTemplates, openProject } from "./translations-project.js";
import { routeToDeclaringFiles } from "../translations/overlay-route.js";
import { asTemplates, loadTemplates } from "../translations/load-templates.js";
import { editYaml } from "../manifest/edit/texts.js";

export interface ImportResult extends ImportReport {
  /** Manifest files changed (or, with dryRun, that would change), relative to the working directory. */
  files: string[];
  /** Unified diff of the manifests (always computed; the CLI prints it with --dry-run). */
  diff: string;
  lockFile: string;
  /** What was done about an earlier run's interrupted write before this one read the files. */
  earlier: string[];
}

interface EditedFile {
  file: string;
  before: string;
  after: string;
  splices: TextSplice[];
}

export async function translationsImport(opts: ProjectOptions & { file: string; dryRun?: boolean }): Promise<ImportResult> {
  const { config, lock, texts, variables, earlier, overlay, places } = await openProject(opts, true);
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
  // A tenant with an overlay: each text to the file that declares it for the tenant (overlay-route.ts).
  if (places) planned.edits = routeToDeclaringFiles(planned.edits, places);
  // Made now, so the texts (a record of every text in the manifests) need not stay in memory while the files are edited.
  const lockText = serialiseLock({ file: lock.file, entries: liveLockEntries(planned.lock, texts) });
  const rel = (f: string) => path.relative(opts.cwd, f) || f;
  const changed = await editFiles(planned, opts.cwd, variables);
  await checkStillLoads(config, changed, variables, overlay);
  const diff = changed.map((c) => spliceDiff(`a/${rel(c.file)}`, `b/${rel(c.file)}`, c.before, c.splices)).join("");
  const result = { ...planned.report, files: changed.map((c) => rel(c.file)), diff, lockFile: rel(lock.file) };
  if (opts.dryRun) return { ...result, earlier };
  // The lock file in the same commit as the manifests: it always describes the translations they hold.
  const commit = await commitFiles([...changed.map((c) => ({ file: c.file, text: c.after })), { file: lock.file, text: lockText }], {
    journalDir: path.dirname(lock.file),
    show: rel,
    ...(opts.signal ? { signal: opts.signal } : {}),
  });
  return { ...result, earlier: [...earlier, ...commit.earlier] };
}

/** Each manifest edited in one pass, and checked to change nothing but its translations. */
async function editFiles(planned: ImportPlan, cwd: string, variables: ReadonlySet<string>): Promise<EditedFile[]> {
  const changed: EditedFile[] = [];
  const errors: PimctlError[] = [];
  const templates = asTemplates(variables);
  for (const [file, entries] of [...planned.edits].sort(([a], [b]) => compareText(a, b))) {
    planned.edits.delete(file);
    const abs = path.resolve(cwd, file);
    const before = await readFile(abs, "utf8");
    const offsets = lineStarts(before);
    const located = entries.map((e) => ({
      ...e,
      offset: offsets[e.line - 1]! + e.column - 1,
      edits: e.edits.map((x) => ({ ...x, value: templateText(x.value, variables) })),
    }));
    // Read once as the loader reads it: the editor takes its offsets, the check compares against it.
    const old = parseYaml(before, file, templates);
    const { text: after, splices } = editYaml(before, file, located, old);
    const units = entries.flatMap((e) => e.edits.map((x) => ({ id: e.id, line: e.line, column: e.column, keys: x.keys, value: x.value })));
    errors.push(...onlyTranslationsChange(file, old, after, units, templates));
    if (after !== before) changed.push({ file: abs, before, after, splices });
  }
  if (errors.length) throw new PimctlErrors(errors);
  return changed;
}

/**
 * The edited manifests, loaded again in a copy of the folder before anything is written: every
 * file still loads, with the rules across files (a version name the config does not know, say).
 * An edit that would break them is refused with the loader's own message.
 */
async function checkStillLoads(config: Config, changed: readonly EditedFile[], variables: ReadonlySet<string>, overlay?: string): Promise<void> {
  if (!changed.length) return;
  const copy = await mkdtemp(path.join(tmpdir(), "pimctl-import-"));
  try {
    // The base (and the tenant's overlay folder, wherever it is) copied, each edited file written into its copy: never outside it.
    const base = path.join(copy, "base");
    const over = path.join(copy, "overlay");
    await cp(config.dir, base, { recursive: true, dereference: true });
    if (overlay) await cp(overlay, over, { recursive: true, dereference: true });
    for (const c of changed) {
      const inOverlay = overlay !== undefined && !path.relative(overlay, c.file).startsWith("..");
      await writeFile(inOverlay ? path.join(over, path.relative(overlay, c.file)) : path.join(base, path.relative(config.dir, c.file)), c.after);
    }
    const load = overlay ? loadTenantTemplates(config, base, path.join(over, ""), copy, variables) : loadTemplates(config, base, copy, variables);
    await load.catch((e: unknown) => {
      const detail = e instanceof PimctlErrors ? e.errors.map((x) => x.format()).join("; ") : String(e);
      throw new PimctlError("internal", `the import would leave the manifests unreadable, so nothing was written: ${detail}`, {
        details: ["please report this with the file you imported"],
      });
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
