/**
 * The emulator: a local PIM tenant server implementing API v1 over real HTTP
 * (node:http), several tenants each with its own token, fault knobs, request
 * counters and a loopback-only control surface. Used by the demo, the tests
 * and the benchmarks; see README.md beside this file.
 */
import { createServer, type IncomingMessage, type Server, type ServerResponse } from "node:http";
import { createServer as createHttpsServer } from "node:https";
import { readFileSync, existsSync } from "node:fs";
import { open, rename } from "node:fs/promises";
import type { AddressInfo, Socket } from "node:net";
import { DEFAULT_SWITCHES, matchRoute, type EmulatorSwitches, type RequestContext } from "./routes.js";
import { HttpError, TenantStore, type TenantData } from "./store.js";
import { UNPAGINATED_LISTS, paginateList, toWire } from "./wire-format.js";
import { refuseControlRequest } from "./control-guard.js";

export type { EmulatorSwitches } from "./routes.js";
export { TenantStore } from "./store.js";

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

/** Records produced (answers) and written (saves) between two yields to other requests. */
const LIST_CHUNK = 250;
const SAVE_CHUNK = 2000;

export interface EmulatorStats {
  requests: { total: number; byTenant: Record<string, number>; byMethod: Record<string, number>; byRoute: Record<string, number> };
  faults: Record<string, number>;
  /** With --data: saves written since the start, and the most that ever ran at once (one, by design). */
  saves: { written: number; most_at_once: number; failed: number };
}

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
  addTenant(spec: EmulatorTenantSpec): void;
  /** Replace a tenant's data with an empty (default-seeded) store. */
  resetTenant(hash: string): void;
  close(): Promise<void>;
}

interface Tenant {
  token: string;
  store: TenantStore;
  window: { second: number; count: number };
}

/** Small, seedable PRNG so random faults are reproducible (mulberry32). */
function prng(seed: number): () => number {
  let a = seed >>> 0;
  return () => {
    a = (a + 0x6d2b79f5) >>> 0;
    let t = a;
    t = Math.imul(t ^ (t >>> 15), t | 1);
    t ^= t + Math.imul(t ^ (t >>> 7), t | 61);
    return ((t ^ (t >>> 14)) >>> 0) / 4294967296;
  };
}

const isLoopback = (addr: string | undefined) => !!addr && (addr === "::1" || addr.startsWith("127.") || addr === "::ffff:127.0.0.1" || addr.startsWith("::ffff:127."));

