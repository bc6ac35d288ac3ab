/**
 * The local backend (the default): <ledger_dir>/<tenant>.json and
 * <tenant>.lock on this machine, as before. Good for one person; pipelines on
 * fresh runners want the git backend.
 *
 * - write: compare-and-swap on the content hash, then temp file + rename (src/files/atomic-files.ts), so
 *   readers never see half a file. (The check and the rename are two steps;
 *   every writer that pimctl runs holds the lock, which closes that gap.)
 * - lock: the file is created exclusively and whole (written under a name of its
 *   own, then hard-linked to the lock's name, which fails if it exists), so no
 *   reader sees a half-written lock. A stale lock is taken
 *   over through a claim file named after the stale lock's id, also created
 *   exclusively: of several processes that see the same stale lock, exactly
 *   one creates the claim; it then replaces the lock only if the lock still
 *   carries that id. Losers report the new holder.
 * - stale: the holder's process is gone (judged only within one pid namespace of
 *   one boot of one host, see isStale), or the lock is older than staleMs.
 */
import { createHash, randomBytes } from "node:crypto";
import path from "node:path";
import { link, mkdir, readFile, readdir, rm, writeFile } from "node:fs/promises";
import { PimctlError } from "../../errors.js";
import { commitFiles } from "../../files/atomic-files.js";
import { isStale, pidScope, processAlive, type LockInfo, type LockResult, type StateBackend, type StoredState, type WriteResult } from "./types.js";

const hash = (text: string) => createHash("sha256").update(text).digest("hex");

export class LocalBackend implements StateBackend {
  readonly kind = "local" as const;
  readonly file: string;
  readonly lockFile: string;

  constructor(
    readonly dir: string,
    readonly tenant: string,
  ) {
    this.file = path.join(dir, `${tenant}.json`);
    this.lockFile = path.join(dir, `${tenant}.lock`);
  }

  get location(): string {
    return this.file;
  }

  get lockLocation(): string {
    return this.lockFile;
  }

  async read(): Promise<StoredState> {
    try {
      const text = await readFile(this.file, "utf8");
      return { text, version: hash(text) };
    } catch (e) {
      if ((e as NodeJS.ErrnoException).code === "ENOENT") return { version: "" };
      throw new PimctlError("io", `cannot read the ledger ${this.file}: ${(e as Error).message}`);
    }
  }

  async write(text: string, expectedVersion: string): Promise<WriteResult> {
    if ((await this.read()).version !== expectedVersion) return { ok: false };
    await mkdir(this.dir, { recursive: true });
    await commitFiles([{ file: this.file, text }], { journalDir: this.dir });
    return { ok: true, version: hash(text) };
  }

  async cacheDir(): Promise<string> {
    return path.join(this.dir, "cache");
  }

  async readLock(): Promise<LockInfo | undefined> {
    try {
      return parseLock(await readFile(this.lockFile, "utf8"));
    } catch (e) {
      if ((e as NodeJS.ErrnoException).code === "ENOENT") return undefined;
      throw e;
    }
  }

  /**
   * Create `file` with `text` only if it does not exist, whole: the text goes to a file of this
   * process's own, then a hard link gives it the name (atomic, and EEXIST when taken). Created
   * empty and then written, a lock could be read half-written, which reads as a lock with no id:
   * stale to another racer, which took it over beside its rightful winner (two of eight racers
   * won, once in a CI run).
   */
  private async createExclusive(file: string, text: string): Promise<boolean> {
    const own = `${file}.${process.pid}.${randomBytes(6).toString("hex")}.tmp`;
    try {
      await writeFile(own, text, { flag: "wx" });
      await link(own, file);
      return true;
    } catch (e) {
      if ((e as NodeJS.ErrnoException).code === "EEXIST") return false;
      throw new PimctlError("io", `cannot create ${file}: ${(e as Error).message}`);
    } finally {
      await rm(own, { force: true });
    }
  }

  async lock(info: LockInfo, opts: { staleMs: number }): Promise<LockResult> {
    await mkdir(this.dir, { recursive: true });
    if (await this.createExclusive(this.lockFile, JSON.stringify(info))) return { acquired: true };
    const holder = await this.readLock();
    if (!holder) return this.lock(info, opts); // released in between: try again
    if (!isStale(holder, { staleMs: opts.staleMs, here: pidScope(), alive: processAlive })) return { acquired: false, holder };
    // Only one process can create the claim for this stale lock's id.
    const claim = `${this.lockFile}.takeover-${safeId(holder.id)}`;
    if (!(await this.createExclusive(claim, String(process.pid)))) return { acquired: false, holder: (await this.readLock()) ?? holder };
    try {
      const still = await this.readLock();
      if (still && still.id !== holder.id) return { acquired: false, holder: still };
      await rm(this.lockFile, { force: true });
      if (await this.createExclusive(this.lockFile, JSON.stringify(info))) return { acquired: true, tookOver: holder };
      return { acquired: false, holder: (await this.readLock()) ?? holder };
    } finally {
      await rm(claim, { force: true });
    }
  }

  async unlock(id: string): Promise<boolean> {
    const holder = await this.readLock();
    if (!holder || holder.id !== id) return false;
    await rm(this.lockFile, { force: true });
    // Claims left by a process killed mid-takeover would block the next takeover of that id.
    for (const f of await readdir(this.dir).catch(() => [] as string[])) {
      if (f.startsWith(`${this.tenant}.lock.takeover-`)) await rm(path.join(this.dir, f), { force: true });
    }
    return true;
  }
}

/** Ids come from files and remotes: keep them to characters safe in a file or ref name. */
export function safeId(id: string | undefined): string {
  return (id ?? "none").replace(/[^A-Za-z0-9_-]/g, "_").slice(0, 80) || "none";
}

/** A lock record as stored; an unreadable one has no id (and so counts as stale). */
export function parseLock(text: string): LockInfo {
  try {
    const v = JSON.parse(text) as Partial<LockInfo> & { command?: string };
    // Locks written before locks had ids ({pid, host, since, command}) get one from their pid.
    const id = v.id ?? (v.pid !== undefined ? `legacy-${v.pid}` : "");
    const host = String(v.host ?? "?");
    return {
      id: String(id),
      who: String(v.who ?? `pid ${v.pid ?? "?"} on ${host}`),
      where: String(v.where ?? `${host} (pid ${v.pid ?? "?"})`),
      since: String(v.since ?? ""),
      why: String(v.why ?? v.command ?? "?"),
      host,
      pid: Number(v.pid ?? 0),
      ...(typeof v.renew_ms === "number" && v.renew_ms > 0 ? { renew_ms: v.renew_ms } : {}),
      ...(typeof v.renewed === "string" ? { renewed: v.renewed } : {}),
      ...(typeof v.pid_ns === "string" ? { pid_ns: v.pid_ns } : {}),
      ...(typeof v.boot_id === "string" ? { boot_id: v.boot_id } : {}),
    };
  } catch {
    return { id: "", who: "?", where: "?", since: "", why: "unreadable lock", host: "?", pid: 0 };
  }
}
