/**
 * Exports: a POST queues one, which moves to processing and done `--export-step-ms`
 * apart; its file is served on the tenant's address or, with `--export-download redirect`,
 * on a second one (object storage): startFileServing below.
 */
import { createServer, type IncomingMessage, type Server, type ServerResponse } from "node:http";
import type { AddressInfo, Socket } from "node:net";
import { notFound, unprocessable } from "../errors.js";
import { send } from "../respond.js";
import type { StoreCore } from "../store-core.js";
import type { EmulatorSwitches } from "../switches.js";
import { bodyObject, intParam, ok, type RequestContext, type RouteSpec } from "../request.js";

export function exportJson(c: RequestContext, e: { id: number; profile_id: number; created_ms: number; failed: boolean }): Record<string, unknown> {
  const steps = Math.floor((Date.now() - e.created_ms) / Math.max(1, c.exportStepMs));
  const status = e.failed ? "failed" : steps <= 0 ? "queued" : steps === 1 ? "processing" : "done";
  return {
    id: e.id,
    profile_id: e.profile_id,
    status,
    filename: status === "done" ? `export-${e.id}.json` : null,
    file_url: `${c.origin}/exports/${c.store.hash}/${e.id}/export-${e.id}.json`,
    created_at: new Date(e.created_ms).toISOString().replace("Z", "+00:00"),
  };
}

export const exportRoutes: RouteSpec[] = [
  [
    "POST",
    "/exports",
    (c) => {
      const b = bodyObject(c);
      if (b.profile_id === undefined || b.profile_id === null) throw unprocessable("profile_id", "The profile id field is required.");
      if (!Number.isInteger(b.profile_id) || !c.store.exportProfiles.has(b.profile_id as number))
        throw unprocessable("profile_id", "The selected profile id is invalid.");
      const e = { id: c.store.id("exports"), profile_id: b.profile_id as number, created_ms: Date.now(), failed: false };
      c.store.exports.set(e.id, e);
      return ok({ export: { ...exportJson(c, e), status: "queued", filename: null } }, 201);
    },
  ],
  [
    "GET",
    "/exports/:id",
    (c) => {
      const e = c.store.exports.get(intParam(c, "id"));
      if (!e) throw notFound("Export");
      return ok({ export: exportJson(c, e) });
    },
  ],
];

// ------------------------------------------------------------------ files

interface FileTenant {
  token: string;
  store: StoreCore;
}

/** The files served beside the API, and the second address's stop. */
export interface FileServing {
  serveFile(req: IncomingMessage, res: ServerResponse, kind: string, hash: string, rest: string): void;
  close(): Promise<void>;
}

/**
 * The export file (and the re-hosted asset images), served beside the API: on the tenant's
 * address with its token, or with `--export-download redirect` through a 302 to a second
 * address (object storage) started here, which refuses any Authorization header.
 */
export async function startFileServing(o: {
  tenant(hash: string): FileTenant | undefined;
  switches: EmulatorSwitches;
  exportStepMs: number;
  host: string;
  sockets: Set<Socket>;
}): Promise<FileServing> {
  function serveFile(req: IncomingMessage, res: ServerResponse, kind: string, hash: string, rest: string): void {
    const tenant = o.tenant(hash);
    if (!tenant) return send(res, 404, { message: "Not found." });
    if (kind === "assets") {
      res.writeHead(200, { "content-type": "image/png", "content-length": 0 });
      return void res.end();
    }
    if (req.headers.authorization !== `Bearer ${tenant.token}`) return send(res, 401, { message: "Unauthenticated." });
    if (o.switches.exportDownload === "redirect" && storageUrl) {
      // Object storage: the file lives on another host, reached by a signed address.
      res.writeHead(302, { location: `${storageUrl}/${hash}/${rest}?signature=${signature(hash, rest)}`, "content-length": 0 });
      return void res.end();
    }
    serveExport(res, tenant, rest, false);
  }

  /** The file itself; `readyOr202`: the storage host answers 202 until the export is done. */
  function serveExport(res: ServerResponse, tenant: FileTenant, rest: string, readyOr202: boolean): void {
    const id = Number(rest.split("/")[0]);
    const e = tenant.store.exports.get(id);
    if (!e) return send(res, 404, { message: "Export not found." });
    if (Date.now() - e.created_ms < 2 * o.exportStepMs) {
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
  if (o.switches.exportDownload === "redirect") {
    storage = createServer((req, res) => {
      const u = new URL(req.url ?? "/", "http://localhost");
      const m = u.pathname.match(/^\/([^/]+)\/(.+)$/);
      if (req.headers.authorization) return send(res, 400, { message: "Only one auth mechanism allowed; the signature is in the address." });
      const tenant = m ? o.tenant(m[1]!) : undefined;
      if (!m || !tenant || u.searchParams.get("signature") !== signature(m[1]!, m[2]!)) return send(res, 403, { message: "Signature does not match." });
      serveExport(res, tenant, m[2]!, true);
    });
    storage.on("connection", (s) => {
      o.sockets.add(s);
      s.on("close", () => o.sockets.delete(s));
    });
    await new Promise<void>((resolve, reject) => {
      storage!.once("error", reject);
      storage!.listen(0, o.host, () => resolve());
    });
    storageUrl = `http://${o.host.includes(":") ? `[${o.host}]` : o.host}:${(storage.address() as AddressInfo).port}`;
  }

  return {
    serveFile,
    close: async () => {
      if (storage) await new Promise<void>((r) => storage!.close(() => r()));
    },
  };
}
