/** The plan structure itself (schemas/plan.schema.json), stable key order, two-space indent. */
import type { Plan } from "../plan/types.js";

export function renderJson(plan: Plan): string {
  return `${JSON.stringify(plan, null, 2)}\n`;
}
