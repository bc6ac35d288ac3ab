/**
 * Facts for the HTML page that the plan does not hold: when it was made,
 * from which commit, and whether the working tree had uncommitted changes (a
 * page that says "commit X" but was made from edited files misleads a review).
 * Only the files the plan was made from count (the manifests, pimctl.yaml):
 * the files a pipeline writes beside them (plan.md, plan.html, a report) do not.
 * The renderer stays pure; the CLI looks these up here.
 * SOURCE_DATE_EPOCH (seconds) fixes the time, for reproducible artifacts.
 */
import { execFile } from "node:child_process";
import { promisify } from "node:util";
import type { PageFacts } from "../render/index.js";
import type { Io } from "./io.js";

const run = promisify(execFile);

/** `inputs`: the files and folders the page's plan was made from; without them, the whole working tree. */
export async function pageFacts(io: Io, source: string, inputs: readonly string[] = []): Promise<PageFacts> {
  const epoch = Number(io.env.SOURCE_DATE_EPOCH);
  const when = Number.isFinite(epoch) && io.env.SOURCE_DATE_EPOCH ? new Date(epoch * 1000) : new Date();
  const commit = io.env.GITHUB_SHA || io.env.CI_COMMIT_SHA || (await gitHead(io.cwd));
  const uncommitted = commit ? await gitUncommitted(io.cwd, inputs) : [];
  return { source, generatedAt: when.toISOString().replace(/\.\d{3}Z$/, "Z"), ...(commit ? { commit } : {}), ...(uncommitted.length ? { uncommitted } : {}) };
}

/** Paths git reports as changed, staged or untracked (sorted), or none outside a checkout. */
async function gitUncommitted(cwd: string, inputs: readonly string[]): Promise<string[]> {
  try {
    const { stdout } = await run("git", ["status", "--porcelain=v1", "-z", "--untracked-files=all", "--", ...inputs], {
      cwd,
      timeout: 5000,
      maxBuffer: 16 * 1024 * 1024,
    });
    // -z: "XY path\0", a rename adds "orig\0" after it; paths are raw bytes, never quoted.
    const out: string[] = [];
    const fields = stdout.split("\0");
    for (let i = 0; i < fields.length; i++) {
      const f = fields[i]!;
      if (f.length < 4) continue;
      out.push(f.slice(3));
      if (f[0] === "R" || f[0] === "C") i++;
    }
    return out.sort();
  } catch {
    return [];
  }
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
