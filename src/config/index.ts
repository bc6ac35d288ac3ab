/** pimctl.yaml: its shape (types.ts), loaded and validated (load.ts), found (find.ts). */
export type { Config, PruneKind, TenantConfig } from "./types.js";
export { loadConfig, versionMap, versionSources } from "./load.js";
export { hasCredentials, redactUrl } from "../api/base-url.js";
