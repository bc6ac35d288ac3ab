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
  /** In rollout order: wave by wave, each wave by name. */
  tenants: TenantRow[];
  waves: string[][];
}

/**
 * Every configured tenant without --tenant, in rollout order (wave by wave, each wave by name), as
 * the text lists them and a matrix starts its jobs; waves as config `rollout:` orders them.
 */
export async function listTenants(opts: Pick<ProjectOptions, "cwd" | "configPath" | "dir" | "tenant">): Promise<TenantList> {
  const config = await projectConfig(opts);
  if (!Object.keys(config.tenants).length)
    throw new PimctlError(
      "usage",
      `no tenants are configured${config.file ? ` in ${config.file}` : " (no pimctl.yaml found)"}; add one under tenants: or run 'pimctl init'`,
    );
  const selected = opts.tenant === undefined ? Object.keys(config.tenants).sort() : selectTenants(config, opts.tenant);
  const waves = rolloutWaves(config, selected);
  const tenants = waves.flatMap((names, i) =>
    names.map((name) => {
      const overlay = overlayDir(config, name);
      return { name, wave: i + 1, ...(overlay ? { overlay: path.relative(opts.cwd, overlay) || "." } : {}) };
    }),
  );
  return { tenants, waves };
}
