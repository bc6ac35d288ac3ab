/**
 * `pimctl state ...` as library calls: show, pull, push, migrate, rm, unlock.
 * Every change to the stored ledger takes the apply lock first and writes with
 * compare-and-swap, like apply does.
 */
import { PimctlError, PimctlErrors } from "../errors.js";
import { hold, interruptedBy } from "../holdings.js";
import type { Config } from "../config/index.js";
import { connect, pickTenant, tenantBaseUrl } from "../tenant.js";
import { type ProjectOptions, projectConfig } from "./project.js";
import { forgetRecord, ledgerEntries, emptyLedger, parseLedger, serialiseLedger, type Ledger, type LedgerEntry } from "../state/ledger.js";
import { describeUnsure, mergeNewer, type NewerOptions, type Unsure } from "../state/ledger-entries.js";
import {
  acquireLock,
  describeHolder,
  openBackend,
  readLedger,
  saveLedger,
  unlockCommand,
  type HeldLock,
  type LockInfo,
  type StateBackend,
} from "../state/backends/index.js";
import { addressOf, parseRecordRef, recordNames, resolveRef, type RecordKind, type RecordNames } from "../state/ledger-addresses.js";

/** The state backend a project's config names, for `pimctl state`. */
export async function openProjectState(
  opts: ProjectOptions & { backend?: "local" | "git" },
  given?: Config,
): Promise<{ config: Config; backend: StateBackend; tenant: string; baseUrl: string }> {
  // A command over several tenants read the config once to select them: each tenant's state reuses it.
  const config = given ?? (await projectConfig(opts));
  const { name, tenant } = pickTenant(config, opts.tenant);
  return { config, backend: openBackend(config, name, opts.env, opts.backend), tenant: name, baseUrl: tenantBaseUrl(config, name, tenant) };
}

export interface StateOptions extends ProjectOptions {
  lockTimeoutMs?: number;
  warn?: (line: string) => void;
  /** push, migrate: where write times cannot tell two differing entries apart, take this side instead of refusing. */
  prefer?: "incoming" | "stored";
}

/** What a push or a migration did: entries taken from the incoming ledger, differing ones kept because the stored one was newer. */
export interface MergedState {
  taken: number;
  kept: number;
  /** Entries where write times could not tell, settled by --prefer. */
  settled: number;
}

/**
 * `incoming` merged into the stored ledger (state.ledger), newer entry by entry (ledger-entries.ts
 * mergeNewer): never a rollback of what a newer apply wrote. Refuses, listing them, where write
 * times cannot tell two differing entries apart, unless `prefer` says which side to take.
 */
function mergeInto(stored: { ledger: Ledger }, incoming: Ledger, o: NewerOptions, names: { stored: string; incoming: string }): MergedState {
  const merged = mergeNewer(stored.ledger, incoming, o);
  if (merged.unsure.length && !o.prefer) throw unsureError(merged.unsure, names);
  stored.ledger = merged.ledger;
  return { taken: merged.taken, kept: merged.kept, settled: merged.unsure.length };
}

function unsureError(unsure: Unsure[], names: { stored: string; incoming: string }): PimctlError {
  const shown = unsure.slice(0, 20).map((u) => describeUnsure(u, names));
  const count = unsure.length === 1 ? "1 entry" : `${unsure.length} entries`;
  return new PimctlError("plan_refused", `the two ledgers hold ${count} differently, and no write time says which is newer: nothing was written`, {
    details: [
      ...shown,
      ...(unsure.length > shown.length ? [`... and ${unsure.length - shown.length} more`] : []),
      `keep one side for these entries with --prefer stored (${names.stored}) or --prefer incoming (${names.incoming}); ` +
        "every other entry is merged by its write time",
    ],
  });
}

