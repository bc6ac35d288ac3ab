/** Exit codes: documented in docs/exit-codes.md (summed up in README.md); only src/cli/main.ts exits. */
export const EXIT = {
  /** Success; with --detailed-exitcode: no changes. */
  ok: 0,
  /** Error: bad input, API failure, refused plan. */
  error: 1,
  /** With --detailed-exitcode: the plan has changes. */
  changes: 2,
  /** A policy flag (--fail-on-delete, --fail-on-destructive) matched the plan. */
  policy: 3,
  /** Apply finished with some actions failed or skipped (partial failure). */
  partial: 4,
  /** A saved plan is stale: the tenant changed since it was made. */
  stale: 5,
} as const;
export type ExitCode = (typeof EXIT)[keyof typeof EXIT];

/** Thrown by a command handler to end with a specific exit code after it has printed its output. */
export class ExitWith extends Error {
  constructor(readonly code: ExitCode) {
    super(`exit ${code}`);
  }
}
