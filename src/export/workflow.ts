/**
 * `pimctl export` as a library call: read a tenant and write it as manifests.
 * Into a folder that already holds manifests it refuses, unless told to
 * overwrite (`force`) or to edit the files in place (`merge`, src/export/merge.ts):
 * an export never destroys hand-written files by default.
 */
import { readFile, mkdir } from "node:fs/promises";
import path from "node:path";
import { KINDS, type Kind } from "../model/catalogue.js";
import { loadManifests } from "../manifest/index.js";
import { manifestFiles } from "../manifest/files.js";
import { PimctlError, PimctlErrors } from "../errors.js";
import { readTenantCatalogue, schemaPath, type ProjectOptions } from "../workflows/index.js";
import { projectConfig } from "../workflows/project.js";
import { pickTenant } from "../tenant.js";
import type { TenantConfig } from "../config/index.js";
import { exportFiles, exportHeader, type ExportFile } from "./index.js";
import { mergeExport } from "./merge.js";
import { commitFiles } from "../base/atomic-files.js";

export interface ExportOptions extends ProjectOptions {
  out: string;
  kinds?: Kind[];
  /**
   * Into a folder that already holds manifests: "force" overwrites with freshly exported
   * `<kind>.yaml` files, "merge" edits the files in place (src/export/merge.ts); neither refuses.
   */
  existing?: "force" | "merge";
}

export interface ExportResult {
  /** Files written (relative to cwd as given in --out). */
  files: string[];
  mode: "new" | "force" | "merge";
  /** --merge: one line per changed value, per added entry, per entry only the folder has. */
  updated: string[];
  added: string[];
  onlyInFolder: string[];
  /** --merge: values that differ but come from a YAML merge key, to edit by hand. */
  byHand: string[];
  /** --merge: renames the folder makes that the tenant has not seen yet (left as the folder has them). */
  pendingRenames: string[];
  /** --force: manifest files left in the folder that declare an exported kind (they will clash). */
  clashes: string[];
}

export async function exportTenant(opts: ExportOptions): Promise<ExportResult> {
  const outDir = path.resolve(opts.cwd, opts.out);
  const existing = await existingManifests(outDir);
  if (existing.length && !opts.existing) {
    const names = existing.map((f) => path.relative(opts.cwd, f) || f);
    throw new PimctlError(
      "usage",
      `${opts.out} already holds manifests: export would overwrite hand-written files ` +
        `(${names.slice(0, 8).join(", ")}${names.length > 8 ? `, and ${names.length - 8} more` : ""}); nothing was written`,
      {
        details: [
          "--merge: update only the values that changed, where each entry lives, keeping comments, ${variables}, previous_names and the file " +
            "layout; add new entries",
          "--force: overwrite with freshly exported <kind>.yaml files (edits, comments and variables in them are lost)",
        ],
      },
    );
  }
  // The folder a merge edits must load cleanly (a merge edits entries where they are declared): checked before the tenant is read.
  if (existing.length && opts.existing === "merge") {
    const config = await projectConfig(opts);
    const loaded = await loadManifests(outDir, {
      cwd: opts.cwd,
      variables: variablesOf(pickTenant(config, opts.tenant).tenant),
      ...(config.external ? { external: config.external } : {}),
    });
    if (loaded.errors.length) throw new PimctlErrors(loaded.errors);
  }
  const { catalogue, connection } = await readTenantCatalogue(opts);
  const variables = variablesOf(connection.tenant);
  const schemaRef = path.relative(outDir, schemaPath()) || "manifest.schema.json";
  const result: ExportResult = {
    files: [],
    mode: existing.length ? opts.existing! : "new",
    updated: [],
    added: [],
    onlyInFolder: [],
    byHand: [],
    pendingRenames: [],
    clashes: [],
  };
  let files: Record<string, string> | ExportFile[];
  if (existing.length && opts.existing === "merge") {
    const texts: Record<string, string> = {};
    for (const f of existing) texts[path.relative(outDir, f)] = await readFile(f, "utf8");
    const merged = mergeExport({
      files: texts,
      exported: catalogue,
      kinds: (opts.kinds ?? KINDS).filter((k) => catalogue.managed.includes(k)),
      variables,
      header: (kind) => exportHeader(kind, schemaRef),
    });
    files = merged.files;
    Object.assign(result, {
      updated: merged.updated,
      added: merged.added,
      onlyInFolder: merged.onlyInFolder,
      byHand: merged.byHand,
      pendingRenames: merged.pendingRenames,
    });
  } else {
    files = exportFiles(catalogue, { tenant: connection.name, ...(opts.kinds ? { kinds: opts.kinds } : {}), schemaRef, variables });
    // Other files declaring an exported kind would now declare its entries twice.
    const written = new Set(files.map((f) => path.join(outDir, f.name)));
    for (const f of existing.filter((x) => !written.has(x))) {
      const text = await readFile(f, "utf8");
      // A kind is a top-level key: at column 0 (the same test as src/manifest/kinds-scan.ts).
      if (files.some((file) => new RegExp(`^${file.kind}\\s*:`, "m").test(text))) result.clashes.push(path.relative(opts.cwd, f));
    }
  }
  await mkdir(outDir, { recursive: true });
  const list = Array.isArray(files) ? files : Object.entries(files).map(([name, text]) => ({ name, text: () => [text] }));
  // One commit: every file or none, whatever signal comes. Written as it is made: the text of a kind
  // is never held whole (tens of MB at ten times the taxonomy).
  await commitFiles(
    list.map((file) => ({ file: path.join(outDir, file.name), text: file.text() })),
    { journalDir: outDir, show: (f) => path.relative(opts.cwd, f) || f, ...(opts.signal ? { signal: opts.signal } : {}) },
  );
  result.files = list.map((f) => path.join(opts.out, f.name));
  return result;
}

/** A tenant's variables as the text a manifest holds. */
function variablesOf(tenant: TenantConfig): Record<string, string> {
  return Object.fromEntries(Object.entries(tenant.variables ?? {}).map(([k, v]) => [k, String(v)]));
}

/** The manifest files a folder holds (none when it does not exist); a folder that cannot be listed whole is an error. */
async function existingManifests(dir: string): Promise<string[]> {
  try {
    const listing = await manifestFiles(dir);
    if (listing.errors.length) throw new PimctlErrors(listing.errors);
    return listing.files;
  } catch (e) {
    if (e instanceof PimctlErrors) throw e;
    if ((e as NodeJS.ErrnoException).code === "ENOENT") return [];
    throw new PimctlError("io", `cannot read ${dir}: ${(e as NodeJS.ErrnoException).code ?? (e as Error).message}`);
  }
}
