/**
 * The emulator: a local PIM tenant server implementing API v1 over real HTTP
 * (node:http), several tenants each with its own token, fault knobs, request
 * counters and a loopback-only control surface. Used by the demo, the tests
 * and the benchmarks; see README.md beside this file.
 */
import { createServer, type IncomingMessage, type Server, type ServerResponse } from "node:http";
import { createServer as createHttpsServer } from "node:https";
import { readFileSync, existsSync } from "node:fs";
import type { AddressInfo, Socket } from "node:net";
import { matchRoute } from "./routes.js";
import type { RequestContext } from "./request.js";
import { DEFAULT_SWITCHES, type EmulatorSwitches } from "./switches.js";
import { HttpError } from "./errors.js";
import { TenantStore } from "./store.js";
import type { TenantData } from "./records.js";
import { UNPAGINATED_LISTS, paginateList, toWire } from "./wire-format.js";
import { handleControl } from "./control.js";
import { startFileServing } from "./kinds/exports.js";
import { createSaver } from "./persistence.js";
import { largeList, readBody as readBodyUpTo, send, sendInChunks } from "./respond.js";
import type { Emulator, EmulatorOptions, EmulatorStats, EmulatorTenantSpec, FaultMode, RequestHook, TargetedFault } from "./types.js";

export type { EmulatorSwitches } from "./switches.js";
export { TenantStore } from "./store.js";
export type { Emulator, EmulatorOptions, EmulatorStats, EmulatorTenantSpec, FaultMode, RequestHook, SeedFile, TargetedFault } from "./types.js";

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
  let requestHook: RequestHook | undefined;
  function freshStats(): EmulatorStats {
    return { requests: { total: 0, byTenant: {}, byMethod: {}, byRoute: {} }, faults: {}, saves: { written: 0, most_at_once: 0, failed: 0 } };
  }

  const persisted: { tenants?: Record<string, { token: string; data: TenantData }> } =
    opts.dataFile && existsSync(opts.dataFile) ? JSON.parse(readFileSync(opts.dataFile, "utf8")) : {};

  const saver = createSaver(
    opts.dataFile,
    function* () {
      for (const [hash, t] of tenants) yield [hash, { token: t.token, data: () => t.store.toData() }];
    },
    () => stats.saves,
  );
  const schedulePersist = () => saver.schedule();

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

  let retryAfter = "1";
  function takeTargeted(method: string, route: string, hash: string): FaultMode | undefined {
    const i = targeted.findIndex(
      (f) => (!f.method || f.method === method) && (!f.route || f.route === route) && (!f.tenant || f.tenant === hash) && f.left > 0,
    );
    if (i === -1) return undefined;
    const f = targeted[i]!;
    f.left--;
    if (f.left <= 0) targeted.splice(i, 1);
    retryAfter = f.retryAfter ?? "1";
    return f.mode;
  }

  const readBody = (req: IncomingMessage) => readBodyUpTo(req, maxBody);
  const controlDeps = () => ({ api, tenantNames: () => tenants.keys(), hasTenant: (h: string) => tenants.has(h), readBody, send, maxBody });

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
    if (path.startsWith("/__emulator/")) return handleControl(req, res, path, controlDeps());
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
    if (requestHook) await requestHook({ tenant: hash, method, route: routeKey });

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

  const files = await startFileServing({ tenant: (hash) => tenants.get(hash), switches, exportStepMs, host, sockets });
  const serveFile = files.serveFile;

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
    onRequest: (hook) => {
      requestHook = hook;
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
      // Stop taking requests first, so the state the last save writes is final.
      const stopped = new Promise<void>((r) => server.close(() => r()));
      for (const s of sockets) s.destroy();
      // The running save (if any) finishes, and at most one more writes what changed since.
      await saver.flush();
      await stopped;
      await files.close();
    },
  };
  return api;
}
