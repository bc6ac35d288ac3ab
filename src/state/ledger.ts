/**
 * The ledger: what pimctl wrote that API v1 cannot read back (channel web ids,
 * the image_url each asset came from, brand attribute-set assignments), per
 * tenant, keyed by remote record id so renames keep their entries.
 *
 * - Lives in <ledger_dir>/<tenant>.json (default .pimctl/ beside the config);
 *   sorted keys, stable formatting, atomic writes (temp file + rename).
 * - Records the tenant's base URL: a ledger is never used against another tenant.
 * - apply holds <tenant>.lock (created exclusively) while it runs; a live lock
 *   refuses a second apply, a stale one (dead process on this host, or older
 *   than staleMs) is taken over with a warning.
 * - Missing: plans say write-only values are unknown and write them once.
 */
import { hostname } from "node:os";
import path from "node:path";
import { mkdir, open, readFile, rename, rm, writeFile } from "node:fs/promises";
import { PimctlError } from "../errors.js";

export const LEDGER_FORMAT = 1;

export interface Ledger {
  tenant: string;
  base_url: string;
  /** "brand:<id>" | "category:<id>" -> channel name -> web id */
  web_ids: Record<string, Record<string, string>>;
  /** "brand:<id>" | "category:<id>" -> asset id -> the image_url it was written from */
  assets: Record<string, Record<string, { image_url: string }>>;
  /** brand id -> attribute set names assigned */
  brand_attribute_sets: Record<string, string[]>;
}

export function emptyLedger(tenant: string, baseUrl: string): Ledger {
  return { tenant, base_url: baseUrl, web_ids: {}, assets: {}, brand_attribute_sets: {} };
}

const file = (dir: string, tenant: string) => path.join(dir, `${tenant}.json`);

export async function loadLedger(dir: string, tenant: string, baseUrl: string): Promise<{ ledger: Ledger; existed: boolean }> {
  let text: string;
  try {
    text = await readFile(file(dir, tenant), "utf8");
  } catch (e) {
    if ((e as NodeJS.ErrnoException).code === "ENOENT") return { ledger: emptyLedger(tenant, baseUrl), existed: false };
    throw new PimctlError("io", `cannot read the ledger ${file(dir, tenant)}: ${(e as Error).message}`);
  }
  let data: Partial<Ledger> & { format?: number };
  try {
    data = JSON.parse(text);
  } catch {
    throw new PimctlError("io", `the ledger ${file(dir, tenant)} is not valid JSON; restore it from Git or delete it (write-only values will then be written once more)`);
  }
  if (data.base_url && data.base_url !== baseUrl) {
    throw new PimctlError(
      "config",
      `the ledger ${file(dir, tenant)} belongs to ${data.base_url}, not ${baseUrl}; use a separate ledger_dir or tenant name per tenant`,
    );
  }
  return {
    ledger: { ...emptyLedger(tenant, baseUrl), web_ids: data.web_ids ?? {}, assets: data.assets ?? {}, brand_attribute_sets: data.brand_attribute_sets ?? {} },
    existed: true,
  };
}

function sortDeep(v: unknown): unknown {
  if (Array.isArray(v)) return v.map(sortDeep);
  if (v && typeof v === "object") {
    return Object.fromEntries(
      Object.keys(v)
        .sort()
        .map((k) => [k, sortDeep((v as Record<string, unknown>)[k])]),
    );
  }
  return v;
}

export function serialiseLedger(ledger: Ledger): string {
  const { tenant, base_url, ...rest } = ledger;
  return `${JSON.stringify({ format: LEDGER_FORMAT, tenant, base_url, ...(sortDeep(rest) as object) }, null, 2)}\n`;
}

export async function saveLedger(dir: string, ledger: Ledger): Promise<void> {
  await mkdir(dir, { recursive: true });
  const target = file(dir, ledger.tenant);
  const tmp = `${target}.${process.pid}.tmp`;
  await writeFile(tmp, serialiseLedger(ledger), "utf8");
  await rename(tmp, target);
}

interface LockInfo {
  pid: number;
  host: string;
  since: string;
  command?: string;
}

function alive(pid: number): boolean {
  try {
    process.kill(pid, 0);
    return true;
  } catch (e) {
    return (e as NodeJS.ErrnoException).code === "EPERM";
  }
}

export async function lockLedger(
  dir: string,
  tenant: string,
  opts: { staleMs?: number; command?: string; warn?: (line: string) => void } = {},
): Promise<{ release(): Promise<void> }> {
  await mkdir(dir, { recursive: true });
  const lockFile = path.join(dir, `${tenant}.lock`);
  const info: LockInfo = { pid: process.pid, host: hostname(), since: new Date().toISOString(), ...(opts.command ? { command: opts.command } : {}) };
  for (let attempt = 0; attempt < 2; attempt++) {
    try {
      const fh = await open(lockFile, "wx");
      await fh.writeFile(JSON.stringify(info));
      await fh.close();
      return { release: () => rm(lockFile, { force: true }) };
    } catch (e) {
      if ((e as NodeJS.ErrnoException).code !== "EEXIST") throw new PimctlError("io", `cannot create the lock ${lockFile}: ${(e as Error).message}`);
    }
    let holder: Partial<LockInfo> = {};
    try {
      holder = JSON.parse(await readFile(lockFile, "utf8"));
    } catch {
      /* unreadable: treat as stale */
    }
    const age = holder.since ? Date.now() - Date.parse(holder.since) : Infinity;
    const stale = (holder.host === hostname() && holder.pid !== undefined && !alive(holder.pid)) || age > (opts.staleMs ?? 6 * 3600_000) || holder.pid === undefined;
    if (!stale) {
      throw new PimctlError("ledger_locked", `another pimctl run holds the ledger lock of tenant "${tenant}"`, {
        details: [`held by pid ${holder.pid} on ${holder.host} since ${holder.since}${holder.command ? ` (${holder.command})` : ""}`, `lock file: ${lockFile}; remove it only if that run is gone`],
      });
    }
    opts.warn?.(`taking over a stale ledger lock of tenant "${tenant}" (pid ${holder.pid ?? "?"} on ${holder.host ?? "?"} since ${holder.since ?? "?"})`);
    await rm(lockFile, { force: true });
  }
  throw new PimctlError("ledger_locked", `could not take the ledger lock of tenant "${tenant}"`);
}
