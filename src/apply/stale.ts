/**
 * A saved plan is fresh when every record it touches still looks as it did:
 * the fingerprints of a plan built now from the same basis must equal the
 * saved ones. A record whose action disappeared (someone made the change by
 * hand) counts as changed too: the reviewed plan no longer describes the tenant.
 */
import type { Plan } from "../plan/types.js";

export function checkFresh(opts: { saved: Plan; current: Plan }): string[] {
  const drifted: string[] = [];
  for (const [address, print] of Object.entries(opts.saved.fingerprints)) {
    if (opts.current.fingerprints[address] !== print) drifted.push(address);
  }
  return drifted.sort();
}
