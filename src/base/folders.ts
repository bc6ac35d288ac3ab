/** Where a path lies relative to a folder, by the path's text alone (nothing is read). */
import path from "node:path";

/** Whether `target` is `folder` or lies under it (`overlays/prod-us/brands.yaml` in `overlays`; `overlays-old` is not). */
export function isWithin(folder: string, target: string): boolean {
  const rel = path.relative(folder, target);
  return rel !== ".." && !rel.startsWith(`..${path.sep}`) && !path.isAbsolute(rel);
}
