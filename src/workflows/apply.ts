/**
 * The apply workflow: under the state lock, plan (or check the saved plan), write, record
 * in the ledger what API v1 cannot read back, save it (or a rescue file), verify. Signals
 * and a lock whose lease is lost stop it; before the first write nothing is written.
 */
import { mkdir } from "node:fs/promises";
import path from "node:path";
import { forgetOwned, recordNames, recordOwned, serialiseLedger } from "../state/ledger.js";
import { recordApplied } from "../state/applied.js";
import { acquireLock, openBackend, readLedger, saveLedger, stampLedger, unlockCommand, type HeldLock, type LedgerState } from "../state/backends/index.js";
import type { StateBackend } from "../state/backends/types.js";
import type { Config } from "../config/index.js";
import type { Catalogue } from "../model/catalogue.js";
import { rescueDir, restoreCommand, writeRescueFile } from "../state/rescue.js";
import { hold, interruptedBy } from "../holdings.js";
import { ALLOW_DELETE_FLAG, refuseBlockedDeletes } from "../plan/delete-permission.js";
import type { Plan } from "../plan/types.js";
import { applyPlan, type ApplyHooks, type ApplyReport } from "../apply/index.js";
import { verifyApplied, type VerificationReport } from "../apply/verify.js";
import type { ApplyResult } from "../apply/outcome.js";
import { backupExport } from "../apply/backup.js";
import { connect, type Connection } from "../tenant.js";
import { PimctlError, PimctlErrors } from "../errors.js";
import { appliedIdentities, appliedPrints, createdByKind, deletedByKind, removedWith } from "./ownership.js";
import { type PlanOptions, type PlanResult, planAgainst, planWithState, refuseUnknownKinds } from "./plan.js";
import { connectOpts, errorText, errorsOf, ledgerDir, loadDesiredFor, projectConfig, prunePolicy } from "./project.js";
import { acceptSavedPlan, checkSavedPlan, readSavedPlan, refuseOtherTenant } from "./saved-plan.js";
import { readScope } from "../plan/read-scope.js";

export type { ApplyResult } from "../apply/outcome.js";

/** How apply waits for the state lock (plan never takes it). */
export interface LockOptions {
  /** Wait this long for a held lock instead of failing at once. */
  lockTimeoutMs?: number;
  /** Called with warnings (a stale lock taken over, a merged state write). */
  warn?: (line: string) => void;
}

