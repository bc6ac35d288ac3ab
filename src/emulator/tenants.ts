/**
 * The emulator's tenants: each one's token, store and rate-limit window. A tenant starts
 * from what `--data` saved for it, else from the default records and the `--seed` file's.
 */
import { existsSync, readFileSync } from "node:fs";
import type { RateWindow } from "./faults.js";
import type { TenantData } from "./record-shapes.js";
import { TenantStore } from "./store.js";
import type { EmulatorSwitches } from "./switches.js";
import type { EmulatorTenantSpec, SeedFile } from "./types.js";

export interface Tenant {
  token: string;
  store: TenantStore;
  window: RateWindow;
}

/** What `--data FILE` holds: every tenant's token and records. */
interface SavedTenants {
  tenants?: Record<string, { token: string; data: TenantData }>;
}

export class Tenants {
  private readonly byName = new Map<string, Tenant>();
  private readonly saved: SavedTenants;

  /** `onChange`: called after every write to any tenant (and a token's rotation), for --data. */
  constructor(private readonly o: { dataFile?: string; seed?: SeedFile; switches: EmulatorSwitches; onChange: () => void }) {
    this.saved = o.dataFile && existsSync(o.dataFile) ? (JSON.parse(readFileSync(o.dataFile, "utf8")) as SavedTenants) : {};
  }

  get(hash: string): Tenant | undefined {
    return this.byName.get(hash);
  }

  /** The tenant, or an error naming it (the handle's methods, which a test calls with a name it chose). */
  known(hash: string): Tenant {
    const t = this.byName.get(hash);
    if (!t) throw new Error(`unknown tenant ${hash}`);
    return t;
  }

  names(): IterableIterator<string> {
    return this.byName.keys();
  }

  entries(): IterableIterator<[string, Tenant]> {
    return this.byName.entries();
  }

  add(spec: EmulatorTenantSpec): void {
    const saved = this.saved.tenants?.[spec.hash];
    this.byName.set(spec.hash, { token: saved?.token ?? spec.token, store: this.newStore(spec.hash), window: { second: 0, count: 0 } });
  }

  /** A tenant's data as a new tenant's (default-seeded), forgetting what --data saved for it. */
  reset(hash: string): void {
    const t = this.known(hash);
    delete this.saved.tenants?.[hash];
    t.store = this.newStore(hash);
    this.o.onChange();
  }

  rotateToken(hash: string, token: string): void {
    this.known(hash).token = token;
    this.o.onChange();
  }

  private newStore(hash: string): TenantStore {
    const store = new TenantStore(hash);
    store.idSequence = this.o.switches.idSequence;
    const saved = this.saved.tenants?.[hash];
    const seed = this.o.seed;
    if (saved) store.load(saved.data);
    else {
      if (!seed?.replace_defaults) store.seedDefaults();
      if (seed?.all) store.load(seed.all);
      if (seed?.tenants?.[hash]) store.load(seed.tenants[hash]);
    }
    store.onChange = this.o.onChange;
    return store;
  }
}
