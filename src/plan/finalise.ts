/**
 * The one step from the full plan to the final one: the config's `ignore:` leaves records out,
 * `--target` / `--exclude` narrow it (each selector first checked to match something), the
 * permission to delete is recorded, move hints are added, and `protect:` / `max_deletes:` are
 * checked. Pure: the same inputs give the same plan, and the plan given is not changed.
 *
 * Every plan goes through here (plan, apply, a saved plan re-planned from its basis; diff only
 * narrows, with `narrow`), so the promise that keeps a targeted plan honest is one function: the plan of a narrowed read,
 * finalised, equals the full plan finalised with the same selectors (test/cli/identity-property.test.ts,
 * test/cli/targeted-read.test.ts).
 */
import type { Catalogue, Kind } from "../model/catalogue.js";
import type { RemoteCatalogue } from "../model/remote.js";
import type { PrunePolicy, ScopeRules } from "../model/policy.js";
import { PimctlError, PimctlErrors } from "../errors.js";
import type { LedgerView } from "./context.js";
import { decideDeletes } from "./delete-permission.js";
import { filterPlan } from "./filter.js";
import { moveHints } from "./hints.js";
import { applyIgnore, checkScope } from "./scope.js";
import { checkSelectors, knownAddresses } from "./selectors.js";
import type { Plan } from "./types.js";

/** What the plan was made from: the whole desired catalogue (not the narrowed one), the tenant as read, the ledger. */
export interface PlanFacts {
  desired: Catalogue;
  remote: RemoteCatalogue;
  ledger?: LedgerView;
}

/** How the full plan becomes the final one. */
export interface FinalOptions {
  /** The config's `ignore:`, `protect:` and `max_deletes:`. */
  scope: ScopeRules;
  targets: readonly string[];
  excludes: readonly string[];
  /** The permission to delete (`--allow-delete`), recorded in the plan. */
  allowDelete: boolean;
  prune: PrunePolicy;
  /** The tenant was read narrowed to the selectors (plan/read-scope.ts): no kind was read whole. */
  narrowedRead?: boolean;
}

/** The full plan, made final: ignore, narrow, deletes, hints, scope. Throws the refusals of selectors and scope rules. */
export function finalisePlan(full: Plan, facts: PlanFacts, opts: FinalOptions): Plan {
  // The deletes' flags and the warnings are written below: on copies, so `full` stays as it was.
  const own: Plan = { ...full, actions: full.actions.map((a) => (a.op === "delete" ? { ...a, flags: { ...a.flags } } : a)), warnings: [...full.warnings] };
  const final = narrow(applyIgnore(own, opts.scope), facts.desired, facts.remote, opts.targets, opts.excludes);
  decideDeletes(final, opts.allowDelete);
  final.hints = moveHints(final, facts.desired, facts.remote);
  checkScope(final, opts.scope, facts.remote, {
    desired: facts.desired,
    readWhole: kindsReadWhole(facts.remote, opts),
    ...(facts.ledger ? { ledger: facts.ledger } : {}),
  });
  return final;
}

/**
 * The kinds whose every tenant record was read: only there can a protect rule be said to match
 * nothing. Not a narrowed read, nor brands found by search (they are listed only when pruned).
 */
function kindsReadWhole(remote: RemoteCatalogue, opts: FinalOptions): Set<Kind> {
  if (opts.narrowedRead) return new Set();
  const brandsListed = opts.prune.brands === true || opts.prune.brands === "owned";
  return new Set(remote.read.filter((k) => k !== "brands" || brandsListed));
}

/** --target / --exclude, each checked to match something in the manifests or the tenant first. */
export function narrow(full: Plan, desired: Catalogue, remote: RemoteCatalogue, targets: readonly string[], excludes: readonly string[]): Plan {
  if (!targets.length && !excludes.length) return full;
  const known = knownAddresses(desired, remote);
  for (const a of full.actions) known.add(a.address);
  for (const u of full.unmanaged) known.add(u.address);
  const problems: PimctlError[] = [];
  for (const [texts, flag] of [
    [targets, "--target"],
    [excludes, "--exclude"],
  ] as const) {
    try {
      checkSelectors(texts, known, flag);
    } catch (e) {
      if (e instanceof PimctlErrors) problems.push(...e.errors);
      else throw e;
    }
  }
  if (problems.length) throw new PimctlErrors(problems);
  return filterPlan(full, { targets: [...targets], excludes: [...excludes] });
}
