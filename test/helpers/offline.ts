/**
 * Projects for CLI tests that need no tenant (validate, config errors, messages): a temp folder of
 * projects, each a pimctl.yaml and manifest files written inline, and the CLI run in-process in a
 * folder of the test's choosing, with captured output. The tenant's token variable is PIMCTL_T.
 */
import { mkdtemp, mkdir, rm, writeFile } from "node:fs/promises";
import { tmpdir } from "node:os";
import path from "node:path";
import { afterAll, beforeAll } from "vitest";
import { run } from "../../src/cli/run.js";
import { memoryIo } from "../../src/cli/io.js";

export interface OfflineProjects {
  /** The temp folder the projects are in. */
  dir(): string;
  /** A project of its own: `name/pimctl.yaml` and `name/catalogue/<file>`; returns its folder. */
  project(name: string, config: string, files: Record<string, string>): Promise<string>;
  cli(cwd: string, args: string[]): Promise<{ code: number; stderr: string; stdout: string }>;
}

/** Registers the temp folder's creation and removal with the test file's hooks. */
export function offlineProjects(prefix: string): OfflineProjects {
  let dir = "";
  beforeAll(async () => {
    dir = await mkdtemp(path.join(tmpdir(), prefix));
  });
  afterAll(async () => rm(dir, { recursive: true, force: true }));
  return {
    dir: () => dir,
    async project(name, config, files) {
      const root = path.join(dir, name);
      await mkdir(path.join(root, "catalogue"), { recursive: true });
      await writeFile(path.join(root, "pimctl.yaml"), config);
      for (const [f, t] of Object.entries(files)) await writeFile(path.join(root, "catalogue", f), t);
      return root;
    },
    cli: (cwd, args) => cliIn(cwd, args, { PIMCTL_T: "x" }),
  };
}

/** `pimctl ...args` run in-process in `cwd` with exactly `env` (nothing of this process's), output captured. */
export async function cliIn(cwd: string, args: string[], env: NodeJS.ProcessEnv = {}): Promise<{ code: number; stdout: string; stderr: string }> {
  const io = memoryIo({ cwd, env });
  const code = await run(args, io);
  return { code, stdout: io.out.join(""), stderr: io.err.join("") };
}
