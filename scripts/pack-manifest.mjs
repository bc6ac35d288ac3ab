#!/usr/bin/env node
/**
 * The package.json inside the packed tarball has no `scripts`: installing the tarball runs no
 * script, and npm (11.16 and later) has no install script to warn about ("install-scripts ...
 * (prepare: ...)"). The repository keeps them: `prepare` builds dist/ on `npm ci` here and when a
 * project installs pimctl from its Git URL (README: Installing); the others run tools the package
 * does not ship.
 *
 *   node scripts/pack-manifest.mjs strip     prepack, after the build: package.json without scripts
 *   node scripts/pack-manifest.mjs restore   postpack: the repository's package.json back
 *
 * The original is kept beside it (.package.json.before-pack: a second name for the same file, so
 * its bytes and times come back exactly and dist/ does not look stale after a pack) until postpack
 * renames it back; every write is a rename, so package.json is always there and whole. A pack stopped in between (a signal, a failed tarball) leaves the copy: the next
 * strip, restore or build-if-stale puts it back and says so (restoreLeftover).
 */
import { copyFileSync, existsSync, linkSync, readFileSync, renameSync, statSync, utimesSync, writeFileSync } from "node:fs";
import path from "node:path";
import { fileURLToPath, pathToFileURL } from "node:url";

const root = path.resolve(path.dirname(fileURLToPath(import.meta.url)), "..");
const manifest = path.join(root, "package.json");
const kept = path.join(root, ".package.json.before-pack");

/** Puts back a package.json a pack left without its scripts; true when there was one. */
export function restoreLeftover(why) {
  if (!existsSync(kept)) return false;
  renameSync(kept, manifest);
  if (why) process.stderr.write(`pimctl: package.json was left without its scripts by a pack that stopped half-way; restored it (${why})\n`);
  return true;
}

function strip() {
  restoreLeftover("before packing again");
  try {
    linkSync(manifest, kept);
  } catch {
    // A file system without hard links: a copy, with the times it can keep.
    copyFileSync(manifest, kept);
    const { atime, mtime } = statSync(manifest);
    utimesSync(kept, atime, mtime);
  }
  const { scripts: _scripts, ...packed } = JSON.parse(readFileSync(manifest, "utf8"));
  const tmp = `${manifest}.tmp`;
  writeFileSync(tmp, `${JSON.stringify(packed, null, 2)}\n`);
  renameSync(tmp, manifest);
}

const command = process.argv[2];
if (process.argv[1] && import.meta.url === pathToFileURL(process.argv[1]).href) {
  if (command === "strip") strip();
  else if (command === "restore") restoreLeftover();
  else {
    process.stderr.write("usage: node scripts/pack-manifest.mjs strip|restore\n");
    process.exit(2);
  }
}
