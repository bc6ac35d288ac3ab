/**
 * The library API: each workflow wires the stages together (manifest ->
 * state -> plan -> apply -> render) and returns data; the CLI only parses
 * options, calls these and prints. Tests and other programs call them directly.
 * One file per command, over one project loader (project.ts): every workflow
 * is here, none beside its stage (export.ts, drift.ts, translations.ts, state.ts too).
 */
export { loadProject, schemaPath, type ProjectOptions } from "./project.js";
export { plan, planHmacKey, type PlanOptions, type PlanResult } from "./plan.js";
export { apply, type ApplyOptions, type ApplyResult } from "./apply.js";
export { diff, readTenantCatalogue, type DiffOptions } from "./diff.js";
export { ping } from "./ping.js";
