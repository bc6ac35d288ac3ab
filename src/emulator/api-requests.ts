/**
 * The path of an API request (`/<tenant>/api/v1/...`), in the order a real service
 * meets it: counted, held by the onRequest hook and the injected latency, limited,
 * faulted, refused (501 before authentication, 401, 404, 405), its body read, its
 * route's handler run, and its answer written in the wire reading the switches name.
 */
import type { IncomingMessage, ServerResponse } from "node:http";
import { HttpError } from "./errors.js";
import type { FaultKnobs } from "./faults.js";
import type { Reply, RequestContext, Route } from "./request.js";
import { largeList, readBody, send, sendInChunks } from "./respond.js";
import { matchRoute } from "./routes.js";
import type { EmulatorSwitches } from "./switches.js";
import type { Tenant, Tenants } from "./tenants.js";
import type { EmulatorStats, RequestHook } from "./types.js";
import { UNPAGINATED_LISTS, paginateList, toWire } from "./wire-format.js";

/** What the request path reads of the running emulator. */
export interface Serving {
  tenants: Tenants;
  faults: FaultKnobs;
  /** Replaced whole by resetStats() and onRequest(): read at each request. */
  live: { stats: EmulatorStats; hook: RequestHook | undefined };
  switches: EmulatorSwitches;
  maxBody: number;
  exportStepMs: number;
  scheme: "http" | "https";
  /** `host:port` the server listens on, for links when a request names no Host. */
  listening: string;
}

/** A request for a tenant's API: the tenant, the path below /api/v1 and the route it matched (if any). */
interface ApiTarget {
  hash: string;
  tenant: Tenant;
  method: string;
  sub: string;
  found: ReturnType<typeof matchRoute>;
  /** The route's pattern as counted in stats ("(unmatched)" when none). */
  routeKey: string;
}

/** A request that reached its route's handler. */
type Routed = ApiTarget & { found: { route: Route; params: Record<string, string> } };

export async function answerApiRequest(req: IncomingMessage, res: ServerResponse, url: URL, s: Serving): Promise<void> {
  const target = locate(url.pathname, req.method ?? "GET", s.tenants);
  if (!target) return send(res, 404, { message: "Not found." });
  countRequest(s.live.stats, target);
  if (await answeredByHook(res, target, s.live.hook)) return;
  await s.faults.hold();
  const fault = meetFaults(req, res, target, s);
  if (fault === "answered") return;
  const routed = refuseOrRoute(req, res, target);
  if (!routed) return;
  const ctx = await requestContext(req, res, url, routed, s);
  if (!ctx) return;
  let reply: Reply;
  try {
    reply = routed.found.route.handler(ctx);
  } catch (e) {
    if (e instanceof HttpError) return send(res, e.status, e.body);
    return send(res, 500, { message: "Server Error.", detail: (e as Error).message });
  }
  if (fault === "drop_after_commit") return void req.socket.destroy();
  return sendReply(res, reply, routed, ctx, url.searchParams, s.switches);
}

function locate(path: string, method: string, tenants: Tenants): ApiTarget | undefined {
  const m = path.match(/^\/([^/]+)\/api\/v1(\/.*)?$/);
  const tenant = m ? tenants.get(m[1]!) : undefined;
  if (!m || !tenant) return undefined;
  const sub = m[2] ?? "/";
  const found = matchRoute(method, sub);
  const routeKey = found && "route" in found ? found.route.pattern : "(unmatched)";
  return { hash: m[1]!, tenant, method, sub, found, routeKey };
}

function countRequest(stats: EmulatorStats, t: ApiTarget): void {
  const count = (map: Record<string, number>, key: string) => {
    map[key] = (map[key] ?? 0) + 1;
  };
  stats.requests.total++;
  count(stats.requests.byTenant, t.hash);
  count(stats.requests.byMethod, t.method);
  count(stats.requests.byRoute, `${t.method} ${t.routeKey}`);
}

/** The test's hook runs before the request is answered; an HttpError it throws is the answer (a tenant refusing a write). */
async function answeredByHook(res: ServerResponse, t: ApiTarget, hook: RequestHook | undefined): Promise<boolean> {
  if (!hook) return false;
  try {
    await hook({ tenant: t.hash, method: t.method, route: t.routeKey });
    return false;
  } catch (e) {
    if (!(e instanceof HttpError)) throw e;
    send(res, e.status, e.body);
    return true;
  }
}

