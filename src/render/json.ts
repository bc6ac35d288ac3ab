/** The plan structure itself (schemas/plan.schema.json), stable key order, two-space indent. */
import type { Plan } from "../plan/types.js";
import { jsonText } from "../base/controls.js";

export function renderJson(plan: Plan): string {
  return `${jsonText(plan, 2)}\n`;
}
