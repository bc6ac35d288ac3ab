/**
 * Where a tenant's overlay folder is (issue 35): its own `overlay:`, else `overlays:/<tenant>`
 * when that folder exists. Overlay folders kept inside the manifest directory are never part of
 * the base: every loader leaves them out. The layout itself is checked when the config is loaded
 * (overlayLayoutErrors): a folder named that is not there is a config error, never the base alone.
 */
import { readdirSync, statSync } from "node:fs";
import path from "node:path";
import { PimctlError, closeNames } from "../errors.js";
import { isWithin, realPath, samePlace } from "../base/folders.js";
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
 * The other tenants whose overlay folder is `name`'s, holds it or lies in it (two `tenants.X.overlay`
 * naming one folder, by whatever path: real paths are compared; an overlay folder is read with its
 * subfolders): what is written to `name`'s folder changes them too. Sorted.
 */
export function tenantsSharingOverlay(config: Config, name: string): string[] {
  const own = overlayDir(config, name);
  if (!own) return [];
  const mine = realPath(own);
  return Object.keys(config.tenants)
    .filter((other) => other !== name)
    .filter((other) => {
      const dir = overlayDir(config, other);
      return dir !== undefined && (isWithin(realPath(dir), mine) || isWithin(mine, realPath(dir)));
    })
    .sort();
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
      return folder !== undefined && isWithin(realPath(folder), realPath(dir));
    });
  if (tenant) return { folder: overlayDir(config, tenant) ?? path.join(config.overlays!, tenant), tenant };
  // The overlays: folder itself (a folder under it that names no tenant is a config error already).
  return config.overlays && samePlace(dir, config.overlays) ? { folder: config.overlays } : undefined;
}

function isFolder(dir: string): boolean {
  return folderProblem(dir) === undefined;
}

/** Why `dir` cannot be an overlay folder: it does not exist, or is a file; undefined for a folder. */
function folderProblem(dir: string): string | undefined {
  try {
    return statSync(dir).isDirectory() ? undefined : "is a file, not a folder";
  } catch {
    return "does not exist";
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
  const shared = config.overlays && folderProblem(config.overlays);
  if (shared)
    errors.push(
      new PimctlError(
        "config",
        `overlays: the folder ${show(config.overlays!)} ${shared}, so no tenant would get its overlay; create it, or correct the path`,
        at(["overlays"]),
      ),
    );
  for (const [name, t] of Object.entries(config.tenants).sort(([a], [b]) => (a < b ? -1 : a > b ? 1 : 0))) {
    const own = t.overlay && folderProblem(t.overlay);
    if (own) errors.push(new PimctlError("config", `tenant "${name}": its overlay folder ${show(t.overlay!)} ${own}`, at(["tenants", name, "overlay"])));
  }
  return [...errors, ...strayEntries(config, show, at(["overlays"]))];
}

/**
 * What lies under overlays: and is never read: a folder that names no configured tenant (with a
 * did-you-mean), and a manifest written directly there instead of in a tenant's folder.
 */
function strayEntries(config: Config, show: (d: string) => string, at: { location?: SourceLocation }): PimctlError[] {
  const entries = config.overlays && isFolder(config.overlays) ? readdirSync(config.overlays, { withFileTypes: true }) : [];
  const names = Object.keys(config.tenants);
  const configured = `configured tenants: ${[...names].sort().join(", ")}`;
  const visible = entries.filter((e) => !e.name.startsWith(".")).sort((a, b) => (a.name < b.name ? -1 : 1));
  const folders = visible
    .filter((e) => e.isDirectory() && !config.tenants[e.name])
    .map((e) => {
      const close = closeNames(e.name, names);
      return new PimctlError("config", `the overlay folder ${show(path.join(config.overlays!, e.name))} names no configured tenant`, {
        ...at,
        details: [close.length ? `did you mean: ${close.join(", ")}?` : configured],
      });
    });
  const files = visible
    .filter((e) => !e.isDirectory() && /\.ya?ml$/i.test(e.name))
    .map((e) => {
      const tenant = e.name.replace(/\.ya?ml$/i, "");
      const file = show(path.join(config.overlays!, e.name));
      return new PimctlError("config", `${file} is a manifest directly under overlays:, which holds one folder per tenant: it is not read`, {
        ...at,
        details: [
          config.tenants[tenant]
            ? `did you mean: ${show(path.join(config.overlays!, tenant, e.name))} (a file of tenant ${tenant}'s overlay)?`
            : `move it into the folder of the tenant it is for (${show(config.overlays!)}/<tenant>/${e.name}); ${configured}`,
        ],
      });
    });
  return [...folders, ...files];
}
