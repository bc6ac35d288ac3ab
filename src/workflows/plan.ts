/**
 * The plan workflow: read the tenant the manifests need (early reads started beside the
 * manifest load), plan against it, narrow it to --target/--exclude, and seal its basis.
 */
import { KINDS, type Catalogue } from "../model/catalogue.js";
import type { RemoteCatalogue } from "../model/remote.js";
import { versionMap, versionSources, type Config } from "../config/index.js";
import { readState, resolveVersionIds, startReads, startVersionLists, type StartedReads } from "../state/index.js";
import { LARGE_MANIFEST_BYTES } from "../state/started.js";
import { started } from "../base/promises.js";
import { openRefresh, type Refresh, type RefreshReport } from "../state/changelog/index.js";
import { scanManifests } from "../manifest/kinds-scan.js";
import { readScope } from "../plan/read-scope.js";
import type { Ledger } from "../state/ledger.js";
import { describeHolder, openBackend, readLedger, type LedgerState, type LockInfo } from "../state/backends/index.js";
import { buildPlan, type PlanOutcome } from "../plan/planner.js";
import { unknownVersions } from "../plan/context.js";
import type { PrunePolicy } from "../model/policy.js";
import { parseSelector } from "../plan/selectors.js";
import { unknownWriteOnly } from "../plan/write-only.js";
import { PLAN_HMAC_ENV } from "../planfile/integrity.js";
import { emptyFileWarnings, refuseDeletesWhileEmpty } from "../plan/empty-files.js";
import { policyViolation, type PolicyGates } from "../plan/policy.js";
import { finalisePlan } from "../plan/finalise.js";
import type { Plan, PlanBasis, TranslationCoverage } from "../plan/types.js";
import { translationCoverage } from "../plan/coverage.js";
import { loadTemplates, variableNames } from "../translations/load-templates.js";
import { translatableTexts } from "../plan/texts.js";
import { connect, type Connection } from "../tenant.js";
import { PimctlError, PimctlErrors } from "../errors.js";
import { type DesiredLoad, type ProjectOptions, connectOpts, loadDesiredFor, projectConfig, prunePolicy, prunedKinds } from "./project.js";
import type { LoadedCount } from "./targeted-load.js";

export interface PlanOptions extends ProjectOptions, PolicyGates {
  targets?: string[];
  excludes?: string[];
  /** The plan-time permission to delete, recorded in the plan (`plan --allow-delete`). */
  allowDelete?: boolean;
  /** Plan deletes even while a manifest file declares nothing (`--allow-empty-files`; src/plan/empty-files.ts). */
  allowEmptyFiles?: boolean;
}

/** Everything besides the tenant's state that decides a plan's actions: saved as its basis. */
export interface PlanPolicy {
  prune: PrunePolicy;
  targets: string[];
  excludes: string[];
  allowDelete: boolean;
}

export interface PlanResult {
  plan: Plan;
  desired: Catalogue;
  remote: RemoteCatalogue;
  ledger: Ledger;
  ledgerExisted: boolean;
  /** Closed when plan() returns; its name, address and request counters stay readable. */
  connection: Connection;
  config: Config;
  /** The lock another run holds on this tenant's state, if any (plan only reports it). */
  lockHeld?: LockInfo;
  /** Declared records found in the tenant, by prune kind: apply records them as pimctl's (prune "owned"). */
  declared: PlanOutcome["declared"];
  /** The names of those records (named kinds), by id: apply records them in the ledger (renamed by hand, renamed back). */
  names: PlanOutcome["names"];
  /** How the tenant's state was read (in full, or through the changelog). */
  refresh: RefreshReport;
  /** With --target: how many manifest entries were loaded, of how many (targeted-load.ts). */
  loaded?: LoadedCount;
  /** The plan breaks the pipeline policy asked for (failOnDelete, failOnDestructive): why, in one line (the CLI exits 3). */
  policyViolation?: string;
}

/** How this run reads the tenant (--refresh): in full, or through the changelog snapshot in the backend's cache. */
export async function openRefreshFor(config: Config, connection: Connection, opts: ProjectOptions, rebuild?: string): Promise<Refresh> {
  const mode = opts.refresh ?? "full";
  return openRefresh(connection.api, {
    mode,
    cacheDir: mode === "full" ? "" : await openBackend(config, connection.name, opts.env).cacheDir(),
    baseUrl: connection.baseUrl,
    ...(rebuild ? { rebuild } : {}),
  });
}

