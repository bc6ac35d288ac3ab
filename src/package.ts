/**
 * Where pimctl's own files are, wherever it is installed: paths from the
 * module's file URL with fileURLToPath (never URL.pathname, which keeps %20
 * and %C3%BC for a space or an umlaut in the path).
 */
import { readFileSync } from "node:fs";
import path from "node:path";
import { fileURLToPath } from "node:url";

/** The package root: this file is src/package.ts or dist/package.js, one level below it. */
export const PACKAGE_ROOT = path.resolve(path.dirname(fileURLToPath(import.meta.url)), "..");

/** A file shipped with pimctl (schemas/, examples/), as a filesystem path. */
export function packagePath(...parts: string[]): string {
  return path.join(PACKAGE_ROOT, ...parts);
}

/** pimctl's own version, not that of the project that installed it. */
export function packageVersion(): string {
  return (JSON.parse(readFileSync(packagePath("package.json"), "utf8")) as { version: string }).version;
}