export async function startEmulator(opts: EmulatorOptions): Promise<Emulator> {
  const host = opts.host ?? "127.0.0.1";
  const switches: EmulatorSwitches = { ...DEFAULT_SWITCHES, ...opts.switches };
  const maxBody = opts.maxBodyBytes ?? 1024 * 1024;
  const exportStepMs = opts.exportStepMs ?? 300;
  let latencyMs = opts.latencyMs ?? 0;
  let failRate = opts.failRate ?? 0;
  let rateLimit = opts.rateLimit ?? 0;
  let random = prng(opts.faultSeed ?? 1);
  let faultModes: FaultMode[] = opts.faultModes?.length ? opts.faultModes : ["error500", "drop"];
  let targeted: Array<Required<Pick<TargetedFault, "mode">> & TargetedFault & { left: number }> = [];
  const tenants = new Map<string, Tenant>();
  const sockets = new Set<Socket>();
  let stats: EmulatorStats = freshStats();
  let saveTimer: NodeJS.Timeout | undefined;
  /** The save running now, if any; `dirty`: something changed since it started. */
  let saving: Promise<void> | undefined;
  let dirty = false;

  function freshStats(): EmulatorStats {
    return { requests: { total: 0, byTenant: {}, byMethod: {}, byRoute: {} }, faults: {}, saves: { written: 0, most_at_once: 0, failed: 0 } };
  }

  const persisted: { tenants?: Record<string, { token: string; data: TenantData }> } =
    opts.dataFile && existsSync(opts.dataFile) ? JSON.parse(readFileSync(opts.dataFile, "utf8")) : {};

  /**
   * Saves run one at a time: a change during a save marks the state dirty and one
   * more save follows it, however many changes came in between (a timer per change
   * used to queue a full save every 50 ms behind the running one).
   */
  function schedulePersist(): void {
    if (!opts.dataFile) return;
    dirty = true;
    if (saveTimer || saving) return;
    saveTimer = setTimeout(() => {
      saveTimer = undefined;
      // Nobody awaits a timed save: a failure (disk full, directory gone) left unhandled would end
      // the process, taking every tenant down. It is counted, the state stays dirty, and the next
      // change or close() tries again (close() reports it).
      startSaving().catch(() => undefined);
    }, 50);
  }

  function startSaving(): Promise<void> {
    saving ??= (async () => {
      try {
        while (dirty) {
          dirty = false;
          try {
            await persistNow();
          } catch (e) {
            stats.saves.failed++;
            dirty = true; // what did not reach the file still has to
            throw e;
          }
        }
      } finally {
        saving = undefined;
      }
    })();
    return saving;
  }

  /** The whole state, written a collection chunk at a time (yielding between), then renamed into place. */
  let savesRunning = 0;
  async function persistNow(): Promise<void> {
    if (!opts.dataFile) return;
    stats.saves.most_at_once = Math.max(stats.saves.most_at_once, ++savesRunning);
    try {
      await writeState(opts.dataFile);
      stats.saves.written++;
    } finally {
      savesRunning--;
    }
  }

  async function writeState(dataFile: string): Promise<void> {
    const tmp = `${dataFile}.${process.pid}.tmp`;
    const file = await open(tmp, "w");
    try {
      let first = true;
      await file.write('{"tenants":{');
      for (const [hash, t] of tenants) {
        await file.write(`${first ? "" : ","}${JSON.stringify(hash)}:{"token":${JSON.stringify(t.token)},"data":{`);
        first = false;
        const data = t.store.toData() as unknown as Record<string, unknown>;
        let firstKey = true;
        for (const [key, value] of Object.entries(data)) {
          if (value === undefined) continue;
          await file.write(`${firstKey ? "" : ","}${JSON.stringify(key)}:`);
          firstKey = false;
          if (!Array.isArray(value)) {
            await file.write(JSON.stringify(value));
            continue;
          }
          await file.write("[");
          for (let i = 0; i < value.length; i += SAVE_CHUNK) {
            await file.write(`${i ? "," : ""}${value.slice(i, i + SAVE_CHUNK).map((r) => JSON.stringify(r)).join(",")}`);
            await new Promise((r) => setImmediate(r));
          }
          await file.write("]");
        }
        await file.write("}}");
      }
      await file.write("}}");
    } finally {
      await file.close();
    }
    await rename(tmp, dataFile); // atomic: readers see the old or the new file, never half of one
  }

  function newStore(hash: string): TenantStore {
    const store = new TenantStore(hash);
    store.idSequence = switches.idSequence;
    const saved = persisted.tenants?.[hash];
    if (saved) store.load(saved.data);
    else {
      if (!opts.seed?.replace_defaults) store.seedDefaults();
      if (opts.seed?.all) store.load(opts.seed.all);
      if (opts.seed?.tenants?.[hash]) store.load(opts.seed.tenants[hash]);
    }
    store.onChange = schedulePersist;
    return store;
  }

  function addTenant(spec: EmulatorTenantSpec): void {
    const saved = persisted.tenants?.[spec.hash];
    tenants.set(spec.hash, { token: saved?.token ?? spec.token, store: newStore(spec.hash), window: { second: 0, count: 0 } });
  }
  for (const t of opts.tenants) addTenant(t);

  const count = (map: Record<string, number>, key: string) => {
    map[key] = (map[key] ?? 0) + 1;
  };

  function send(res: ServerResponse, status: number, body?: unknown, headers: Record<string, string> = {}): void {
    if (res.destroyed) return;
    const text = body === undefined ? "" : JSON.stringify(body); // null is sent as "null"
    res.writeHead(status, { "content-type": "application/json", "content-length": Buffer.byteLength(text), ...headers });
    res.end(text);
  }

  let retryAfter = "1";
  function takeTargeted(method: string, route: string, hash: string): FaultMode | undefined {
    const i = targeted.findIndex((f) => (!f.method || f.method === method) && (!f.route || f.route === route) && (!f.tenant || f.tenant === hash) && f.left > 0);
    if (i === -1) return undefined;
    const f = targeted[i]!;
    f.left--;
    if (f.left <= 0) targeted.splice(i, 1);
    retryAfter = f.retryAfter ?? "1";
    return f.mode;
  }

  async function readBody(req: IncomingMessage): Promise<Buffer | "too_large"> {
    const chunks: Buffer[] = [];
    let size = 0;
    for await (const chunk of req) {
      size += (chunk as Buffer).length;
      if (size > maxBody) return "too_large";
      chunks.push(chunk as Buffer);
    }
    return Buffer.concat(chunks);
  }

  async function handleControl(req: IncomingMessage, res: ServerResponse, path: string): Promise<void> {
    if (!isLoopback(req.socket.remoteAddress)) return send(res, 403, { message: "The control surface answers loopback clients only." });
    // A web page on this machine must not reset data or rotate tokens (CSRF, DNS rebinding): control-guard.ts.
    const refused = refuseControlRequest(req);
    if (refused) return send(res, refused.status, { message: refused.message });
    const raw = await readBody(req);
    if (raw === "too_large") return send(res, 413, { message: `Payload Too Large (limit ${maxBody} bytes).` }, { connection: "close" });
    let body: Record<string, unknown> = {};
    try {
      body = raw.length === 0 ? {} : JSON.parse(raw.toString("utf8"));
    } catch {
      return send(res, 400, { message: "The request body is not valid JSON." });
    }
    if (req.method === "GET" && path === "/__emulator/stats") return send(res, 200, api.stats());
    if (req.method === "POST" && path === "/__emulator/reset") {
      api.resetStats();
      if (body.data === true) for (const h of tenants.keys()) api.resetTenant(h);
      return send(res, 200, { reset: true });
    }
    const rotate = path.match(/^\/__emulator\/tenants\/([^/]+)\/rotate-token$/);
    if (req.method === "POST" && rotate) {
      if (!tenants.has(rotate[1]!)) return send(res, 404, { message: "Unknown tenant." });
      if (typeof body.token !== "string" || !body.token) return send(res, 422, { message: "token is required." });
      api.rotateToken(rotate[1]!, body.token);
      return send(res, 200, { rotated: true });
    }
    if (req.method === "POST" && path === "/__emulator/faults") {
      api.setFaults(body as never);
      if (Array.isArray(body.inject)) api.injectFaults(body.inject as TargetedFault[]);
      if (body.clear === true) api.clearFaults();
      return send(res, 200, { ok: true });
    }
    return send(res, 404, { message: "Unknown control route." });
  }

  /**
   * Injected latency, held for `ms` on average. Timers fire late (by up to a
   * millisecond and more under load), which made a 5 ms latency cost 6.3 ms a
   * request and every benchmark bound (requests / parallelism x latency) look
   * 26 % worse than any client could do. The lateness is learnt and asked off.
   */
  let timerLateness = 0;
  async function holdFor(ms: number): Promise<void> {
    const ask = Math.max(0, ms - timerLateness);
    const t0 = performance.now();
    await new Promise((r) => setTimeout(r, ask));
    const held = performance.now() - t0;
    timerLateness = Math.min(ms, Math.max(0, timerLateness + 0.05 * (held - ms)));
  }

  async function handle(req: IncomingMessage, res: ServerResponse): Promise<void> {
    const url = new URL(req.url ?? "/", "http://localhost");
    const path = url.pathname;
    if (path.startsWith("/__emulator/")) return handleControl(req, res, path);
    const file = path.match(/^\/(exports|assets)\/([^/]+)\/(.+)$/);
    if (req.method === "GET" && file) return serveFile(req, res, file[1]!, file[2]!, file[3]!);
    const m = path.match(/^\/([^/]+)\/api\/v1(\/.*)?$/);
    const tenant = m ? tenants.get(m[1]!) : undefined;
    if (!m || !tenant) return send(res, 404, { message: "Not found." });
    const hash = m[1]!;
    const sub = m[2] ?? "/";
    const method = req.method ?? "GET";
    const found = matchRoute(method, sub);
    const routeKey = found && "route" in found ? found.route.pattern : "(unmatched)";

    stats.requests.total++;
    count(stats.requests.byTenant, hash);
    count(stats.requests.byMethod, method);
    count(stats.requests.byRoute, `${method} ${routeKey}`);

    if (latencyMs > 0) await holdFor(latencyMs);

    // Rate limit per tenant per second.
    if (rateLimit > 0) {
      const second = Math.floor(Date.now() / 1000);
      if (tenant.window.second !== second) tenant.window = { second, count: 0 };
      if (++tenant.window.count > rateLimit) {
        count(stats.faults, "rate429");
        return send(res, 429, { message: "Too Many Requests." }, { "retry-after": "1" });
      }
    }

    retryAfter = "1";
    let fault = takeTargeted(method, routeKey, hash);
    if (!fault && failRate > 0 && random() < failRate) fault = faultModes[Math.floor(random() * faultModes.length)] ?? "error500";
    // A dropped answer after commit only means something for writes; a read is simply dropped.
    if (fault === "drop_after_commit" && method === "GET") fault = "drop";
    if (fault) count(stats.faults, fault);
    if (fault === "error500") return send(res, 500, { message: "Server Error." });
    if (fault === "rate429") return send(res, 429, { message: "Too Many Requests." }, { "retry-after": retryAfter });
    if (fault === "drop") return void req.socket.destroy();
    if (fault === "stall") return; // never answers; the client times out

    // "The 501 answers hold on every tenant and for every token": before authentication.
    if (found && "route" in found && found.route.notImplemented) return send(res, 501, { message: "Not implemented." });
    const auth = req.headers.authorization;
    if (!auth || !/^Bearer \S+$/.test(auth) || auth.slice(7) !== tenant.token) {
      return send(res, 401, { message: "Unauthenticated." });
    }
    if (!found) return send(res, 404, { message: `No route for ${method} ${sub}.` });
    if ("allowed" in found) return send(res, 405, { message: "Method Not Allowed." }, { allow: found.allowed.join(", ") });

    const raw = await readBody(req);
    if (raw === "too_large") {
      send(res, 413, { message: `Payload Too Large (limit ${maxBody} bytes).` }, { connection: "close" });
      return;
    }
    let body: unknown;
    let invalidJson = false;
    if (raw.length) {
      try {
        body = JSON.parse(raw.toString("utf8"));
      } catch {
        invalidJson = true;
      }
    }
    const origin = `${scheme}://${req.headers.host ?? `${host}:${port}`}`;
    const ctx: RequestContext = {
      store: tenant.store,
      method,
      params: found.params,
      query: url.searchParams,
      body,
      invalidJson,
      baseUrl: `${origin}/${hash}/api/v1`,
      origin,
      switches,
      exportStepMs,
    };
    let reply;
    try {
      reply = found.route.handler(ctx);
    } catch (e) {
      if (e instanceof HttpError) return send(res, e.status, e.body);
      return send(res, 500, { message: "Server Error.", detail: (e as Error).message });
    }
    if (fault === "drop_after_commit") return void req.socket.destroy();
    let out = reply.body;
    const listKey = method === "GET" ? UNPAGINATED_LISTS[found.route.pattern] : undefined;
    if (switches.paginateAllLists && listKey) {
      out = paginateList(out, listKey, url.searchParams, (p) => {
        const q = new URLSearchParams(url.searchParams);
        q.set("page", String(p));
        return `${ctx.baseUrl}${sub}?${q.toString()}`;
      });
    }
    if (out === null && reply.status === 200) return send(res, 200, null);
    const wire = { bool: switches.boolFormat, id: switches.idFormat, date: switches.dateFormat };
    const long = largeList(out);
    if (long) return sendInChunks(res, reply.status, out as Record<string, unknown>, long, wire);
    send(res, reply.status, out === undefined ? undefined : toWire(out, wire));
  }

  /** The key of a list long enough that producing it in one go would hold up every other request. */
  function largeList(body: unknown): string | undefined {
    if (!body || typeof body !== "object" || Array.isArray(body)) return undefined;
    return Object.entries(body).find(([, v]) => Array.isArray(v) && v.length > LIST_CHUNK)?.[0];
  }

  /**
   * A large list (5 MB of attributes with their type values, a page of 1,000 categories)
   * is converted and written LIST_CHUNK records at a time, yielding between chunks, so a
   * small request arriving meanwhile is answered at once. The JSON is the same.
   */
  async function sendInChunks(res: ServerResponse, status: number, body: Record<string, unknown>, listKey: string, wire: Parameters<typeof toWire>[1]): Promise<void> {
    res.writeHead(status, { "content-type": "application/json" });
    const write = async (text: string) => {
      if (res.destroyed) return;
      if (!res.write(text)) await new Promise<void>((r) => res.once("drain", () => r()).once("close", () => r()));
    };
    const keys = Object.keys(body);
    await write("{");
    for (const [k, key] of keys.entries()) {
      await write(`${k ? "," : ""}${JSON.stringify(key)}:`);
      if (key !== listKey) {
        await write(JSON.stringify(toWire(body[key], wire, key)) ?? "null");
        continue;
      }
      const list = body[key] as unknown[];
      await write("[");
      for (let i = 0; i < list.length; i += LIST_CHUNK) {
        if (i) await new Promise((r) => setImmediate(r));
        const part = list.slice(i, i + LIST_CHUNK).map((x) => JSON.stringify(toWire(x, wire)));
        await write(`${i ? "," : ""}${part.join(",")}`);
      }
      await write("]");
    }
    if (!res.destroyed) res.end("}");
  }

  function serveFile(req: IncomingMessage, res: ServerResponse, kind: string, hash: string, rest: string): void {
    const tenant = tenants.get(hash);
    if (!tenant) return send(res, 404, { message: "Not found." });
    if (kind === "assets") {
      res.writeHead(200, { "content-type": "image/png", "content-length": 0 });
      return void res.end();
    }
    if (req.headers.authorization !== `Bearer ${tenant.token}`) return send(res, 401, { message: "Unauthenticated." });
    if (switches.exportDownload === "redirect" && storageUrl) {
      // Object storage: the file lives on another host, reached by a signed address.
      res.writeHead(302, { location: `${storageUrl}/${hash}/${rest}?signature=${signature(hash, rest)}`, "content-length": 0 });
      return void res.end();
    }
    serveExport(res, tenant, rest, false);
  }

  /** The file itself; `readyOr202`: the storage host answers 202 until the export is done. */
  function serveExport(res: ServerResponse, tenant: Tenant, rest: string, readyOr202: boolean): void {
    const id = Number(rest.split("/")[0]);
    const e = tenant.store.exports.get(id);
    if (!e) return send(res, 404, { message: "Export not found." });
    if (Date.now() - e.created_ms < 2 * exportStepMs) {
      if (readyOr202) return send(res, 202, { message: "The export file is being prepared." }, { "retry-after": "1" });
      return send(res, 404, { message: "Export file not ready." });
    }
    const text = JSON.stringify(tenant.store.toData());
    res.writeHead(200, { "content-type": "application/json", "content-length": Buffer.byteLength(text) });
    res.end(text);
  }

  const signature = (hash: string, rest: string) => Buffer.from(`${hash}/${rest}`).toString("base64url");

  /** `--export-download redirect`: a second address; it refuses any Authorization header (a tenant token must not reach it). */
  let storageUrl: string | undefined;
  let storage: Server | undefined;
  if (switches.exportDownload === "redirect") {
    storage = createServer((req, res) => {
      const u = new URL(req.url ?? "/", "http://localhost");
      const m = u.pathname.match(/^\/([^/]+)\/(.+)$/);
      if (req.headers.authorization) return send(res, 400, { message: "Only one auth mechanism allowed; the signature is in the address." });
      const tenant = m ? tenants.get(m[1]!) : undefined;
      if (!m || !tenant || u.searchParams.get("signature") !== signature(m[1]!, m[2]!)) return send(res, 403, { message: "Signature does not match." });
      serveExport(res, tenant, m[2]!, true);
    });
    storage.on("connection", (s) => {
      sockets.add(s);
      s.on("close", () => sockets.delete(s));
    });
    await new Promise<void>((resolve, reject) => {
      storage!.once("error", reject);
      storage!.listen(0, host, () => resolve());
    });
    storageUrl = `http://${host.includes(":") ? `[${host}]` : host}:${(storage.address() as AddressInfo).port}`;
  }

  const onRequest = (req: IncomingMessage, res: ServerResponse): void => {
    handle(req, res).catch((e: unknown) => send(res, 500, { message: "Server Error.", detail: (e as Error).message }));
  };
  const scheme = opts.tls ? "https" : "http";
  const server: Server = opts.tls ? createHttpsServer({ cert: opts.tls.cert, key: opts.tls.key }, onRequest) : createServer(onRequest);
  server.keepAliveTimeout = 30_000;
  server.on("connection", (s) => {
    sockets.add(s);
    s.on("close", () => sockets.delete(s));
  });
  server.on("clientError", (_e, socket) => socket.destroy());
  await new Promise<void>((resolve, reject) => {
    server.once("error", reject);
    server.listen(opts.port ?? 4010, host, () => resolve());
  });
  const port = (server.address() as AddressInfo).port;
  const url = `${scheme}://${host.includes(":") ? `[${host}]` : host}:${port}`;

  const api: Emulator = {
    url,
    port,
    tenantUrl: (hash) => `${url}/${hash}/api/v1`,
    stats: () => structuredClone(stats),
    resetStats: () => {
      stats = freshStats();
    },
    rotateToken: (hash, newToken) => {
      const t = tenants.get(hash);
      if (!t) throw new Error(`unknown tenant ${hash}`);
      t.token = newToken;
      schedulePersist();
    },
    setFaults: (f) => {
      if (f.latencyMs !== undefined) latencyMs = f.latencyMs;
      if (f.failRate !== undefined) failRate = f.failRate;
      if (f.rateLimit !== undefined) rateLimit = f.rateLimit;
      if (f.faultSeed !== undefined) random = prng(f.faultSeed);
      if (f.faultModes?.length) faultModes = f.faultModes;
    },
    injectFaults: (faults) => {
      targeted.push(...faults.map((f) => ({ ...f, left: f.times ?? 1 })));
    },
    faultsLeft: (tenant) => targeted.filter((f) => !tenant || f.tenant === tenant).reduce((n, f) => n + f.left, 0),
    clearFaults: () => {
      targeted = [];
      failRate = 0;
      rateLimit = 0;
    },
    store: (hash) => {
      const t = tenants.get(hash);
      if (!t) throw new Error(`unknown tenant ${hash}`);
      return t.store;
    },
    addTenant,
    resetTenant: (hash) => {
      const t = tenants.get(hash);
      if (!t) throw new Error(`unknown tenant ${hash}`);
      delete persisted.tenants?.[hash];
      t.store = newStore(hash);
      schedulePersist();
    },
    close: async () => {
      if (saveTimer) {
        clearTimeout(saveTimer);
        saveTimer = undefined;
      }
      // Stop taking requests first, so the state the last save writes is final.
      const stopped = new Promise<void>((r) => server.close(() => r()));
      for (const s of sockets) s.destroy();
      // The running save (if any) finishes, and at most one more writes what changed since.
      await saving;
      if (dirty) await startSaving();
      await stopped;
      if (storage) await new Promise<void>((r) => storage!.close(() => r()));
    },
  };
  return api;
}