export interface ApplyOptions extends PlanOptions, LockOptions {
  /**
   * A saved plan that is already applied: "ok" (the default) reports it and does nothing
   * (exit 0: the tenant is as the plan leaves it, checked by planning again); "fail" refuses (exit 5).
   */
  ifApplied?: "ok" | "fail";
  /** Apply this saved plan (after checking it is not stale) instead of planning now. */
  planFile?: string;
  /** A saved plan already read (a tenant's plan in a rollout), checked as a file's would be; `label` names it in messages. */
  /** A plan already read and checked (a rollout's tenant); `madeByThisRun`: planned by this same run, not read from a file. */
  savedPlan?: { plan: Plan; label: string; madeByThisRun?: boolean };
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

/** Throws when the run was asked to stop before its first write: nothing was written. */
export function stopIfAsked(signal: AbortSignal, lost: { why?: string }): void {
  if (!signal.aborted) return;
  if (lost.why) throw new PimctlError("ledger_locked", `${lost.why}; stopped before the first write: nothing was written`);
  throw new PimctlError("interrupted", `interrupted (${interruptedBy(signal)}) before the first write: nothing was written`);
}

/** `work`, unless the run is asked to stop first: then stop at once (what is in flight is abandoned). */
export function unlessStopped<T>(work: Promise<T>, signal: AbortSignal, lost: { why?: string }): Promise<T> {
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
  if (!opts.planFile && !opts.savedPlan) refuseUnknownKinds(opts.targets, opts.excludes);
  const saved = opts.planFile
    ? await readSavedPlan({ ...opts, planFile: opts.planFile })
    : opts.savedPlan && acceptSavedPlan(opts.savedPlan.plan, opts.savedPlan.label, opts);
  const savedLabel = opts.planFile ?? opts.savedPlan?.label ?? "";
  const config = await projectConfig(opts);
  // apply --target loads what the targets touch, as plan --target does.
  // A saved plan was checked for files that declare nothing when it was made (plan --allow-empty-files).
  const project = saved ? { desired: saved.basis.desired, empty: [] } : await loadDesiredFor(config, opts, opts);
  if (saved) refuseOtherTenant(saved, savedLabel, config, opts.tenant);
  const connection = await connect(config, opts.tenant ?? saved?.tenant, connectOpts(opts));
  // One stop for both reasons: the caller's signal, and a lock this run cannot keep.
  const stop = new AbortController();
  const forward = () => stop.abort(opts.signal!.reason);
  if (opts.signal?.aborted) forward();
  else opts.signal?.addEventListener("abort", forward, { once: true });
  const run: ApplySession = { opts, saved, savedLabel, config, project, connection, stop, lost: {}, multiTenant: Object.keys(config.tenants).length > 1 };
  let lock: HeldLock | undefined;
  let failure: unknown;
  try {
    const backend = openBackend(config, connection.name, opts.env);
    if (!opts.dryRun) lock = await takeLock(run, backend);
    return await applyUnderLock(run, backend);
  } catch (e) {
    failure = e;
    throw e;
  } finally {
    // The one cleanup path: normal end, errors, and interruption all release the lock here.
    opts.signal?.removeEventListener("abort", forward);
    await releaseAndClose(run, lock, failure);
  }
}

/** What one apply run holds from its start to its cleanup. */
interface ApplySession {
  opts: ApplyOptions;
  saved: Awaited<ReturnType<typeof readSavedPlan>> | undefined;
  /** The saved plan's file, or the label a rollout gave its plan, for messages. */
  savedLabel: string;
  config: Config;
  project: { desired: Catalogue; empty: string[] };
  connection: Connection;
  stop: AbortController;
  /** Why the lock was lost, once it is. */
  lost: { why?: string };
  multiTenant: boolean;
  /** The result, once there is one (the lock's release reports beside it). */
  result?: ApplyResult;
}

/** The state lock, whose loss stops the run like a signal. */
function takeLock(run: ApplySession, backend: StateBackend): Promise<HeldLock> {
  const { opts, connection, stop, lost } = run;
  return acquireLock(backend, connection.name, {
    why: opts.planFile ? `apply ${path.basename(opts.planFile)}` : run.saved ? "apply (rollout)" : "apply",
    env: opts.env,
    ...(opts.lockTimeoutMs ? { timeoutMs: opts.lockTimeoutMs } : {}),
    ...(run.multiTenant ? { tenantFlag: connection.name } : {}),
    ...(opts.warn ? { warn: opts.warn } : {}),
    signal: stop.signal,
    onLost: (why) => {
      lost.why = why;
      stop.abort(new Error(why));
    },
  });
}

/** Read the ledger, plan (or check the saved plan), confirm, back up, write, save, verify. */
async function applyUnderLock(run: ApplySession, backend: StateBackend): Promise<ApplyResult> {
  const { opts, saved, config, connection, stop, lost } = run;
  const state = await unlessStopped(readLedger(backend, connection.name, connection.baseUrl), stop.signal, lost);
  const planned = await unlessStopped(
    saved
      ? checkSavedPlan(saved, run.savedLabel, config, connection, state, opts, opts.ifApplied ?? "ok", opts.savedPlan?.madeByThisRun === true)
      : planWithState(opts, config, run.project.desired, connection, state, undefined, run.project.empty),
    stop.signal,
    lost,
  );
  const applied = "alreadyApplied" in planned ? planned.alreadyApplied : undefined;
  if (typeof applied === "string") return (run.result = { plan: planned.plan, alreadyApplied: applied });
  const thePlan = planned.plan;
  if (!saved && !opts.dryRun) {
    refuseBlockedDeletes(thePlan, "the plan", `Pass ${ALLOW_DELETE_FLAG} to apply them, or leave them out (prune off for the kind, --exclude).`);
  }
  if (opts.confirm && !(await opts.confirm(thePlan))) return (run.result = { plan: thePlan, aborted: true });
  stopIfAsked(stop.signal, lost);
  const backupFile = await backUp(run);
  stopIfAsked(stop.signal, lost);
  const written = await writeAndRecord(run, backend, state, planned);
  const { report, stateNotSaved } = written;
  if (opts.dryRun) return (run.result = { plan: thePlan, report });
  const stopped = stop.signal.aborted ? (lost.why ?? `interrupted (${interruptedBy(stop.signal)})`) : undefined;
  const result: ApplyResult = {
    plan: thePlan,
    report,
    ...(backupFile ? { backupFile } : {}),
    ...(stopped ? { stopped } : {}),
    ...(stateNotSaved ? { stateNotSaved } : {}),
  };
  run.result = result;
  // A refused token (401) would refuse the verification read too; a stopped run is not verified either.
  if (report.stopped_by || stopped) return result;
  result.verification = await verify(run, planned, state, report);
  return result;
}

/** The export backup (--backup-profile) before the first write: its file. */
async function backUp(run: ApplySession): Promise<string | undefined> {
  const { opts, config, connection } = run;
  if (opts.backupProfile === undefined || opts.dryRun) return undefined;
  const backupFile = opts.backupFile ?? path.join(ledgerDir(config, opts), `${connection.name}-backup-${Date.now()}.export`);
  await mkdir(path.dirname(backupFile), { recursive: true });
  await unlessStopped(backupExport({ api: connection.api, profileId: opts.backupProfile, outFile: backupFile }), run.stop.signal, run.lost);
  return backupFile;
}

/**
 * The writes, and the ledger that remembers them, saved (or, when it cannot be, rescued). From
 * here the tenant may be written to: a forced end (a second signal) writes the ledger to a rescue
 * file rather than lose it.
 */
async function writeAndRecord(
  run: ApplySession,
  backend: StateBackend,
  state: LedgerState,
  planned: PlanResult,
): Promise<{ report: ApplyReport; stateNotSaved?: ApplyResult["stateNotSaved"] }> {
  const { opts, connection } = run;
  const thePlan = planned.plan;
  const writing = opts.dryRun
    ? () => undefined
    : hold({
        what: `the state of tenant "${connection.name}"`,
        writesBegan: true,
        release: async () => {
          const file = rescue(run, state);
          return [
            `The state of tenant "${connection.name}" (what this run wrote) is in ${file}; restore it with: ` +
              `${restoreCommand(file, opts.cwd, run.multiTenant ? connection.name : undefined)}`,
          ];
        },
      });
  // Taken before the apply, which forgets a deleted brand's ledger entries (its assets among them).
  const goneWith = removedWith(thePlan, planned.remote, state.ledger);
  try {
    const report = await applyPlan({
      api: connection.api,
      plan: thePlan,
      allowDelete: thePlan.deletes_allowed === true,
      dryRun: opts.dryRun === true,
      parallelism: opts.parallelism ?? connection.tenant.parallelism ?? 8,
      failFast: opts.failFast === true,
      ledger: state.ledger,
      ...(opts.hooks ? { hooks: opts.hooks } : {}),
      signal: run.stop.signal,
    });
    if (opts.dryRun) return { report };
    recordRun(run.config, state, planned, report, goneWith);
    const stateNotSaved = await saveLedger(backend, state, opts.warn ? { warn: opts.warn } : {}).then(
      () => undefined,
      (e: unknown) => {
        try {
          return { error: errorText(e), rescueFile: rescue(run, state) };
        } catch (r) {
          // Not even a local file: the text itself goes back to the caller, to be printed.
          return { error: errorText(e), rescueError: errorText(r), ledger: serialiseLedger(state.ledger) };
        }
      },
    );
    return { report, ...(stateNotSaved ? { stateNotSaved } : {}) };
  } finally {
    writing();
  }
}

/** The ledger in a rescue file, stamped as a save would be: restored with state push, its entries win only where they are the newer. */
function rescue(run: ApplySession, state: LedgerState): string {
  stampLedger(state);
  return writeRescueFile(rescueDir(run.config.file, run.opts.cwd), run.connection.name, serialiseLedger(state.ledger));
}

/** What the run leaves in the ledger besides the write-only values applyPlan recorded: ownership, identities, applied prints. */
function recordRun(config: Config, state: LedgerState, planned: PlanResult, report: ApplyReport, goneWith: ReturnType<typeof removedWith>): void {
  const thePlan = planned.plan;
  // What pimctl now owns: the declared records it found, and those it created (prune "owned" may delete them later).
  recordOwned(state.ledger, { ...planned.declared });
  recordOwned(state.ledger, createdByKind(thePlan, report));
  // The identity pimctl applied, by id (its name, and what it wrote): a record renamed by hand later is found
  // and renamed back, and another record given that id is told apart (src/plan/identity.ts).
  const identities = appliedIdentities(thePlan, report, planned.names);
  recordNames(state.ledger, identities);
  // The manifest entries it left records as: drift tells a later manifest edit from a change made in the tenant.
  recordApplied(state.ledger, appliedPrints(thePlan, report, planned.desired, identities, config.scope.ignore ?? []));
  // A deleted record's id is no longer pimctl's: a tenant that reuses ids must not make a hand-made record look owned.
  forgetOwned(state.ledger, deletedByKind(thePlan, report, goneWith));
}

/**
 * The plan made again after the writes: what it still finds to do is what did not take. A
 * verification read that fails leaves the writes unchecked: reported (exit 4), never a crash
 * without a report. With the changelog refresh, the verification read is a full read that starts
 * a new snapshot: the next plan does not re-read, one by one, every record this apply wrote. A
 * targeted apply verifies within its read scope: the catalogue it loaded holds what its targets
 * touch (targeted-load.ts).
 */
function verify(run: ApplySession, planned: PlanResult, state: LedgerState, report: ApplyReport): Promise<VerificationReport> {
  const { config, opts } = run;
  const basis = planned.plan.basis;
  // The prune policy the plan was made with: verification re-plans with the same one.
  const prune = basis?.prune ?? prunePolicy(config);
  const verified = basis?.targets?.length
    ? (readScope(planned.desired, { targets: basis.targets, excludes: basis.excludes ?? [], ignore: config.scope.ignore ?? [] })?.desired ?? planned.desired)
    : planned.desired;
  return planAgainst(run.connection, config, verified, state.ledger, prune, opts, { rebuildSnapshot: true }).then(
    (replanned) => verifyApplied(report, replanned.plan),
    (e: unknown): VerificationReport => ({ checked: 0, mismatches: [], error: errorText(e) }),
  );
}

/** Releases the lock and closes the client; a lock that cannot be released is reported beside the result, or with the error. */
async function releaseAndClose(run: ApplySession, lock: HeldLock | undefined, failure: unknown): Promise<void> {
  const { connection, result } = run;
  const unlockError = await lock?.release().then(
    () => undefined,
    (e: unknown) => e,
  );
  await connection.api.close();
  if (unlockError === undefined || !lock) return;
  // The git error's own detail lines stay lines (a message holds one line; details the rest).
  const [first, ...more] = errorText(unlockError).split("\n");
  const notReleased = new PimctlError("io", `the lock of tenant "${connection.name}" could not be released: ${first}`, {
    details: [...more.map((l) => l.trim()).filter(Boolean), `break it with: ${unlockCommand(lock.info.id, run.multiTenant ? connection.name : undefined)}`],
  });
  // After the writes: reported beside the ledger's fate, never instead of it.
  if (result && !result.aborted) result.lockNotReleased = { error: notReleased.format(), id: lock.info.id };
  else if (failure instanceof PimctlError || failure instanceof PimctlErrors) throw new PimctlErrors([...errorsOf(failure), notReleased]);
  else if (failure === undefined) throw notReleased;
  else run.opts.warn?.(notReleased.format());
}