/** Read the state the desired catalogue needs and plan against it. */
export async function planAgainst(
  connection: Connection,
  config: Config,
  desired: Catalogue,
  ledger: Ledger,
  prune: PrunePolicy,
  opts: ProjectOptions,
  read: {
    listAll?: boolean;
    rebuildSnapshot?: boolean;
    refresh?: Refresh;
    started?: StartedReads;
    searchBrands?: boolean;
    alsoBrands?: string[];
    /** Read the targeted attributes and categories by the ids the ledger names (a read narrowed to targets). */
    byLedgerIds?: boolean;
    /** Count the plan's translation coverage on the manifests' templates (a plan people read; see templateCoverage). */
    templates?: boolean;
  } = {},
): Promise<{ plan: Plan; remote: RemoteCatalogue; declared: PlanOutcome["declared"]; names: PlanOutcome["names"]; refresh: RefreshReport }> {
  // The reads started early went through this refresh already; otherwise open one now.
  const refresh =
    read.refresh ?? (await openRefreshFor(config, connection, opts, read.rebuildSnapshot ? "the snapshot is read again after an apply" : undefined));
  const listed = read.listAll ? Object.fromEntries(KINDS.map((k) => [k, true])) : prunedKinds(prune);
  const remote = await readState(refresh.api, {
    kinds: desired.managed,
    desired,
    versionMap: versionMap(config, connection.tenant),
    versionAt: versionSources(config, connection.tenant),
    // listAll (diff): read every record of the managed kinds, so records only the tenant has show.
    // A targeted read searches the brands it names: deletes of other brands are not in its plan.
    prune: read.searchBrands ? { ...listed, brands: false } : listed,
    ...(read.started ? { started: read.started } : {}),
    ...(read.searchBrands ? { searchBrands: true } : {}),
    ...(read.alsoBrands?.length ? { alsoBrands: read.alsoBrands } : {}),
    ...(read.byLedgerIds ? { knownIds: ledger.names } : {}),
    remembered: ledger.names,
    ...(opts.log ? { log: opts.log } : {}),
  });
  await refresh.commit();
  const { plan, errors, declared, names } = buildPlan({ tenant: connection.name, desired, remote, ledger, prune });
  if (errors.length) throw new PimctlErrors(errors);
  if (read.templates && plan.translations) {
    const coverage = await templateCoverage(config, opts.cwd, plan, desired);
    if (coverage.length) plan.translations = coverage;
    else delete plan.translations;
  }
  return { plan, remote, declared, names, refresh: refresh.report };
}

/**
 * The plan's coverage counted on the templates, as translations status counts (issue 33): the
 * manifests loaded again with every tenant's `${name}` read as itself, so a text whose template
 * did not change (only a variable's value) updates or outdates no translation. Only when some
 * tenant has variables and the plan touches texts; a template that does not load (it would not
 * have planned either) leaves the plain count.
 */
async function templateCoverage(config: Config, cwd: string, plan: Plan, desired: Catalogue): Promise<TranslationCoverage[]> {
  const variables = variableNames(config);
  if (!variables.size) return plan.translations ?? [];
  const templates = await loadTemplates(config, config.dir, cwd, variables).catch(() => undefined);
  return translationCoverage(plan.actions, desired, templates ? { texts: translatableTexts(templates), variables } : undefined);
}

/**
 * The one way a plan is made, for `plan`, for `apply` and for re-planning a
 * saved plan from its basis: read, plan, then the one pure step to the final plan
 * (src/plan/finalise.ts: ignore, narrow, deletes, hints, scope). A saved plan is
 * accepted only if this gives the same actions.
 */
export async function makePlan(
  connection: Connection,
  config: Config,
  desired: Catalogue,
  ledger: Ledger,
  policy: PlanPolicy,
  opts: ProjectOptions,
  early?: { started?: StartedReads; refresh?: Refresh; templates?: boolean },
): Promise<{ plan: Plan; remote: RemoteCatalogue; declared: PlanOutcome["declared"]; names: PlanOutcome["names"]; refresh: RefreshReport }> {
  // Targets, excludes and ignore rules narrow the read itself: the plan of the narrowed
  // catalogue, narrowed by the same selectors, is the full plan narrowed (src/plan/read-scope.ts).
  const scope = readScope(desired, { targets: policy.targets, excludes: policy.excludes, ignore: config.scope.ignore ?? [] });
  const {
    plan: full,
    remote,
    declared,
    names,
    refresh,
  } = await planAgainst(connection, config, scope?.desired ?? desired, ledger, policy.prune, opts, {
    ...(early?.started ? { started: early.started } : {}),
    ...(early?.refresh ? { refresh: early.refresh } : {}),
    ...(early?.templates ? { templates: true } : {}),
    // max_deletes as a percentage counts the tenant's brands: they must be listed.
    ...(scope?.searchBrands && typeof config.scope.max_deletes !== "string" ? { searchBrands: true, alsoBrands: scope.alsoBrands } : {}),
    // Not through the changelog snapshot: it keeps single attribute reads, whose type values the feed may not cover.
    ...(scope?.byLedgerIds && (opts.refresh ?? "full") === "full" ? { byLedgerIds: true } : {}),
  });
  const final = finalisePlan(full, { desired, remote, ledger }, { ...policy, scope: config.scope, narrowedRead: scope !== undefined });
  return { plan: final, remote, declared, names, refresh };
}

