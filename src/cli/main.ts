#!/usr/bin/env node
// Only the signal handling is loaded before the handlers are installed (a few small
// modules): the rest of pimctl (half a second of module loading) comes after, so a
// Ctrl-C or a CI cancel during start-up already ends with pimctl's message and exit code.
import { installSignalHandlers } from "./signals.js";

// The only place that exits the process. Signals are handled from here on: a run that
// holds a lock is asked to stop and releases it; one that holds nothing ends at once.
let settled = false;
const guard = installSignalHandlers({
  write: (t) => void process.stderr.write(t),
  exit: (code) => {
    settled = true;
    process.exit(code);
  },
});
const { run } = await import("./run.js");
const { processIo } = await import("./io.js");
run(process.argv.slice(2), { ...processIo(), interrupt: guard.signal }).then(
  (code) => {
    settled = true;
    process.exitCode = code;
  },
  (err: unknown) => {
    settled = true;
    process.stderr.write(`pimctl: internal error: ${err instanceof Error ? err.stack : String(err)}\n`);
    process.exitCode = 1;
  },
);

// Last line of defence: Node ends a process whose event loop is empty even while a
// promise is still pending (work waiting on something that can never happen). That
// must never look like success: an unfinished run is an internal error.
process.on("exit", (code) => {
  if (settled) return;
  process.stderr.write(
    `pimctl: internal error: the run stopped before it finished (nothing was left that could complete it); its work is unfinished, run plan to ` +
      `see what remains${code ? "" : " (exit 1)"}\n`,
  );
  process.exitCode = 1;
});
