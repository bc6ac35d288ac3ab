/** A tenant's state through its backend: the ledger (ledger-io.ts) and the apply lock (lock.ts, lock-holder.ts). */
export type { LockInfo, StateBackend } from "./types.js";
export { LocalBackend } from "./local.js";
export { GitBackend } from "./git.js";
export { openBackend, readLedger, saveLedger, stampLedger, type LedgerState } from "./ledger-io.js";
export { acquireLock, type HeldLock } from "./lock.js";
export { describeHolder, unlockCommand } from "./lock-holder.js";
