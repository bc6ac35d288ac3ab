/**
 * The git backend: the ledger on a dedicated ref of a Git remote, so every
 * runner that checks the repository out finds it, with the credentials the
 * checkout already has.
 *
 *   refs/pimctl/state/<tenant>  a commit whose tree holds ledger.json
 *   refs/pimctl/lock/<tenant>   a commit whose tree holds lock.json
 *
 * Only plumbing is used (hash-object, mktree, commit-tree, push, fetch), so
 * the checked-out branch, the index and the working tree are never touched and
 * no state is ever committed onto a branch. Fetched refs land in a private
 * namespace (refs/pimctl-fetched/...). Commits carry an explicit author and
 * committer, so runners with no Git identity configured work.
 *
 * Compare-and-swap is `git push --force-with-lease=<ref>:<expected>`: the
 * remote updates the ref only if it still points where we read it (an empty
 * <expected> means "must not exist", which is how the lock is created).
 *
 * The lock is a lease: its holder pushes a new lock commit (a later `renewed`
 * time, with a lease on its previous commit) every `renew_ms` while it runs,
 * and a lock not renewed for LEASE_PERIODS periods is stale. Nothing is
 * judged from hostnames or pids: they mean nothing across containers.
 */
import { spawn } from "node:child_process";
import path from "node:path";
import { PimctlError } from "../../errors.js";
import { parseLock, safeId } from "./local.js";
import { leaseExpired, type LockInfo, type LockResult, type StateBackend, type StoredState, type WriteResult } from "./types.js";

interface GitRun {
  code: number;
  /** The signal that ended git, when one did (a killed push). */
  signal?: NodeJS.Signals;
  stdout: string;
  stderr: string;
}

/** git's words for a remote whose repository is not there (moved, deleted, mistyped path). */
const MISSING_REPOSITORY = /does not appear to be a git repository|repository .* not found|not found: .*repository/i;

/** The identity of state commits: fixed, so no user or runner configuration is needed. */
const IDENTITY = {
  GIT_AUTHOR_NAME: "pimctl",
  GIT_AUTHOR_EMAIL: "pimctl@localhost",
  GIT_COMMITTER_NAME: "pimctl",
  GIT_COMMITTER_EMAIL: "pimctl@localhost",
};

/** Credentials can appear in remote URLs (https://user:token@host): never print them. */
export function redactUrls(text: string): string {
  return text.replace(/([a-z][a-z0-9+.-]*:\/\/)[^/@\s]+@/gi, "$1***@");
}

export class GitBackend implements StateBackend {
  readonly kind = "git" as const;
  readonly stateRef: string;
  readonly lockRef: string;

  constructor(
    /** A directory inside the repository that holds pimctl.yaml. */
    readonly repoDir: string,
    readonly remote: string,
    readonly tenant: string,
    readonly env: NodeJS.ProcessEnv = process.env,
  ) {
    // Tenant names allow dots; a ref name may not start with one, hold "..", or end in ".lock".
    if (tenant.startsWith(".") || tenant.includes("..") || tenant.endsWith(".lock")) {
      throw new PimctlError("config", `tenant "${tenant}" cannot name a Git ref (refs/pimctl/state/${tenant}); rename the tenant to use state.backend git`);
    }
    this.stateRef = `refs/pimctl/state/${tenant}`;
    this.lockRef = `refs/pimctl/lock/${tenant}`;
  }

  get location(): string {
    return `${this.remote} ${this.stateRef}`;
  }

  get lockLocation(): string {
    return `${this.remote} ${this.lockRef}`;
  }

  private git(args: string[], opts: { input?: string; identity?: boolean } = {}): Promise<GitRun> {
    return new Promise((resolve, reject) => {
      const child = spawn("git", ["-C", this.repoDir, ...args], {
        // LC_ALL=C: lost races and missing refs are recognised by git's English messages.
        env: { ...this.env, GIT_TERMINAL_PROMPT: "0", LC_ALL: "C", ...(opts.identity ? IDENTITY : {}) },
        stdio: [opts.input === undefined ? "ignore" : "pipe", "pipe", "pipe"],
        // Its own process group: Ctrl-C in a terminal (or a CI runner's signal to the group)
        // reaches pimctl, which decides; a state or lock push is never cut in half by it.
        detached: true,
        windowsHide: true,
      });
      let stdout = "";
      let stderr = "";
      child.stdout!.on("data", (d: Buffer) => (stdout += d.toString()));
      child.stderr!.on("data", (d: Buffer) => (stderr += d.toString()));
      child.on("error", (e) => reject(new PimctlError("io", `cannot run git (state backend "git" needs it on PATH): ${e.message}`)));
      child.on("close", (code, signal) => resolve({ code: code ?? 1, ...(signal ? { signal } : {}), stdout, stderr }));
      if (opts.input !== undefined) {
        child.stdin!.on("error", () => undefined); // git may exit before reading; its exit code tells
        child.stdin!.end(opts.input);
      }
    });
  }

