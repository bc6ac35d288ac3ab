/**
 * The permission to delete is decided once, when the plan is made
 * (`plan --allow-delete`, or `apply --allow-delete` when apply plans itself),
 * and recorded in the plan: reviewers see blocked deletes as blocked, and
 * apply refuses a plan with blocked deletes before its first write instead of
 * quietly skipping part of what was reviewed.
 */
import { PimctlError } from "../errors.js";
import type { Action, Plan } from "./types.js";

/** The flag that unblocks deletes, named in every message and rendering. */
export const ALLOW_DELETE_FLAG = "--allow-delete";

/** Record the decision on the plan and flag each delete it forbids. */
export function decideDeletes(plan: Plan, allow: boolean): Plan {
  for (const a of plan.actions) {
    if (a.op !== "delete") continue;
    if (allow) delete a.flags.blocked;
    else a.flags.blocked = true;
  }
  plan.deletes_allowed = allow;
  return plan;
}

/** Deletes the plan has no permission for (a plan without a recorded decision permits none). */
export function blockedDeletes(plan: Plan): Action[] {
  return plan.actions.filter((a) => a.op === "delete" && (a.flags.blocked === true || plan.deletes_allowed !== true));
}

/** Throw (exit 3, policy) when the plan holds deletes it may not run: nothing is written. */
export function refuseBlockedDeletes(plan: Plan, what: string, remedy: string): void {
  const blocked = blockedDeletes(plan);
  if (!blocked.length) return;
  const n = blocked.length;
  throw new PimctlError("policy_refused", `${what} deletes ${n} record${n === 1 ? "" : "s"} without permission; nothing was applied. ${remedy}`, {
    details: blocked
      .slice(0, 50)
      .map((a) => `blocked delete: ${a.address}`)
      .concat(n > 50 ? [`... and ${n - 50} more`] : []),
  });
}