async function withLock<T>(opts: StateOptions, backend: StateBackend, tenant: string, why: string, multiTenant: boolean, fn: () => Promise<T>): Promise<T> {
  const lock: HeldLock = await acquireLock(backend, tenant, {
    why,
    env: opts.env,
    ...(opts.lockTimeoutMs ? { timeoutMs: opts.lockTimeoutMs } : {}),
    ...(multiTenant ? { tenantFlag: tenant } : {}),
    ...(opts.warn ? { warn: opts.warn } : {}),
    ...(opts.signal ? { signal: opts.signal } : {}),
  });
  let failure: unknown;
  try {
    if (opts.signal?.aborted)
      throw new PimctlError("interrupted", `interrupted (${interruptedBy(opts.signal)}) before ${why} wrote anything: nothing was written`);
    return await fn();
  } catch (e) {
    failure = e;
    throw e;
  } finally {
    // A lock that cannot be released is reported beside the command's own failure, never instead of it.
    const unlockError = await lock.release().then(
      () => undefined,
      (e: unknown) => e,
    );
    if (unlockError !== undefined) {
      const notReleased = new PimctlError(
        "io",
        `the lock of tenant "${tenant}" could not be released: ${(unlockError as Error).message ?? String(unlockError)}`,
        {
          details: [`break it with: ${unlockCommand(lock.info.id, multiTenant ? tenant : undefined)}`],
        },
      );
      if (failure === undefined) throw notReleased;
      if (failure instanceof PimctlError || failure instanceof PimctlErrors)
        throw new PimctlErrors([...(failure instanceof PimctlErrors ? failure.errors : [failure]), notReleased]);
      opts.warn?.(notReleased.format());
    }
  }
}

/** Names for the records the entries refer to; undefined when the tenant cannot be reached (no token). */
async function namesFor(opts: ProjectOptions, kinds: Set<RecordKind>, config: Config): Promise<RecordNames | undefined> {
  if (!kinds.size) return { brands: new Map(), categories: new Map() };
  let connection;
  try {
    connection = await connect(config, opts.tenant, { env: opts.env, ...(opts.logHttp ? { logHttp: opts.logHttp } : {}) });
  } catch {
    return undefined;
  }
  try {
    return await recordNames(connection.api, kinds);
  } finally {
    await connection.api.close();
  }
}

export interface ShownEntry extends LedgerEntry {
  /** brand["Acme"]; undefined when not resolved (offline) or the record is gone from the tenant. */
  address?: string;
}

export async function showState(
  opts: ProjectOptions & { offline?: boolean },
  given?: Config,
): Promise<{ tenant: string; location: string; existed: boolean; lock?: LockInfo; entries: ShownEntry[]; resolved: boolean }> {
  const { config, backend, tenant, baseUrl } = await openProjectState(opts, given);
  const state = await readLedger(backend, tenant, baseUrl);
  const lock = await backend.readLock();
  const entries = ledgerEntries(state.ledger);
  const names = opts.offline ? undefined : await namesFor(opts, new Set(entries.map((e) => e.kind)), config);
  return {
    tenant,
    location: backend.location,
    existed: state.existed,
    ...(lock ? { lock } : {}),
    resolved: names !== undefined,
    entries: entries.map((e) => {
      const address = names ? addressOf(names, e.kind, e.id) : undefined;
      return address ? { ...e, address } : e;
    }),
  };
}

/** The stored ledger text (an empty ledger when there is none yet). */
export async function pullState(opts: ProjectOptions): Promise<string> {
  const { backend, tenant, baseUrl } = await openProjectState(opts);
  const stored = await backend.read();
  return stored.text ?? serialiseLedger(emptyLedger(tenant, baseUrl));
}

/**
 * Merge `text` (a ledger file: a rescue file, one pulled and repaired by hand) into the stored
 * ledger, after checking it belongs to this tenant: per entry the newer by write time, so a push
 * of an older copy never rolls back what an apply wrote since; an entry the file changed by hand
 * (the same write time as the stored one) is taken. Entries only the stored ledger holds stay
 * (forget records with `state rm`).
 */
export async function pushState(opts: StateOptions, text: string, source: string): Promise<{ entries: number; location: string } & MergedState> {
  const { config, backend, tenant, baseUrl } = await openProjectState(opts);
  const incoming = parseLedger(text, source, tenant, baseUrl);
  // A ledger pulled from another tenant of the same service (the same base URL) is still another tenant's.
  const named = (JSON.parse(text) as { tenant?: unknown }).tenant;
  if (typeof named === "string" && named !== tenant) {
    throw new PimctlError(
      "config",
      `${source} is the ledger of tenant "${named}", not "${tenant}"; push it with --tenant ${named}, or pull this tenant's ledger to repair`,
    );
  }
  return withLock(opts, backend, tenant, "state push", Object.keys(config.tenants).length > 1, async () => {
    const current = await readLedger(backend, tenant, baseUrl);
    const merged = mergeInto(
      current,
      incoming,
      { tie: "incoming", ...(opts.prefer ? { prefer: opts.prefer } : {}) },
      { stored: backend.location, incoming: source },
    );
    const writing = hold({ what: `the ledger of tenant "${tenant}" being stored`, writeInFlight: true, release: async () => [] });
    try {
      await saveLedger(backend, current, { force: true, ...(opts.warn ? { warn: opts.warn } : {}) });
    } finally {
      writing();
    }
    return { entries: ledgerEntries(incoming).length, location: backend.location, ...merged };
  });
}

