/** What a kind planner is: see src/plan/README.md. */
import type { Kind } from "../../model/catalogue.js";
import type { PlanContext } from "../context.js";

export interface KindPlanner {
  kind: Kind;
  /** The manifests declare the kind: add its actions (and make its records referable by name). */
  plan(ctx: PlanContext): void;
  /** The manifests do not declare the kind: only make the tenant's records referable by name. */
  index?(ctx: PlanContext): void;
}
