/** What pimctl.yaml holds, as loadConfig (load.ts) returns it. */
import type { ExternalRecords } from "../manifest/references.js";
import type { SourceLocation } from "../model/catalogue.js";
import type { PrunePolicy, ScopeRules } from "../model/policy.js";

export type { PruneKind } from "../model/catalogue.js";

export interface TenantConfig {
  name: string;
  base_url?: string;
  hash?: string;
  region?: string;
  url_template?: string;
  token_env?: string;
  token_file?: string;
  versions?: Record<string, number>;
  /** Where each of this tenant's `versions:` entries is written (a contradiction is reported there). */
  versions_at?: Record<string, SourceLocation>;
  variables?: Record<string, string>;
  parallelism?: number;
  allow_insecure_http?: boolean;
  /** A production tenant: pimctl doctor never writes to it (no --write-probes, no --remove-leftovers). */
  production?: boolean;
  /** Absolute overlay folder of this tenant as configured (`tenants.X.overlay`); see overlayDir. */
  overlay?: string;
}

export interface Config {
  /** The config file read, if any. */
  file?: string;
  /** Absolute manifest directory. */
  dir: string;
  tenants: Record<string, TenantConfig>;
  versions: Record<string, number>;
  /** Where each top-level `versions:` entry is written. */
  versions_at?: Record<string, SourceLocation>;
  prune: PrunePolicy;
  /** Absolute directory of the ledger and its lock (local backend). */
  ledger_dir: string;
  /** Where the ledger and the apply lock live: this machine (local) or a Git remote's refs (git). */
  state: StateConfig;
  url_template?: string;
  /** Tenant-owned records manifests may refer to without declaring them. */
  external?: ExternalRecords;
  /** What this repository manages: ignore:, protect:, max_deletes: (src/plan/scope.ts). */
  scope: ScopeRules;
  /** The translation rule validate enforces (src/translations/). */
  translations?: TranslationRules;
  /** Absolute folder of per-tenant overlay folders (`overlays:`): <overlays>/<tenant>/. */
  overlays?: string;
  /** The rollout waves as written (`rollout:`): lists of tenant names and globs (config/select.ts rolloutWaves). */
  rollout?: string[][];
}

export interface TranslationRules {
  /** Language versions that must be translated. */
  required?: string[];
  /** The least share of translated texts (percent) each required version needs; default 100. */
  fail_under?: number;
}

export interface StateConfig {
  backend: "local" | "git";
  /** git: the remote of the repository holding pimctl.yaml. */
  remote: string;
}
