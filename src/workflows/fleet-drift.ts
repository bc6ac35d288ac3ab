/**
 * `pimctl drift --tenant '*'`: each tenant's drift read exactly as `drift --tenant NAME` reads it,
 * a few tenants at once, in one report; a tenant that cannot be read is a row with its error. The
 * manifests are read as planFleet reads them: the base parsed once, tenants with the same overlay
 * and variables sharing one catalogue, each tenant's handed over once (fleetLoads).
 */
import { pmap } from "../base/promises.js";
import { FLEET_DRIFT_FORMAT_VERSION, type FleetDriftReport, type FleetDriftTenant } from "../drift/fleet.js";
import { tenantError } from "../plan/fleet.js";
import { drift, type DriftOptions } from "./drift.js";
import { TENANT_PARALLELISM, fleetLoads, type FleetLoadShared, type Selection } from "./fleet-plan.js";
import { refuseUnknownKinds } from "./plan.js";

export async function driftFleet(opts: DriftOptions & FleetLoadShared & { tenantParallelism?: number }, selection: Selection): Promise<FleetDriftReport> {
  refuseUnknownKinds(opts.targets, opts.excludes);
  const names = [...selection.tenants].sort();
  const loads = await fleetLoads(selection.config, names, opts);
  const tenants = await pmap(
    names,
    async (name): Promise<FleetDriftTenant> => {
      try {
        const report = await drift({ ...opts, tenant: name }, { config: selection.config, load: loads(name) });
        return { tenant: name, report, exit: report.drifted ? 2 : 0 };
      } catch (e) {
        return { tenant: name, error: tenantError(e), exit: 1 };
      }
    },
    opts.tenantParallelism ?? TENANT_PARALLELISM,
  );
  return { format_version: FLEET_DRIFT_FORMAT_VERSION, kind: "fleet-drift", tenants };
}
