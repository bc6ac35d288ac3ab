/**
 * Where a tenant's overlay folder is (issue 35): its own `overlay:`, else `overlays:/<tenant>`
 * when that folder exists. Overlay folders kept inside the manifest directory are never part of
 * the base: every loader leaves them out.
 */
import { existsSync } from "node:fs";
import path from "node:path";
import type { Config } from "./index.js";

/** Whether the config gives any tenant an overlay (else every command loads the base exactly as before fleets). */
export function hasOverlays(config: Config): boolean {
  return config.overlays !== undefined || Object.values(config.tenants).some((t) => t.overlay !== undefined);
}

/** The tenant's overlay folder: its own overlay:, else overlays:/<tenant> when that folder exists. */
export function overlayDir(config: Config, name: string): string | undefined {
  const own = config.tenants[name]?.overlay;
  if (own) return own;
  const shared = config.overlays && path.join(config.overlays, name);
  return shared && existsSync(shared) ? shared : undefined;
}

/** Overlay folders that lie inside the base directory: never read as part of the base. */
export function overlayFolders(config: Config): string[] {
  const inside = (d: string) => !path.relative(config.dir, d).startsWith("..") && !path.isAbsolute(path.relative(config.dir, d));
  return [config.overlays, ...Object.values(config.tenants).map((t) => t.overlay)].filter((d): d is string => d !== undefined && inside(d));
}
