/**
 * `pimctl show FILE...`: saved plans read back for review, one or many, single-tenant files (a CI
 * matrix's jobs) or fleet files, checked as apply checks them. With pimctl.yaml at hand the waves
 * are the config's rollout, as the one-run fleet plan has them; without one, a single fleet file's
 * own, else one wave of all.
 */
import { findConfig } from "../config/find.js";
import { rolloutWaves } from "../config/select.js";
import type { Config } from "../config/index.js";
import { readPlanFiles } from "../planfile/fleet-file.js";
import type { FleetPlan } from "../plan/fleet.js";
import { planHmacKey } from "./plan.js";
import { projectConfig, type ProjectOptions } from "./project.js";

export async function showPlans(
  files: readonly string[],
  opts: Pick<ProjectOptions, "cwd" | "env" | "configPath">,
): Promise<{ fleet: FleetPlan; config?: Config }> {
  const config = opts.configPath || findConfig(opts.cwd).file ? await projectConfig(opts) : undefined;
  const hmacKey = planHmacKey(opts.env);
  const fleet = await readPlanFiles(files, {
    cwd: opts.cwd,
    ...(hmacKey ? { hmacKey } : {}),
    ...(config ? { waves: (tenants: readonly string[]) => rolloutWaves(config, tenants) } : {}),
  });
  return { fleet, ...(config ? { config } : {}) };
}
