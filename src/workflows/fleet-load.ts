/**
 * Each selected tenant's desired catalogue (issue 35): the base directory with the tenant's overlay
 * folder and variables. The base is read and parsed once per run (ManifestReader); tenants with the
 * same overlay folder, variables and version names share one composed catalogue (the same object).
 * Part B (the fleet plan) calls loadFleetCatalogues; a single tenant's plan goes through
 * loadFleetCatalogues too when the config has overlays.
 */
import { overlayDir, overlayFolders } from "../config/overlays.js";
import { versionMap, type Config, type TenantConfig } from "../config/index.js";
import { ManifestReader, loadComposed } from "../manifest/overlay-load.js";
import type { LoadOptions, LoadResult } from "../manifest/index.js";

export interface FleetLoadOptions {
  /** Names in errors are relative to it. */
  cwd: string;
  /** Shared by calls of one run (one is made when absent). */
  reader?: ManifestReader;
}

/** Load options for one tenant, as a single tenant's plan makes them (project.ts). */
export function tenantLoadOptions(config: Config, tenant: TenantConfig | undefined, cwd: string): LoadOptions {
  const exclude = overlayFolders(config);
  return {
    cwd,
    ...(tenant ? { variables: tenant.variables ?? {} } : {}),
    listedVersions: Object.keys(versionMap(config, tenant)),
    ...(config.external ? { external: config.external } : {}),
    ...(exclude.length ? { exclude } : {}),
  };
}

/** Tenant name -> its composed catalogue; tenants whose (overlay, variables, version names) are equal share one result. */
export async function loadFleetCatalogues(config: Config, tenants: readonly string[], opts: FleetLoadOptions): Promise<Map<string, LoadResult>> {
  const reader = opts.reader ?? new ManifestReader(opts.cwd);
  const composed = new Map<string, Promise<LoadResult>>();
  const out = new Map<string, LoadResult>();
  for (const name of tenants) {
    const load = tenantLoadOptions(config, config.tenants[name], opts.cwd);
    const overlay = overlayDir(config, name);
    const key = JSON.stringify([overlay ?? null, load.variables ? Object.entries(load.variables).sort() : null, load.listedVersions]);
    let result = composed.get(key);
    if (!result) {
      result = loadComposed(config.dir, overlay, load, reader);
      composed.set(key, result);
    }
    out.set(name, await result);
  }
  return out;
}