/** --target / --exclude that name no kind: refused before anything is read (what the others match is checked after the read, by narrow). */
export function refuseUnknownKinds(targets: readonly string[] = [], excludes: readonly string[] = []): void {
  const errors: PimctlError[] = [];
  for (const text of [...targets, ...excludes]) {
    try {
      parseSelector(text);
    } catch (e) {
      if (!(e instanceof PimctlError)) throw e;
      errors.push(e);
    }
  }
  if (errors.length) throw new PimctlErrors(errors);
}

export function basisOf(desired: Catalogue, policy: PlanPolicy, baseUrl: string): PlanBasis {
  return {
    desired,
    prune: { ...policy.prune },
    base_url: baseUrl,
    targets: [...policy.targets],
    excludes: [...policy.excludes],
    allow_delete: policy.allowDelete,
  };
}

/**
 * What a run that plans several tenants has already read, so each tenant's plan does not read it
 * again: the config, and how the tenant's manifests load (a fleet's shared catalogues).
 */
export interface GivenProject {
  config?: Config;
  load?: (config: Config) => Promise<DesiredLoad & { loaded?: LoadedCount }>;
}

/** Plan against the tenant; the connection it opens is closed before it returns. */
export async function plan(opts: PlanOptions, given: GivenProject = {}): Promise<PlanResult> {
  const result = await planOpen(opts, given);
  await result.connection.api.close();
  return result;
}

/** plan(), leaving the connection open for the caller (drift reads the feed on it); the caller closes it. */
export async function planOpen(opts: PlanOptions, given: GivenProject = {}): Promise<PlanResult> {
  refuseUnknownKinds(opts.targets, opts.excludes);
  const config = given.config ?? (await projectConfig(opts));
  // The tenant's lists that depend on no manifest are read while the manifests load; a
  // manifest error still comes first, before a missing token or an unreachable tenant.
  const early = await connect(config, opts.tenant, connectOpts(opts)).then(
    async (connection) => {
      // The ledger and the lock (a file, or one git fetch) are read beside the scan, and the lists
      // start only once the ledger is read: a ledger this run cannot use (another base URL, a newer
      // format) refuses with nothing asked of the tenant.
      const backend = openBackend(config, connection.name, opts.env);
      const ledgerRead = started(Promise.all([backend.readLock(), readLedger(backend, connection.name, connection.baseUrl)]));
      // With targets, what to read depends on the parsed manifests: only the channels start.
      const scan = opts.targets?.length ? { kinds: [], versions: () => [], bytes: 0 } : await scanManifests(config.dir);
      const left = new Set<string>([...(opts.excludes ?? []), ...(config.scope.ignore ?? [])]);
      const dropped = new Set<string>([...left].filter((e) => e === "brands" || e === "blocks"));
      // With --refresh=changelog the early reads go through the snapshot too.
      const refresh = await openRefreshFor(config, connection, opts);
      const reads = started(
        ledgerRead.then(() => {
          if (!scan) return undefined;
          const lists = startReads(
            refresh.api,
            scan.kinds.filter((k) => !dropped.has(k)),
            { oneAttributeListAtATime: scan.bytes > LARGE_MANIFEST_BYTES },
          );
          // The version names are scanned while the first lists are in flight.
          if (scan.kinds.includes("attributes") && !left.has("attributes"))
            startVersionLists(refresh.api, lists, scan.versions(), versionMap(config, connection.tenant));
          return lists;
        }),
      );
      return { connection, ledgerRead, reads, refresh };
    },
    (e: unknown) => ({ error: e }),
  );
  let desired: Catalogue;
  let empty: string[];
  let loaded: LoadedCount | undefined;
  try {
    // A targeted plan loads a few entries while no list is read: it lets the ledger's read (16 MB at ten times
    // the taxonomy) finish first rather than hold both at their peaks (315 MB together, 275 MB one after the other,
    // in the same 1.3 s). A failed read is reported below, where the ledger is awaited.
    if (opts.targets?.length && "ledgerRead" in early) await early.ledgerRead.catch(() => undefined);
    ({ desired, loaded, empty } = await (given.load ? given.load(config) : loadDesiredFor(config, opts, opts)));
  } catch (e) {
    // The lists under way are dropped, not read to the end.
    if ("connection" in early) await early.connection.api.abort();
    throw e;
  }
  if ("error" in early) throw early.error;
  const { connection, refresh } = early;
  try {
    const [lockHeld, state] = await early.ledgerRead;
    const reads = await early.reads;
    const result = await planWithState(opts, config, desired, connection, state, { ...(reads ? { started: reads } : {}), refresh }, empty);
    if (lockHeld)
      result.plan.warnings.push(
        `the state of tenant "${connection.name}" is locked: an apply is running or was killed (${describeHolder(lockHeld)}; lock id ${lockHeld.id})`,
      );
    const violation = policyViolation(result.plan, opts);
    return { ...result, ...(lockHeld ? { lockHeld } : {}), ...(loaded ? { loaded } : {}), ...(violation ? { policyViolation: violation } : {}) };
  } catch (e) {
    // A refusal known while the lists are read (an unknown language version) stops them.
    await connection.api.abort();
    throw e;
  }
}

