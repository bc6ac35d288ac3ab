/**
 * `pimctl validate`: the config and the manifests checked offline, with a tenant's variables and
 * version names when one is named (or the config has only one), and the config's translations rule.
 */
import { versionMap, type Config } from "../config/index.js";
import { loadManifests, type LoadResult } from "../manifest/index.js";
import { PimctlErrors } from "../errors.js";
import { pickTenant, tenantProblemFirst } from "../tenant.js";
import { projectConfig, type ProjectOptions } from "./project.js";
import { translationRuleProblems } from "./translations.js";

/** The manifests as loaded, with the config they were loaded under; problems are thrown, warnings kept. */
export async function validate(opts: Pick<ProjectOptions, "cwd" | "configPath" | "dir" | "tenant">): Promise<LoadResult & { config: Config }> {
  const config = await projectConfig(opts);
  const tenant = opts.tenant ? pickTenant(config, opts.tenant).tenant : Object.keys(config.tenants).length === 1 ? Object.values(config.tenants)[0] : undefined;
  // Offline, only a typo of a name the config lists can be caught (the tenant's channels publish others): plan checks the rest.
  const result = await loadManifests(config.dir, {
    cwd: opts.cwd,
    ...(tenant ? { variables: tenant.variables ?? {} } : {}),
    listedVersions: Object.keys(versionMap(config, tenant)),
    ...(config.external ? { external: config.external } : {}),
  });
  // Errors and the warnings of the same run are reported together, sorted, by the CLI's one error path.
  if (result.errors.length) throw new PimctlErrors(tenantProblemFirst(config, tenant !== undefined, result.errors), result.warnings);
  // The config's translations rule (required versions, fail_under): a policy, exit 3.
  const untranslated = await translationRuleProblems(config, opts.cwd);
  if (untranslated.length) throw new PimctlErrors(untranslated, result.warnings);
  return { ...result, config };
}
