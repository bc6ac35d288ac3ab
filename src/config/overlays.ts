/**
 * Where a tenant's overlay folder is (issue 35): its own `overlay:`, else `overlays:/<tenant>`
 * when that folder exists. Overlay folders kept inside the manifest directory are never part of
 * the base: every loader leaves them out. The layout itself is checked when the config is loaded
 * (overlayLayoutErrors): a folder named that is not there is a config error, never the base alone.
 */
import { readdirSync, statSync } from "node:fs";
import path from "node:path";
import { PimctlError, closeNames } from "../errors.js";
import { isWithin } from "../base/folders.js";
import type { SourceLocation } from "../model/catalogue.js";
import type { Config } from "./types.js";

/** Whether the config gives any tenant an overlay (else every command loads the base exactly as before fleets). */
export function hasOverlays(config: Config): boolean {
  return config.overlays !== undefined || Object.values(config.tenants).some((t) => t.overlay !== undefined);
}

/** The tenant's overlay folder: its own overlay:, else overlays:/<tenant> when that folder exists. */
export function overlayDir(config: Config, name: string): string | undefined {
  const own = config.tenants[name]?.overlay;
  if (own) return own;
  const shared = config.overlays && path.join(config.overlays, name);
  return shared && isFolder(shared) ? shared : undefined;
}

/** Overlay folders that lie inside the base directory: never read as part of the base. */
export function overlayFolders(config: Config): string[] {
  return [config.overlays, ...Object.values(config.tenants).map((t) => t.overlay)].filter((d): d is string => d !== undefined && isWithin(config.dir, d));
}

/**
 * The overlay folder `dir` is in (or is): a tenant's, named, else the `overlays:` folder itself;
 * undefined otherwise.
 */
export function overlayFolderHolding(config: Config, dir: string): { folder: string; tenant?: string } | undefined {
  const tenant = Object.keys(config.tenants)
    .sort()
    .find((name) => {
      const folder = overlayDir(config, name) ?? (config.overlays && path.join(config.overlays, name));
      return folder !== undefined && isWithin(folder, dir);
    });
  if (tenant) return { folder: overlayDir(config, tenant) ?? path.join(config.overlays!, tenant), tenant };
  // The overlays: folder itself (a folder under it that names no tenant is a config error already).
  return config.overlays && path.resolve(dir) === path.resolve(config.overlays) ? { folder: config.overlays } : undefined;
}

function isFolder(dir: string): boolean {
  try {
    return statSync(dir).isDirectory();
  } catch {
    return false;
  }
}

/** Where a key of the config is written: `["overlays"]`, `["tenants", name, "overlay"]`. */
export type ConfigPlace = (at: string[]) => SourceLocation | undefined;

/**
 * Problems of the overlay layout, each a config error at its line (a config error belongs to no
 * tenant): an `overlays:` or `tenants.X.overlay` folder that is not there (a typo or a moved folder
 * would give tenants the base alone, and a prune would delete what only their overlay declares),
 * and a folder under `overlays:` that names no tenant (the tenant it was meant for would get the base alone).
 */
export function overlayLayoutErrors(config: Config, cwd: string, place: ConfigPlace): PimctlError[] {
  const show = (d: string) => path.relative(cwd, d) || ".";
  const at = (keys: string[]) => {
    const location = place(keys);
    return location ? { location } : {};
  };
  const errors: PimctlError[] = [];
  if (config.overlays && !isFolder(config.overlays))
    errors.push(
      new PimctlError(
        "config",
        `overlays: the folder ${show(config.overlays)} does not exist, so no tenant would get its overlay; create it, or correct the path`,
        at(["overlays"]),
      ),
    );
  for (const [name, t] of Object.entries(config.tenants).sort(([a], [b]) => (a < b ? -1 : a > b ? 1 : 0))) {
    if (t.overlay && !isFolder(t.overlay))
      errors.push(new PimctlError("config", `tenant "${name}": its overlay folder ${show(t.overlay)} does not exist`, at(["tenants", name, "overlay"])));
  }
  return [...errors, ...strayFolders(config, show, at(["overlays"]))];
}

/** Folders under overlays: that name no configured tenant, with a did-you-mean. */
function strayFolders(config: Config, show: (d: string) => string, at: { location?: SourceLocation }): PimctlError[] {
  const folders = config.overlays && isFolder(config.overlays) ? readdirSync(config.overlays, { withFileTypes: true }) : [];
  const names = Object.keys(config.tenants);
  return folders
    .filter((e) => e.isDirectory() && !e.name.startsWith(".") && !config.tenants[e.name])
    .map((e) => e.name)
    .sort()
    .map((folder) => {
      const close = closeNames(folder, names);
      return new PimctlError("config", `the overlay folder ${show(path.join(config.overlays!, folder))} names no configured tenant`, {
        ...at,
        details: [close.length ? `did you mean: ${close.join(", ")}?` : `configured tenants: ${[...names].sort().join(", ")}`],
      });
    });
}
