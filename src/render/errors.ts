/**
 * Errors and warnings for programs and pipelines, from the same values people
 * read: JSON (schemas/errors.schema.json), GitHub workflow annotations (they
 * appear on the pull request's diff), and GitLab's code-quality report. Pure
 * functions; the CLI decides where the text goes. Always sorted by file, line,
 * column, so output is stable and reads top to bottom.
 */
import { createHash } from "node:crypto";
import { compareText } from "../model/catalogue.js";
import type { PimctlError } from "../errors.js";
import { escapeControls, jsonText } from "../base/controls.js";

export const ERRORS_FORMAT_VERSION = "1.0";

export type Severity = "error" | "warning";

/** One problem as programs read it (schemas/errors.schema.json). */
export interface Problem {
  severity: Severity;
  code: string;
  message: string;
  file?: string;
  line?: number;
  column?: number;
  /** What to do about it, when pimctl knows (a suggestion, the allowed values). */
  hint?: string;
  /** The API request it came from (never the token). */
  request?: { method: string; path: string; status?: number };
  /** validate over several tenants: the tenants whose catalogue has it. */
  tenants?: string[];
}

/** The message with the tenants it is in first, for formats that have no field for them. */
function withTenants(p: Problem): string {
  return p.tenants ? `${p.tenants.join(", ")}: ${p.message}` : p.message;
}

export function toProblem(e: PimctlError, severity: Severity): Problem {
  return {
    severity,
    code: e.code,
    message: e.message,
    ...(e.location ? { file: e.location.file, line: e.location.line, column: e.location.column } : {}),
    ...(e.details.length ? { hint: e.details.join("\n") } : {}),
    ...(e.tenants ? { tenants: e.tenants } : {}),
    ...(e.request
      ? { request: { method: e.request.method, path: e.request.path, ...(e.request.status !== undefined ? { status: e.request.status } : {}) } }
      : {}),
  };
}

interface Located {
  file?: string | undefined;
  line?: number | undefined;
  column?: number | undefined;
  message: string;
}

/** By file, line, column (problems without a file last), then message: one order for people and programs. */
export function compareProblems(a: Located, b: Located): number {
  return (
    (a.file === undefined ? 1 : 0) - (b.file === undefined ? 1 : 0) ||
    compareText(a.file ?? "", b.file ?? "") ||
    (a.line ?? 0) - (b.line ?? 0) ||
    (a.column ?? 0) - (b.column ?? 0) ||
    compareText(a.message, b.message)
  );
}

/** An error's place, in the terms compareProblems sorts by. */
export function located(e: PimctlError): Located {
  return { file: e.location?.file, line: e.location?.line, column: e.location?.column, message: e.message };
}

/** PimctlErrors in the same order: what the CLI prints for people sorts with this. */
export function byPlace(a: PimctlError, b: PimctlError): number {
  return compareProblems(located(a), located(b));
}

export function sortProblems(problems: readonly Problem[]): Problem[] {
  return [...problems].sort(compareProblems);
}

export function problemsOf(errors: readonly PimctlError[], warnings: readonly PimctlError[] = []): Problem[] {
  return sortProblems([...errors.map((e) => toProblem(e, "error")), ...warnings.map((w) => toProblem(w, "warning"))]);
}

/** The JSON document `--format json` prints when a command fails (or `validate` finishes). */
export function renderProblemsJson(problems: readonly Problem[], extra: Record<string, unknown> = {}): string {
  const errors = problems.filter((p) => p.severity === "error");
  const warnings = problems.filter((p) => p.severity === "warning");
  return `${jsonText({ format_version: ERRORS_FORMAT_VERSION, ok: errors.length === 0, ...extra, errors, warnings }, 2)}\n`;
}

/** GitHub's workflow commands escape %, CR and LF in messages, and also : and , in properties. */
function escapeData(s: string): string {
  return s.replace(/%/g, "%25").replace(/\r/g, "%0D").replace(/\n/g, "%0A");
}
function escapeProperty(s: string): string {
  return escapeData(s).replace(/:/g, "%3A").replace(/,/g, "%2C");
}

/**
 * `::error file=…,line=…,col=…,title=…::message`, one line per problem. Control characters
 * in the message, each hint line and the file are shown as escapes first (src/base/controls.ts):
 * the log renders ANSI sequences, and the annotation sits on the pull request's diff.
 */
export function renderGithubAnnotations(problems: readonly Problem[]): string {
  return problems
    .map((p) => {
      const props = [
        ...(p.file ? [`file=${escapeProperty(escapeControls(p.file))}`] : []),
        ...(p.line !== undefined ? [`line=${p.line}`] : []),
        ...(p.column !== undefined ? [`col=${p.column}`] : []),
        `title=${escapeProperty(`pimctl ${p.code}`)}`,
      ];
      const text = [withTenants(p), ...(p.hint ? p.hint.split("\n") : [])].map((line) => escapeControls(line)).join("\n");
      return `::${p.severity} ${props.join(",")}::${escapeData(text)}\n`;
    })
    .join("");
}

/** GitLab's code-quality report (the merge request widget): a JSON array of issues. */
export function renderCodeClimate(problems: readonly Problem[]): string {
  const issues = problems.map((p) => ({
    type: "issue",
    check_name: `pimctl/${p.code}`,
    description: p.hint ? `${withTenants(p)} (${p.hint.replace(/\n/g, "; ")})` : withTenants(p),
    categories: ["Bug Risk"],
    severity: p.severity === "error" ? "major" : "minor",
    // Stable across runs for the same problem at the same place, as GitLab compares reports by it.
    fingerprint: createHash("sha256")
      .update(`${p.code}\0${p.file ?? ""}\0${p.line ?? 0}\0${withTenants(p)}`)
      .digest("hex")
      .slice(0, 32),
    location: { path: p.file ?? "pimctl.yaml", lines: { begin: p.line ?? 1 } },
  }));
  return `${jsonText(issues, 2)}\n`;
}
