/**
 * Errors are values: a stable code, a message a person can act on, and where
 * known the manifest location or the API request (never the token). Library
 * code throws or returns these; only src/cli/ turns them into exit codes.
 */
import type { SourceLocation } from "./model/catalogue.js";
import { escapeControls } from "./base/controls.js";

export type ErrorCode =
  // manifest and config
  | "yaml_syntax"
  | "schema"
  | "duplicate"
  | "unknown_reference"
  | "read_only_field"
  | "invalid_value"
  | "unknown_version"
  | "undefined_variable"
  | "cycle"
  | "config"
  | "empty_file"
  | "io"
  // api
  | "api_unauthorized"
  | "api_not_found"
  | "api_unprocessable"
  | "api_bad_request"
  | "api_not_implemented"
  | "api_rate_limited"
  | "api_server"
  | "api_timeout"
  | "api_connection"
  | "api_protocol"
  | "insecure_url"
  // plan and apply
  | "plan_refused"
  | "plan_stale"
  | "plan_format"
  | "plan_integrity"
  | "policy_refused"
  | "ledger_locked"
  | "interrupted"
  | "apply_failed"
  | "usage"
  | "internal";

export interface ApiRequestInfo {
  method: string;
  /** Path relative to the tenant base URL, without query secrets. */
  path: string;
  tenant?: string;
  status?: number;
}

export class PimctlError extends Error {
  readonly code: ErrorCode;
  readonly location?: SourceLocation;
  readonly request?: ApiRequestInfo;
  /** Extra lines shown under the message (suggestions, lists of records). */
  readonly details: string[];
  /** The tenants whose catalogue has this problem, when a command checks several (validate --tenant 'prod-*'). */
  readonly tenants?: string[];

  constructor(
    code: ErrorCode,
    message: string,
    opts: { location?: SourceLocation; request?: ApiRequestInfo; details?: string[]; cause?: unknown; tenants?: string[] } = {},
  ) {
    super(message, opts.cause === undefined ? undefined : { cause: opts.cause });
    this.name = "PimctlError";
    this.code = code;
    if (opts.location) this.location = opts.location;
    if (opts.request) this.request = opts.request;
    this.details = opts.details ?? [];
    if (opts.tenants) this.tenants = opts.tenants;
  }

  /**
   * One line (plus detail lines) for people: "file:line:col: message" or "GET /brands (401): message".
   * Messages quote names and the tenant's answers: each line is escaped whole (src/base/controls.ts),
   * so a control character in them is shown, and a line break in them cannot start a line of its own.
   */
  format(): string {
    let head = this.message;
    if (this.location) {
      head = `${this.location.file}:${this.location.line}:${this.location.column}: ${this.message}`;
    } else if (this.request) {
      const status = this.request.status === undefined ? "" : ` (${this.request.status})`;
      const tenant = this.request.tenant ? ` [tenant ${this.request.tenant}]` : "";
      head = `${this.request.method} ${this.request.path}${status}${tenant}: ${this.message}`;
    }
    if (this.tenants) head = `${this.tenants.join(", ")}: ${head}`;
    return [head, ...this.details.map((d) => `  ${d}`)].map((line) => escapeControls(line)).join("\n");
  }

  toJSON(): Record<string, unknown> {
    return {
      code: this.code,
      message: this.message,
      ...(this.location ? { location: this.location } : {}),
      ...(this.request ? { request: this.request } : {}),
      ...(this.details.length ? { details: this.details } : {}),
      ...(this.tenants ? { tenants: this.tenants } : {}),
    };
  }
}

/** Several problems reported together (validation reports all errors of a run at once). */
export class PimctlErrors extends Error {
  readonly errors: PimctlError[];
  /** Warnings of the same run, reported with the errors (JSON, annotations). */
  readonly warnings: PimctlError[];
  constructor(errors: PimctlError[], warnings: PimctlError[] = []) {
    super(`${errors.length} error${errors.length === 1 ? "" : "s"}`);
    this.name = "PimctlErrors";
    this.errors = errors;
    this.warnings = warnings;
  }
}

/** Edit distance, for "did you mean" suggestions. */
export function levenshtein(a: string, b: string): number {
  if (a === b) return 0;
  const prev = new Array<number>(b.length + 1);
  for (let j = 0; j <= b.length; j++) prev[j] = j;
  for (let i = 1; i <= a.length; i++) {
    let diag = prev[0]!;
    prev[0] = i;
    for (let j = 1; j <= b.length; j++) {
      const up = prev[j]!;
      prev[j] = Math.min(up + 1, prev[j - 1]! + 1, diag + (a[i - 1] === b[j - 1] ? 0 : 1));
      diag = up;
    }
  }
  return prev[b.length]!;
}

/** Up to `max` candidates close to `name`, closest first (case-insensitive). */
export function closeNames(name: string, candidates: Iterable<string>, max = 3): string[] {
  const lower = name.toLowerCase();
  const limit = Math.max(2, Math.floor(name.length / 3));
  const scored: Array<[number, string]> = [];
  for (const c of candidates) {
    const d = levenshtein(lower, c.toLowerCase());
    if (d <= limit || c.toLowerCase().includes(lower) || lower.includes(c.toLowerCase())) scored.push([d, c]);
  }
  scored.sort((x, y) => x[0] - y[0] || (x[1] < y[1] ? -1 : x[1] > y[1] ? 1 : 0));
  return scored.slice(0, max).map(([, c]) => c);
}
