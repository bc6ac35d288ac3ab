/**
 * What this process holds that another run would miss if it vanished: a state
 * lock (on a Git remote or a file), or a ledger that records writes already
 * made. The library registers each while it holds it; the CLI's signal handler
 * (src/cli/signals.ts) reads the registry to decide how to stop:
 *
 * - nothing held: a signal may end the process at once (nothing to release);
 * - something held: the first signal asks the run to stop (through the
 *   AbortSignal it was given) and the run releases everything on its way out;
 * - a second signal ends at once, after each holding's `release` had a bounded
 *   chance (a lock removed, a ledger written to a rescue file).
 *
 * Module-level on purpose: a signal concerns the whole process, whatever
 * library calls are running in it.
 */
export interface Holding {
  /** For messages: "the lock of tenant demo". */
  what: string;
  /** True once the tenant has been written to: an end now is a partial apply (exit 4). */
  writesBegan?: boolean;
  /** One write in flight that is not taken back half-way (a state push): a first signal lets it finish and says so. */
  writeInFlight?: boolean;
  /** It listens for the signal itself (the emulator command): the CLI prints nothing for it on the first signal. */
  stopsItself?: boolean;
  /** What the first signal does to it, when it is all that is held ("stopping before any file is replaced"). */
  onSignal?: string;
  /** Best-effort release when the process must end now; returns lines for the person (what was done, what remains). */
  release(): Promise<string[]>;
  /** What the person does when the release fails or runs out of time (the command that breaks a lock). */
  ifNotReleased?: string[];
  /** The last line of a forced end, instead of the apply's ("Nothing was written to the tenant."): doctor's probes wrote. */
  closing?: string;
}

const held = new Set<Holding>();
/** Sticky: once a write began, an end at any later point is a partial apply. */
let wrote = false;

/** Register a holding; call the returned function once it is released the ordinary way. */
export function hold(h: Holding): () => void {
  held.add(h);
  if (h.writesBegan) wrote = true;
  return () => void held.delete(h);
}

/** Files this process replaced (each whole), for the message of a signal that ends it afterwards. */
const filesWritten: string[] = [];

/** Record files written whole (as the person reads their names): a signal after it says so. */
export function noteFilesWritten(files: readonly string[]): void {
  filesWritten.push(...files);
}

export function writtenFiles(): string[] {
  return [...filesWritten];
}

/** Whether any run in this process began writing to a tenant. */
export function writesBegan(): boolean {
  return wrote;
}

export function holdings(): Holding[] {
  return [...held];
}

/**
 * Release every holding at once, each within `timeoutMs` (a lock push to a
 * remote that does not answer must not keep a cancelled job alive). Holdings
 * that record writes come first: their rescue file is local and fast.
 */
export async function releaseAll(timeoutMs: number): Promise<string[]> {
  const order = [...held].sort((a, b) => Number(b.writesBegan === true) - Number(a.writesBegan === true));
  const lines: string[] = [];
  for (const h of order) {
    let timer: NodeJS.Timeout | undefined;
    const out = await Promise.race([
      h.release().catch((e: unknown) => [`${h.what}: not released: ${(e as Error).message ?? String(e)}`, ...(h.ifNotReleased ?? [])]),
      new Promise<string[]>((resolve) => {
        timer = setTimeout(() => resolve([`${h.what}: not released within ${Math.round(timeoutMs / 1000)} s`, ...(h.ifNotReleased ?? [])]), timeoutMs);
      }),
    ]);
    clearTimeout(timer);
    held.delete(h);
    lines.push(...out);
  }
  return lines;
}

/** The reason an AbortSignal carries when a process signal stopped the run. */
export class Interrupted extends Error {
  constructor(readonly signalName: string) {
    super(`interrupted (${signalName})`);
    this.name = "Interrupted";
  }
}

/** The process signal that aborted `signal`, if that is why it is aborted. */
export function interruptedBy(signal: AbortSignal | undefined): string | undefined {
  if (!signal?.aborted) return undefined;
  return signal.reason instanceof Interrupted ? signal.reason.signalName : "an abort";
}
