/**
 * The manifest files of a directory: every .yaml/.yml below it but pimctl.yaml,
 * translations.lock.yaml, hidden entries and node_modules, in name order. Symlinks are followed, to
 * folders as to files: a folder skipped in silence would have its records
 * planned for deletion under `prune`. A link that leads back to a folder it is
 * in, a chain of links that never ends and a link to nothing are errors naming
 * the link; nothing found is ever dropped without a word.
 */
import { readdir, readlink, realpath, stat } from "node:fs/promises";
import type { Dirent, Stats } from "node:fs";
import path from "node:path";
import { PimctlError } from "../errors.js";

export interface ManifestListing {
  files: string[];
  errors: PimctlError[];
}

const isManifest = (name: string): boolean => /\.ya?ml$/.test(name) && name !== "pimctl.yaml" && name !== "pimctl.yml" && name !== "translations.lock.yaml";

/**
 * `cwd`: paths in messages are relative to it (as loadManifests names files). `exclude`: absolute
 * folders that are not part of the directory (tenants' overlay folders kept inside it).
 */
export async function manifestFiles(dir: string, cwd = process.cwd(), exclude: readonly string[] = []): Promise<ManifestListing> {
  const files: string[] = [];
  const errors: PimctlError[] = [];
  const show = (p: string) => path.relative(cwd, p) || p;
  const linkError = async (p: string, e: NodeJS.ErrnoException): Promise<PimctlError> => {
    const target = await readlink(p).catch(() => "?");
    if (e.code === "ELOOP") return new PimctlError("io", `symlink loop: ${show(p)} -> ${target} is a chain of symlinks that never reaches a file or folder`);
    if (e.code === "ENOENT") return new PimctlError("io", `broken symlink: ${show(p)} -> ${target} points to nothing; remove the link or restore its target`);
    return new PimctlError("io", `cannot follow the symlink ${show(p)} -> ${target}: ${e.code ?? e.message}`);
  };
  // `ancestors`: the real path of every folder from the top down to `d`, to tell a loop from a second way in.
  const visit = async (d: string, ancestors: Map<string, string>): Promise<void> => {
    let entries: Dirent[];
    try {
      entries = (await readdir(d, { withFileTypes: true })).sort((a, b) => (a.name < b.name ? -1 : 1));
    } catch (e) {
      errors.push(new PimctlError("io", `cannot read the folder ${show(d)}: ${(e as NodeJS.ErrnoException).code ?? (e as Error).message}`));
      return;
    }
    for (const entry of entries) {
      if (entry.name.startsWith(".") || entry.name === "node_modules") continue;
      const p = path.join(d, entry.name);
      let kind: Dirent | Stats = entry;
      if (entry.isSymbolicLink()) {
        try {
          kind = await stat(p);
        } catch (e) {
          // Reported whatever its name: a broken link to a folder hides that folder's records.
          errors.push(await linkError(p, e as NodeJS.ErrnoException));
          continue;
        }
      }
      if (kind.isDirectory()) {
        if (exclude.includes(p)) continue;
        const real = await realpath(p);
        const outer = ancestors.get(real);
        if (outer !== undefined) {
          errors.push(new PimctlError("io", `symlink loop: ${show(p)} leads back to ${show(outer)}, a folder it is in; point the link elsewhere or remove it`));
          continue;
        }
        await visit(p, new Map(ancestors).set(real, p));
      } else if (isManifest(entry.name)) {
        // A FIFO, a device (a link to /dev/zero) or a socket would block the read or never end: refused by name.
        if (kind.isFile()) files.push(p);
        else
          errors.push(
            new PimctlError(
              "io",
              `${show(p)} is not a regular file (a pipe, a device or a socket${entry.isSymbolicLink() ? ", through a symlink" : ""}); manifests ` +
                `are files: remove it or rename it so it does not end in .yaml`,
            ),
          );
      }
    }
  };
  await visit(dir, new Map([[await realpath(dir), dir]]));
  return { files, errors };
}
