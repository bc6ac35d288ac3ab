/**
 * SIGINT (Ctrl-C), SIGTERM (what CI runners send on cancel) and SIGHUP (a
 * closed terminal or SSH session), handled from the first line of the process:
 *
 * - Nothing held (no lock, no write begun): end at once, exit 1; there is
 *   nothing to release and nothing was written to the tenant.
 * - Something held: the run is asked to stop through `signal`; it stops
 *   starting actions, lets those in flight end, saves the ledger (or writes a
 *   rescue file), releases the lock and reports, with the exit code the docs
 *   give (docs/exit-codes.md: 1 before the first write, 4 after).
 * - A second signal ends at once: each holding gets a bounded chance to
 *   release (rescue file first, then the lock), then the process exits.
 *
 * GitHub Actions cancels with SIGINT, SIGTERM 7.5 s later, SIGKILL 2.5 s after
 * that: the bounded release fits before the SIGKILL.
 */
import { holdings, Interrupted, releaseAll, writesBegan, writtenFiles } from "../holdings.js";
import { EXIT, type ExitCode } from "./exit-codes.js";

export const HANDLED_SIGNALS: NodeJS.Signals[] = ["SIGINT", "SIGTERM", "SIGHUP"];

/** How long a forced end waits for the lock release: under the 2.5 s CI runners leave before SIGKILL. */
export const FORCED_RELEASE_MS = 2000;

export interface SignalGuard {
  /** Aborted (reason: Interrupted) by the first signal. */
  signal: AbortSignal;
}

/** The files this process wrote before the signal (each whole: they were renamed into place), as a sentence. */
function filesLine(): string {
  const files = writtenFiles();
  return files.length ? ` Written before it, each file whole: ${files.join(", ")}.` : "";
}

export function installSignalHandlers(opts: { write: (text: string) => void; exit: (code: ExitCode) => void }): SignalGuard {
  const stop = new AbortController();
  let forced = false;
  const onSignal = (name: NodeJS.Signals) => {
    if (forced) return;
    const held = holdings();
    if (!stop.signal.aborted && !held.length) {
      forced = true;
      // Nothing held: no lock, and any ledger already saved. Only the report may be unfinished.
      const partial = writesBegan();
      opts.write(
        `\nInterrupted (${name}): stopped. pimctl held no lock${partial ? " (the ledger was saved)" : " and had written nothing to the tenant"}.` +
          `${filesLine()}\n`,
      );
      opts.exit(partial ? EXIT.partial : EXIT.error);
      return;
    }
    if (!stop.signal.aborted) {
      stop.abort(new Interrupted(name));
      if (held.every((h) => h.stopsItself)) return;
      // Only file commits held (an import writing manifests): they say what the signal does to them.
      const own = held.every((h) => h.onSignal) ? [...new Set(held.map((h) => h.onSignal))].join("; ") : undefined;
      const what =
        own ??
        (writesBegan()
          ? "finishing the requests in flight, then stopping"
          : held.some((h) => h.writeInFlight)
            ? "letting the write in flight finish (it is not taken back half-way), then releasing the lock"
            : "stopping before the first write, releasing the lock");
      opts.write(`\nInterrupted (${name}): ${what} (again to quit at once).\n`);
      return;
    }
    forced = true;
    opts.write(`\nInterrupted again (${name}): quitting now${held.length ? `, releasing what is held (at most ${FORCED_RELEASE_MS / 1000} s)` : ""}.\n`);
    const closing = held.find((h) => h.closing)?.closing;
    void releaseAll(FORCED_RELEASE_MS).then((lines) => {
      for (const line of lines) opts.write(`${line}\n`);
      const partial = writesBegan();
      opts.write(
        partial
          ? "The apply was stopped part-way (exit 4): plan shows what remains; apply again finishes the job without duplicates.\n"
          : `${closing ?? "Nothing was written to the tenant."}${filesLine()}
`,
      );
      opts.exit(partial ? EXIT.partial : EXIT.error);
    });
  };
  for (const name of HANDLED_SIGNALS) process.on(name, onSignal);
  return { signal: stop.signal };
}
