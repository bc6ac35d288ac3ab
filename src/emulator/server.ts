/**
 * startEmulator: the HTTP(S) server on its address, its tenants, fault knobs and
 * counters, and the handle a caller drives it with. A request goes to the control
 * surface (control.ts), to a served file (kinds/exports.ts) or to a tenant's API
 * (api-requests.ts).
 */
import { createServer, type IncomingMessage, type Server, type ServerResponse } from "node:http";
import { createServer as createHttpsServer } from "node:https";
import type { AddressInfo, Socket } from "node:net";
import { answerApiRequest, type Serving } from "./api-requests.js";
import { handleControl } from "./control.js";
import { FaultKnobs } from "./faults.js";
import { startFileServing, type FileServing } from "./kinds/exports.js";
import { createSaver } from "./persistence.js";
import { readBody, send } from "./respond.js";
import { DEFAULT_SWITCHES } from "./switches.js";
import { Tenants } from "./tenants.js";
import type { Emulator, EmulatorOptions, EmulatorStats } from "./types.js";

function freshStats(): EmulatorStats {
  return { requests: { total: 0, byTenant: {}, byMethod: {}, byRoute: {} }, faults: {}, saves: { written: 0, most_at_once: 0, failed: 0 } };
}

export async function startEmulator(opts: EmulatorOptions): Promise<Emulator> {
  const host = opts.host ?? "127.0.0.1";
  const switches = { ...DEFAULT_SWITCHES, ...opts.switches };
  const live: Serving["live"] = { stats: freshStats(), hook: undefined };
  // The saver reads the tenants when a save starts; a tenant asks it to save after each write.
  const saver = createSaver(
    opts.dataFile,
    () => tenants.entries(),
    () => live.stats.saves,
  );
  const tenants = new Tenants({ dataFile: opts.dataFile, seed: opts.seed, switches, onChange: () => saver.schedule() });
  for (const t of opts.tenants) tenants.add(t);
  const s: Serving = {
    tenants,
    faults: new FaultKnobs(opts),
    live,
    switches,
    maxBody: opts.maxBodyBytes ?? 1024 * 1024,
    exportStepMs: opts.exportStepMs ?? 300,
    scheme: opts.tls ? "https" : "http",
    listening: "",
  };
  const sockets = new Set<Socket>();
  const files = await startFileServing({ tenant: (hash) => tenants.get(hash), switches, exportStepMs: s.exportStepMs, host, sockets });
  let api: Emulator;
  const server = await listen(opts, host, sockets, (req, res) => {
    dispatch(req, res, s, files, api).catch((e: unknown) => send(res, 500, { message: "Server Error.", detail: (e as Error).message }));
  });
  const port = (server.address() as AddressInfo).port;
  s.listening = `${host}:${port}`;
  api = emulatorHandle(`${s.scheme}://${host.includes(":") ? `[${host}]` : host}:${port}`, port, s, async () => {
    // Stop taking requests first, so the state the last save writes is final.
    const stopped = new Promise<void>((r) => server.close(() => r()));
    for (const socket of sockets) socket.destroy();
    // The running save (if any) finishes, and at most one more writes what changed since.
    await saver.flush();
    await stopped;
    await files.close();
  });
  return api;
}

/** A request to the control surface, to a served file (an export, an asset image) or to a tenant's API. */
async function dispatch(req: IncomingMessage, res: ServerResponse, s: Serving, files: FileServing, api: Emulator): Promise<void> {
  const url = new URL(req.url ?? "/", "http://localhost");
  const path = url.pathname;
  if (path.startsWith("/__emulator/")) {
    const tenantNames = () => s.tenants.names();
    const hasTenant = (h: string) => s.tenants.get(h) !== undefined;
    return handleControl(req, res, path, { api, tenantNames, hasTenant, readBody: (r) => readBody(r, s.maxBody), send, maxBody: s.maxBody });
  }
  const file = path.match(/^\/(exports|assets)\/([^/]+)\/(.+)$/);
  if (req.method === "GET" && file) return files.serveFile(req, res, file[1]!, file[2]!, file[3]!);
  return answerApiRequest(req, res, url, s);
}

/** The server listening on its port (`0`: a free one), every connection tracked so close() can end it. */
async function listen(
  opts: EmulatorOptions,
  host: string,
  sockets: Set<Socket>,
  onRequest: (req: IncomingMessage, res: ServerResponse) => void,
): Promise<Server> {
  const server: Server = opts.tls ? createHttpsServer({ cert: opts.tls.cert, key: opts.tls.key }, onRequest) : createServer(onRequest);
  server.keepAliveTimeout = 30_000;
  server.on("connection", (socket) => {
    sockets.add(socket);
    socket.on("close", () => sockets.delete(socket));
  });
  server.on("clientError", (_e, socket) => socket.destroy());
  await new Promise<void>((resolve, reject) => {
    server.once("error", reject);
    server.listen(opts.port ?? 4010, host, () => resolve());
  });
  return server;
}

/** The handle startEmulator returns: its address, counters, tenants and fault knobs (types.ts says what each does). */
function emulatorHandle(url: string, port: number, s: Serving, close: () => Promise<void>): Emulator {
  return {
    url,
    port,
    tenantUrl: (hash) => `${url}/${hash}/api/v1`,
    stats: () => structuredClone(s.live.stats),
    resetStats: () => {
      s.live.stats = freshStats();
    },
    rotateToken: (hash, newToken) => s.tenants.rotateToken(hash, newToken),
    setFaults: (f) => s.faults.set(f),
    injectFaults: (faults) => s.faults.inject(faults),
    faultsLeft: (tenant) => s.faults.left(tenant),
    clearFaults: () => s.faults.clear(),
    onRequest: (hook) => {
      s.live.hook = hook;
    },
    store: (hash) => s.tenants.known(hash).store,
    addTenant: (spec) => s.tenants.add(spec),
    resetTenant: (hash) => s.tenants.reset(hash),
    close,
  };
}
