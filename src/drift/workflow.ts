/** `pimctl drift` as a library call: plan, then read the feed for the drifted records. */
import { planOpen, type PlanOptions } from "../workflows/index.js";
import { DRIFT_FORMAT_VERSION, attribute, feedTypesOf, ledgerIds, readDriftFeed, type DriftReport } from "./index.js";

export interface DriftOptions extends PlanOptions {
  /** Read feed entries since this ISO time only (default: the whole feed of the types involved). */
  since?: string;
  /** The clock, for the report's checked_at (tests pin it). */
  now?: () => Date;
}

export async function drift(opts: DriftOptions): Promise<DriftReport> {
  // Drift applies nothing: deletes while a manifest file declares nothing are drift to report, with the plan's warning.
  const result = await planOpen({ ...opts, allowEmptyFiles: true });
  try {
    const types = feedTypesOf(result.plan.actions);
    const entries = types.length ? await readDriftFeed(result.connection.api, types, opts.since) : [];
    return {
      format_version: DRIFT_FORMAT_VERSION,
      tenant: result.connection.name,
      base_url: result.connection.baseUrl,
      checked_at: (opts.now?.() ?? new Date()).toISOString().replace(/\.\d{3}Z$/, "Z"),
      feed: { entity_types: types, ...(opts.since ? { since: opts.since } : {}), entries: entries.length },
      refresh: result.refresh,
      items: attribute(result.plan, entries, opts.since, ledgerIds(result.plan.actions, result.ledger, result.remote)),
    };
  } finally {
    await result.connection.api.close();
  }
}
