#!/usr/bin/env node
import { run } from "./run.js";
import { processIo } from "./io.js";

// The only place that exits the process.
run(process.argv.slice(2), processIo()).then(
  (code) => {
    process.exitCode = code;
  },
  (err: unknown) => {
    process.stderr.write(`pimctl: internal error: ${err instanceof Error ? err.stack : String(err)}\n`);
    process.exitCode = 1;
  },
);
