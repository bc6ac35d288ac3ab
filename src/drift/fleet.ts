/**
 * Drift across a fleet (`pimctl drift --tenant '*'`): one report, each tenant's drift report or
 * the error that kept it from being read. Plain data, printed as JSON with `kind: "fleet-drift"`
 * (schemas/fleet-drift.schema.json).
 */
import type { FleetTenantError } from "../plan/fleet.js";
import { countsAsDrift, type DriftReport } from "./index.js";

export const FLEET_DRIFT_FORMAT_VERSION = "1.0";

export interface FleetDriftReport {
  format_version: string;
  kind: "fleet-drift";
  /** Every selected tenant, sorted by name; exactly one of report / error. */
  tenants: FleetDriftTenant[];
}

export interface FleetDriftTenant {
  tenant: string;
  report?: DriftReport;
  error?: FleetTenantError;
  /** The tenant's own exit code under --detailed-exitcode: 0 no drift, 2 drift, 1 error. */
  exit: number;
}

/** A tenant's row: its drift counted by where it comes from, and what API v1 cannot write back (shown, never counted). */
export function driftCounts(r: DriftReport): { drifted: number; tenant: number; manifests: number; unsupported: number } {
  const drift = r.items.filter(countsAsDrift);
  return {
    drifted: drift.length,
    tenant: drift.filter((i) => i.origin === "tenant").length,
    manifests: drift.filter((i) => i.origin === "manifests").length,
    unsupported: r.items.length - drift.length,
  };
}
