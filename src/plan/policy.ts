/**
 * The pipeline gates over a finished plan (--fail-on-delete, --fail-on-destructive).
 * Data and pure checks only; which kinds may be pruned is src/model/policy.ts.
 */
import type { Plan } from "./types.js";
import { plural } from "../plural.js";

export interface PolicyGates {
  "fail-on-delete"?: boolean;
  "fail-on-destructive"?: boolean;
}

/** --fail-on-delete / --fail-on-destructive: a pipeline's policy gate. */
export function policyViolation(p: Plan, gates: PolicyGates): string | undefined {
  if (gates["fail-on-delete"] && p.summary.delete > 0) return `the plan deletes ${plural(p.summary.delete, "record")} and --fail-on-delete is set`;
  if (gates["fail-on-destructive"] && p.summary.destructive > 0)
    return `the plan has ${plural(p.summary.destructive, "destructive change")} and --fail-on-destructive is set`;
  return undefined;
}
