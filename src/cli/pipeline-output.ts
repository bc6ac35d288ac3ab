/**
 * What the CLI adds for pipelines: problems as JSON or GitLab code quality on
 * stdout when asked (--format), as GitHub annotations on stderr when running
 * in GitHub Actions, and markdown appended to the job summary.
 */
import { appendFileSync } from "node:fs";
import { renderCodeClimate, renderGithubAnnotations, renderProblemsJson, type Problem } from "../render/errors.js";
import type { Io } from "./io.js";

/** The machine formats problems can be printed in. */
export type ProblemFormat = "json" | "codeclimate";

/** The --format a command line asks for, read before (or without) a successful parse: errors must honour it too. */
export function problemFormatOf(argv: readonly string[]): ProblemFormat | undefined {
  for (let i = 0; i < argv.length; i++) {
    const a = argv[i]!;
    const value = a === "--format" || a === "-f" ? argv[i + 1] : a.startsWith("--format=") ? a.slice("--format=".length) : undefined;
    if (value === "json" || value === "codeclimate") return value;
  }
  return undefined;
}

export function reportProblems(io: Io, problems: readonly Problem[], format: ProblemFormat | undefined, extra: Record<string, unknown> = {}): void {
  if (format === "json") io.stdout(renderProblemsJson(problems, extra));
  else if (format === "codeclimate") io.stdout(renderCodeClimate(problems));
  // Workflow commands are read from either stream; stderr keeps stdout's JSON clean.
  if (io.env.GITHUB_ACTIONS === "true" && problems.length) io.stderr(renderGithubAnnotations(problems));
}

/** GitHub's job summary: markdown appended to the file it names, when it names one. */
export function appendStepSummary(io: Io, markdown: () => string): void {
  const file = io.env.GITHUB_STEP_SUMMARY;
  if (!file) return; // rendered only for a job summary: a large plan's markdown is not free
  const text = markdown();
  appendFileSync(file, text.endsWith("\n") ? text : `${text}\n`);
}
