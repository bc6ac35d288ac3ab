/**
 * The pipeline gates over a finished plan (--fail-on-delete, --fail-on-destructive): part of
 * plan()'s result (`policyViolation`), so a library caller gets it too; the CLI only maps it to
 * exit 3. Data and pure checks only; which kinds may be pruned is src/model/policy.ts.
 */
import type { Plan } from "./types.js";
import { plural } from "../plural.js";

export interface PolicyGates {
  /** --fail-on-delete: a plan that deletes anything violates the policy. */
  failOnDelete?: boolean;
  /** --fail-on-destructive: a plan with destructive changes violates the policy. */
  failOnDestructive?: boolean;
}

/** --fail-on-delete / --fail-on-destructive: a pipeline's policy gate. */
export function policyViolation(p: Plan, gates: PolicyGates): string | undefined {
  if (gates.failOnDelete && p.summary.delete > 0) return `the plan deletes ${plural(p.summary.delete, "record")} and --fail-on-delete is set`;
  if (gates.failOnDestructive && p.summary.destructive > 0)
    return `the plan has ${plural(p.summary.destructive, "destructive change")} and --fail-on-destructive is set`;
  return undefined;
}
