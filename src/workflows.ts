/**
 * The library API: each workflow wires the stages together (manifest ->
 * state -> plan -> apply -> render) and returns data; the CLI only parses
 * options, calls these and prints. Tests and other programs call them directly.
 */
import { existsSync } from "node:fs";
import { mkdir } from "node:fs/promises";
import path from "node:path";
import { KINDS, type Catalogue, type Kind } from "./model/catalogue.js";
import type { RemoteCatalogue } from "./model/remote.js";
import { loadConfig, versionMap, type Config } from "./config/index.js";
import { loadManifests } from "./manifest/index.js";
import { readState, startReads, startVersionLists, type StartedReads } from "./state/index.js";
import { openRefresh, type Refresh, type RefreshMode, type RefreshReport } from "./state/changelog/index.js";
import { scanManifests } from "./manifest/kinds-scan.js";
import { readScope } from "./plan/read-scope.js";
import { forgetOwned, recordNames, recordOwned, serialiseLedger, type Ledger } from "./state/ledger.js";
import { lastKey } from "./plan/address.js";
import { acquireLock, describeHolder, openBackend, readLedger, saveLedger, unlockCommand, type HeldLock, type LedgerState, type LockInfo, type StateBackend } from "./state/backends/index.js";
import { rescueDir, writeRescueFile } from "./state/rescue.js";
import { hold, interruptedBy } from "./holdings.js";
import { buildPlan, type PlanOutcome } from "./plan/planner.js";
import type { PruneKind, PrunePolicy } from "./plan/policy.js";
import { filterPlan } from "./plan/filter.js";
import { checkSelectors, knownAddresses } from "./plan/selectors.js";
import { unknownWriteOnly } from "./plan/write-only.js";
import { readPlanFile } from "./plan/file.js";
import { PLAN_HMAC_ENV } from "./plan/integrity.js";
import { ALLOW_DELETE_FLAG, decideDeletes, refuseBlockedDeletes } from "./plan/delete-permission.js";
import { moveHints } from "./plan/hints.js";
import { applyIgnore, checkScope } from "./plan/scope.js";
import type { Plan, PlanBasis } from "./plan/types.js";
import { applyPlan, type ApplyHooks, type ApplyReport } from "./apply/index.js";
import { savedPlanDifferences } from "./apply/stale.js";
import { verifyApplied, type VerificationReport } from "./apply/verify.js";
import { backupExport } from "./apply/backup.js";
import { remoteToCatalogue } from "./export/index.js";
import { translateVariables } from "./export/translate.js";
import { connect, pickTenant, tenantBaseUrl, tenantProblemFirst, type Connection } from "./tenant.js";
import { normaliseBaseUrl } from "./api/base-url.js";
import { PimctlError, PimctlErrors, closeNames } from "./errors.js";
import { packagePath } from "./package.js";

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
  /** How the tenant is read: in full (the default), or through the changelog feed and a snapshot. */
  refresh?: RefreshMode;
  /**
   * Asks the run to stop (the CLI aborts it on SIGINT, SIGTERM, SIGHUP): before the first
   * write, apply stops at once and releases the lock; after, it stops starting actions.
   */
  signal?: AbortSignal;
}

export interface PlanOptions extends ProjectOptions {
  targets?: string[];
  excludes?: string[];
  /** The plan-time permission to delete, recorded in the plan (`plan --allow-delete`). */
  allowDelete?: boolean;
}

/** Everything besides the tenant's state that decides a plan's actions: saved as its basis. */
interface PlanPolicy {
  prune: PrunePolicy;
  targets: string[];
  excludes: string[];
  allowDelete: boolean;
}

/** How apply waits for the state lock (plan never takes it). */
export interface LockOptions {
  /** Wait this long for a held lock instead of failing at once. */
  lockTimeoutMs?: number;
  /** Called with warnings (a stale lock taken over, a merged state write). */
  warn?: (line: string) => void;
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
}

function projectConfig(opts: ProjectOptions): Promise<Config> {
  return loadConfig({ cwd: opts.cwd, ...(opts.configPath ? { configPath: opts.configPath } : {}), ...(opts.dir ? { dir: opts.dir } : {}) });
}

/** Load config and manifests for a tenant: all errors of the manifests at once. */
export async function loadProject(opts: ProjectOptions): Promise<{ config: Config; desired: Catalogue; files: string[] }> {
  const config = await projectConfig(opts);
  return { config, ...(await loadDesired(config, opts)) };
}

async function loadDesired(config: Config, opts: ProjectOptions): Promise<{ desired: Catalogue; files: string[] }> {
  // A mistyped --tenant is reported (with did-you-mean) before any ${variable} error it would cause.
  const tenant = opts.tenant !== undefined ? pickTenant(config, opts.tenant).tenant : Object.keys(config.tenants).length === 1 ? Object.values(config.tenants)[0] : undefined;
  // Version names are checked when planning, against the tenant's channels and the config's versions:
  // (here only a typo of a name versions: lists).
  const result = await loadManifests(config.dir, {
    cwd: opts.cwd,
    ...(tenant ? { variables: tenant.variables ?? {} } : {}),
    listedVersions: Object.keys(versionMap(config, tenant)),
    ...(config.external ? { external: config.external } : {}),
  });
  if (result.errors.length) throw new PimctlErrors(tenantProblemFirst(config, tenant !== undefined, result.errors));
  return { desired: result.catalogue, files: result.files };
}