  private async must(args: string[], opts: { input?: string; identity?: boolean } = {}): Promise<string> {
    const r = await this.git(args, opts);
    if (r.code !== 0)
      throw new PimctlError("io", `git ${args[0]} failed for the pimctl state on ${this.remote}: ${redactUrls(r.stderr.trim() || r.stdout.trim())}`);
    return r.stdout.trim();
  }

  /** Fetch one ref of the remote into the private namespace; "" when the remote has no such ref. */
  private async fetchRef(ref: string): Promise<string> {
    const local = ref.replace("refs/pimctl/", "refs/pimctl-fetched/");
    const r = await this.git([
      "-c",
      "gc.auto=0",
      "-c",
      "maintenance.auto=false",
      "fetch",
      "--quiet",
      "--no-tags",
      "--no-write-fetch-head",
      this.remote,
      `+${ref}:${local}`,
    ]);
    if (r.code !== 0) {
      if (/not a git repository/i.test(r.stderr)) {
        throw new PimctlError("config", `state.backend git keeps the state on a Git remote, but ${this.repoDir} is not inside a Git checkout`, {
          details: ["run pimctl from a clone of the repository that holds pimctl.yaml, or use state.backend local"],
        });
      }
      if (MISSING_REPOSITORY.test(r.stderr) || /no such remote/i.test(r.stderr)) throw await this.missingRemote(`cannot fetch ${ref} from`);
      if (/couldn't find remote ref|no such ref/i.test(r.stderr)) {
        await this.git(["update-ref", "-d", local]);
        return "";
      }
      if (r.signal) throw new PimctlError("io", `cannot fetch ${ref} from ${this.remote}: fetch interrupted (git ended by ${r.signal})`);
      throw new PimctlError("io", `cannot fetch ${ref} from ${this.remote}: ${redactUrls(r.stderr.trim())}`, {
        details: ["state.backend git keeps the ledger on that remote; check state.remote in pimctl.yaml and that the checkout can fetch"],
      });
    }
    return this.must(["rev-parse", "--verify", `${local}^{commit}`]);
  }

  /**
   * git says "does not appear to be a git repository" both for a remote name that is not
   * configured and for a configured remote whose repository is gone: tell them apart.
   */
  private async missingRemote(what: string): Promise<PimctlError> {
    const url = await this.git(["remote", "get-url", this.remote]);
    if (url.code === 0) {
      return new PimctlError("io", `${what} remote "${this.remote}" (${redactUrls(url.stdout.trim())}): remote path not found`, {
        // GitHub answers "Repository not found" also to credentials that cannot see a private repository.
        details: ["the repository is not at that path or URL (moved or deleted), or, on a hosted remote, the credentials cannot see it; check: git remote -v"],
      });
    }
    if (/[/:\\]/.test(this.remote)) return new PimctlError("io", `${what} ${redactUrls(this.remote)}: remote path not found`);
    return new PimctlError("config", `state.remote "${this.remote}" is not a remote of the repository at ${this.repoDir}`, {
      details: ["set state.remote in pimctl.yaml to one of: git remote -v"],
    });
  }

  /** A commit holding one file, with `parent` when given. */
  private async commitFile(name: string, text: string, parent: string, message: string): Promise<string> {
    const blob = await this.must(["hash-object", "-w", "--stdin"], { input: text });
    const tree = await this.must(["mktree"], { input: `100644 blob ${blob}\t${name}\n` });
    return this.must(["commit-tree", tree, ...(parent ? ["-p", parent] : []), "-m", message], { identity: true });
  }

