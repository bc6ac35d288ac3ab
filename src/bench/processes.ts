/**
 * Node processes for the benchmarks (and the tests that time nothing but run pimctl as a user
 * does): a script in its own process, its wall time from spawn to exit, its output, and its peak
 * resident memory when the script is measure.js (which writes it to $PIMCTL_BENCH_RSS on exit).
 * pimctl runs apart from the emulator, so client and server do not share a core.
 */
import { spawn } from "node:child_process";
import { readFile, rm } from "node:fs/promises";
import path from "node:path";
import { performance } from "node:perf_hooks";

export interface Run {
  code: number;
  ms: number;
  /** Peak resident memory in bytes (0 unless the script reports it: measure.js). */
  rss: number;
  stderr: string;
  stdout: string;
}

/** `node ...nodeArgs` in `cwd`, with `env` added to this process's environment. */
export function child(nodeArgs: string[], cwd: string, env: NodeJS.ProcessEnv = {}): Promise<Run> {
  const rssFile = path.join(cwd, `.rss-${Math.random().toString(36).slice(2)}`);
  return new Promise((resolve, reject) => {
    const t0 = performance.now();
    const p = spawn(process.execPath, nodeArgs, {
      cwd,
      env: { ...process.env, PIMCTL_BENCH_RSS: rssFile, NO_COLOR: "1", ...env },
      stdio: ["ignore", "pipe", "pipe"],
    });
    let stdout = "";
    let stderr = "";
    p.stdout.on("data", (d: Buffer) => (stdout += d.toString()));
    p.stderr.on("data", (d: Buffer) => (stderr += d.toString()));
    p.on("error", reject);
    // The listener's promise is nobody's: a failed rm must reject the run, not go unhandled.
    p.on("close", (code) => {
      const ms = performance.now() - t0;
      readFile(rssFile, "utf8")
        .catch(() => "0")
        .then(async (text) => {
          await rm(rssFile, { force: true });
          resolve({ code: code ?? 1, ms, rss: Number(text), stdout, stderr });
        })
        .catch(reject);
    });
  });
}

export const median = (xs: number[]): number => [...xs].sort((a, b) => a - b)[Math.floor(xs.length / 2)]!;
export const mb = (bytes: number): string => `${(bytes / 1048576).toFixed(0)} MB`;
export const seconds = (ms: number): string => `${(ms / 1000).toFixed(2)} s`;