function prunePolicy(config: Config): PrunePolicy {
  return { ...config.prune };
}

/** The kinds the state reader must list fully because pruning is on for them. */
function prunedKinds(prune: PrunePolicy): Partial<Record<Kind, boolean>> {
  return Object.fromEntries(KINDS.map((k) => [k, prune[k as keyof PrunePolicy] === true || prune[k as keyof PrunePolicy] === "owned"]));
}

/** How this run reads the tenant (--refresh): in full, or through the changelog snapshot in the backend's cache. */
async function openRefreshFor(config: Config, connection: Connection, opts: ProjectOptions, rebuild?: string): Promise<Refresh> {
  const mode = opts.refresh ?? "full";
  return openRefresh(connection.api, {
    mode,
    cacheDir: mode === "full" ? "" : await openBackend(config, connection.name, opts.env).cacheDir(),
    baseUrl: connection.baseUrl,
    ...(rebuild ? { rebuild } : {}),
  });
}

/** Read the state the desired catalogue needs and plan against it. */
async function planAgainst(
  connection: Connection,
  config: Config,
  desired: Catalogue,
  ledger: Ledger,
  prune: PrunePolicy,
  opts: ProjectOptions,
  read: { listAll?: boolean; rebuildSnapshot?: boolean; refresh?: Refresh; started?: StartedReads; searchBrands?: boolean; alsoBrands?: string[] } = {},
): Promise<{ plan: Plan; remote: RemoteCatalogue; declared: PlanOutcome["declared"]; names: PlanOutcome["names"]; refresh: RefreshReport }> {
  // The reads started early went through this refresh already; otherwise open one now.
  const refresh = read.refresh ?? (await openRefreshFor(config, connection, opts, read.rebuildSnapshot ? "the snapshot is read again after an apply" : undefined));
  const listed = read.listAll ? Object.fromEntries(KINDS.map((k) => [k, true])) : prunedKinds(prune);
  const remote = await readState(refresh.api, {
    kinds: desired.managed,
    desired,
    versionMap: versionMap(config, connection.tenant),
    // listAll (diff): read every record of the managed kinds, so records only the tenant has show.
    // A targeted read searches the brands it names: deletes of other brands are not in its plan.
    prune: read.searchBrands ? { ...listed, brands: false } : listed,
    ...(read.started ? { started: read.started } : {}),
    ...(read.searchBrands ? { searchBrands: true } : {}),
    ...(read.alsoBrands?.length ? { alsoBrands: read.alsoBrands } : {}),
    ...(opts.log ? { log: opts.log } : {}),
  });
  await refresh.commit();
  const { plan, errors, declared, names } = buildPlan({ tenant: connection.name, desired, remote, ledger, prune });
  if (errors.length) throw new PimctlErrors(errors);
  return { plan, remote, declared, names, refresh: refresh.report };
}

/**
 * The one way a plan is made, for `plan`, for `apply` and for re-planning a
 * saved plan from its basis: read, plan, narrow, record the delete permission,
 * add move hints. A saved plan is accepted only if this gives the same actions.
 */
async function makePlan(
  connection: Connection,
  config: Config,
  desired: Catalogue,
  ledger: Ledger,
  policy: PlanPolicy,
  opts: ProjectOptions,
  early?: { started?: StartedReads; refresh?: Refresh },
): Promise<{ plan: Plan; remote: RemoteCatalogue; declared: PlanOutcome["declared"]; names: PlanOutcome["names"]; refresh: RefreshReport }> {
  // Targets, excludes and ignore rules narrow the read itself: the plan of the narrowed
  // catalogue, narrowed by the same selectors, is the full plan narrowed (src/plan/read-scope.ts).
  const scope = readScope(desired, { targets: policy.targets, excludes: policy.excludes, ignore: config.scope.ignore ?? [] });
  const { plan: full, remote, declared, names, refresh } = await planAgainst(connection, config, scope?.desired ?? desired, ledger, policy.prune, opts, {
    ...(early?.started ? { started: early.started } : {}),
    ...(early?.refresh ? { refresh: early.refresh } : {}),
    // max_deletes as a percentage counts the tenant's brands: they must be listed.
    ...(scope?.searchBrands && typeof config.scope.max_deletes !== "string" ? { searchBrands: true, alsoBrands: scope.alsoBrands } : {}),
  });
  const narrowed = narrow(applyIgnore(full, config.scope), desired, remote, policy.targets, policy.excludes);
  decideDeletes(narrowed, policy.allowDelete);
  narrowed.hints = moveHints(narrowed, desired, remote);
  // A rule can match nothing only in a kind whose every record was read: not a narrowed read, nor brands found by search.
  const readWhole = new Set(scope ? [] : remote.read.filter((k) => k !== "brands" || prunedKinds(policy.prune).brands));
  checkScope(narrowed, config.scope, remote, { desired, readWhole });
  return { plan: narrowed, remote, declared, names, refresh };
}

