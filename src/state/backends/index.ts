/**
 * The state of a tenant through its backend: open the backend pimctl.yaml
 * names, read the ledger (with the version a later write compares against),
 * save it with compare-and-swap (re-read and merge on a lost race), and take
 * or report the apply lock.
 */
import { randomUUID } from "node:crypto";
import { hostname, userInfo } from "node:os";
import path from "node:path";
import { PimctlError } from "../../errors.js";
import type { Config } from "../../config/index.js";
import { cloneLedger, emptyLedger, mergeLedger, parseLedger, serialiseLedger, type Ledger } from "../ledger.js";
import { stampChanges } from "../ledger-entries.js";
import { GitBackend } from "./git.js";
import { LocalBackend } from "./local.js";
import { GIVE_UP_PERIODS, LEASE_PERIODS, pidScope, type LockInfo, type StateBackend } from "./types.js";
import { hold, interruptedBy } from "../../holdings.js";
import { notADuration, parseDuration } from "../../base/durations.js";

export type { LockInfo, StateBackend } from "./types.js";
export { LocalBackend } from "./local.js";
export { GitBackend } from "./git.js";

export const DEFAULT_STALE_MS = 6 * 3600_000;

/** How often a lock's lease is renewed (git backend), unless PIMCTL_LOCK_RENEW says otherwise. */
export const DEFAULT_RENEW_MS = 30_000;
export const RENEW_ENV = "PIMCTL_LOCK_RENEW";

/** The renewal period: PIMCTL_LOCK_RENEW (30s, 500ms, ...) or 30 s. */
export function renewPeriod(env: NodeJS.ProcessEnv): number {
  const text = env[RENEW_ENV];
  if (!text) return DEFAULT_RENEW_MS;
  const ms = parseDuration(text);
  if (ms === undefined) throw new PimctlError("usage", notADuration(text));
  if (ms < 100) throw new PimctlError("usage", `${RENEW_ENV}=${text}: the lock renewal period must be at least 100ms`);
  return ms;
}

export function openBackend(config: Config, tenant: string, env: NodeJS.ProcessEnv, kind: "local" | "git" = config.state.backend): StateBackend {
  if (kind === "git") return new GitBackend(config.file ? path.dirname(config.file) : config.dir, config.state.remote, tenant, env);
  return new LocalBackend(config.ledger_dir, tenant);
}

/** A ledger as read: what this run changes, and the snapshot and version a save compares against. */
export interface LedgerState {
  ledger: Ledger;
  existed: boolean;
  base: Ledger;
  version: string;
}

export async function readLedger(backend: StateBackend, tenant: string, baseUrl: string): Promise<LedgerState> {
  const stored = await backend.read();
  const ledger = stored.text === undefined ? emptyLedger(tenant, baseUrl) : parseLedger(stored.text, backend.location, tenant, baseUrl);
  return { ledger, existed: stored.text !== undefined, base: cloneLedger(ledger), version: stored.version };
}

/**
 * Every entry this run changed since its read is marked written now (`written`: what
 * `state migrate` and `state push` compare). Done before a save and before a rescue file.
 */
export function stampLedger(state: LedgerState): void {
  stampChanges(state.base, state.ledger, new Date().toISOString());
}

/**
 * Save with compare-and-swap. When someone else wrote since our read, the write
 * is refused: re-read, merge (our changes win per record, theirs are kept),
 * try again. Never overwrites blindly. What this run changed is stamped with
 * the time first; `force` (push, migrate: a merge that kept each entry's own
 * write time) writes without stamping, even when nothing changed.
 */
export async function saveLedger(
  backend: StateBackend,
  state: LedgerState,
  opts: { warn?: (line: string) => void; force?: boolean } = {},
): Promise<{ merged: number }> {
  let merged = 0;
  if (!opts.force) stampLedger(state);
  let { base, version } = state;
  let mine = state.ledger;
  // Nothing to record: no write (with git, no new commit on every apply).
  if (!opts.force && state.existed && serialiseLedger(mine) === serialiseLedger(base)) return { merged };
  for (let attempt = 0; attempt < 10; attempt++) {
    const result = await backend.write(serialiseLedger(mine), version);
    if (result.ok) {
      state.ledger = mine;
      state.base = cloneLedger(mine);
      state.version = result.version;
      state.existed = true;
      return { merged };
    }
    const theirs = await readLedger(backend, mine.tenant, mine.base_url);
    opts.warn?.(`the state of tenant "${mine.tenant}" changed since it was read (${backend.location}); merging and writing again`);
    mine = mergeLedger(base, mine, theirs.ledger);
    base = theirs.base;
    version = theirs.version;
    merged++;
  }
  throw new PimctlError("io", `could not save the state of tenant "${mine.tenant}" to ${backend.location}: it kept changing during 10 attempts`);
}