/**
 * Plan against a tenant with the ledger already read (apply reads it under the lock). `empty`: the
 * manifest files that declare nothing; while there are some, a plan that deletes is refused
 * unless opts.allowEmptyFiles (src/plan/empty-files.ts).
 */
export async function planWithState(
  opts: PlanOptions,
  config: Config,
  desired: Catalogue,
  connection: Connection,
  state: LedgerState,
  early?: { started?: StartedReads; refresh?: Refresh },
  empty: readonly string[] = [],
): Promise<PlanResult> {
  const policy: PlanPolicy = { prune: prunePolicy(config), targets: opts.targets ?? [], excludes: opts.excludes ?? [], allowDelete: opts.allowDelete === true };
  const checked = await refuseUnknownVersions(connection, config, desired, opts, early);
  const {
    plan: planned,
    remote,
    declared,
    names,
    refresh,
  } = await makePlan(connection, config, desired, state.ledger, policy, opts, {
    ...checked,
    templates: true,
  });
  refuseDeletesWhileEmpty(planned, empty, opts.allowEmptyFiles === true);
  planned.warnings.push(...emptyFileWarnings(empty));
  planned.warnings.push(...unknownWarnings(planned, state.existed, connection.name));
  planned.basis = basisOf(desired, policy, connection.baseUrl);
  return { plan: planned, desired, remote, declared, names, refresh, ledger: state.ledger, ledgerExisted: state.existed, connection, config };
}

/**
 * The language versions the manifests name, checked on the channels alone: a name no channel
 * publishes and the config does not map (or a config entry a channel contradicts) refuses the plan
 * before the lists are read. Without early reads, the channels are read first when the manifests
 * name a language version (one request): a config entry is checked against them before any text
 * is read in the version it names. Returns the reads to go on with.
 */
export async function refuseUnknownVersions(
  connection: Connection,
  config: Config,
  desired: Catalogue,
  opts: ProjectOptions,
  early?: { started?: StartedReads; refresh?: Refresh },
): Promise<{ started?: StartedReads; refresh?: Refresh } | undefined> {
  const map = versionMap(config, connection.tenant);
  if (!early?.started && desired.versions.length === 0) return early;
  const refresh = early?.refresh ?? (await openRefreshFor(config, connection, opts));
  const reads = early?.started ?? startReads(refresh.api, []);
  const channels = await reads.channels;
  const { ids } = resolveVersionIds(channels, map, desired.versions, versionSources(config, connection.tenant));
  const errors = unknownVersions(desired, channels, ids, connection.name);
  if (errors.length) throw new PimctlErrors(errors);
  return { started: reads, refresh };
}

/** Unknown write-only values, once per field kind, and why they are unknown. */
export function unknownWarnings(p: Plan, stateExisted: boolean, tenant: string): string[] {
  const unknown = unknownWriteOnly(p.actions);
  const why = stateExisted ? "no ledger entry for their records" : "no state for this tenant yet";
  if (!unknown.length)
    return stateExisted ? [] : [`no state for tenant "${tenant}" yet: write-only values (web ids, asset image_url) will be recorded by the next apply`];
  return unknown.map((u) => `${u.label} unknown: ${why} (API v1 cannot read them back; apply writes them once and remembers them)`);
}

/** The key that signs and verifies saved plans, when the pipeline sets one. */
export function planHmacKey(env: NodeJS.ProcessEnv): string | undefined {
  return env[PLAN_HMAC_ENV] || undefined;
}
