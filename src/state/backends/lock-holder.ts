/** Who holds a tenant's lock, told to a person: the holder, how long ago, and how to break it. */
import { randomUUID } from "node:crypto";
import { hostname, userInfo } from "node:os";
import { PimctlError } from "../../errors.js";
import { pidScope, type LockInfo, type StateBackend } from "./types.js";

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