/** Who holds a lock and from where: the CI's pipeline URL when it exposes one. */
export function lockInfo(why: string, env: NodeJS.ProcessEnv): LockInfo {
  const host = hostname();
  let user = "unknown";
  try {
    user = userInfo().username;
  } catch {
    /* no passwd entry in some containers */
  }
  const who = env.GITHUB_ACTOR ?? env.GITLAB_USER_LOGIN ?? `${user}@${host}`;
  const gh =
    env.GITHUB_SERVER_URL && env.GITHUB_REPOSITORY && env.GITHUB_RUN_ID
      ? `${env.GITHUB_SERVER_URL}/${env.GITHUB_REPOSITORY}/actions/runs/${env.GITHUB_RUN_ID}`
      : undefined;
  const where = gh ?? env.CI_JOB_URL ?? `${host} (pid ${process.pid})`;
  const { pid_ns, boot_id } = pidScope();
  return {
    id: randomUUID(),
    who,
    where,
    since: new Date().toISOString(),
    why,
    host,
    pid: process.pid,
    ...(pid_ns ? { pid_ns } : {}),
    ...(boot_id ? { boot_id } : {}),
  };
}

function ago(since: string): string {
  const s = Math.max(0, Math.round((Date.now() - Date.parse(since)) / 1000));
  return s < 120 ? `${s} s ago` : s < 7200 ? `${Math.round(s / 60)} min ago` : `${Math.round(s / 3600)} h ago`;
}

export function describeHolder(h: LockInfo): string {
  return `held by ${h.who}, at ${h.where}, since ${h.since || "?"}${h.since ? ` (${ago(h.since)})` : ""}, for: ${h.why}`;
}

export function unlockCommand(id: string, tenantFlag?: string): string {
  return `pimctl state unlock ${id}${tenantFlag ? ` --tenant ${tenantFlag}` : ""}`;
}

export function lockedError(tenant: string, backend: StateBackend, holder: LockInfo, tenantFlag?: string, waitedMs?: number): PimctlError {
  return new PimctlError(
    "ledger_locked",
    `the state of tenant "${tenant}" is locked by another pimctl run${waitedMs ? ` (waited ${Math.round(waitedMs / 1000)} s)` : ""}`,
    {
      details: [
        describeHolder(holder),
        `lock id: ${holder.id} (${backend.lockLocation})`,
        `if that run is gone, break the lock with: ${unlockCommand(holder.id, tenantFlag)}`,
        "or wait for it: --lock-timeout 5m",
      ],
    },
  );
}

export interface HeldLock {
  info: LockInfo;
  /** Stops renewing, then removes the lock (only if it still carries our id). Throws when the backend cannot be reached. */
  release(): Promise<void>;
}

function interruptedWaiting(signal: AbortSignal | undefined, tenant: string): PimctlError {
  return new PimctlError("interrupted", `interrupted (${interruptedBy(signal)}) while taking the lock of tenant "${tenant}": nothing was written`);
}

/**
 * Take the lock, or fail at once naming the holder; with timeoutMs, wait for it first.
 * While held: the lease is renewed (backends that have one), and the lock is registered as
 * held by this process, so a forced end (a second Ctrl-C) still removes it. `onLost` is called
 * once when the lock cannot be kept: taken over or broken, or not renewed for
 * GIVE_UP_PERIODS periods (before the lease runs out for others); the caller stops writing.
 */
