/**
 * What this repository manages, said once in pimctl.yaml: `ignore:` records
 * it never plans (left out, and said so), `protect:` records it never deletes,
 * renames or moves whatever the prune setting, and `max_deletes:` the most it
 * deletes in one plan (a number, or a percentage of a kind), so a manifest
 * file removed by mistake cannot empty the tenant. Rules are selectors
 * (kinds, addresses, globs: src/plan/selectors.ts). Pure: checks a finished plan.
 */
import { KIND_NOUN, KINDS, type Catalogue, type Kind } from "../model/catalogue.js";
import type { RemoteCatalogue } from "../model/remote.js";
import { PimctlError, PimctlErrors } from "../errors.js";
import { plural } from "../plural.js";
import { parseAddress } from "./address.js";
import { filterPlan } from "./filter.js";
import { knownAddresses, parseSelector, type Selector } from "./selectors.js";
import { formerAddresses } from "./former-addresses.js";
import type { Plan } from "./types.js";
import type { ScopeRules } from "../model/policy.js";
import type { LedgerView } from "./context.js";
import { takenAlong } from "./taken-along.js";

/**
 * Parse every rule up front, when the config is loaded: a bad selector is a config error naming it,
 * all at once, and a typo in pimctl.yaml is an error, not a rule that matches nothing.
 */
export function parseScope(rules: ScopeRules, file: string): { ignore: Selector[]; protect: Selector[] } {
  const errors: PimctlError[] = [];
  const parse = (key: "ignore" | "protect") =>
    (rules[key] ?? []).flatMap((text) => {
      try {
        return [parseSelector(text)];
      } catch (e) {
        errors.push(new PimctlError("config", `${file}: ${key}: ${(e as PimctlError).message}`, { details: (e as PimctlError).details }));
        return [];
      }
    });
  const scope = { ignore: parse("ignore"), protect: parse("protect") };
  if (rules.max_deletes !== undefined && maxDeletesLimit(rules.max_deletes) === undefined) {
    errors.push(new PimctlError("config", `${file}: max_deletes: "${String(rules.max_deletes)}" is neither a whole number nor a percentage like "5%"`));
  }
  if (errors.length) throw new PimctlErrors(errors);
  return scope;
}

function maxDeletesLimit(v: number | string): { count: number } | { percent: number } | undefined {
  if (typeof v === "number") return Number.isInteger(v) && v >= 0 ? { count: v } : undefined;
  const m = /^(\d+(?:\.\d+)?)\s*%$/.exec(v.trim());
  return m ? { percent: Number(m[1]) } : undefined;
}

/** `ignore:` leaves records out of the plan (and what depends on them), and says how many. */
export function applyIgnore(plan: Plan, rules: ScopeRules): Plan {
  const ignore = rules.ignore ?? [];
  if (!ignore.length) return plan;
  const kept = filterPlan(plan, { excludes: ignore });
  const left = plan.actions.length - kept.actions.length + (plan.unmanaged.length - kept.unmanaged.length);
  if (left)
    kept.warnings = [
      ...kept.warnings,
      `${plural(left, "record")} left out by the ignore rules of pimctl.yaml (${ignore.join(", ")}): never planned, never deleted`,
    ];
  return { ...kept, summary: { ...kept.summary, unmanaged: kept.unmanaged.length } };
}

/**
 * What `protect:` needs besides the plan: the whole desired catalogue (its
 * previous_* entries say where records were before), and the kinds whose every
 * tenant record was read (only there can a rule be said to match nothing).
 */
export interface ProtectContext {
  desired: Catalogue;
  readWhole: ReadonlySet<Kind>;
  /** What the ledger remembers: the image_url of the assets a delete takes along. */
  ledger?: LedgerView;
}

/**
 * `protect:` and `max_deletes:` over the plan as it would be applied. A
 * protected record deleted, renamed or moved is an error (exit 1) naming the
 * rule; too many deletes is a policy refusal (exit 3). Both refuse the plan
 * before anything is written. Protection follows the record: a rule written
 * for an address the record had before the manifests moved or renamed it (or
 * a parent) still holds; a rule that matches nothing is a warning.
 */
