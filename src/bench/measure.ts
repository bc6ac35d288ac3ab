/**
 * Runs the CLI with the arguments given, as a user runs it, and on exit writes
 * the process's peak resident memory (bytes) to $PIMCTL_BENCH_RSS: the wire
 * benchmark measures the tool in its own process, apart from the emulator.
 */
import { writeFileSync } from "node:fs";

const out = process.env.PIMCTL_BENCH_RSS;
if (out) process.on("exit", () => writeFileSync(out, String(process.resourceUsage().maxRSS * 1024)));
await import("../cli/main.js");
