/**
 * The emulator's public types: its options, the handle startEmulator returns, its
 * stats and faults. Exported through index.ts (`pimctl/emulator`).
 */
import type { TenantStore } from "./store.js";
import type { TenantData } from "./record-shapes.js";
import type { EmulatorSwitches } from "./switches.js";

export interface EmulatorTenantSpec {
  hash: string;
  token: string;
}

/** --seed FILE: per tenant, records to pre-load (TenantData shape), replacing or extending the defaults. */
export interface SeedFile {
  /** true: start from nothing but the seed (no default channels, entities, profiles). */
  replace_defaults?: boolean;
  /** Applied to every tenant. */
  all?: Partial<TenantData>;
  tenants?: Record<string, Partial<TenantData>>;
}

export interface EmulatorOptions {
  host?: string;
  port?: number;
  tenants: EmulatorTenantSpec[];
  seed?: SeedFile;
  dataFile?: string;
  latencyMs?: number;
  failRate?: number;
  rateLimit?: number;
  faultSeed?: number;
  exportStepMs?: number;
  maxBodyBytes?: number;
  /** What a random fault (failRate) does, picked uniformly; default error500 and drop. */
  faultModes?: FaultMode[];
  switches?: Partial<EmulatorSwitches>;
  /** Serve HTTPS with this certificate and key (PEM text), as a tenant behind TLS would be. */
  tls?: { cert: string; key: string };
}

export type FaultMode = "error500" | "rate429" | "drop" | "drop_after_commit" | "stall";
export interface TargetedFault {
  method?: string;
  route?: string;
  mode: FaultMode;
  times?: number;
  /** rate429: the Retry-After header's value (default "1"). */
  retryAfter?: string;
  /** Only requests to this tenant (default: any). */
  tenant?: string;
}

export interface EmulatorStats {
  requests: { total: number; byTenant: Record<string, number>; byMethod: Record<string, number>; byRoute: Record<string, number> };
  faults: Record<string, number>;
  /** With --data: saves written since the start, and the most that ever ran at once (one, by design). */
  saves: { written: number; most_at_once: number; failed: number };
}

/** A request as onRequest sees it: the tenant, the method and the route's pattern (as in stats().requests.byRoute). */
export type RequestHook = (r: { tenant: string; method: string; route: string }) => void | Promise<void>;

export interface Emulator {
  url: string;
  port: number;
  tenantUrl(hash: string): string;
  stats(): EmulatorStats;
  resetStats(): void;
  rotateToken(hash: string, newToken: string): void;
  setFaults(f: { latencyMs?: number; failRate?: number; rateLimit?: number; faultSeed?: number; faultModes?: FaultMode[] }): void;
  injectFaults(faults: TargetedFault[]): void;
  clearFaults(): void;
  /** Targeted faults not yet fired (for one tenant, or all). */
  faultsLeft(tenant?: string): number;
  store(hash: string): TenantStore;
  /**
   * Call `hook` for every API request once it is counted, before it is answered (undefined: none);
   * a test's write made in it lands at an exact moment of a client's read, and an `HttpError` it
   * throws is the request's answer (a tenant that refuses a write).
   */
  onRequest(hook: RequestHook | undefined): void;
  addTenant(spec: EmulatorTenantSpec): void;
  /** Replace a tenant's data with an empty (default-seeded) store. */
  resetTenant(hash: string): void;
  close(): Promise<void>;
}
