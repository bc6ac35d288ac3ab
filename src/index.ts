/**
 * pimctl as a library: the same workflows the CLI runs, and each stage on its
 * own for programs that want to compose them (see src/README.md).
 */
export { plan, apply, diff, ping, loadProject, readTenantCatalogue } from "./workflows/index.js";
export { exportTenant, type ExportOptions, type ExportResult } from "./workflows/export.js";
export type { ApplyOptions, ApplyResult, DiffOptions, PlanOptions, PlanResult, ProjectOptions } from "./workflows/index.js";
export { drift, type DriftOptions } from "./workflows/drift.js";
export { doctor, type DoctorOptions } from "./workflows/doctor.js";
export { replayBundle } from "./workflows/replay.js";
export type { DoctorReport, Finding } from "./doctor/types.js";
export type { DriftItem, DriftReport } from "./drift/index.js";
export type { RefreshMode, RefreshReport } from "./state/changelog/index.js";
export {
  translationsStatus,
  translationsExport,
  translationsImport,
  translationsMarkReviewed,
  translationRuleProblems,
  type ImportResult,
  type TranslationExportOptions,
} from "./workflows/translations.js";
export type { StatusReport, VersionCoverage } from "./translations/status.js";

// Fleets (issue 35, docs/fleets.md): several tenants in one run, their saved plans, the combined review, the rollout.
export { selectTenants, rolloutWaves } from "./config/select.js";
export { loadFleetCatalogues } from "./workflows/fleet-load.js";
export { planFleet, selectFleet, type FleetPlanOptions, type FleetPlanResult, type Selection } from "./workflows/fleet-plan.js";
export { driftFleet } from "./workflows/fleet-drift.js";
export { showPlans } from "./workflows/show.js";
export { rollout, type RolloutResult, type RolloutRunOptions, type RolloutTenant } from "./workflows/rollout.js";
export { readPlanFiles, writeFleetFile, type PlanFilesOptions } from "./planfile/fleet-file.js";
export { FLEET_FORMAT_VERSION, worstExit, type FleetPlan, type FleetTenant, type FleetTenantError } from "./plan/fleet.js";
export { FLEET_DRIFT_FORMAT_VERSION, type FleetDriftReport, type FleetDriftTenant } from "./drift/fleet.js";
export { renderFleet } from "./render/fleet/index.js";
export { renderFleetDrift } from "./render/fleet-drift.js";

export { loadConfig, type Config, type TenantConfig, type PruneKind } from "./config/index.js";
export { loadManifests, parseManifestText, type LoadResult } from "./manifest/index.js";
export { createClient, resolveToken, type ClientOptions, type PimClient } from "./api/client.js";
export type { PimApi } from "./api/types.js";
export { readState, resolveVersionIds, type ReadStateOptions } from "./state/index.js";
export { emptyLedger, mergeLedger, parseLedger, serialiseLedger, type Ledger } from "./state/ledger.js";
export { openBackend, readLedger, saveLedger, acquireLock, LocalBackend, GitBackend, type StateBackend, type LockInfo } from "./state/backends/index.js";
export { buildPlan, fingerprint, type PlanInput, type PlanOutcome } from "./plan/planner.js";
export { filterPlan } from "./plan/filter.js";
export { finalisePlan, type FinalOptions, type PlanFacts } from "./plan/finalise.js";
export { readPlanFile, writePlanFile, parsePlan } from "./planfile/file.js";
export { PLAN_FORMAT_VERSION, hasChanges, type Plan, type Action, type Op, type FieldChange } from "./plan/types.js";
export { applyPlan, type ApplyReport, type ActionResult, type ApplyHooks } from "./apply/index.js";
export { renderPlan, wantColor, FORMATS, type Format, type RenderOptions } from "./render/index.js";
export { catalogueToFiles, remoteToCatalogue } from "./export/index.js";
export { startEmulator, type Emulator, type EmulatorOptions } from "./emulator/index.js";
export { PimctlError, PimctlErrors, type ErrorCode } from "./errors.js";
export type { Catalogue, Kind } from "./model/catalogue.js";
export type { RemoteCatalogue } from "./model/remote.js";
