/**
 * An offline project for the translations tests: pimctl.yaml and one manifest (catalogue/c.yaml)
 * in a temporary folder, and the CLI run in it in-process with its output captured.
 */
import { mkdir, mkdtemp, readFile, rm, writeFile } from "node:fs/promises";
import { tmpdir } from "node:os";
import path from "node:path";
import { memoryIo } from "../../src/cli/io.js";
import { run } from "../../src/cli/run.js";

export interface OfflineProject {
  dir: string;
  cli(...args: string[]): Promise<{ code: number; stdout: string; stderr: string }>;
  /** catalogue/c.yaml as it is now. */
  manifest(): Promise<string>;
  close(): Promise<void>;
}

export async function offlineProject(manifest: string, config = "dir: catalogue\n", prefix = "pimctl-tr-"): Promise<OfflineProject> {
  const dir = await mkdtemp(path.join(tmpdir(), prefix));
  await mkdir(path.join(dir, "catalogue"));
  await writeFile(path.join(dir, "pimctl.yaml"), config);
  await writeFile(path.join(dir, "catalogue", "c.yaml"), manifest);
  return {
    dir,
    async cli(...args) {
      const io = memoryIo({ cwd: dir, env: {} });
      const code = await run(args, io);
      return { code, stdout: io.out.join(""), stderr: io.err.join("") };
    },
    manifest: () => readFile(path.join(dir, "catalogue", "c.yaml"), "utf8"),
    close: () => rm(dir, { recursive: true, force: true }),
  };
}
