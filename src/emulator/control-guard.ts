/**
 * Who may use the emulator's control surface (reset data, rotate tokens, set
 * faults). It listens on loopback, but a web page on the same machine can
 * still reach it: a cross-site POST (CSRF; a `text/plain` body needs no CORS
 * preflight), or DNS rebinding (the page's own name, resolved to 127.0.0.1,
 * so the request is same-origin to the browser). So a control request is
 * answered only when
 * - the peer is a loopback address (checked by the server before this),
 * - its `Host` names loopback: `localhost`, 127.0.0.0/8 or `[::1]`, any port
 *   (a rebound name is refused here),
 * - its `Origin`, when it has one (browsers send it on every POST), is a
 *   loopback origin (a page of another site is refused here),
 * - and a request with a body says `Content-Type: application/json`, which a
 *   page can only send after a CORS preflight the emulator never grants.
 */
import type { IncomingMessage } from "node:http";
import { isIPv4 } from "node:net";

export interface Refusal {
  status: 403 | 415;
  message: string;
}

/** A host as a URL carries it (WHATWG-normalised: `127.1` is 127.0.0.1, `[0::1]` is `[::1]`): loopback? */
function isLoopbackHostname(hostname: string): boolean {
  if (hostname === "localhost") return true;
  if (isIPv4(hostname)) return hostname.startsWith("127.");
  // IPv6 loopback, and IPv4-mapped 127.0.0.0/8 (::ffff:127.x.y.z, which URL writes as ::ffff:7fxx:yyzz).
  return hostname === "[::1]" || /^\[::ffff:7f[0-9a-f]{2}:[0-9a-f]{1,4}\]$/.test(hostname);
}

/** A `Host` header value (`name` or `name:port`) that names loopback. Anything more than a host and a port is refused. */
export function isLoopbackHost(host: string | undefined): boolean {
  if (!host || !/^[A-Za-z0-9.\-:[\]]+$/.test(host)) return false;
  try {
    return isLoopbackHostname(new URL(`http://${host}/`).hostname);
  } catch {
    return false;
  }
}

/** An `Origin` header value (`scheme://host[:port]`) of a loopback page; `null` (a sandboxed page, a file) is not. */
export function isLoopbackOrigin(origin: string): boolean {
  try {
    const url = new URL(origin);
    return (url.protocol === "http:" || url.protocol === "https:") && isLoopbackHostname(url.hostname);
  } catch {
    return false;
  }
}

function hasBody(req: IncomingMessage): boolean {
  const length = req.headers["content-length"];
  return req.headers["transfer-encoding"] !== undefined || (length !== undefined && length !== "0");
}

/** Why a control request is refused, or undefined when it may go on (the peer's address is checked before). */
export function refuseControlRequest(req: IncomingMessage): Refusal | undefined {
  if (!isLoopbackHost(req.headers.host)) {
    return { status: 403, message: "The control surface answers requests to a loopback host only (Host: localhost, 127.0.0.0/8 or [::1], any port)." };
  }
  const origin = req.headers.origin;
  if (origin !== undefined && !isLoopbackOrigin(origin)) {
    return { status: 403, message: "The control surface refuses requests from web pages of other origins (Origin must be a loopback origin, when sent)." };
  }
  if (hasBody(req)) {
    const type = (req.headers["content-type"] ?? "").split(";")[0]!.trim().toLowerCase();
    if (type !== "application/json") return { status: 415, message: "A control request with a body must be sent as Content-Type: application/json." };
  }
  return undefined;
}
