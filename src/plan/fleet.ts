/**
 * A fleet plan: one plan per tenant of a selection, made in one run (`plan --tenant 'prod-*'`) or
 * read back from saved files (`pimctl show plan-*.json`). Plain data, like the Plan it holds; saved
 * as the fleet file (src/planfile/fleet-file.ts, schemas/fleet-plan.schema.json), applied by the
 * rollout and rendered as the combined review (src/render/fleet/).
 */
import type { ErrorCode } from "../errors.js";
import { PimctlError, PimctlErrors } from "../errors.js";
import { policyViolation, type PolicyGates } from "./policy.js";
import type { Plan } from "./types.js";
import { countsAsChanges, type WriteOnlyMode } from "./write-only.js";

export const FLEET_FORMAT_VERSION = "1.0";

export interface FleetPlan {
  format_version: string;
  kind: "fleet";
  /** Every selected tenant, sorted by name; exactly one of plan / error. */
  tenants: FleetTenant[];
  /** The rollout waves of these tenants (config `rollout:`), for apply and for the review. */
  waves: string[][];
  /** Saved fleet files only: a digest over each tenant's name, plan digest and error, and its HMAC with a key (src/planfile/fleet-file.ts). */
  integrity?: { digest: string; hmac?: string };
}

export interface FleetTenantError {
  code: ErrorCode;
  message: string;
  details: string[];
}

export interface FleetTenant {
  tenant: string;
  /** The tenant's plan exactly as a single-tenant `plan --out` would save it (basis, fingerprints, integrity per tenant). */
  plan?: Plan;
  /** Why the tenant could not be planned (unreachable, 401, a refused ledger, invalid manifests). */
  error?: FleetTenantError;
  /** The tenant's own exit code under --detailed-exitcode rules (0 no changes, 2 changes, 1 error, 3 policy). */
  exit: number;
}

/** What decides a tenant's exit code besides its plan: the plan command's gates and its --write-only mode. */
export interface ExitRules extends PolicyGates {
  writeOnly?: WriteOnlyMode;
}

/**
 * A planned tenant's exit code as `plan --detailed-exitcode` gives it for that tenant alone: 3 when a
 * gate matches, 2 with changes, else 0. `stateExisted` (the ledger was there) only matters for
 * `--write-only when-unknown`; a plan read back from a file counts as having state.
 */
export function planExit(plan: Plan, rules: ExitRules = {}, stateExisted = true): number {
  if (policyViolation(plan, rules)) return 3;
  return countsAsChanges(plan, rules.writeOnly ?? "always", stateExisted) ? 2 : 0;
}

/** The exit code of a tenant that could not be planned: a policy refusal keeps its own code (3), anything else is an error (1). */
export function errorExit(error: FleetTenantError): number {
  return error.code === "policy_refused" ? 3 : 1;
}

const RANK: Record<number, number> = { 1: 4, 3: 3, 2: 2, 0: 0 };

/** The fleet's exit code: the worst of its tenants', 1 over 3 over 2 over 0. */
export function worstExit(exits: readonly number[]): number {
  let worst = 0;
  for (const e of exits) if ((RANK[e] ?? 4) > (RANK[worst] ?? 4)) worst = e;
  return worst;
}

/** A tenant's failure as a row of the fleet: the first error's code, its head line, every other line as a detail. */
export function tenantError(e: unknown): FleetTenantError {
  const errors = e instanceof PimctlErrors ? e.errors : e instanceof PimctlError ? [e] : [];
  const first = errors[0];
  if (!first) return { code: "internal", message: e instanceof Error ? e.message : String(e), details: [] };
  const [head, ...rest] = first.format().split("\n");
  if (errors.length === 1) return { code: first.code, message: head!, details: rest.map((l) => l.trim()) };
  return { code: first.code, message: `${errors.length} errors; the first: ${head!}`, details: errors.map((x) => x.format().split("\n")[0]!) };
}

/** The fleet's tenants sorted by name (code-point order, as selection sorts them). */
export function byTenant(a: { tenant: string }, b: { tenant: string }): number {
  return a.tenant < b.tenant ? -1 : a.tenant > b.tenant ? 1 : 0;
}

/**
 * What is wrong with a fleet's waves, if anything: the rollout applies what the waves list, so a
 * tenant they leave out would be skipped without a word, and one they name twice applied twice.
 */
export function wavesProblem(fleet: Pick<FleetPlan, "tenants" | "waves">): string | undefined {
  const held = new Set(fleet.tenants.map((t) => t.tenant));
  const seen = new Set<string>();
  for (const name of fleet.waves.flat()) {
    if (!held.has(name)) return `its waves name tenant "${name}", which it holds no plan or error for`;
    if (seen.has(name)) return `its waves name tenant "${name}" twice`;
    seen.add(name);
  }
  const left = [...held].filter((t) => !seen.has(t));
  if (left.length)
    return `its waves leave out ${left.map((t) => `"${t}"`).join(", ")}: a rollout would never apply ${left.length === 1 ? "that tenant" : "them"}`;
  if (fleet.waves.some((w) => w.length === 0)) return "it has an empty wave";
  return undefined;
}
