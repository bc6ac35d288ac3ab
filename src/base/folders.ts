/** Where a path lies relative to a folder: by its text (isWithin), or by where it really is (realPath, samePlace). */
import { realpathSync } from "node:fs";
import path from "node:path";

/**
 * The absolute path with its symbolic links resolved, as far as it exists: a path not there yet is
 * its nearest existing parent's real path joined with the rest (`out/` before an export makes it).
 */
export function realPath(target: string): string {
  const abs = path.resolve(target);
  try {
    return realpathSync.native(abs);
  } catch {
    const parent = path.dirname(abs);
    return parent === abs ? abs : path.join(realPath(parent), path.basename(abs));
  }
}

/** Whether two paths name the same place once links are followed (`cat-link` and `catalogue`, `/tmp` and `/private/tmp`). */
export function samePlace(a: string, b: string): boolean {
  return realPath(a) === realPath(b);
}

/** Whether `target` is `folder` or lies under it (`overlays/prod-us/brands.yaml` in `overlays`; `overlays-old` is not). */
export function isWithin(folder: string, target: string): boolean {
  const rel = path.relative(folder, target);
  return rel !== ".." && !rel.startsWith(`..${path.sep}`) && !path.isAbsolute(rel);
}
