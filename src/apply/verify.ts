/**
 * The verification read after apply: read the state again, plan again, and
 * report every touched record the tenant did not store as written (an action
 * for it still appears). This is where silent behaviours of a tenant show up.
 */
import type { PimApi } from "../api/types.js";
import type { Catalogue } from "../model/catalogue.js";
import { buildPlan, type PruneKind } from "../plan/planner.js";
import type { Plan } from "../plan/types.js";
import { readState, type ReadStateOptions } from "../state/index.js";
import type { Ledger } from "../state/ledger.js";
import type { ApplyReport } from "./index.js";

export interface VerificationReport {
  checked: number;
  mismatches: Array<{ address: string; fields: string[] }>;
}

export async function verifyApplied(opts: {
  api: PimApi;
  desired: Catalogue;
  plan: Plan;
  report: ApplyReport;
  ledger: Ledger;
  readOptions: ReadStateOptions;
  prune: Partial<Record<PruneKind, boolean>>;
}): Promise<VerificationReport> {
  const done = new Set(opts.report.results.filter((r) => r.status === "done").map((r) => r.address));
  if (!done.size) return { checked: 0, mismatches: [] };
  const remote = await readState(opts.api, opts.readOptions);
  const { plan } = buildPlan({ tenant: opts.plan.tenant, desired: opts.desired, remote, ledger: opts.ledger, prune: opts.prune });
  const mismatches = plan.actions
    .filter((a) => a.op !== "unsupported" && done.has(a.address))
    .map((a) => ({ address: a.address, fields: a.changes.map((c) => c.field) }));
  return { checked: done.size, mismatches };
}
