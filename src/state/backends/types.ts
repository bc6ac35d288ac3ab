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
}

/** A lock nobody will release: its process died on this host, or it is older than staleMs. */
export function isStale(holder: Partial<LockInfo>, opts: { staleMs: number; host: string; alive: (pid: number) => boolean }): boolean {
  if (!holder.id || !holder.since) return true;
  if (holder.host === opts.host && holder.pid !== undefined && !opts.alive(holder.pid)) return true;
  return Date.now() - Date.parse(holder.since) > opts.staleMs;
}

export function processAlive(pid: number): boolean {
  try {
    process.kill(pid, 0);
    return true;
  } catch (e) {
    return (e as NodeJS.ErrnoException).code === "EPERM";
  }
}
