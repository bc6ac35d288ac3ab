/**
 * The verification after apply: given a plan made again from a fresh read
 * (the caller re-plans the same way it planned), every touched record for
 * which an action still appears was not stored as written. This is where
 * silent behaviours of a tenant show up.
 */
import type { Plan } from "../plan/types.js";
import type { ApplyReport } from "./index.js";

export interface VerificationReport {
  checked: number;
  mismatches: Array<{ address: string; fields: string[] }>;
  /** The verification read itself failed: nothing was checked. */
  error?: string;
}

export function verifyApplied(report: ApplyReport, replanned: Plan): VerificationReport {
  const done = new Set(report.results.filter((r) => r.status === "done").map((r) => r.address));
  const mismatches = replanned.actions
    .filter((a) => a.op !== "unsupported" && done.has(a.address))
    .map((a) => ({ address: a.address, fields: a.changes.map((c) => c.field) }));
  return { checked: done.size, mismatches };
}
