/**
 * The read-only commands that work on several tenants (issue 35): `state show` and
 * `translations status` given a --tenant that selects several. One tenant takes the single-tenant
 * path unchanged; several run one after another, a tenant that fails does not stop the others,
 * and its errors come back naming it.
 */
import { versionMap } from "../config/index.js";
import { overlayDir, overlayFolders } from "../config/overlays.js";
import { PimctlError, PimctlErrors } from "../errors.js";
import { ManifestReader, loadComposed } from "../manifest/overlay-load.js";
import { asTemplates, variableNames } from "../translations/load-templates.js";
import { lockPath, readLock } from "../translations/lockfile.js";
import { translationStatus, type StatusReport } from "../translations/status.js";
import { translatableTexts } from "../plan/texts.js";
import type { ProjectOptions } from "./project.js";
import { selectFleet, type Selection } from "./fleet-plan.js";
import { showState } from "./state.js";
import { versionsOf } from "./translations.js";

/**
 * The tenants --tenant selects when it selects several, with the config read to select them (each
 * tenant's run reuses it); undefined for one (or none): the single-tenant path.
 */
export async function severalTenants(opts: Pick<ProjectOptions, "cwd" | "configPath" | "dir" | "tenant">): Promise<Selection | undefined> {
  const selection = await selectFleet(opts);
  return selection && selection.tenants.length > 1 ? selection : undefined;
}

/** An error of one tenant's run, naming the tenant. */
export function inTenant(e: unknown, tenant: string): PimctlError[] {
  const errors = e instanceof PimctlErrors ? e.errors : e instanceof PimctlError ? [e] : [new PimctlError("internal", String((e as Error)?.message ?? e))];
  return errors.map(
    (x) =>
      new PimctlError(x.code, x.message, {
        ...(x.location ? { location: x.location } : {}),
        ...(x.request ? { request: x.request } : {}),
        details: x.details,
        tenants: [tenant],
      }),
  );
}

export type ShownState = Awaited<ReturnType<typeof showState>>;

/** `state show` per tenant, in name order; the errors of tenants that could not be read, each naming its tenant. */
export async function showFleetState(
  opts: ProjectOptions & { offline?: boolean },
  selection: Selection,
): Promise<{ shown: ShownState[]; errors: PimctlError[] }> {
  const shown: ShownState[] = [];
  const errors: PimctlError[] = [];
  for (const tenant of selection.tenants) {
    try {
      shown.push(await showState({ ...opts, tenant }, selection.config));
    } catch (e) {
      errors.push(...inTenant(e, tenant));
    }
  }
  return { shown, errors };
}

/**
 * `translations status` per tenant: each tenant's composed catalogue read as templates (its overlay's
 * texts count for it alone), against the one translations.lock.yaml.
 */
export async function fleetTranslationsStatus(
  opts: ProjectOptions & { languages?: string[] },
  { config, tenants }: Selection,
): Promise<Array<{ tenant: string; report: StatusReport }>> {
  const lock = await readLock(lockPath(config, opts.cwd));
  const reader = new ManifestReader(opts.cwd);
  const exclude = overlayFolders(config);
  const load = {
    cwd: opts.cwd,
    variables: asTemplates(variableNames(config)),
    listedVersions: Object.keys(versionMap(config, undefined)),
    ...(config.external ? { external: config.external } : {}),
    ...(exclude.length ? { exclude } : {}),
  };
  const out: Array<{ tenant: string; report: StatusReport }> = [];
  for (const tenant of tenants) {
    const result = await loadComposed(config.dir, overlayDir(config, tenant), load, reader);
    if (result.errors.length) throw new PimctlErrors(result.errors.flatMap((e) => inTenant(e, tenant)));
    const desired = result.catalogue;
    out.push({ tenant, report: translationStatus(desired, lock, versionsOf(desired, config, opts.languages), translatableTexts(desired)) });
  }
  return out;
}
