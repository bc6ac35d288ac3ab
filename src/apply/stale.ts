/**
 * A saved plan runs only if a plan made now, from the saved plan's own basis,
 * is exactly the saved plan: the same actions (ids, bodies, references,
 * order) and, for every record an action touches, the same fingerprint of
 * the tenant's record. Nothing here trusts a field an editor can blank out:
 * a touched record without a saved fingerprint is a difference, not a pass.
 *
 * Only what the plan writes counts: an `unsupported` action (what API v1
 * cannot write, such as a brand's language version) is shown and never
 * carried out, so its record, edited by hand since, or such an action that
 * appeared or went, does not make the plan stale (issue 33). A record's own
 * fingerprint leaves out those parts too (src/plan/action-builders.ts, writableView).
 */
import { canonicalJson } from "../plan/canonical-json.js";
import type { Action, Plan } from "../plan/types.js";

/** One line per address that differs, sorted; empty when the saved plan may run. */
export function savedPlanDifferences(opts: { saved: Plan; current: Plan }): string[] {
  const { saved, current } = opts;
  const savedWrites = writes(saved);
  const currentWrites = writes(current);
  const savedBy = new Map(savedWrites.map((a) => [a.address, a]));
  const currentBy = new Map(currentWrites.map((a) => [a.address, a]));
  const lines = new Map<string, string>();
  const note = (address: string, line: string) => {
    if (!lines.has(address)) lines.set(address, line);
  };
  for (const [address, now] of currentBy) {
    const print = saved.fingerprints[address];
    const was = savedBy.get(address);
    if (print === undefined) note(address, `no fingerprint: ${address} (the saved plan touches this record without recording how it looked)`);
    else if (print !== current.fingerprints[address]) note(address, `changed: ${address} (the tenant's record changed since the plan was made)`);
    if (!was) note(address, `not in the saved plan: ${address} (a plan made now has this ${now.op})`);
    else if (canonicalJson(was) !== canonicalJson(now)) note(address, `edited: ${address} (${differingKeys(was, now).join(", ")} differ from a plan made now)`);
  }
  for (const address of savedBy.keys()) {
    if (!currentBy.has(address)) note(address, `changed: ${address} (a plan made now has no such action: the tenant or the plan file changed)`);
  }
  const out = [...lines.entries()].sort(([a], [b]) => (a < b ? -1 : a > b ? 1 : 0)).map(([, l]) => l);
  if (!out.length && savedWrites.some((a, i) => a.address !== currentWrites[i]?.address)) {
    out.push("order: the saved actions are in another order than a plan made now");
  }
  if (saved.deletes_allowed !== current.deletes_allowed) {
    out.push(`deletes_allowed: the saved plan says ${String(saved.deletes_allowed)}, its basis says ${String(current.deletes_allowed)}`);
  }
  return out;
}

/** The actions apply carries out: all but those API v1 cannot (op unsupported), which it only reports. */
const writes = (p: Plan): Action[] => p.actions.filter((a) => a.op !== "unsupported");

function differingKeys(a: Action, b: Action): string[] {
  const keys = new Set([...Object.keys(a), ...Object.keys(b)]) as Set<keyof Action>;
  return [...keys].filter((k) => canonicalJson(a[k]) !== canonicalJson(b[k])).sort();
}
