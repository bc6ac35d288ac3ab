/**
 * `pimctl` as a real process (dist/cli/main.js: the suite builds it first), for the tests that need
 * one: signals, exit codes, what reaches the terminal byte for byte, NODE_EXTRA_CA_CERTS read at
 * start-up. The environment is the caller's whole environment: nothing of this process leaks in.
 */
import { spawn, type ChildProcess } from "node:child_process";
import path from "node:path";
import { repoRoot } from "./paths.js";

export const PIMCTL_BIN = path.join(repoRoot, "dist/cli/main.js");

export interface Running {
  child: ChildProcess;
  /** stderr so far (UTF-8; the chunks joined before decoding, so no character is cut). */
  stderr(): string;
  stdout(): string;
  /** The bytes as they came, for tests of what reaches a terminal. */
  bytes(): { stdout: Buffer; stderr: Buffer };
  /** The exit code, or the signal's name when the process died by one. */
  exit: Promise<{ code: number | null; signal: NodeJS.Signals | null }>;
}

export interface SpawnOptions {
  /** Wrap the node command line (unshare, sh -c). */
  wrap?: (node: string[]) => string[];
  detached?: boolean;
}

/** `pimctl ...args` started in `cwd` with exactly `env`; its output collected as it comes. */
export function spawnPimctl(cwd: string, args: string[], env: NodeJS.ProcessEnv, opts: SpawnOptions = {}): Running {
  const node = [process.execPath, PIMCTL_BIN, ...args];
  const argv = opts.wrap ? opts.wrap(node) : node;
  const child = spawn(argv[0]!, argv.slice(1), { cwd, env, stdio: ["ignore", "pipe", "pipe"], ...(opts.detached ? { detached: true } : {}) });
  const out: Buffer[] = [];
  const err: Buffer[] = [];
  child.stdout!.on("data", (d: Buffer) => out.push(d));
  child.stderr!.on("data", (d: Buffer) => err.push(d));
  const exit = new Promise<{ code: number | null; signal: NodeJS.Signals | null }>((resolve, reject) => {
    child.once("error", reject);
    child.once("close", (code, signal) => resolve({ code, signal }));
  });
  const bytes = () => ({ stdout: Buffer.concat(out), stderr: Buffer.concat(err) });
  return { child, stderr: () => bytes().stderr.toString("utf8"), stdout: () => bytes().stdout.toString("utf8"), bytes, exit };
}

export interface Ran {
  code: number | null;
  signal: NodeJS.Signals | null;
  stdout: string;
  stderr: string;
  bytes: { stdout: Buffer; stderr: Buffer };
}

/** `pimctl ...args` run to its end. */
export async function runPimctl(cwd: string, args: string[], env: NodeJS.ProcessEnv, opts: SpawnOptions = {}): Promise<Ran> {
  const r = spawnPimctl(cwd, args, env, opts);
  const { code, signal } = await r.exit;
  return { code, signal, stdout: r.stdout(), stderr: r.stderr(), bytes: r.bytes() };
}

/** Poll until cond() holds; throws after ms (generous: the machine is shared). */
export async function until(cond: () => boolean, ms = 30_000, what = "a condition"): Promise<void> {
  const t0 = Date.now();
  while (!cond()) {
    if (Date.now() - t0 > ms) throw new Error(`timed out waiting for ${what}`);
    await new Promise((r) => setTimeout(r, 20));
  }
}