/** The rate limit and the faults: "answered" when one of them answered (or dropped) the request. */
function meetFaults(req: IncomingMessage, res: ServerResponse, t: ApiTarget, s: Serving): "answered" | "drop_after_commit" | undefined {
  const faults = s.live.stats.faults;
  if (s.faults.overRateLimit(t.tenant.window)) {
    faults.rate429 = (faults.rate429 ?? 0) + 1;
    send(res, 429, { message: "Too Many Requests." }, { "retry-after": "1" });
    return "answered";
  }
  const fault = s.faults.draw(t.method, t.routeKey, t.hash);
  if (!fault) return undefined;
  faults[fault.mode] = (faults[fault.mode] ?? 0) + 1;
  switch (fault.mode) {
    case "error500":
      send(res, 500, { message: "Server Error." });
      return "answered";
    case "rate429":
      send(res, 429, { message: "Too Many Requests." }, { "retry-after": fault.retryAfter });
      return "answered";
    case "drop":
      req.socket.destroy();
      return "answered";
    case "stall":
      return "answered"; // never answers; the client times out
    case "drop_after_commit":
      return "drop_after_commit";
  }
}

/** 501 (before authentication: "The 501 answers hold on every tenant and for every token"), 401, 404 and 405; else the route. */
function refuseOrRoute(req: IncomingMessage, res: ServerResponse, t: ApiTarget): Routed | undefined {
  const { found } = t;
  if (found && "route" in found && found.route.notImplemented) return void send(res, 501, { message: "Not implemented." });
  const auth = req.headers.authorization;
  if (!auth || !/^Bearer \S+$/.test(auth) || auth.slice(7) !== t.tenant.token) return void send(res, 401, { message: "Unauthenticated." });
  if (!found) return void send(res, 404, { message: `No route for ${t.method} ${t.sub}.` });
  if ("allowed" in found) return void send(res, 405, { message: "Method Not Allowed." }, { allow: found.allowed.join(", ") });
  return { ...t, found };
}

/** The handler's context, with the body read and parsed; undefined when the body was too large (answered 413). */
async function requestContext(req: IncomingMessage, res: ServerResponse, url: URL, t: Routed, s: Serving): Promise<RequestContext | undefined> {
  const raw = await readBody(req, s.maxBody);
  if (raw === "too_large") return void send(res, 413, { message: `Payload Too Large (limit ${s.maxBody} bytes).` }, { connection: "close" });
  let body: unknown;
  let invalidJson = false;
  if (raw.length) {
    try {
      body = JSON.parse(raw.toString("utf8"));
    } catch {
      invalidJson = true;
    }
  }
  const origin = `${s.scheme}://${req.headers.host ?? s.listening}`;
  return {
    store: t.tenant.store,
    method: t.method,
    params: t.found.params,
    query: url.searchParams,
    body,
    invalidJson,
    baseUrl: `${origin}/${t.hash}/api/v1`,
    origin,
    switches: s.switches,
    exportStepMs: s.exportStepMs,
  };
}

/** The handler's reply in the switches' wire reading: paged if `--paginate-all-lists` says so, long lists in chunks. */
async function sendReply(res: ServerResponse, reply: Reply, t: Routed, ctx: RequestContext, query: URLSearchParams, switches: EmulatorSwitches): Promise<void> {
  let out = reply.body;
  const listKey = t.method === "GET" ? UNPAGINATED_LISTS[t.found.route.pattern] : undefined;
  if (switches.paginateAllLists && listKey) {
    out = paginateList(out, listKey, query, (p) => {
      const q = new URLSearchParams(query);
      q.set("page", String(p));
      return `${ctx.baseUrl}${t.sub}?${q.toString()}`;
    });
  }
  if (out === null && reply.status === 200) return send(res, 200, null);
  const wire = { bool: switches.boolFormat, id: switches.idFormat, date: switches.dateFormat };
  const long = largeList(out);
  if (long) return sendInChunks(res, reply.status, out as Record<string, unknown>, long, wire);
  send(res, reply.status, out === undefined ? undefined : toWire(out, wire));
}
