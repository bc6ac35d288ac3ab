/** The applier (apply-plan.ts): runs a plan's actions through the client. */
export { applyPlan, BREAKER_THRESHOLD, type ActionResult, type ApplyHooks, type ApplyReport, type SkipCause } from "./apply-plan.js";
