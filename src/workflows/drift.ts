/** `pimctl drift` as a library call: plan, tell the manifests' differences from the tenant's, then read the feed for the tenant's. */
import { planOpen, type GivenProject, type PlanOptions } from "./plan.js";
import { DRIFT_FORMAT_VERSION, attribute, countsAsDrift, driftedActions, feedTypesOf, ledgerIds, readDriftFeed, type DriftReport } from "../drift/index.js";
import { origins } from "../drift/origin.js";

export interface DriftOptions extends PlanOptions {
  /** Read feed entries since this ISO time only (default: the whole feed of the types involved). */
  since?: string;
  /** The clock, for the report's checked_at (tests pin it). */
  now?: () => Date;
}

export async function drift(opts: DriftOptions, given: GivenProject = {}): Promise<DriftReport> {
  // Drift applies nothing: deletes while a manifest file declares nothing are drift to report, with the plan's warning.
  const result = await planOpen({ ...opts, allowEmptyFiles: true }, given);
  try {
    const fromLedger = ledgerIds(result.plan.actions, result.ledger, result.remote);
    const claims = origins(driftedActions(result.plan), result.desired, result.ledger, fromLedger);
    // What the manifests introduced is no change of the tenant: its history is not read for it.
    const types = feedTypesOf(result.plan.actions.filter((a) => claims.get(a.address)?.origin !== "manifests"));
    const entries = types.length ? await readDriftFeed(result.connection.api, types, opts.since) : [];
    const items = attribute(result.plan, entries, opts.since, fromLedger, claims);
    return {
      format_version: DRIFT_FORMAT_VERSION,
      tenant: result.connection.name,
      base_url: result.connection.baseUrl,
      checked_at: (opts.now?.() ?? new Date()).toISOString().replace(/\.\d{3}Z$/, "Z"),
      feed: { entity_types: types, ...(opts.since ? { since: opts.since } : {}), entries: entries.length },
      refresh: result.refresh,
      drifted: items.filter(countsAsDrift).length,
      items,
    };
  } finally {
    await result.connection.api.close();
  }
}
