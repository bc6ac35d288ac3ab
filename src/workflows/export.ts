/**
 * `pimctl export` as a library call: read a tenant and write it as manifests.
 * Into a folder that already holds manifests it refuses, unless told to
 * overwrite (`force`) or to edit the files in place (`merge`, src/export/merge.ts):
 * an export never destroys hand-written files by default.
 */
import { readFile, mkdir, rm } from "node:fs/promises";
import path from "node:path";
import { KINDS, type Catalogue, type Kind } from "../model/catalogue.js";
import { loadManifests } from "../manifest/index.js";
import { manifestFiles } from "../manifest/files.js";
import { PimctlError, PimctlErrors } from "../errors.js";
import { readTenantCatalogue } from "./diff.js";
import { projectConfig, prunePolicy, schemaPath, type ProjectOptions } from "./project.js";
import { pickTenant } from "../tenant.js";
import { overlayDir, overlayFolderHolding, overlayFolders } from "../config/overlays.js";
import type { Config, TenantConfig } from "../config/index.js";
import { exportFiles, exportHeader, type ExportFile } from "../export/index.js";
import { mergeExport, type MergeInput, type MergeResult } from "../export/merge.js";
import { isUntouchedSample } from "./init-sample.js";
import type { PlanInput } from "../plan/planner.js";
import { renamedByHand } from "../export/hand-renames.js";
import { commitFiles } from "../files/atomic-files.js";
import { samePlace } from "../base/folders.js";
import { ManifestReader, loadComposed } from "../manifest/overlay-load.js";
import { mergeOverlaid, refuseSharedOverlay, type OverlayMergeSummary } from "./export-overlay.js";

export interface ExportOptions extends ProjectOptions {
  out: string;
  kinds?: Kind[];
  /**
   * Into a folder that already holds manifests: "force" overwrites with freshly exported
   * `<kind>.yaml` files, "merge" edits the files in place (src/export/merge.ts); neither refuses.
   */
  existing?: "force" | "merge";
}

/** With --merge, what the merge did, a line each (merge-state.ts MergeResult); empty otherwise. */
export interface ExportResult extends Omit<MergeResult, "files"> {
  /** Files written (relative to cwd as given in --out). */
  files: string[];
  mode: "new" | "force" | "merge";
  /** --force: manifest files left in the folder that declare an exported kind (they will clash). */
  clashes: string[];
  /** init's sample manifest, untouched, that the export replaced (src/workflows/init-sample.ts). */
  replacedSample?: string;
  /** --merge into the base for a tenant with an overlay: what went to the shared base and what to the overlay (export-overlay.ts). */
  overlay?: OverlayMergeSummary;
}

export async function exportTenant(opts: ExportOptions): Promise<ExportResult> {
  const project = await projectConfig(opts);
  // The base reached another way (a link, another spelling) is the base: spelled as the config does,
  // so its overlay folders are excluded and a merge writes each value where it belongs.
  const given = path.resolve(opts.cwd, opts.out);
  const outDir = samePlace(given, project.dir) ? project.dir : given;
  refuseOverlayOut(project, opts, outDir);
  // Tenants' overlay folders kept inside the folder are theirs: never part of what a merge edits.
  const { existing, sample } = await manifestsIn(outDir, overlayFolders(project));
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
  const folder = existing.length && opts.existing === "merge" ? await loadFolder(opts, outDir, project) : undefined;
  // Its overlay folder another tenant's too: refused now, before the tenant is read.
  if (folder?.overlay) refuseSharedOverlay(project, pickTenant(project, opts.tenant).name, opts.cwd);
  const { catalogue, connection, config, remote, ledger } = await readTenantCatalogue(opts);
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
    renamed: [],
    clashes: [],
  };
  let files: Record<string, string> | ExportFile[];
  if (folder) {
    const { files: merged, ...report } = await mergeFolder(existing, outDir, folder, {
      catalogue,
      kinds: (opts.kinds ?? KINDS).filter((k) => catalogue.managed.includes(k)),
      variables,
      header: (kind) => exportHeader(kind, schemaRef),
      // The plan's own decision on which tenant records are the folder's entries under another name (renamed by hand).
      identity: { tenant: connection.name, remote, ledger, prune: prunePolicy(config) },
      cwd: opts.cwd,
      config,
    });
    files = merged;
    const { summary, ...lines } = report;
    Object.assign(result, lines, summary ? { overlay: summary } : {});
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
  if (sample) result.replacedSample = await removed(sample, opts.cwd);
  return result;
}

/**
 * The folder's files merged with the tenant (merge.ts), its entries following what the plan takes for renames by hand;
 * into the shared base for a tenant with an overlay, each value to the file that declares it for the tenant (export-overlay.ts).
 */
