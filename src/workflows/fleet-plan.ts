/**
 * `plan --tenant 'prod-*'` with two or more tenants: each tenant planned exactly as `plan --tenant
 * NAME` plans it, several at once (their reads overlap, each tenant under its own client's
 * parallelism), and only its Plan kept: the tenant's state (its RemoteCatalogue, the ledger, the
 * raw answers) is dropped as soon as its plan is made. A tenant that cannot be planned is a row
 * with its error; the others still plan.
 */
import type { Config } from "../config/index.js";
import { rolloutWaves, selectTenants } from "../config/select.js";
import { pmap } from "../base/promises.js";
import { PimctlError, PimctlErrors } from "../errors.js";
import type { LoadResult } from "../manifest/index.js";
import type { ManifestReader } from "../manifest/overlay-load.js";
import { tenantProblemFirst } from "../tenant.js";
import { loadFleetCatalogues } from "./fleet-load.js";
import { FLEET_FORMAT_VERSION, errorExit, planExit, tenantError, type ExitRules, type FleetPlan, type FleetTenant } from "../plan/fleet.js";
import { plan, refuseUnknownKinds, type GivenProject, type PlanOptions } from "./plan.js";
import { loadDesiredFor, projectConfig, type DesiredLoad, type ProjectOptions } from "./project.js";
import { hasOverlays } from "../config/overlays.js";

/** How many tenants are planned at once by default: each has its own client and its own parallelism of requests. */
export const TENANT_PARALLELISM = 4;

/** How a command over several tenants reads the manifests: once for the run. */
export interface FleetLoadShared {
  /** The run's manifest reader (one is made when absent): each file parsed once per set of variables it uses. */
  reader?: ManifestReader;
}

export interface FleetPlanOptions extends PlanOptions, FleetLoadShared {
  /** Tenants planned at once (default TENANT_PARALLELISM). */
  tenantParallelism?: number;
  /** The gates and --write-only mode each tenant's exit code is computed with. */
  exitRules?: ExitRules;
}

/** A fleet plan and what its run cost: requests per tenant (those that planned). */
export interface FleetPlanResult {
  fleet: FleetPlan;
  requests: number;
  config: Config;
}

/** The tenants a --tenant value selects, with the config it was read from; undefined when none was given (today's rule applies). */
export interface Selection {
  config: Config;
  tenants: string[];
}

/**
 * The tenants `--tenant SPEC` selects (names and globs, src/config/select.ts; one plain name is
 * today's rule, with today's errors). Undefined without --tenant: today's rule applies.
 */
export async function selectFleet(opts: Pick<ProjectOptions, "cwd" | "configPath" | "dir" | "tenant">): Promise<Selection | undefined> {
  if (opts.tenant === undefined) return undefined;
  const config = await projectConfig(opts);
  return { config, tenants: selectTenants(config, opts.tenant) };
}

/** Plan every selected tenant: the fleet sorted by name, each tenant's plan or error, and the rollout waves. */
export async function planFleet(opts: FleetPlanOptions, selection: Selection, given: GivenProject = {}): Promise<FleetPlanResult> {
  // A selector that names no kind is the same mistake for every tenant: refused once, before anything is read.
  refuseUnknownKinds(opts.targets, opts.excludes);
  const { config } = selection;
  const names = [...selection.tenants].sort();
  let requests = 0;
  const loads = given.load ? undefined : await fleetLoads(config, names, opts);
  const tenants = await pmap(
    names,
    async (name): Promise<FleetTenant> => {
      if (opts.signal?.aborted) return { tenant: name, error: tenantError(new PimctlError("interrupted", "not planned: the run was interrupted")), exit: 1 };
      try {
        const load = given.load ?? loads!(name);
        const result = await plan({ ...opts, tenant: name }, { config, load });
        requests += result.connection.api.stats().requests;
        // Only the plan is kept: the result (remote state, ledger) is garbage once this returns.
        return { tenant: name, plan: result.plan, exit: planExit(result.plan, opts.exitRules, result.ledgerExisted) };
      } catch (e) {
        const error = tenantError(e);
        return { tenant: name, error, exit: errorExit(error) };
      }
    },
    opts.tenantParallelism ?? TENANT_PARALLELISM,
  );
  return { fleet: { format_version: FLEET_FORMAT_VERSION, kind: "fleet", tenants, waves: rolloutWaves(config, names) }, requests, config };
}

/**
 * Each tenant's manifests for a run over several (plan, drift): the base parsed once, tenants with
 * the same overlay and variables sharing one catalogue (fleet-load.ts); then, per tenant, the load
 * its single-tenant workflow calls (GivenProject.load). With --target and no overlays, each tenant
 * loads only what the targets need, as its single-tenant run does (targeted-load.ts): an error in
 * an entry no target touches fails no tenant.
 */
export async function fleetLoads(
  config: Config,
  names: readonly string[],
  opts: ProjectOptions & FleetLoadShared & Pick<PlanOptions, "targets" | "excludes">,
): Promise<(name: string) => () => Promise<DesiredLoad>> {
  if (opts.targets?.length && !hasOverlays(config)) return (name) => () => loadDesiredFor(config, { ...opts, tenant: name }, opts);
  const catalogues = await loadFleetCatalogues(config, names, { cwd: opts.cwd, ...(opts.reader ? { reader: opts.reader } : {}) });
  return (name) => () => tenantCatalogue(config, catalogues, name);
}

/** A tenant's composed catalogue as a single plan would load it: its manifest errors thrown as the single plan throws them. */
async function tenantCatalogue(config: Config, catalogues: Map<string, LoadResult>, name: string): Promise<DesiredLoad> {
  const loaded = catalogues.get(name);
  if (!loaded) throw new PimctlError("internal", `tenant "${name}": its catalogue was handed over already`);
  // Handed over once: the map holds no tenant's catalogue longer than its plan needs it.
  catalogues.delete(name);
  if (loaded.errors.length) throw new PimctlErrors(tenantProblemFirst(config, true, loaded.errors));
  return { desired: loaded.catalogue, empty: loaded.empty };
}
