/**
 * --target and --exclude: narrow a plan to some records. A target keeps the
 * actions at or under its address plus everything they depend on
 * (transitively), so the narrowed plan still applies; an exclude drops the
 * actions at or under an address, or of a whole kind, and whatever depends on them.
 * Selectors (kinds, addresses, globs) are parsed by selectors.ts; checking that
 * each matches something happens before, where the manifests and tenant are known.
 */
import { parseSelector } from "./selectors.js";
import type { Action, Plan, PlanSummary } from "./types.js";

export function filterPlan(plan: Plan, opts: { targets?: string[]; excludes?: string[] }): Plan {
  let actions = plan.actions;
  const targets = (opts.targets ?? []).map(parseSelector);
  const excludes = (opts.excludes ?? []).map(parseSelector);
  const byAddress = new Map(actions.map((a) => [a.address, a]));
  if (targets.length) {
    const keep = new Set<string>();
    const visit = (a: Action): void => {
      if (keep.has(a.address)) return;
      keep.add(a.address);
      for (const d of a.depends_on) {
        const dep = byAddress.get(d);
        if (dep) visit(dep);
      }
    };
    for (const a of actions) if (targets.some((t) => t.matches(a.address))) visit(a);
    actions = actions.filter((a) => keep.has(a.address));
  }
  if (excludes.length) {
    const dropped = new Set<string>();
    for (const a of actions) {
      if (excludes.some((e) => e.matches(a.address)) || a.depends_on.some((d) => dropped.has(d))) {
        dropped.add(a.address);
      }
    }
    actions = actions.filter((a) => !dropped.has(a.address));
  }
  const kept = new Set(actions.map((a) => a.address));
  // Targets narrow the unmanaged records too: a targeted plan reads only what it targets
  // (src/plan/read-scope.ts), so records elsewhere are neither seen nor listed.
  const unmanaged = plan.unmanaged.filter((u) => (!targets.length || targets.some((t) => t.matches(u.address))) && !excludes.some((e) => e.matches(u.address)));
  return {
    ...plan,
    actions,
    unmanaged,
    summary: recount(actions, targets.length ? unmanaged.length : plan.unmanaged.length),
    fingerprints: Object.fromEntries(Object.entries(plan.fingerprints).filter(([k]) => kept.has(k))),
  };
}

export function recount(actions: readonly Action[], unmanaged: number): PlanSummary {
  const s: PlanSummary = { create: 0, update: 0, rename: 0, move: 0, delete: 0, unsupported: 0, destructive: 0, unmanaged };
  for (const a of actions) {
    s[a.op]++;
    if (a.flags.destructive) s.destructive++;
  }
  return s;
}
