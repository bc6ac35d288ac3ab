/**
 * What a project's config says pimctl may do to a tenant, as plain types: `config/` reads them
 * from pimctl.yaml, `plan/` checks a plan against them (plan/scope.ts, plan/ownership.ts), and a
 * saved plan's basis carries the prune policy (plan/types.ts). They live here, below both, so
 * the config reader never imports the planner.
 */
import type { PruneKind } from "./catalogue.js";

/**
 * Per prunable kind: true deletes undeclared records; "owned" deletes only
 * undeclared records pimctl created or adopted (the state remembers which,
 * like kubectl's ApplySet), never one someone made by hand; absent means false.
 */
export type PrunePolicy = Partial<Record<PruneKind, boolean | "owned">>;

/**
 * What this repository manages (src/plan/scope.ts): `ignore:` records it never plans,
 * `protect:` records it never deletes, renames or moves, each a selector (src/plan/selectors.ts).
 */
export interface ScopeRules {
  ignore?: string[];
  protect?: string[];
  /** At most this many deletes in one plan, or "N%" of a kind's records in the tenant. */
  max_deletes?: number | string;
}
