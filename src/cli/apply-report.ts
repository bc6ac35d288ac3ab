/**
 * What apply says about a run's end besides its actions (why it stopped, a ledger not saved, a lock
 * not released): in the report file, and to people, each failure on its own. Shared by the
 * single-tenant apply and each tenant of a rollout.
 */
import { restoreCommand, type ApplyResult } from "../workflows/index.js";
import { unlockCommand } from "../state/backends/index.js";
import type { Io } from "./io.js";

/** What the report file says about the run's end besides its actions: why it stopped, a ledger not saved, a lock not released. */
export function stateProblems(r: ApplyResult): Record<string, unknown> {
  return {
    ...(r.stopped ? { stopped: r.stopped } : {}),
    ...(r.stateNotSaved
      ? { state_not_saved: { error: r.stateNotSaved.error, rescue_file: r.stateNotSaved.rescueFile, rescue_error: r.stateNotSaved.rescueError } }
      : {}),
    ...(r.lockNotReleased ? { lock_not_released: { error: r.lockNotReleased.error, lock_id: r.lockNotReleased.id } } : {}),
  };
}

/** Each failure on its own: the ledger's fate first (it holds what was written), then the lock. True when there was one. */
export function reportStateProblems(result: ApplyResult, io: Io, tenantFlag: string | undefined): boolean {
  const { stateNotSaved: state, lockNotReleased: lock } = result;
  if (state?.rescueFile) {
    io.stderr(
      `error: the state of tenant "${result.plan.tenant}" could not be saved: ${state.error}\n  What this run wrote is in ${state.rescueFile}; ` +
        `restore it with: ${restoreCommand(state.rescueFile, io.cwd, tenantFlag)}\n`,
    );
  } else if (state) {
    // The last place left: the output. Saved to a file, it restores like a rescue file.
    io.stderr(
      `error: the state of tenant "${result.plan.tenant}" could not be saved: ${state.error}\n  nor written to a rescue file: ` +
        `${state.rescueError}\n  Save the ledger below to a file and restore it with: pimctl state push FILE\n${state.ledger}`,
    );
  }
  if (lock) io.stderr(`error: ${lock.error}\n`);
  // state push takes the lock: the lock of this run, which is gone, is broken first.
  if (state?.rescueFile && lock)
    io.stderr(`To recover once the remote answers: ${unlockCommand(lock.id, tenantFlag)}, then ${restoreCommand(state.rescueFile, io.cwd, tenantFlag)}\n`);
  return state !== undefined || lock !== undefined;
}