  /** Set `ref` on the remote to `commit` (or delete it when commit is "") only if it still points at `expected`. */
  private async pushLease(ref: string, commit: string, expected: string): Promise<boolean> {
    const r = await this.git(["push", "--quiet", "--porcelain", "--no-verify", `--force-with-lease=${ref}:${expected}`, this.remote, `${commit}:${ref}`]);
    if (r.code === 0) return true;
    const out = `${r.stdout}\n${r.stderr}`;
    // Lost races: the lease failed on our side ([rejected] stale info), or the remote's own
    // atomic ref update saw another value first (cannot lock ref ... but expected ...).
    if (r.signal)
      throw new PimctlError("io", `cannot push ${ref} to ${this.remote}: push interrupted (git ended by ${r.signal}); the ref may or may not have changed`);
    if (/\[rejected\]|stale info|already exists|fetch first|non-fast-forward|cannot lock ref|but expected|failed to update ref/i.test(out)) return false;
    if (MISSING_REPOSITORY.test(out)) throw await this.missingRemote(`cannot push ${ref} to`);
    const denied = /permission|denied|forbidden|\b403\b|unauthori[sz]ed|authentication|write access|read-only|protected/i.test(out);
    throw new PimctlError("io", `cannot push ${ref} to ${this.remote}: ${redactUrls(r.stderr.trim() || r.stdout.trim())}`, {
      ...(denied ? { details: ["the job needs write access to the repository (GitHub Actions: permissions: contents: write)"] } : {}),
    });
  }

  async read(): Promise<StoredState> {
    const version = await this.fetchRef(this.stateRef);
    if (!version) return { version: "" };
    return { text: await this.must(["cat-file", "blob", `${version}:ledger.json`]).then((t) => `${t}\n`), version };
  }

  async write(text: string, expectedVersion: string): Promise<WriteResult> {
    const commit = await this.commitFile("ledger.json", text, expectedVersion, `pimctl state of tenant ${this.tenant}`);
    return (await this.pushLease(this.stateRef, commit, expectedVersion)) ? { ok: true, version: commit } : { ok: false };
  }

  private async lockAt(): Promise<{ sha: string; info?: LockInfo }> {
    const sha = await this.fetchRef(this.lockRef);
    if (!sha) return { sha };
    return { sha, info: parseLock(await this.must(["cat-file", "blob", `${sha}:lock.json`])) };
  }

  /** Inside the clone's .git directory: never committed, never in the work tree. */
  async cacheDir(): Promise<string> {
    return path.join(await this.must(["rev-parse", "--absolute-git-dir"]), "pimctl-cache");
  }

  async readLock(): Promise<LockInfo | undefined> {
    return (await this.lockAt()).info;
  }

  /** Lock commits this process created: releasing one needs no fetch, the lease still guards it. */
  private readonly ownLocks = new Map<string, string>();

  async lock(info: LockInfo, opts: { staleMs: number }): Promise<LockResult> {
    const commit = await this.commitFile("lock.json", `${JSON.stringify(info, null, 2)}\n`, "", `pimctl lock ${safeId(info.id)}: ${info.why}`);
    this.ownLocks.set(info.id, commit);
    for (let attempt = 0; attempt < 5; attempt++) {
      if (await this.pushLease(this.lockRef, commit, "")) return { acquired: true };
      const held = await this.lockAt();
      if (!held.sha) continue; // released in between
      const holder = held.info!;
      // No verdict from hostname and pid: runners in containers share hostnames, and a pid
      // means nothing outside its namespace. Only a lease that ran out makes a lock stale.
      if (!leaseExpired(holder, { staleMs: opts.staleMs })) return { acquired: false, holder };
      // Replace exactly that stale lock: of two takers, the second push's lease fails.
      if (await this.pushLease(this.lockRef, commit, held.sha)) return { acquired: true, tookOver: holder };
      const now = await this.lockAt();
      if (now.info) return { acquired: false, holder: now.info };
    }
    throw new PimctlError("io", `could not take the lock ${this.lockRef} on ${this.remote}: it keeps changing`);
  }

  /** Replace our lock commit with one carrying the new renewal time; the lease on our commit fails if it is not ours any more. */
  async renew(info: LockInfo): Promise<boolean> {
    const own = this.ownLocks.get(info.id);
    if (!own) return false;
    const commit = await this.commitFile("lock.json", `${JSON.stringify(info, null, 2)}\n`, "", `pimctl lock ${safeId(info.id)}: ${info.why} (renewed)`);
    if (!(await this.pushLease(this.lockRef, commit, own))) return false;
    this.ownLocks.set(info.id, commit);
    return true;
  }

  async unlock(id: string): Promise<boolean> {
    const own = this.ownLocks.get(id);
    if (own && (await this.pushLease(this.lockRef, "", own))) {
      this.ownLocks.delete(id);
      return true;
    }
    const held = await this.lockAt();
    if (!held.info || held.info.id !== id) return false;
    return this.pushLease(this.lockRef, "", held.sha);
  }
}
