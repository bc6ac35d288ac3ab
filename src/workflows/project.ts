/**
 * The project every workflow starts from: pimctl.yaml and the manifests it names, the
 * prune policy, and the small helpers each workflow shares (connection options, where the
 * ledger directory is, errors as text).
 */
import path from "node:path";
import { KINDS, type Catalogue, type Kind } from "../model/catalogue.js";
import { loadConfig, type Config, type TenantConfig } from "../config/index.js";
import { loadManifests, type LoadOptions } from "../manifest/index.js";
import { loadTargeted, type LoadedCount } from "./targeted-load.js";
import { loadFleetCatalogues, tenantLoadOptions } from "./fleet-load.js";
import { hasOverlays } from "../config/overlays.js";
import type { RefreshMode } from "../state/changelog/index.js";
import type { PrunePolicy } from "../model/policy.js";
import { parseScope } from "../plan/scope.js";
import { pickTenant, tenantProblemFirst } from "../tenant.js";
import { PimctlError, PimctlErrors } from "../errors.js";
import { packagePath } from "../package.js";
import type { ExchangeHook } from "../api/exchange.js";

export interface ProjectOptions {
  cwd: string;
  env: NodeJS.ProcessEnv;
  configPath?: string;
  dir?: string;
  tenant?: string;
  parallelism?: number;
  /** Debug lines: HTTP requests (redacted) and the state reader's choices. */
  logHttp?: (line: string) => void;
  log?: (line: string) => void;
  /** Told of every HTTP exchange with the tenant, without the token (a support bundle: --bundle). */
  onExchange?: ExchangeHook;
  /** How the tenant is read: in full (the default), or through the changelog feed and a snapshot. */
  refresh?: RefreshMode;
  /**
   * Asks the run to stop (the CLI aborts it on SIGINT, SIGTERM, SIGHUP): before the first
   * write, apply stops at once and releases the lock; after, it stops starting actions.
   */
  signal?: AbortSignal;
}

/** pimctl.yaml, with its scope rules' selectors checked: a typo there is refused now, before anything is read. */
export async function projectConfig(opts: Pick<ProjectOptions, "cwd" | "configPath" | "dir">): Promise<Config> {
  const config = await loadConfig({ cwd: opts.cwd, ...(opts.configPath ? { configPath: opts.configPath } : {}), ...(opts.dir ? { dir: opts.dir } : {}) });
  if (config.file) parseScope(config.scope, path.relative(opts.cwd, config.file) || config.file);
  return config;
}

/** Load config and manifests for a tenant: all errors of the manifests at once. */
/** The desired catalogue, and the manifest files that declare nothing (src/manifest/empty-files.ts). */
export interface DesiredLoad {
  desired: Catalogue;
  empty: string[];
}

export async function loadProject(opts: ProjectOptions): Promise<{ config: Config; desired: Catalogue; files: string[]; empty: string[] }> {
  const config = await projectConfig(opts);
  return { config, ...(await loadDesired(config, opts)) };
}

export async function loadDesired(config: Config, opts: ProjectOptions): Promise<DesiredLoad & { files: string[] }> {
  const { tenant, load } = loadOptions(config, opts);
  // With overlays configured, the tenant's catalogue is the base with its overlay (fleet-load.ts); without, exactly as before.
  const result =
    hasOverlays(config) && tenant
      ? (await loadFleetCatalogues(config, [tenant.name], { cwd: opts.cwd })).get(tenant.name)!
      : await loadManifests(config.dir, load);
  if (result.errors.length) throw new PimctlErrors(tenantProblemFirst(config, tenant !== undefined, result.errors));
  return { desired: result.catalogue, files: result.files, empty: result.empty };
}

/**
 * The manifests a plan needs: with --target, only the records the targets touch and what they
 * depend on (targeted-load.ts: it validates only those); otherwise, or where that cannot be
 * narrowed, all of them.
 */
export async function loadDesiredFor(
  config: Config,
  opts: ProjectOptions,
  selectors: { targets?: readonly string[]; excludes?: readonly string[] },
): Promise<DesiredLoad & { loaded?: LoadedCount }> {
  // A targeted load reads entries of the base alone: with overlays, the whole composed catalogue is loaded.
  if (selectors.targets?.length && !hasOverlays(config)) {
    const { tenant, load } = loadOptions(config, opts);
    const targeted = await loadTargeted(config.dir, load, {
      targets: selectors.targets,
      excludes: selectors.excludes ?? [],
      ignore: config.scope.ignore ?? [],
    });
    if (targeted && "errors" in targeted) throw new PimctlErrors(tenantProblemFirst(config, tenant !== undefined, targeted.errors));
    if (targeted) return targeted;
  }
  return loadDesired(config, opts);
}

function loadOptions(config: Config, opts: ProjectOptions): { tenant: TenantConfig | undefined; load: LoadOptions } {
  // A mistyped --tenant is reported (with did-you-mean) before any ${variable} error it would cause.
  const tenant =
    opts.tenant !== undefined
      ? pickTenant(config, opts.tenant).tenant
      : Object.keys(config.tenants).length === 1
        ? Object.values(config.tenants)[0]
        : undefined;
  // Version names are checked when planning, against the tenant's channels and the config's versions:
  // (here only a typo of a name versions: lists).
  return { tenant, load: tenantLoadOptions(config, tenant, opts.cwd) };
}

export function prunePolicy(config: Config): PrunePolicy {
  return { ...config.prune };
}

/** The kinds the state reader must list fully because pruning is on for them. */
export function prunedKinds(prune: PrunePolicy): Partial<Record<Kind, boolean>> {
  return Object.fromEntries(KINDS.map((k) => [k, prune[k as keyof PrunePolicy] === true || prune[k as keyof PrunePolicy] === "owned"]));
}

export function errorText(e: unknown): string {
  return e instanceof PimctlError ? e.format() : e instanceof PimctlErrors ? e.errors.map((x) => x.format()).join("; ") : String((e as Error)?.message ?? e);
}

export function errorsOf(e: PimctlError | PimctlErrors): PimctlError[] {
  return e instanceof PimctlErrors ? e.errors : [e];
}

export function connectOpts(opts: ProjectOptions) {
  return {
    env: opts.env,
    ...(opts.parallelism ? { parallelism: opts.parallelism } : {}),
    ...(opts.logHttp ? { logHttp: opts.logHttp } : {}),
    ...(opts.onExchange ? { onExchange: opts.onExchange } : {}),
  };
}

export function ledgerDir(config: Config, opts: ProjectOptions): string {
  return path.resolve(opts.cwd, config.ledger_dir);
}

/** The manifest schema shipped with pimctl (for the editor line in exported files). */
export function schemaPath(): string {
  return packagePath("schemas", "manifest.schema.json");
}