/** --target / --exclude, each checked to match something in the manifests or the tenant first. */
function narrow(full: Plan, desired: Catalogue, remote: RemoteCatalogue, targets: readonly string[], excludes: readonly string[]): Plan {
  if (!targets.length && !excludes.length) return full;
  const known = knownAddresses(desired, remote);
  for (const a of full.actions) known.add(a.address);
  for (const u of full.unmanaged) known.add(u.address);
  const problems: PimctlError[] = [];
  for (const [texts, flag] of [[targets, "--target"], [excludes, "--exclude"]] as const) {
    try {
      checkSelectors(texts, known, flag);
    } catch (e) {
      if (e instanceof PimctlErrors) problems.push(...e.errors);
      else throw e;
    }
  }
  if (problems.length) throw new PimctlErrors(problems);
  return filterPlan(full, { targets: [...targets], excludes: [...excludes] });
}

function basisOf(desired: Catalogue, policy: PlanPolicy, baseUrl: string): PlanBasis {
  return {
    desired,
    prune: { ...policy.prune },
    base_url: baseUrl,
    targets: [...policy.targets],
    excludes: [...policy.excludes],
    allow_delete: policy.allowDelete,
  };
}

/** Plan against the tenant; the connection it opens is closed before it returns. */
export async function plan(opts: PlanOptions): Promise<PlanResult> {
  const result = await planOpen(opts);
  await result.connection.api.close();
  return result;
}

/** plan(), leaving the connection open for the caller (drift reads the feed on it); the caller closes it. */
export async function planOpen(opts: PlanOptions): Promise<PlanResult> {
  const config = await projectConfig(opts);
  // The tenant's lists that depend on no manifest are read while the manifests load; a
  // manifest error still comes first, before a missing token or an unreachable tenant.
  const early = await connect(config, opts.tenant, connectOpts(opts)).then(
    async (connection) => {
      // With targets, what to read depends on the parsed manifests: only the channels start.
      const scan = opts.targets?.length ? { kinds: [], versions: () => [] } : await scanManifests(config.dir);
      const left = new Set<string>([...(opts.excludes ?? []), ...(config.scope.ignore ?? [])]);
      const dropped = new Set<string>([...left].filter((e) => e === "brands" || e === "blocks"));
      // With --refresh=changelog the early reads go through the snapshot too.
      const refresh = await openRefreshFor(config, connection, opts);
      const started = scan ? startReads(refresh.api, scan.kinds.filter((k) => !dropped.has(k))) : undefined;
      // The version names are scanned while the first lists are in flight.
      if (started && scan?.kinds.includes("attributes") && !left.has("attributes")) startVersionLists(refresh.api, started, scan.versions(), versionMap(config, connection.tenant));
      return { connection, started, refresh };
    },
    (e: unknown) => ({ error: e }),
  );
  let desired: Catalogue;
  try {
    desired = (await loadDesired(config, opts)).desired;
  } catch (e) {
    if ("connection" in early) await early.connection.api.close();
    throw e;
  }
  if ("error" in early) throw early.error;
  const { connection, started, refresh } = early;
  try {
    const backend = openBackend(config, connection.name, opts.env);
    const lockHeld = await backend.readLock();
    const state = await readLedger(backend, connection.name, connection.baseUrl);
    const result = await planWithState(opts, config, desired, connection, state, { ...(started ? { started } : {}), refresh });
    if (lockHeld) result.plan.warnings.push(`the state of tenant "${connection.name}" is locked: an apply is running or was killed (${describeHolder(lockHeld)}; lock id ${lockHeld.id})`);
    return { ...result, ...(lockHeld ? { lockHeld } : {}) };
  } catch (e) {
    await connection.api.close();
    throw e;
  }
}

/** Plan against a tenant with the ledger already read (apply reads it under the lock). */
async function planWithState(opts: PlanOptions, config: Config, desired: Catalogue, connection: Connection, state: LedgerState, early?: { started?: StartedReads; refresh?: Refresh }): Promise<PlanResult> {
  const policy: PlanPolicy = { prune: prunePolicy(config), targets: opts.targets ?? [], excludes: opts.excludes ?? [], allowDelete: opts.allowDelete === true };
  const { plan: planned, remote, declared, names, refresh } = await makePlan(connection, config, desired, state.ledger, policy, opts, early);
  planned.warnings.push(...unknownWarnings(planned, state.existed, connection.name));
  planned.basis = basisOf(desired, policy, connection.baseUrl);
  return { plan: planned, desired, remote, declared, names, refresh, ledger: state.ledger, ledgerExisted: state.existed, connection, config };
}

/** Unknown write-only values, once per field kind, and why they are unknown. */
function unknownWarnings(p: Plan, stateExisted: boolean, tenant: string): string[] {
  const unknown = unknownWriteOnly(p.actions);
  const why = stateExisted ? "no ledger entry for their records" : "no state for this tenant yet";
  if (!unknown.length) return stateExisted ? [] : [`no state for tenant "${tenant}" yet: write-only values (web ids, asset image_url) will be recorded by the next apply`];
  return unknown.map((u) => `${u.label} unknown: ${why} (API v1 cannot read them back; apply writes them once and remembers them)`);
}

/** The key that signs and verifies saved plans, when the pipeline sets one. */
export function planHmacKey(env: NodeJS.ProcessEnv): string | undefined {
  return env[PLAN_HMAC_ENV] || undefined;
}

/**
 * The checks of a saved plan that need no tenant: a valid file, an intact
 * digest (and signature), applied whole, its deletes permitted at plan time.
 */
