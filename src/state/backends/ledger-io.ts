/**
 * The ledger through its backend: open the backend pimctl.yaml names, read the ledger (with the
 * version a later write compares against), save it with compare-and-swap (re-read and merge on a
 * lost race).
 */
import path from "node:path";
import { PimctlError } from "../../errors.js";
import type { Config } from "../../config/index.js";
import { cloneLedger, emptyLedger, mergeLedger, parseLedger, serialiseLedger, type Ledger } from "../ledger.js";
import { stampChanges } from "../ledger-entries.js";
import { GitBackend } from "./git.js";
import { LocalBackend } from "./local.js";
import type { StateBackend } from "./types.js";

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
