/**
 * Plan policy: which kinds may be pruned (deleted when the manifests do not
 * declare them), and the pipeline gates over a finished plan. Data and pure
 * checks only; the CLI turns a violation into an exit code.
 */
import type { Plan } from "./types.js";
import { plural } from "../plural.js";

export type { PruneKind } from "../model/catalogue.js";

// The policy is part of a saved plan's basis, so its type lives with the plan's (one direction of import).
export type { PrunePolicy } from "./types.js";

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