async function readSavedPlan(opts: ApplyOptions & { planFile: string }): Promise<Plan & { basis: PlanBasis }> {
  const saved = await readPlanFile(opts.planFile, { hmacKey: planHmacKey(opts.env) });
  const basis = saved.basis;
  if (!basis) throw new PimctlError("plan_format", `${opts.planFile} has no basis; save plans with 'pimctl plan --out FILE'`);
  if (opts.targets?.length || opts.excludes?.length) {
    throw new PimctlError("usage", `a saved plan is applied whole: narrow it when planning ('pimctl plan --target ... --out FILE'), not when applying`);
  }
  if (opts.allowDelete && !saved.deletes_allowed) {
    throw new PimctlError("policy_refused", `${opts.planFile} was made without ${ALLOW_DELETE_FLAG}: the permission to delete is decided at plan time, where reviewers see it. Make the plan again with 'pimctl plan ${ALLOW_DELETE_FLAG} --out FILE'`);
  }
  refuseBlockedDeletes(saved, opts.planFile, `Make the plan again with 'pimctl plan ${ALLOW_DELETE_FLAG} --out FILE' so the deletes are reviewed as deletes, or leave them out (prune off, --exclude).`);
  return { ...saved, basis };
}

/**
 * A saved plan's tenant is its name and its normalised base URL, both sealed
 * in the file: applied to a tenant that differs in either (another name for
 * the same address, the same name moved), it is refused before anything is
 * read, naming both.
 */
function refuseOtherTenant(saved: Plan & { basis: PlanBasis }, file: string, config: Config, tenantFlag: string | undefined): void {
  const target = pickTenant(config, tenantFlag ?? saved.tenant);
  const targetUrl = tenantBaseUrl(config, target.name, target.tenant);
  const madeFor = normaliseBaseUrl(saved.basis.base_url);
  if (target.name === saved.tenant && targetUrl === madeFor) return;
  throw new PimctlError("plan_stale", `${file} was made for tenant "${saved.tenant}" at ${madeFor}, not tenant "${target.name}" at ${targetUrl}; nothing was read or written`, {
    details: [`a saved plan is applied to the tenant it was made for; make a plan for "${target.name}" with 'pimctl plan --tenant ${target.name} --out FILE'`],
  });
}

/**
 * A saved plan may run only if a plan made now from its basis (the tenant
 * read under the lock) equals it, action for action and fingerprint for
 * fingerprint. Throws before anything is written.
 */
async function checkSavedPlan(
  saved: Plan & { basis: PlanBasis },
  file: string,
  config: Config,
  connection: Connection,
  state: LedgerState,
  opts: ProjectOptions,
  ifApplied: "ok" | "fail",
): Promise<PlanResult & { alreadyApplied?: string }> {
  const basis = saved.basis;
  const policy: PlanPolicy = {
    prune: basis.prune,
    targets: basis.targets ?? [],
    excludes: basis.excludes ?? [],
    allowDelete: basis.allow_delete === true,
  };
  const current = await makePlan(connection, config, basis.desired, state.ledger, policy, opts).catch((e: unknown) => {
    if (e instanceof PimctlError || e instanceof PimctlErrors) throw e;
    throw new PimctlError("plan_format", `${file}: its basis cannot be planned again (${(e as Error).message}); make a new plan with 'pimctl plan --out FILE'`);
  });
  const differences = savedPlanDifferences({ saved, current: current.plan });
  if (differences.length && alreadyApplied(saved, current.plan)) {
    const message = `${file} was already applied: the tenant already looks as the plan leaves it (a plan made now from its basis has no changes)`;
    if (ifApplied === "fail") throw new PimctlError("plan_stale", `${message}; nothing was applied`, { details: ["pass --if-applied=ok to treat a re-run of an applied plan as done (exit 0)"] });
    return { plan: saved, desired: basis.desired, remote: current.remote, declared: current.declared, names: current.names, refresh: current.refresh, ledger: state.ledger, ledgerExisted: state.existed, connection, config, alreadyApplied: message };
  }
  if (differences.length) {
    const done = partlyApplied(saved, current.plan);
    throw new PimctlError("plan_stale", `${file} is not what a plan made now from its own basis gives (the tenant changed, or the file was edited); nothing was applied. Plan again`, {
      details: [
        ...(done ? [`${done.done} of its ${done.of} actions are already done, and a plan made now has only the rest (a run that stopped part way?): make a new plan to finish`] : []),
        ...differences.slice(0, 50).concat(differences.length > 50 ? [`... and ${differences.length - 50} more`] : []),
      ],
    });
  }
  return { plan: saved, desired: basis.desired, remote: current.remote, declared: current.declared, names: current.names, refresh: current.refresh, ledger: state.ledger, ledgerExisted: state.existed, connection, config };
}

/**
 * A saved plan with changes whose basis, planned now, has none: the tenant is
 * already as the plan leaves it (a re-run of the job that applied it, or the
 * same change applied another way). Actions API v1 cannot carry out stay in
 * every plan and say nothing about it.
 */
function alreadyApplied(saved: Plan, current: Plan): boolean {
  const real = (p: Plan) => p.actions.filter((a) => a.op !== "unsupported");
  return real(saved).length > 0 && real(current).length === 0;
}

