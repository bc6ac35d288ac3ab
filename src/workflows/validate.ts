/**
 * `pimctl validate`: the config and the manifests checked offline, with a tenant's variables and
 * version names when one is named (or the config has only one), and the config's translations rule.
 * `--tenant` selecting several (issue 35) checks each tenant's composed catalogue (fleet-load.ts);
 * a problem found in several tenants is reported once, naming them. With overlays configured and no
 * --tenant, every tenant is checked so (the base alone would pass an overlay that does not parse).
 */
import { type Config } from "../config/index.js";
import { selectTenants } from "../config/select.js";
import { loadManifests, type LoadResult } from "../manifest/index.js";
import { PimctlError, PimctlErrors } from "../errors.js";
import { tenantProblemFirst } from "../tenant.js";
import { projectConfig, type ProjectOptions } from "./project.js";
import { translationRuleProblems } from "./translations.js";
import { loadFleetCatalogues, tenantLoadOptions } from "./fleet-load.js";
import { hasOverlays, overlayDir } from "../config/overlays.js";

/** One tenant's catalogue as validate checked it. */
export interface TenantValidation {
  tenant: string;
  result: LoadResult;
  /** The tenant's overlay folder, when it has one (its files are among result.files). */
  overlay?: string;
}

/** The manifests as loaded, with the config they were loaded under; problems are thrown, warnings kept. */
export async function validate(
  opts: Pick<ProjectOptions, "cwd" | "configPath" | "dir" | "tenant">,
): Promise<LoadResult & { config: Config; fleet?: TenantValidation[]; overlay?: string }> {
  const config = await projectConfig(opts);
  const selected = opts.tenant !== undefined ? selectTenants(config, opts.tenant) : everyTenantWithOverlays(config);
  if (selected && selected.length > 1) return validateFleet(config, selected, opts.cwd);
  const name = selected?.[0] ?? (Object.keys(config.tenants).length === 1 ? Object.keys(config.tenants)[0] : undefined);
  const tenant = name === undefined ? undefined : config.tenants[name];
  // Offline, only a typo of a name the config lists can be caught (the tenant's channels publish others): plan checks the rest.
  const result =
    name !== undefined && hasOverlays(config)
      ? (await loadFleetCatalogues(config, [name], { cwd: opts.cwd })).get(name)!
      : await loadManifests(config.dir, tenantLoadOptions(config, tenant, opts.cwd));
  // Errors and the warnings of the same run are reported together, sorted, by the CLI's one error path.
  if (result.errors.length) throw new PimctlErrors(tenantProblemFirst(config, tenant !== undefined, result.errors), result.warnings);
  await translationRule(config, opts.cwd, result.warnings);
  return { ...result, config, ...overlayOf(config, name) };
}

/** The tenant's overlay folder, as validate's summary counts its files apart. */
function overlayOf(config: Config, name: string | undefined): { overlay?: string } {
  const overlay = name !== undefined && hasOverlays(config) ? overlayDir(config, name) : undefined;
  return overlay ? { overlay } : {};
}

/**
 * Without --tenant: with overlays configured, every tenant (an overlay that does not parse is an error
 * however validate is run); without overlays, none named, and the base is checked as it always was.
 */
function everyTenantWithOverlays(config: Config): string[] | undefined {
  const names = Object.keys(config.tenants).sort();
  return hasOverlays(config) && names.length > 1 ? names : undefined;
}

/** The config's translations rule (required versions, fail_under): a policy, exit 3. */
async function translationRule(config: Config, cwd: string, warnings: PimctlError[]): Promise<void> {
  const untranslated = await translationRuleProblems(config, cwd);
  if (untranslated.length) throw new PimctlErrors(untranslated, warnings);
}

async function validateFleet(config: Config, tenants: string[], cwd: string): Promise<LoadResult & { config: Config; fleet: TenantValidation[] }> {
  const loaded = await loadFleetCatalogues(config, tenants, { cwd });
  const fleet = tenants.map((tenant) => ({ tenant, result: loaded.get(tenant)!, ...overlayOf(config, tenant) }));
  const errors = byTenants(fleet.map((t) => [t.tenant, t.result.errors]));
  const warnings = byTenants(fleet.map((t) => [t.tenant, t.result.warnings]));
  if (errors.length) throw new PimctlErrors(errors, warnings);
  await translationRule(config, cwd, warnings);
  const first = fleet[0]!.result;
  return { ...first, warnings, files: [...new Set(fleet.flatMap((t) => t.result.files))].sort(), config, fleet };
}

/** Each problem once, with the tenants it was found in (in the order given: sorted by name). */
function byTenants(found: ReadonlyArray<readonly [string, readonly PimctlError[]]>): PimctlError[] {
  const seen = new Map<string, { error: PimctlError; tenants: string[] }>();
  for (const [tenant, errors] of found) {
    for (const error of errors) {
      const key = `${error.code}\0${error.format()}`;
      const entry = seen.get(key);
      if (entry) {
        if (!entry.tenants.includes(tenant)) entry.tenants.push(tenant);
      } else seen.set(key, { error, tenants: [tenant] });
    }
  }
  return [...seen.values()].map(
    ({ error, tenants }) =>
      new PimctlError(error.code, error.message, {
        ...(error.location ? { location: error.location } : {}),
        ...(error.request ? { request: error.request } : {}),
        details: error.details,
        tenants,
      }),
  );
}
