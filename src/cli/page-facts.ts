/**
 * Facts for the HTML page that the plan does not hold: when it was made and
 * from which commit. The renderer stays pure; the CLI looks these up here.
 * SOURCE_DATE_EPOCH (seconds) fixes the time, for reproducible artifacts.
 */
import { execFile } from "node:child_process";
import { promisify } from "node:util";
import type { PageFacts } from "../render/index.js";
import type { Io } from "./io.js";

const run = promisify(execFile);

export async function pageFacts(io: Io, source: string): Promise<PageFacts> {
  const epoch = Number(io.env.SOURCE_DATE_EPOCH);
  const when = Number.isFinite(epoch) && io.env.SOURCE_DATE_EPOCH ? new Date(epoch * 1000) : new Date();
  const commit = io.env.GITHUB_SHA || io.env.CI_COMMIT_SHA || (await gitHead(io.cwd));
  return { source, generatedAt: when.toISOString().replace(/\.\d{3}Z$/, "Z"), ...(commit ? { commit } : {}) };
}

/** The working directory's commit, or nothing outside a git checkout (or without git). */
async function gitHead(cwd: string): Promise<string | undefined> {
  try {
    const { stdout } = await run("git", ["rev-parse", "HEAD"], { cwd, timeout: 2000 });
    return stdout.trim() || undefined;
  } catch {
    return undefined;
  }
}