/** Some of a saved plan's actions are done and a plan made now holds only (some of) the others. */
function partlyApplied(saved: Plan, current: Plan): { done: number; of: number } | undefined {
  const real = (p: Plan) => p.actions.filter((a) => a.op !== "unsupported");
  const savedAddresses = new Set(real(saved).map((a) => a.address));
  const left = real(current);
  if (!left.length || left.length >= savedAddresses.size || !left.every((a) => savedAddresses.has(a.address))) return undefined;
  return { done: savedAddresses.size - left.length, of: savedAddresses.size };
}

export interface ApplyOptions extends PlanOptions, LockOptions {
  /**
   * A saved plan that is already applied: "ok" (the default) reports it and does nothing
   * (exit 0: the tenant is as the plan leaves it, checked by planning again); "fail" refuses (exit 5).
   */
  ifApplied?: "ok" | "fail";
  /** Apply this saved plan (after checking it is not stale) instead of planning now. */
  planFile?: string;
  allowDelete?: boolean;
  dryRun?: boolean;
  failFast?: boolean;
  hooks?: ApplyHooks;
  /** Export profile id: back the tenant up before the first write. */
  backupProfile?: number;
  backupFile?: string;
  /** Called with the plan before any write; return false to abort (confirmation). */
  confirm?: (plan: Plan) => Promise<boolean>;
}

export interface ApplyResult {
  plan: Plan;
  report?: ApplyReport;
  verification?: VerificationReport;
  aborted?: boolean;
  backupFile?: string;
  /** A saved plan found already applied (--if-applied=ok): why nothing was done. */
  alreadyApplied?: string;
  /**
   * Why the run stopped starting actions after writes began: a process signal
   * ("interrupted (SIGINT)") or a lock it could not keep. The tenant was not verified.
   */
  stopped?: string;
  /** The ledger could not be saved to its backend: it is in `rescueFile` (exit 4), or, when even that failed, in `ledger` with `rescueError`. */
  stateNotSaved?: { error: string; rescueFile?: string; rescueError?: string; ledger?: string };
  /** The lock could not be released (after the writes): break it with `pimctl state unlock id`. */
  lockNotReleased?: { error: string; id: string };
}

/** Throws when the run was asked to stop before its first write: nothing was written. */
function stopIfAsked(signal: AbortSignal, lost: { why?: string }): void {
  if (!signal.aborted) return;
  if (lost.why) throw new PimctlError("ledger_locked", `${lost.why}; stopped before the first write: nothing was written`);
  throw new PimctlError("interrupted", `interrupted (${interruptedBy(signal)}) before the first write: nothing was written`);
}

/** `work`, unless the run is asked to stop first: then stop at once (what is in flight is abandoned). */
function unlessStopped<T>(work: Promise<T>, signal: AbortSignal, lost: { why?: string }): Promise<T> {
  work.catch(() => undefined);
  return new Promise<T>((resolve, reject) => {
    const onAbort = () => {
      try {
        stopIfAsked(signal, lost);
      } catch (e) {
        reject(e);
      }
    };
    if (signal.aborted) return onAbort();
    signal.addEventListener("abort", onAbort, { once: true });
    work.then(resolve, reject).finally(() => signal.removeEventListener("abort", onAbort));
  });
}

/**
 * Apply: the state lock is taken first (before the ledger and the tenant are
 * read) and held until the ledger is saved, so no other run reads a ledger
 * that is about to change. A dry run takes no lock. A saved plan's file checks
 * come before any of it.
 *
 * Stopping (opts.signal, or a lock whose lease cannot be kept): before the first
 * write, the phase in progress is abandoned and the lock released (an error:
 * nothing was written); after, no action is started, the ledger is saved and the
 * result says why it stopped. A ledger that cannot be saved goes to a rescue
 * file, and a lock that cannot be released is reported on its own: neither hides
 * the other, and neither loses the report.
 */
