/**
 * Real Git for the state backend tests: a bare repository on disk as the
 * remote, clones of it as pipeline checkouts, and a runner environment with
 * no Git identity (HOME is an empty directory, no system config).
 */
import { execFileSync } from "node:child_process";
import { cp, mkdir, mkdtemp, rm, writeFile } from "node:fs/promises";
import { tmpdir } from "node:os";
import path from "node:path";
import { startEmulator, type Emulator } from "../../src/emulator/index.js";
import { run } from "../../src/cli/run.js";
import { memoryIo } from "../../src/cli/io.js";
import { repoRoot } from "../helpers/paths.js";

export interface GitWorld {
  root: string;
  bare: string;
  emulator: Emulator;
  /** The environment of a runner: no Git identity, the tenant token. */
  env: NodeJS.ProcessEnv;
  git(cwd: string, ...args: string[]): string;
  /** A fresh checkout of the repository (like a pipeline's). */
  clone(name: string): Promise<string>;
  cli(cwd: string, args: string[], env?: NodeJS.ProcessEnv): Promise<{ code: number; stdout: string; stderr: string }>;
  /** The remote's refs under refs/pimctl/ (ref -> sha). */
  remoteRefs(): Record<string, string>;
  close(): Promise<void>;
}

/**
 * With `brands`, the catalogue is that many brands with a web id each (fast to apply, and
 * every one leaves a ledger entry) instead of examples/catalogue.
 */
export async function gitWorld(opts: { config?: (url: string) => string; latencyMs?: number; brands?: number } = {}): Promise<GitWorld> {
  const token = `tok-${Math.random().toString(36).slice(2)}`;
  const emulator = await startEmulator({ port: 0, tenants: [{ hash: "demo", token }], ...(opts.latencyMs ? { latencyMs: opts.latencyMs } : {}) });
  const root = await mkdtemp(path.join(tmpdir(), "pimctl-git-"));
  const home = path.join(root, "home");
  await mkdir(home);
  const env: NodeJS.ProcessEnv = {
    PATH: process.env.PATH,
    HOME: home,
    XDG_CONFIG_HOME: path.join(home, ".config"),
    GIT_CONFIG_NOSYSTEM: "1",
    PIMCTL_DEMO_TOKEN: token,
    NO_COLOR: "1",
  };
  const git = (cwd: string, ...args: string[]) => execFileSync("git", args, { cwd, env, encoding: "utf8", stdio: ["ignore", "pipe", "pipe"] }).trim();
  const bare = path.join(root, "remote.git");
  git(root, "init", "--bare", "--quiet", "--initial-branch=main", bare);
  // The seed commit is the test's own doing (a person pushing the repository), so it names an author.
  const seed = path.join(root, "seed");
  git(root, "clone", "--quiet", bare, seed);
  const url = emulator.tenantUrl("demo");
  await writeFile(
    path.join(seed, "pimctl.yaml"),
    opts.config?.(url) ??
      ["dir: catalogue", "state:", "  backend: git", "tenants:", "  demo:", `    base_url: ${url}`, "    token_env: PIMCTL_DEMO_TOKEN", ""].join("\n"),
  );
  if (opts.brands) {
    await mkdir(path.join(seed, "catalogue"));
    const brands = Array.from({ length: opts.brands }, (_, i) => `  - name: Brand ${String(i).padStart(3, "0")}\n    web_ids: { Webshop: brand-${i} }\n`);
    await writeFile(path.join(seed, "catalogue", "brands.yaml"), `brands:\n${brands.join("")}`);
  } else {
    await cp(path.join(repoRoot, "examples/catalogue"), path.join(seed, "catalogue"), { recursive: true });
  }
  git(seed, "add", "-A");
  git(seed, "-c", "user.name=Test", "-c", "user.email=test@example.com", "commit", "--quiet", "-m", "catalogue");
  git(seed, "push", "--quiet", "origin", "HEAD:main");
  return {
    root,
    bare,
    emulator,
    env,
    git,
    async clone(name) {
      const dir = path.join(root, name);
      git(root, "clone", "--quiet", bare, dir);
      return dir;
    },
    async cli(cwd, args, extra = {}) {
      const io = memoryIo({ cwd, env: { ...env, ...extra } });
      const code = await run(args, io);
      return { code, stdout: io.out.join(""), stderr: io.err.join("") };
    },
    remoteRefs() {
      const out = git(root, "ls-remote", bare, "refs/pimctl/*");
      return Object.fromEntries(
        out
          .split("\n")
          .filter(Boolean)
          .map((l) => l.split("\t").reverse() as [string, string]),
      );
    },
    async close() {
      await emulator.close();
      await rm(root, { recursive: true, force: true });
    },
  };
}

/**
 * A directory holding `git`: the real git, slowed down (sleep, then exec) for the pushes whose
 * arguments contain PIMCTL_TEST_SLOW_PUSH, after appending its pid to PIMCTL_TEST_MARK. Latency
 * for git, like the emulator's for HTTP: it lets a test act while that push is in flight.
 */
export async function slowGitDir(root: string): Promise<string> {
  const dir = path.join(root, "slow-git");
  await mkdir(dir, { recursive: true });
  const realGit = execFileSync("sh", ["-c", "command -v git"], { encoding: "utf8" }).trim();
  const script = [
    "#!/bin/sh",
    'case " $* " in',
    `  *" push "*"$PIMCTL_TEST_SLOW_PUSH"*) echo $$ >> "$PIMCTL_TEST_MARK"; sleep "\${PIMCTL_TEST_SLOW_S:-1}";;`,
    "esac",
    `exec ${realGit} "$@"`,
    "",
  ].join("\n");
  await writeFile(path.join(dir, "git"), script, { mode: 0o755 });
  return dir;
}
