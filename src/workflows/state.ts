/**
 * The state backend a project's config names, for `pimctl state`.
 */
import type { Config } from "../config/index.js";
import { openBackend, type StateBackend } from "../state/backends/index.js";
import { pickTenant, tenantBaseUrl } from "../tenant.js";
import { type ProjectOptions, projectConfig } from "./project.js";

/** The state backend a project's config names, for `pimctl state`. */
export async function openProjectState(
  opts: ProjectOptions & { backend?: "local" | "git" },
): Promise<{ config: Config; backend: StateBackend; tenant: string; baseUrl: string }> {
  const config = await projectConfig(opts);
  const { name, tenant } = pickTenant(config, opts.tenant);
  return { config, backend: openBackend(config, name, opts.env, opts.backend), tenant: name, baseUrl: tenantBaseUrl(config, name, tenant) };
}