export async function apply(opts: ApplyOptions): Promise<ApplyResult> {
  const saved = opts.planFile ? await readSavedPlan({ ...opts, planFile: opts.planFile }) : undefined;
  const project = saved ? { config: await projectConfig(opts), desired: saved.basis.desired } : await loadProject(opts);
  const { config } = project;
  if (saved) refuseOtherTenant(saved, opts.planFile!, config, opts.tenant);
  const connection = await connect(config, opts.tenant ?? saved?.tenant, connectOpts(opts));
  // One stop for both reasons: the caller's signal, and a lock this run cannot keep.
  const stop = new AbortController();
  const lost: { why?: string } = {};
  const forward = () => stop.abort(opts.signal!.reason);
  if (opts.signal?.aborted) forward();
  else opts.signal?.addEventListener("abort", forward, { once: true });
  const multiTenant = Object.keys(config.tenants).length > 1;
  let lock: HeldLock | undefined;
  let result: ApplyResult | undefined;
  let failure: unknown;
  try {
    const backend = openBackend(config, connection.name, opts.env);
    if (!opts.dryRun) {
      lock = await acquireLock(backend, connection.name, {
        why: saved ? `apply ${path.basename(opts.planFile!)}` : "apply",
        env: opts.env,
        ...(opts.lockTimeoutMs ? { timeoutMs: opts.lockTimeoutMs } : {}),
        ...(multiTenant ? { tenantFlag: connection.name } : {}),
        ...(opts.warn ? { warn: opts.warn } : {}),
        signal: stop.signal,
        onLost: (why) => {
          lost.why = why;
          stop.abort(new Error(why));
        },
      });
    }
    const state = await unlessStopped(readLedger(backend, connection.name, connection.baseUrl), stop.signal, lost);
    const planned = await unlessStopped(
      saved ? checkSavedPlan(saved, opts.planFile!, config, connection, state, opts, opts.ifApplied ?? "ok") : planWithState(opts, config, project.desired, connection, state),
      stop.signal,
      lost,
    );
    const applied = "alreadyApplied" in planned ? planned.alreadyApplied : undefined;
    if (typeof applied === "string") return (result = { plan: planned.plan, alreadyApplied: applied });
    const thePlan = planned.plan;
    // The prune policy the plan was made with: verification re-plans with the same one.
    const prune = thePlan.basis?.prune ?? prunePolicy(config);
    if (!saved && !opts.dryRun) {
      refuseBlockedDeletes(thePlan, "the plan", `Pass ${ALLOW_DELETE_FLAG} to apply them, or leave them out (prune off for the kind, --exclude).`);
    }
    if (opts.confirm && !(await opts.confirm(thePlan))) return (result = { plan: thePlan, aborted: true });
    stopIfAsked(stop.signal, lost);
    let backupFile: string | undefined;
    if (opts.backupProfile !== undefined && !opts.dryRun) {
      backupFile = opts.backupFile ?? path.join(ledgerDir(config, opts), `${connection.name}-backup-${Date.now()}.export`);
      await mkdir(path.dirname(backupFile), { recursive: true });
      await unlessStopped(backupExport({ api: connection.api, profileId: opts.backupProfile, outFile: backupFile }), stop.signal, lost);
    }
    stopIfAsked(stop.signal, lost);
    // From here the tenant may be written to: the ledger is what remembers it, so a forced end
    // (a second signal) writes it to a rescue file rather than lose it.
    const rescue = (): string => writeRescueFile(rescueDir(config.file, opts.cwd), connection.name, serialiseLedger(state.ledger));
    const writing = opts.dryRun
      ? () => undefined
      : hold({
          what: `the state of tenant "${connection.name}"`,
          writesBegan: true,
          release: async () => {
            const file = rescue();
            return [`The state of tenant "${connection.name}" (what this run wrote) is in ${file}; restore it with: ${restoreCommand(file, opts.cwd, multiTenant ? connection.name : undefined)}`];
          },
        });
    // Taken before the apply, which forgets a deleted brand's ledger entries (its assets among them).
    const goneWith = removedWith(thePlan, planned.remote, state.ledger);
    let report: ApplyReport;
    let stateNotSaved: ApplyResult["stateNotSaved"];
    try {
      report = await applyPlan({
        api: connection.api,
        plan: thePlan,
        allowDelete: thePlan.deletes_allowed === true,
        dryRun: opts.dryRun === true,
        parallelism: opts.parallelism ?? connection.tenant.parallelism ?? 8,
        failFast: opts.failFast === true,
        ledger: state.ledger,
        ...(opts.hooks ? { hooks: opts.hooks } : {}),
        signal: stop.signal,
      });
      if (opts.dryRun) return (result = { plan: thePlan, report });
      // What pimctl now owns: the declared records it found, and those it created (prune "owned" may delete them later).
      recordOwned(state.ledger, { ...planned.declared });
      recordOwned(state.ledger, createdByKind(thePlan, report));
      // The names pimctl applied, by id: a record renamed by hand later is found and renamed back.
      recordNames(state.ledger, { ...planned.names });
      recordNames(state.ledger, createdNames(thePlan, report));
      // A deleted record's id is no longer pimctl's: a tenant that reuses ids must not make a hand-made record look owned.
      forgetOwned(state.ledger, deletedByKind(thePlan, report, goneWith));
      stateNotSaved = await saveLedger(backend, state, opts.warn ? { warn: opts.warn } : {}).then(
        () => undefined,
        (e: unknown) => {
          try {
            return { error: errorText(e), rescueFile: rescue() };
          } catch (r) {
            // Not even a local file: the text itself goes back to the caller, to be printed.
            return { error: errorText(e), rescueError: errorText(r), ledger: serialiseLedger(state.ledger) };
          }
        },
      );
    } finally {
      writing();
    }
    const stopped = stop.signal.aborted ? (lost.why ?? `interrupted (${interruptedBy(stop.signal)})`) : undefined;
    result = { plan: thePlan, report, ...(backupFile ? { backupFile } : {}), ...(stopped ? { stopped } : {}), ...(stateNotSaved ? { stateNotSaved } : {}) };
    // A refused token (401) would refuse the verification read too; a stopped run is not verified either.
    if (report.stopped_by || stopped) return result;
    // A verification read that fails leaves the writes unchecked: reported (exit 4), never a crash without a report.
    // With the changelog refresh, the verification read is a full read that starts a new snapshot:
    // the next plan does not re-read, one by one, every record this apply wrote.
    result.verification = await planAgainst(connection, config, planned.desired, state.ledger, prune, opts, { rebuildSnapshot: true }).then(
      (replanned) => verifyApplied(report, replanned.plan),
      (e: unknown): VerificationReport => ({ checked: 0, mismatches: [], error: errorText(e) }),
    );
    return result;
  } catch (e) {
    failure = e;
    throw e;
  } finally {
    // The one cleanup path: normal end, errors, and interruption all release the lock here.
    opts.signal?.removeEventListener("abort", forward);
    const unlockError = await lock?.release().then(
      () => undefined,
      (e: unknown) => e,
    );
    await connection.api.close();
    if (unlockError !== undefined && lock) {
      const notReleased = new PimctlError("io", `the lock of tenant "${connection.name}" could not be released: ${errorText(unlockError)}`, {
        details: [`break it with: ${unlockCommand(lock.info.id, multiTenant ? connection.name : undefined)}`],
      });
      // After the writes: reported beside the ledger's fate, never instead of it.
      if (result && !result.aborted) result.lockNotReleased = { error: notReleased.format(), id: lock.info.id };
      else if (failure instanceof PimctlError || failure instanceof PimctlErrors) throw new PimctlErrors([...errorsOf(failure), notReleased]);
      else if (failure === undefined) throw notReleased;
      else opts.warn?.(notReleased.format());
    }
  }
}