async function mergeFolder(
  existing: string[],
  outDir: string,
  folder: Folder,
  o: Omit<MergeInput, "files" | "exported" | "renamedByHand"> & { catalogue: Catalogue; identity: Omit<PlanInput, "desired">; cwd: string; config: Config },
): Promise<MergeResult & { summary?: OverlayMergeSummary }> {
  const texts: Record<string, string> = {};
  for (const f of existing) texts[path.relative(outDir, f)] = await readFile(f, "utf8");
  const desired = { ...folder.desired, managed: folder.desired.managed.filter((k) => o.kinds.includes(k)) };
  const { catalogue, identity, cwd, config, ...rest } = o;
  const renames = renamedByHand({ ...identity, desired });
  if (!folder.overlay) return mergeExport({ ...rest, files: texts, exported: catalogue, renamedByHand: renames });
  const tenantVariables = (name: string) => variablesOf(config.tenants[name]!);
  return mergeOverlaid({
    ...rest,
    cwd,
    config,
    tenant: identity.tenant,
    overlayDir: folder.overlay,
    outDir,
    files: texts,
    base: folder.base,
    exported: catalogue,
    renamedByHand: renames,
    variablesOf: tenantVariables,
  });
}

/** The folder a merge edits, as loaded; into the shared base for a tenant with an overlay, the base alone and the tenant's composed catalogue. */
interface Folder {
  base: Catalogue;
  /** What plan compares with the tenant: the base, or the base with the overlay. */
  desired: Catalogue;
  overlay?: string;
}

/** The folder a merge edits, loaded as plan loads it (with the tenant's variables): its errors refuse the merge. */
async function loadFolder(opts: ExportOptions, outDir: string, config: Config): Promise<Folder> {
  const picked = pickTenant(config, opts.tenant);
  const exclude = overlayFolders(config);
  const load = {
    cwd: opts.cwd,
    variables: variablesOf(picked.tenant),
    ...(config.external ? { external: config.external } : {}),
    ...(exclude.length ? { exclude } : {}),
  };
  const loaded = await loadManifests(outDir, load);
  if (loaded.errors.length) throw new PimctlErrors(loaded.errors);
  const overlay = path.resolve(outDir) === path.resolve(config.dir) ? overlayDir(config, picked.name) : undefined;
  if (!overlay) return { base: loaded.catalogue, desired: loaded.catalogue };
  // The overlay must compose cleanly over the base too: the merge edits both.
  const composed = await loadComposed(outDir, overlay, load, new ManifestReader(opts.cwd));
  if (composed.errors.length) throw new PimctlErrors(composed.errors);
  return { base: loaded.catalogue, desired: composed.catalogue, overlay: path.resolve(overlay) };
}

/** A tenant's variables as the text a manifest holds. */
function variablesOf(tenant: TenantConfig): Record<string, string> {
  return Object.fromEntries(Object.entries(tenant.variables ?? {}).map(([k, v]) => [k, String(v)]));
}

/**
 * The manifests already in the folder, but init's sample while it is alone there and untouched: it
 * holds nothing of the team's, and the export takes its place (src/workflows/init-sample.ts).
 */
async function manifestsIn(dir: string, exclude: readonly string[]): Promise<{ existing: string[]; sample?: string }> {
  const found = await existingManifests(dir, exclude);
  const sample = found.length === 1 && isUntouchedSample(await readFile(found[0]!, "utf8")) ? found[0] : undefined;
  return sample ? { existing: [], sample } : { existing: found };
}

/** Removes a file the export replaced; its name as messages show it. */
async function removed(file: string, cwd: string): Promise<string> {
  await rm(file, { force: true });
  return path.relative(cwd, file) || file;
}

/** The manifest files a folder holds (none when it does not exist); a folder that cannot be listed whole is an error. */
async function existingManifests(dir: string, exclude: readonly string[]): Promise<string[]> {
  try {
    const listing = await manifestFiles(dir, undefined, exclude);
    if (listing.errors.length) throw new PimctlErrors(listing.errors);
    return listing.files;
  } catch (e) {
    if (e instanceof PimctlErrors) throw e;
    if ((e as NodeJS.ErrnoException).code === "ENOENT") return [];
    throw new PimctlError("io", `cannot read ${dir}: ${(e as NodeJS.ErrnoException).code ?? (e as Error).message}`);
  }
}

/**
 * An overlay folder (or the folder that holds them) as --out: an overlay holds what differs from the
 * base for one tenant, an export a whole catalogue, so the base's schema would refuse the overlay's
 * `$remove` entries and a new export would copy every base entry into it. Refused before anything
 * is read; a tenant's values reach its overlay through a merge into the base.
 */
function refuseOverlayOut(config: Config, opts: ExportOptions, outDir: string): void {
  const holder = overlayFolderHolding(config, outDir);
  if (!holder) return;
  const show = (d: string) => path.relative(opts.cwd, d) || ".";
  const whose = holder.tenant
    ? `in tenant "${holder.tenant}"'s overlay folder (${show(holder.folder)})`
    : "the folder of the tenants' overlay folders (overlays:)";
  throw new PimctlError("usage", `export --out ${opts.out}: this is ${whose}, and an export into an overlay folder is not supported; nothing was written`, {
    details: [
      `to bring a tenant's values into the manifests, merge into the base: ` +
        `pimctl export --tenant ${holder.tenant ?? opts.tenant ?? "NAME"} --out ${show(config.dir)} --merge`,
      "or export into a folder of its own and move what differs into the overlay by hand",
    ],
  });
}
