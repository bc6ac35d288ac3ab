/**
 * A state backend keeps one tenant's ledger text and its apply lock. The
 * interface is deliberately small so other stores can follow (an object store
 * with conditional writes is designed in src/state/README.md):
 *
 * - read: the text and an opaque version ("" when there is none yet);
 * - write: compare-and-swap: stored only when the version is still the one
 *   read, otherwise `{ ok: false }` and the caller re-reads and merges;
 * - lock: create the lock record or report who holds it; a stale lock is
 *   taken over atomically (two processes that both see it stale: one wins);
 * - unlock: remove the lock only when it still carries the given id.
 */
import { readFileSync, readlinkSync } from "node:fs";
import { hostname } from "node:os";

export interface LockInfo {
  /** What `pimctl state unlock` takes. */
  id: string;
  /** A person or CI actor (GITHUB_ACTOR, GITLAB_USER_LOGIN), else user@host. */
  who: string;
  /** The pipeline URL when the CI exposes one, else host and pid. */
  where: string;
  /** ISO time the lock was taken. */
  since: string;
  /** The command, e.g. "apply plan.json". */
  why: string;
  host: string;
  pid: number;
  /**
   * The lease (git backend): the holder renews the lock every `renew_ms` while it runs,
   * writing the time into `renewed`. Absent in locks of older pimctl versions.
   */
  renew_ms?: number;
  renewed?: string;
  /** The holder's pid namespace (`pid:[4026531836]`) and boot id: a pid means something only where both match. */
  pid_ns?: string;
  boot_id?: string;
}

export interface StoredState {
  text?: string;
  /** Opaque; "" when nothing is stored yet. */
  version: string;
}

export type WriteResult = { ok: true; version: string } | { ok: false };

export type LockResult = { acquired: true; tookOver?: LockInfo } | { acquired: false; holder: LockInfo };

export interface StateBackend {
  readonly kind: "local" | "git";
  /** Where the state lives, for messages: a path, or remote and ref. */
  readonly location: string;
  /** Where the lock lives, for messages. */
  readonly lockLocation: string;
  read(): Promise<StoredState>;
  write(text: string, expectedVersion: string): Promise<WriteResult>;
  lock(info: LockInfo, opts: { staleMs: number }): Promise<LockResult>;
  readLock(): Promise<LockInfo | undefined>;
  /**
   * A directory on this machine for caches that are never state (the changelog
   * refresh's snapshot): losing it costs a full read, nothing else.
   */
  cacheDir(): Promise<string>;
  /** True when a lock with this id was removed. */
  unlock(id: string): Promise<boolean>;
  /**
   * Renew the lease of a lock this process holds (`info.renewed` is the new time). False when
   * the lock is no longer ours (broken with state unlock, or taken over). Backends without it
   * hold their lock for as long as the process lives (local: judged by pid).
   */
  renew?(info: LockInfo): Promise<boolean>;
}

/** A lease runs out after this many periods without a renewal. */
export const LEASE_PERIODS = 4;
/**
 * A holder that could not renew for this many periods stops starting actions. Renewals are
 * tried once a period, so this is checked at 1, 2, 3 periods after the last renewal: two failed
 * (or hung) renewals in a row stop the run at 3 periods, one period before others may take over.
 */
export const GIVE_UP_PERIODS = 2.5;

/**
 * Whether a lock's lease ran out: not renewed for LEASE_PERIODS of its own period. A lock
 * without a lease (an older pimctl, or the local backend) is stale after staleMs.
 * Clocks of the runners are assumed to agree within a period.
 */
export function leaseExpired(holder: Partial<LockInfo>, opts: { staleMs: number; now?: number }): boolean {
  if (!holder.id || !holder.since) return true;
  const now = opts.now ?? Date.now();
  if (holder.renew_ms && holder.renew_ms > 0) return now - Date.parse(holder.renewed ?? holder.since) > LEASE_PERIODS * holder.renew_ms;
  return now - Date.parse(holder.since) > opts.staleMs;
}

/** Where this process runs, as far as a pid is concerned: one host, one boot, one pid namespace. */
export interface PidScope {
  host: string;
  pid_ns?: string;
  boot_id?: string;
}

/**
 * A lock nobody will release (local backend): its process is gone, or it is older than
 * staleMs. "Gone" is only decided when the holder ran in the same pid namespace of the same
 * boot of the same host: a pid means nothing elsewhere (two containers with one hostname
 * each see the other's pid as dead). Without /proc (not Linux), host equality must do.
 */
export function isStale(holder: Partial<LockInfo>, opts: { staleMs: number; here: PidScope; alive: (pid: number) => boolean }): boolean {
  if (leaseExpired(holder, { staleMs: opts.staleMs })) return true;
  const samePidSpace = holder.host === opts.here.host && holder.pid_ns === opts.here.pid_ns && holder.boot_id === opts.here.boot_id;
  return samePidSpace && holder.pid !== undefined && !opts.alive(holder.pid);
}

let here: PidScope | undefined;

/** This process's pid scope; pid_ns and boot_id are left out where /proc does not have them. */
export function pidScope(): PidScope {
  if (here) return here;
  const read = (f: () => string): string | undefined => {
    try {
      return f().trim() || undefined;
    } catch {
      return undefined;
    }
  };
  const pidNs = read(() => readlinkSync("/proc/self/ns/pid"));
  const bootId = read(() => readFileSync("/proc/sys/kernel/random/boot_id", "utf8"));
  here = { host: hostname(), ...(pidNs ? { pid_ns: pidNs } : {}), ...(bootId ? { boot_id: bootId } : {}) };
  return here;
}

export function processAlive(pid: number): boolean {
  try {
    process.kill(pid, 0);
    return true;
  } catch (e) {
    return (e as NodeJS.ErrnoException).code === "EPERM";
  }
}