function errorText(e: unknown): string {
  return e instanceof PimctlError ? e.format() : e instanceof PimctlErrors ? e.errors.map((x) => x.format()).join("; ") : String((e as Error)?.message ?? e);
}

function errorsOf(e: PimctlError | PimctlErrors): PimctlError[] {
  return e instanceof PimctlErrors ? e.errors : [e];
}

/** The command that puts a rescue file back: its path as the person would type it from where pimctl ran. */
export function restoreCommand(file: string, cwd: string, tenantFlag?: string): string {
  const rel = path.relative(cwd, file);
  return `pimctl state push ${rel && !rel.startsWith("..") ? rel : file}${tenantFlag ? ` --tenant ${tenantFlag}` : ""}`;
}

/** The prune kind a resource type's records count under, for ownership. */
const OWNED_KIND: Partial<Record<string, PruneKind>> = {
  display_group: "display_groups",
  attribute: "attributes",
  type_value: "type_values",
  attribute_set: "attribute_sets",
  block: "blocks",
  brand: "brands",
  category: "categories",
  brand_asset: "assets",
  category_asset: "assets",
};

/** Ids of records this run created, by prune kind. */
function createdByKind(p: Plan, report: ApplyReport): Partial<Record<PruneKind, number[]>> {
  const typeOf = new Map(p.actions.map((a) => [a.address, a.type]));
  const out: Partial<Record<PruneKind, number[]>> = {};
  for (const r of report.results) {
    const kind = r.created_id === undefined ? undefined : OWNED_KIND[typeOf.get(r.address) ?? ""];
    if (kind) (out[kind] ??= []).push(r.created_id!);
  }
  return out;
}

/** Names of the named kinds' records this run created, by prune kind and id. */
function createdNames(p: Plan, report: ApplyReport): Partial<Record<PruneKind, Record<string, string>>> {
  const byAddress = new Map(p.actions.map((a) => [a.address, a]));
  const out: Partial<Record<PruneKind, Record<string, string>>> = {};
  for (const r of report.results) {
    const a = r.created_id === undefined ? undefined : byAddress.get(r.address);
    const kind = a && NAMED_TYPES.has(a.type) ? OWNED_KIND[a.type] : undefined;
    const name = a && lastKey(a.address);
    if (kind && name !== undefined) (out[kind] ??= {})[String(r.created_id)] = name;
  }
  return out;
}

/** The resource types whose identity is a unique name (the ledger remembers it per id). */
const NAMED_TYPES: ReadonlySet<string> = new Set(["display_group", "attribute", "attribute_set", "brand"]);

type IdsByKind = Partial<Record<PruneKind, number[]>>;

/** Ids of records this run deleted, by prune kind, with the records each delete took along (`removedWith`). */
function deletedByKind(p: Plan, report: ApplyReport, goneWith: ReadonlyMap<string, IdsByKind>): IdsByKind {
  const done = new Set(report.results.filter((r) => r.status === "done").map((r) => r.address));
  const out: IdsByKind = {};
  for (const a of p.actions) {
    const kind = OWNED_KIND[a.type];
    const self = a.refs.self;
    if (a.op !== "delete" || !kind || !done.has(a.address) || !self || !("id" in self)) continue;
    (out[kind] ??= []).push(self.id);
    for (const [k, ids] of Object.entries(goneWith.get(a.address) ?? {}) as Array<[PruneKind, number[]]>) (out[k] ??= []).push(...ids);
  }
  return out;
}

/**
 * What each delete takes along in the tenant, by prune kind: a brand's or a
 * category's assets (those read, and those the ledger remembers writing), an
 * attribute's type values. Without it their ids would stay in `owned` for
 * records that are gone, and a tenant that reuses ids would hand them to
 * records someone made by hand.
 */
