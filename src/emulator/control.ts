/**
 * The control surface (loopback clients only): stats, reset (counters, and with
 * {"data": true} every tenant's data), token rotation, fault knobs and targeted faults.
 * Not part of API v1. A web page on this machine must not reach it (CSRF, DNS
 * rebinding): control-guard.ts says which requests are refused.
 */
import type { IncomingMessage, ServerResponse } from "node:http";
import { refuseControlRequest } from "./control-guard.js";
import type { Emulator, TargetedFault } from "./types.js";

export const isLoopback = (addr: string | undefined) =>
  !!addr && (addr === "::1" || addr.startsWith("127.") || addr === "::ffff:127.0.0.1" || addr.startsWith("::ffff:127."));

/** What the control surface acts on: the emulator's own methods and the server's body reader and sender. */
export interface ControlDeps {
  api: Emulator;
  tenantNames(): Iterable<string>;
  hasTenant(hash: string): boolean;
  readBody(req: IncomingMessage): Promise<Buffer | "too_large">;
  send(res: ServerResponse, status: number, body?: unknown, headers?: Record<string, string>): void;
  maxBody: number;
}

export async function handleControl(req: IncomingMessage, res: ServerResponse, path: string, on: ControlDeps): Promise<void> {
  const body = await admittedBody(req, res, on);
  if (body) answerControl(req.method ?? "GET", path, body, res, on);
}

/** The request's JSON body, once the request is let in; undefined when it was refused (and answered). */
async function admittedBody(req: IncomingMessage, res: ServerResponse, on: ControlDeps): Promise<Record<string, unknown> | undefined> {
  const { send, maxBody } = on;
  if (!isLoopback(req.socket.remoteAddress)) return void send(res, 403, { message: "The control surface answers loopback clients only." });
  // A web page on this machine must not reset data or rotate tokens (CSRF, DNS rebinding): control-guard.ts.
  const refused = refuseControlRequest(req);
  if (refused) return void send(res, refused.status, { message: refused.message });
  const raw = await on.readBody(req);
  if (raw === "too_large") return void send(res, 413, { message: `Payload Too Large (limit ${maxBody} bytes).` }, { connection: "close" });
  try {
    return raw.length === 0 ? {} : (JSON.parse(raw.toString("utf8")) as Record<string, unknown>);
  } catch {
    return void send(res, 400, { message: "The request body is not valid JSON." });
  }
}

function answerControl(method: string, path: string, body: Record<string, unknown>, res: ServerResponse, on: ControlDeps): void {
  const { api, send } = on;
  if (method === "GET" && path === "/__emulator/stats") return send(res, 200, api.stats());
  if (method === "POST" && path === "/__emulator/reset") {
    api.resetStats();
    if (body.data === true) for (const h of on.tenantNames()) api.resetTenant(h);
    return send(res, 200, { reset: true });
  }
  const rotate = path.match(/^\/__emulator\/tenants\/([^/]+)\/rotate-token$/);
  if (method === "POST" && rotate) {
    if (!on.hasTenant(rotate[1]!)) return send(res, 404, { message: "Unknown tenant." });
    if (typeof body.token !== "string" || !body.token) return send(res, 422, { message: "token is required." });
    api.rotateToken(rotate[1]!, body.token);
    return send(res, 200, { rotated: true });
  }
  if (method === "POST" && path === "/__emulator/faults") {
    api.setFaults(body as never);
    if (Array.isArray(body.inject)) api.injectFaults(body.inject as TargetedFault[]);
    if (body.clear === true) api.clearFaults();
    return send(res, 200, { ok: true });
  }
  return send(res, 404, { message: "Unknown control route." });
}