/**
 * Copy the ledger from the configured backend (or `from`) to `to`, under both locks, merging
 * entry by entry: an entry only one side has is kept, of two that differ the newer by write time
 * (never a rollback of what a newer apply wrote), and where write times cannot tell (a ledger
 * from before them, or two copies edited at one time) it refuses with the list.
 */
export async function migrateState(
  opts: StateOptions & { to: "local" | "git"; from?: "local" | "git" },
): Promise<{ copied: number; total: number; from: string; to: string } & MergedState> {
  const { config, tenant, baseUrl } = await openProjectState(opts);
  const fromKind = opts.from ?? (config.state.backend === opts.to ? (opts.to === "git" ? "local" : "git") : config.state.backend);
  if (fromKind === opts.to) throw new PimctlError("usage", `migrate needs two different backends (both are "${opts.to}")`);
  const source = openBackend(config, tenant, opts.env, fromKind);
  const target = openBackend(config, tenant, opts.env, opts.to);
  const multi = Object.keys(config.tenants).length > 1;
  return withLock(opts, source, tenant, `state migrate --to ${opts.to}`, multi, () =>
    withLock(opts, target, tenant, `state migrate --to ${opts.to}`, multi, async () => {
      const from = await readLedger(source, tenant, baseUrl);
      const into = await readLedger(target, tenant, baseUrl);
      const merged = mergeInto(
        into,
        from.ledger,
        { tie: "unsure", ...(opts.prefer ? { prefer: opts.prefer } : {}) },
        {
          stored: target.location,
          incoming: source.location,
        },
      );
      await saveLedger(target, into, { force: true, ...(opts.warn ? { warn: opts.warn } : {}) });
      return { copied: ledgerEntries(from.ledger).length, total: ledgerEntries(into.ledger).length, from: source.location, to: target.location, ...merged };
    }),
  );
}

/** Forget records (all their entries) so their write-only values are written again by the next apply. */
export async function rmState(opts: StateOptions, refs: string[]): Promise<{ removed: Array<{ ref: string; entries: number }> }> {
  const { config, backend, tenant, baseUrl } = await openProjectState(opts);
  const parsed = refs.map((r) => ({ text: r, ref: parseRecordRef(r) }));
  const needNames = new Set(parsed.filter((p) => !("id" in p.ref)).map((p) => p.ref.kind));
  const names = await namesFor(opts, needNames, config);
  if (!names)
    throw new PimctlError(
      "usage",
      "addresses need the tenant to find the record ids (its token is not set); give ledger keys like brand:12 instead (pimctl state show --offline)",
    );
  const ids = parsed.map((p) => {
    const r = resolveRef(p.ref, names);
    if (!r) throw new PimctlError("usage", `${p.text}: no such record in tenant "${tenant}"; ledger keys (brand:12) are listed by pimctl state show`);
    return { text: p.text, ...r };
  });
  return withLock(opts, backend, tenant, `state rm ${refs.join(" ")}`, Object.keys(config.tenants).length > 1, async () => {
    const state = await readLedger(backend, tenant, baseUrl);
    const removed = ids.map((r) => ({ ref: r.text, entries: forgetRecord(state.ledger, r.kind, r.id) }));
    if (removed.every((r) => r.entries === 0)) return { removed };
    await saveLedger(backend, state, opts.warn ? { warn: opts.warn } : {});
    return { removed };
  });
}

/** Break a lock explicitly (`terraform force-unlock`): only the lock with this id. */
export async function unlockState(opts: ProjectOptions, id: string): Promise<{ holder: LockInfo; location: string }> {
  const { backend, tenant } = await openProjectState(opts);
  const holder = await backend.readLock();
  if (!holder) throw new PimctlError("usage", `the state of tenant "${tenant}" is not locked (${backend.lockLocation})`);
  if (holder.id !== id) {
    throw new PimctlError("usage", `the lock of tenant "${tenant}" has id ${holder.id}, not ${id}; nothing was changed`, { details: [describeHolder(holder)] });
  }
  if (!(await backend.unlock(id)))
    throw new PimctlError("ledger_locked", `the lock ${id} changed while it was being removed; look again with pimctl state show`);
  return { holder, location: backend.lockLocation };
}
