/**
 * Plain data of fleets for the renderers' tests: a tenant's plan of brand creates, a tenant's drift
 * report, each naming the tenant in its text (a change of its own in every tenant, none folded).
 */
import type { DriftItem, DriftReport } from "../../src/drift/index.js";
import { DRIFT_FORMAT_VERSION } from "../../src/drift/index.js";
import { FLEET_FORMAT_VERSION, type FleetPlan, type FleetTenant } from "../../src/plan/fleet.js";
import type { Action, Plan } from "../../src/plan/types.js";

/** A plan of `n` brand creates whose text names the tenant. */
export function planWith(tenant: string, n: number): Plan {
  const actions: Action[] = Array.from({ length: n }, (_, i) => ({
    address: `brand["Brand ${i + 1}"]`,
    kind: "brands",
    type: "brand",
    op: "create",
    changes: [{ field: "desc", after: `Brand ${i + 1} of ${tenant}, with a description long enough to fill a line of its own` }],
    depends_on: [],
    flags: {},
    refs: {},
  }));
  const summary = { create: n, update: 0, rename: 0, move: 0, delete: 0, unsupported: 0, destructive: 0, unmanaged: 0 };
  return { format_version: "1.3", tenant, version_ids: {}, actions, unmanaged: [], warnings: [], summary, fingerprints: {} };
}

/** A drift report of `n` brands edited by hand on the tenant. */
export function driftOf(tenant: string, n: number): DriftReport {
  const items = Array.from({ length: n }, (_, i): DriftItem => ({
    address: `brand["Brand ${i} of ${tenant}"]`,
    op: "update",
    fields: ["desc"],
    entity: { type: "brand", id: i },
    changed_at: "2026-11-20T10:14:03Z",
    changelog_id: 48_000 + i,
    origin: "tenant",
  }));
  const feed: DriftReport["feed"] = { entity_types: ["brand"], entries: n };
  return {
    format_version: DRIFT_FORMAT_VERSION,
    tenant,
    base_url: `https://${tenant}.example.com/api/v1`,
    checked_at: "2026-11-27T03:23:00Z",
    feed,
    refresh: { mode: "full" },
    drifted: n,
    items,
  };
}

export const fleetPlanOf = (tenants: FleetTenant[]): FleetPlan => ({
  format_version: FLEET_FORMAT_VERSION,
  kind: "fleet",
  tenants,
  waves: [tenants.map((t) => t.tenant)],
});
