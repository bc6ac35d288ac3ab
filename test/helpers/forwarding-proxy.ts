/**
 * A real HTTP server on 127.0.0.1 in front of the emulator, for tests of tenants that answer unlike
 * it (doctor's readings, support bundles): each request is answered at once (`intercept`: a 403, a
 * corporate proxy's page) or forwarded with its authorization, content type and body (redirects
 * not followed), and the emulator's answer may be changed (`rewrite`) before it goes back.
 */
import { createServer } from "node:http";
import type { AddressInfo } from "node:net";

export interface ProxiedRequest {
  method: string;
  /** Path and query, as the client sent them. */
  url: string;
  /** The path without the query. */
  route: string;
  /** The Authorization header as sent ("" when none). */
  authorization: string;
}

export interface UpstreamAnswer {
  status: number;
  headers: Headers;
  text: string;
}

/** What the proxy answers: each part given replaces the emulator's (headers are added to content-type, content-length and location). */
export interface ProxyAnswer {
  status?: number;
  headers?: Record<string, string | string[]>;
  text?: string;
}

export interface ProxyHooks {
  intercept?(req: ProxiedRequest): ProxyAnswer | undefined;
  rewrite?(req: ProxiedRequest, up: UpstreamAnswer): ProxyAnswer | undefined;
}

export interface ForwardingProxy {
  /** http://127.0.0.1:PORT: a tenant's base_url is `${origin}/<hash>/api/v1`. */
  origin: string;
  close(): Promise<void>;
}

export async function forwardingProxy(upstream: string, hooks: ProxyHooks = {}): Promise<ForwardingProxy> {
  const server = createServer((req, res) => {
    const chunks: Buffer[] = [];
    req.on("data", (c: Buffer) => chunks.push(c));
    req.on("end", () => {
      const url = req.url ?? "/";
      const proxied: ProxiedRequest = { method: req.method ?? "GET", url, route: url.split("?")[0]!, authorization: req.headers.authorization ?? "" };
      const send = (status: number, answer: ProxyAnswer, base: Record<string, string>) => {
        const text = answer.text ?? "";
        res.writeHead(answer.status ?? status, { ...base, "content-length": String(Buffer.byteLength(text)), ...answer.headers });
        res.end(text);
      };
      const early = hooks.intercept?.(proxied);
      if (early) return send(200, early, { "content-type": "application/json" });
      const headers = Object.fromEntries(Object.entries(req.headers).filter(([k]) => k === "authorization" || k === "content-type")) as Record<string, string>;
      const body = chunks.length ? Buffer.concat(chunks) : undefined;
      void fetch(`${upstream}${url}`, { method: proxied.method, headers, ...(body ? { body } : {}), redirect: "manual" }).then(async (up) => {
        const answer: UpstreamAnswer = { status: up.status, headers: up.headers, text: await up.text() };
        const location = up.headers.get("location");
        const base = { "content-type": up.headers.get("content-type") ?? "application/json", ...(location ? { location } : {}) };
        send(up.status, { text: answer.text, ...hooks.rewrite?.(proxied, answer) }, base);
      });
    });
  });
  await new Promise<void>((r) => server.listen(0, "127.0.0.1", () => r()));
  return {
    origin: `http://127.0.0.1:${(server.address() as AddressInfo).port}`,
    close: () => new Promise<void>((r) => server.close(() => r())),
  };
}