export async function acquireLock(
  backend: StateBackend,
  tenant: string,
  opts: {
    why: string;
    env: NodeJS.ProcessEnv;
    timeoutMs?: number;
    staleMs?: number;
    tenantFlag?: string;
    warn?: (line: string) => void;
    pollMs?: number;
    signal?: AbortSignal;
    onLost?: (why: string) => void;
  },
): Promise<HeldLock> {
  const renewMs = backend.renew ? renewPeriod(opts.env) : undefined;
  const info: LockInfo = { ...lockInfo(opts.why, opts.env), ...(renewMs ? { renew_ms: renewMs } : {}) };
  if (renewMs) info.renewed = info.since;
  const what = `the lock of tenant "${tenant}"`;
  let acquiring: Promise<unknown> = Promise.resolve();
  let renewing: Promise<unknown> | undefined;
  let timer: NodeJS.Timeout | undefined;
  const stopRenewing = async () => {
    clearInterval(timer);
    timer = undefined;
    await renewing?.catch(() => undefined);
  };
  // Registered before the first push: a push in flight may create the lock after a forced end began.
  const released = hold({
    what,
    // The lock's id is known before its first push: whatever happens to that push, the person can break it.
    ifNotReleased: [`if it is still there, break it with: ${unlockCommand(info.id, opts.tenantFlag)}`],
    release: async () => {
      await acquiring.catch(() => undefined);
      await stopRenewing();
      try {
        const removed = await backend.unlock(info.id);
        return removed ? [`Released ${what} (${backend.lockLocation}).`] : [];
      } catch (e) {
        return [`${what} could not be released: ${(e as Error).message}`, `break it with: ${unlockCommand(info.id, opts.tenantFlag)}`];
      }
    },
  });
  const started = Date.now();
  let announced = false;
  try {
    for (;;) {
      if (opts.signal?.aborted) throw interruptedWaiting(opts.signal, tenant);
      const attempt = backend.lock(info, { staleMs: opts.staleMs ?? DEFAULT_STALE_MS });
      acquiring = attempt;
      const r = await attempt;
      if (r.acquired) {
        if (r.tookOver) opts.warn?.(`took over a stale lock of tenant "${tenant}" (${describeHolder(r.tookOver)})`);
        break;
      }
      const waited = Date.now() - started;
      const timeout = opts.timeoutMs ?? 0;
      if (waited >= timeout) throw lockedError(tenant, backend, r.holder, opts.tenantFlag, timeout ? waited : undefined);
      // Once: a job that sits silent in a CI log looks hung.
      if (!announced) opts.warn?.(`${what} is ${describeHolder(r.holder)}; waiting up to ${Math.round(timeout / 1000)} s (--lock-timeout)`);
      announced = true;
      await sleep(Math.min(opts.pollMs ?? 1000, timeout - waited), opts.signal);
    }
  } catch (e) {
    released();
    // Interrupted while a push was in flight: it may have created the lock after all.
    if (opts.signal?.aborted) await backend.unlock(info.id).catch(() => undefined);
    throw e;
  }
  if (renewMs) {
    let lastRenewed = Date.now();
    let lost = false;
    let failing = false;
    const lose = (why: string) => {
      if (lost) return;
      lost = true;
      clearInterval(timer);
      opts.onLost?.(why);
    };
    timer = setInterval(() => {
      const silentMs = Date.now() - lastRenewed;
      if (silentMs > GIVE_UP_PERIODS * renewMs) {
        lose(
          `${what} could not be renewed for ${Math.round(silentMs / 1000)} s (its lease runs out after ${Math.round((LEASE_PERIODS * renewMs) / 1000)} s, ` +
            `then another run may take it over)`,
        );
        return;
      }
      if (renewing) return;
      const at = new Date().toISOString();
      renewing = backend.renew!({ ...info, renewed: at })
        .then(
          (ours) => {
            if (!ours) return lose(`${what} was taken over or broken (pimctl state unlock) while this run held it`);
            info.renewed = at;
            lastRenewed = Date.parse(at);
            failing = false;
          },
          (e: unknown) => {
            // Once per run of failures: a remote that is down would repeat it every period.
            if (!failing) opts.warn?.(`${what} could not be renewed (trying again every ${renewMs / 1000} s): ${(e as Error).message}`);
            failing = true;
          },
        )
        .finally(() => (renewing = undefined));
    }, renewMs);
    timer.unref();
  }
  return {
    info,
    release: async () => {
      await stopRenewing();
      try {
        await backend.unlock(info.id);
      } finally {
        released();
      }
    },
  };
}

/** Wait ms, or less when the signal aborts. */
function sleep(ms: number, signal?: AbortSignal): Promise<void> {
  return new Promise((resolve) => {
    const done = () => {
      clearTimeout(t);
      signal?.removeEventListener("abort", done);
      resolve();
    };
    const t = setTimeout(done, ms);
    signal?.addEventListener("abort", done, { once: true });
  });
}
