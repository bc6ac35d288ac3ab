/**
 * An emulator for a test, on 127.0.0.1:0, and clients of it: the one setup the e2e tests share
 * instead of each writing its own `startEmulator` + `createClient` + close.
 *
 * - `emulatorTenant(opts)`: one emulator and a client of its tenant ("t", token "tok" unless
 *   told), closed by `close()`.
 * - `fileEmulator(opts)`: the same, started before the file's tests and closed after them;
 *   `fresh()` in a beforeEach gives each test an empty tenant, no faults and a new client.
 * - `emulatorsPerTest()`: emulators a file starts test by test (each with other switches or
 *   another seed), all closed with their clients after the file's tests.
 */
import { afterAll, beforeAll } from "vitest";
import { createClient, type PimClient } from "../../src/api/client.js";
import type { ClientOptions } from "../../src/api/options.js";
import { startEmulator, type Emulator, type EmulatorOptions } from "../../src/emulator/index.js";

export interface TenantOptions extends Omit<EmulatorOptions, "tenants" | "port"> {
  /** The tenant's hash (default "t"). */
  hash?: string;
  /** Its token (default "tok"). */
  token?: string;
  /** More tenants on the same emulator, beside the first. */
  others?: Array<{ hash: string; token: string }>;
  /** Options of the client `api` (retries, page size, a request log...). */
  client?: Partial<ClientOptions>;
}

export interface TestTenant {
  emu: Emulator;
  hash: string;
  token: string;
  /** The tenant's base URL, as pimctl.yaml's base_url wants it. */
  url: string;
  /** A client of the tenant, with the options given at the start. */
  api: PimClient;
  /** Another client of the tenant (closed with the emulator). */
  client(extra?: Partial<ClientOptions>): PimClient;
  close(): Promise<void>;
}

export async function emulatorTenant(opts: TenantOptions = {}): Promise<TestTenant> {
  const { hash = "t", token = "tok", others = [], client: clientOpts = {}, ...emulatorOpts } = opts;
  const emu = await startEmulator({ port: 0, tenants: [{ hash, token }, ...others], ...emulatorOpts });
  const url = emu.tenantUrl(hash);
  const clients: PimClient[] = [];
  const client = (extra: Partial<ClientOptions> = {}) => {
    const c = createClient({ tenant: hash, baseUrl: url, token, ...clientOpts, ...extra });
    clients.push(c);
    return c;
  };
  return {
    emu,
    hash,
    token,
    url,
    api: client(),
    client,
    async close() {
      await Promise.all(clients.map((c) => c.close()));
      await emu.close();
    },
  };
}

export interface FileEmulator {
  /** The emulator (read it inside a test or a hook: it starts in beforeAll). */
  readonly emu: Emulator;
  readonly url: string;
  /** The client of the latest `fresh()`, else the first one. */
  readonly api: PimClient;
  /** An empty tenant, no faults, zeroed counts and a new client (the last one closed). */
  fresh(extra?: Partial<ClientOptions>): Promise<PimClient>;
}

/** One emulator for the whole test file: started in beforeAll, closed in afterAll. */
export function fileEmulator(opts: TenantOptions = {}): FileEmulator {
  let t: TestTenant | undefined;
  let api: PimClient | undefined;
  beforeAll(async () => {
    t = await emulatorTenant(opts);
    api = t.api;
  });
  afterAll(async () => t?.close());
  const started = (): TestTenant =>
    t ??
    (() => {
      throw new Error("fileEmulator: read inside a test or hook, once beforeAll has run");
    })();
  return {
    get emu() {
      return started().emu;
    },
    get url() {
      return started().url;
    },
    get api() {
      return api ?? started().api;
    },
    async fresh(extra = {}) {
      const s = started();
      await api?.close();
      s.emu.clearFaults();
      for (const h of [s.hash, ...(opts.others ?? []).map((o) => o.hash)]) s.emu.resetTenant(h);
      s.emu.resetStats();
      api = s.client(extra);
      return api;
    },
  };
}

/** Emulators the file's tests start one by one; all of them closed after the file's tests. */
export function emulatorsPerTest(): (opts?: TenantOptions) => Promise<TestTenant> {
  const started: TestTenant[] = [];
  afterAll(async () => {
    await Promise.all(started.map((t) => t.close()));
  });
  return async (opts) => {
    const t = await emulatorTenant(opts);
    started.push(t);
    return t;
  };
}
