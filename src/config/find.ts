/**
 * Where pimctl.yaml is when no --config names it: in the working directory, else in the nearest
 * folder above it, as git and npm look for theirs, so a command run from the manifest folder
 * finds the project's config. The search stays inside the Git repository the working directory
 * is in: it stops at the repository's root (the folder holding `.git`, a folder or, in a worktree
 * or submodule, a file), so a pimctl.yaml in a home directory or in /tmp is never taken for the
 * project's. Outside a repository only the working directory is looked in, as before.
 */
import { existsSync, statSync } from "node:fs";
import path from "node:path";

export const CONFIG_FILE = "pimctl.yaml";

export interface ConfigSearch {
  /** The config found, if any. */
  file?: string;
  /** The folders looked in, from the working directory up. */
  searched: string[];
  /** The Git repository's root the search stopped at, when the working directory is in one. */
  repository?: string;
  /** Outside a repository: the nearest pimctl.yaml above the working directory, not used, but named in the error. */
  notUsed?: string;
}

/** Looks from `cwd` up to the repository's root (synchronously: a few stat calls, before any command starts). */
export function findConfig(cwd: string): ConfigSearch {
  const start = path.resolve(cwd);
  const repository = repositoryRoot(start);
  const searched: string[] = [];
  for (let dir = start; ; dir = path.dirname(dir)) {
    searched.push(dir);
    const file = path.join(dir, CONFIG_FILE);
    if (isFile(file)) return { file, searched, ...(repository ? { repository } : {}) };
    if (!repository || dir === repository || path.dirname(dir) === dir) break;
  }
  if (repository) return { searched, repository };
  const above = nearestAbove(start);
  return { searched, ...(above ? { notUsed: above } : {}) };
}

function nearestAbove(dir: string): string | undefined {
  for (let d = path.dirname(dir); ; d = path.dirname(d)) {
    if (isFile(path.join(d, CONFIG_FILE))) return path.join(d, CONFIG_FILE);
    if (path.dirname(d) === d) return undefined;
  }
}

/** The nearest folder at or above `dir` that holds `.git`, or undefined outside a repository. */
function repositoryRoot(dir: string): string | undefined {
  for (let d = dir; ; d = path.dirname(d)) {
    if (existsSync(path.join(d, ".git"))) return d;
    if (path.dirname(d) === d) return undefined;
  }
}

function isFile(file: string): boolean {
  try {
    return statSync(file).isFile();
  } catch {
    return false;
  }
}