export function checkScope(plan: Plan, rules: ScopeRules, remote: RemoteCatalogue, context?: ProtectContext): void {
  const { protect } = parseScope(rules, "pimctl.yaml");
  const former = protect.length && context ? formerAddresses(context.desired) : () => [];
  const errors = protect.length ? protectErrors(plan, { protect, former }, remote, context?.ledger) : [];
  if (errors.length) throw new PimctlErrors(errors);
  if (protect.length && context) plan.warnings.push(...protectWarnings(protect, context, remote, former));
  if (rules.max_deletes === undefined) return;
  const limit = maxDeletesLimit(rules.max_deletes)!;
  const deletes = plan.actions.filter((a) => a.op === "delete");
  if ("count" in limit) {
    if (deletes.length > limit.count) throw tooMany(`the plan deletes ${plural(deletes.length, "record")}`, `max_deletes: ${limit.count}`);
    return;
  }
  for (const kind of KINDS) {
    const records = (remote[kind] as unknown[]).length;
    const gone = deletes.filter((a) => a.kind === kind && parseAddress(a.address)?.segments.length === 1).length;
    if (gone && records && (gone / records) * 100 > limit.percent) {
      throw tooMany(
        `the plan deletes ${gone} of the tenant's ${plural(records, KIND_NOUN[kind])} (${((gone / records) * 100).toFixed(1)}%)`,
        `max_deletes: "${limit.percent}%"`,
      );
    }
  }
}

/**
 * Each delete, rename or move of a protected record, and each delete that takes a protected record
 * along (an attribute's values, a brand's or category's assets: taken-along.ts), at most one error
 * per action. Rules match the record's address, its previous one, and the addresses the manifests
 * moved or renamed it (or a parent) away from.
 */
function protectErrors(
  plan: Plan,
  { protect, former }: { protect: Selector[]; former: (address: string) => string[] },
  remote: RemoteCatalogue,
  ledger: LedgerView | undefined,
): PimctlError[] {
  const errors: PimctlError[] = [];
  const refuse = (address: string, message: string, detail: string): boolean => {
    const rule = protect.find((s) => s.matches(address));
    if (rule) errors.push(new PimctlError("plan_refused", message.replace("RULE", rule.text), { details: [detail] }));
    return rule !== undefined;
  };
  for (const a of plan.actions) {
    if (a.op !== "delete" && a.op !== "rename" && a.op !== "move") continue;
    const own = [a.address, a.previous?.address].filter((x): x is string => x !== undefined);
    const detail =
      a.op === "delete"
        ? "declare it again in the manifests, or turn pruning off for its kind"
        : "keep its name and place in the manifests, or change the protect rule deliberately";
    const hit = [...own, ...own.flatMap(former)].some((address) => {
      const was = own.includes(address) ? "" : ` (it was ${address})`;
      return refuse(address, `${a.address} is protected by the rule protect: RULE in pimctl.yaml${was}, but the plan would ${a.op} it`, detail);
    });
    if (hit) continue;
    takenAlong(a, remote, ledger).some((along) =>
      refuse(
        along,
        `${along} is protected by the rule protect: RULE in pimctl.yaml, but the plan would delete it with ${a.address}`,
        `it goes with ${a.address}: keep that record (declare it again; a previous_names or previous_paths entry stays until the tenant has the ` +
          "new name), or change the protect rule deliberately",
      ),
    );
  }
  return errors;
}

/**
 * A protect rule that finds its record only through a former address (say so:
 * once the previous_* entry goes, so does the protection), or nothing at all
 * in the manifests and a kind read whole (it protects nothing).
 */
function protectWarnings(protect: Selector[], context: ProtectContext, remote: RemoteCatalogue, former: (address: string) => string[]): string[] {
  const known = [...knownAddresses(context.desired, remote)].sort();
  const out: string[] = [];
  for (const rule of protect) {
    if (rule.kind && rule.text === rule.kind) continue;
    if (known.some((a) => rule.matches(a))) continue;
    const moved = known.find((a) => former(a).some((f) => rule.matches(f)));
    if (moved) {
      out.push(
        `protect: ${rule.text} in pimctl.yaml finds ${moved} only through its former address (previous_paths or previous_names in the manifests); ` +
          `write ${moved} in the rule before that entry is removed`,
      );
    } else if (rule.kind && context.readWhole.has(rule.kind)) {
      out.push(
        `protect: ${rule.text} in pimctl.yaml matches nothing in the manifests or the tenant, so it protects nothing (was the record renamed or ` +
          `moved outside the manifests?)`,
      );
    }
  }
  return out;
}

function tooMany(what: string, rule: string): PimctlError {
  return new PimctlError("policy_refused", `${what}, more than ${rule} in pimctl.yaml allows; nothing was applied`, {
    details: ["a manifest file removed by mistake looks like this: check the manifests; if the deletes are meant, raise the limit for this change"],
  });
}
