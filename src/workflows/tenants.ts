/**
 * `pimctl tenants` (issue 35): the tenants a --tenant value selects, with their rollout wave and
 * overlay folder, for people and for a CI matrix (`fromJSON(...).tenants`).
 */
import path from "node:path";
import { rolloutWaves, selectTenants } from "../config/select.js";
import { PimctlError } from "../errors.js";
import { overlayDir } from "../config/overlays.js";
import { projectConfig, type ProjectOptions } from "./project.js";

export interface TenantRow {
  name: string;
  /** The rollout wave, numbered from 1. */
  wave: number;
  /** The overlay folder, relative to the working directory, when the tenant has one. */
  overlay?: string;
}

export interface TenantList {
  tenants: TenantRow[];
  waves: string[][];
}

/** Every configured tenant without --tenant; sorted by name; waves as config `rollout:` orders them. */
export async function listTenants(opts: Pick<ProjectOptions, "cwd" | "configPath" | "dir" | "tenant">): Promise<TenantList> {
  const config = await projectConfig(opts);
  if (!Object.keys(config.tenants).length)
    throw new PimctlError(
      "usage",
      `no tenants are configured${config.file ? ` in ${config.file}` : " (no pimctl.yaml found)"}; add one under tenants: or run 'pimctl init'`,
    );
  const selected = opts.tenant === undefined ? Object.keys(config.tenants).sort() : selectTenants(config, opts.tenant);
  const waves = rolloutWaves(config, selected);
  const waveOf = new Map(waves.flatMap((w, i) => w.map((t) => [t, i + 1] as const)));
  const tenants = selected.map((name) => {
    const overlay = overlayDir(config, name);
    return { name, wave: waveOf.get(name)!, ...(overlay ? { overlay: path.relative(opts.cwd, overlay) || "." } : {}) };
  });
  return { tenants, waves };
}