function removedWith(p: Plan, remote: RemoteCatalogue, ledger: Ledger): Map<string, IdsByKind> {
  const byId = <T extends { id: number }>(list: readonly T[]) => new Map(list.map((x) => [x.id, x]));
  const brands = byId(remote.brands);
  const categories = byId(remote.categories);
  const attributes = byId(remote.attributes);
  const assetsOf = (owner: "brand" | "category", id: number, read: ReadonlyArray<{ id: number }> | undefined): number[] => [
    ...new Set([...(read ?? []).map((x) => x.id), ...Object.keys(ledger.assets[`${owner}:${id}`] ?? {}).map(Number)]),
  ];
  const out = new Map<string, IdsByKind>();
  for (const a of p.actions) {
    const self = a.refs.self;
    if (a.op !== "delete" || !self || !("id" in self)) continue;
    if (a.type === "brand") out.set(a.address, { assets: assetsOf("brand", self.id, brands.get(self.id)?.assets) });
    else if (a.type === "category") out.set(a.address, { assets: assetsOf("category", self.id, categories.get(self.id)?.assets) });
    else if (a.type === "attribute") out.set(a.address, { type_values: (attributes.get(self.id)?.values ?? []).map((v) => v.id) });
  }
  return out;
}

/** The state backend a project's config names, for `pimctl state`. */
export async function openProjectState(opts: ProjectOptions & { backend?: "local" | "git" }): Promise<{ config: Config; backend: StateBackend; tenant: string; baseUrl: string }> {
  const config = await projectConfig(opts);
  const { name, tenant } = pickTenant(config, opts.tenant);
  return { config, backend: openBackend(config, name, opts.env, opts.backend), tenant: name, baseUrl: tenantBaseUrl(config, name, tenant) };
}

/** Read a whole tenant (or some kinds) and return it as a catalogue, with the ledger's write-only values. */
export async function readTenantCatalogue(opts: ProjectOptions & { kinds?: Kind[] }): Promise<{ catalogue: Catalogue; connection: Connection; config: Config }> {
  const config = await projectConfig(opts);
  const connection = await connect(config, opts.tenant, connectOpts(opts));
  try {
    const kinds = opts.kinds ?? [...KINDS];
    const remote = await readState(connection.api, {
      kinds,
      versionMap: versionMap(config, connection.tenant),
      ...(opts.log ? { log: opts.log } : {}),
    });
    const { ledger } = await readLedger(openBackend(config, connection.name, opts.env), connection.name, connection.baseUrl);
    return { catalogue: remoteToCatalogue(remote, ledger), connection, config };
  } finally {
    await connection.api.close();
  }
}

export interface DiffOptions extends ProjectOptions {
  /** A tenant name, or a directory of manifests. */
  from: string;
  /** The tenant to compare against (made to look like `from`). */
  to: string;
  targets?: string[];
  excludes?: string[];
}

/**
 * What would change if `to` were made to look like `from`: a plan, never
 * applied. A source tenant's catalogue is translated from its variables to the
 * target's; the target is listed in full, so records only it has always show
 * (unmanaged, or deletes where the prune policy would delete them).
 */
export async function diff(opts: DiffOptions): Promise<Plan> {
  const config = await projectConfig(opts);
  // A mistyped --to is reported (with did-you-mean) before the ${variable} errors its missing values would cause.
  const target = pickTenant(config, opts.to).tenant;
  let desired: Catalogue;
  if (config.tenants[opts.from]) {
    const source = (await readTenantCatalogue({ ...opts, tenant: opts.from })).catalogue;
    desired = translateVariables(source, config.tenants[opts.from]!.variables ?? {}, target.variables ?? {});
  } else {
    if (!existsSync(path.resolve(opts.cwd, opts.from))) {
      const close = closeNames(opts.from, Object.keys(config.tenants));
      throw new PimctlError("usage", `--from ${opts.from} is neither a configured tenant nor a directory`, {
        details: [close.length ? `did you mean: ${close.join(", ")}?` : `configured tenants: ${Object.keys(config.tenants).sort().join(", ") || "(none)"}`],
      });
    }
    const result = await loadManifests(path.resolve(opts.cwd, opts.from), {
      cwd: opts.cwd,
      variables: target.variables ?? {},
    });
    if (result.errors.length) throw new PimctlErrors(result.errors);
    desired = result.catalogue;
  }
  const connection = await connect(config, opts.to, connectOpts(opts));
  try {
    const { ledger } = await readLedger(openBackend(config, connection.name, opts.env), connection.name, connection.baseUrl);
    const { plan: p, remote } = await planAgainst(connection, config, desired, ledger, prunePolicy(config), opts, { listAll: true });
    return narrow(p, desired, remote, opts.targets ?? [], opts.excludes ?? []);
  } finally {
    await connection.api.close();
  }
}

export async function ping(opts: ProjectOptions): Promise<{ tenant: string; baseUrl: string; time: string; ms: number }> {
  const config = await projectConfig(opts);
  const connection = await connect(config, opts.tenant, connectOpts(opts));
  try {
    const t0 = Date.now();
    const { time } = await connection.api.ping();
    return { tenant: connection.name, baseUrl: connection.baseUrl, time, ms: Date.now() - t0 };
  } finally {
    await connection.api.close();
  }
}

function connectOpts(opts: ProjectOptions) {
  return {
    env: opts.env,
    ...(opts.parallelism ? { parallelism: opts.parallelism } : {}),
    ...(opts.logHttp ? { logHttp: opts.logHttp } : {}),
  };
}

function ledgerDir(config: Config, opts: ProjectOptions): string {
  return path.resolve(opts.cwd, config.ledger_dir);
}

/** The manifest schema shipped with pimctl (for the editor line in exported files). */
export function schemaPath(): string {
  return packagePath("schemas", "manifest.schema.json");
}
