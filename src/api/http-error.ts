/**
 * An HTTP answer of 400 or more as the error a person can act on: the tenant's own message
 * (and its per-field errors) when the body has one, else what the status means in API v1.
 */
import { PimctlError, type ApiRequestInfo, type ErrorCode } from "../errors.js";
import type { Attempt } from "./attempt.js";

export function errorForStatus(at: { tenant: string; baseUrl: string; request: ApiRequestInfo }, r: Attempt): PimctlError {
  let message = "";
  try {
    const b = JSON.parse(r.text) as { message?: unknown; errors?: Record<string, unknown> };
    message = typeof b.message === "string" ? b.message : "";
    if (b.errors && typeof b.errors === "object") {
      const details = Object.entries(b.errors).map(([k, v]) => `${k}: ${Array.isArray(v) ? v.join(" ") : String(v)}`);
      if (details.length) message = `${message} (${details.join("; ")})`.trim();
    }
  } catch {
    message = r.text.slice(0, 200);
  }
  const req = { request: at.request };
  const codeFor: Record<number, ErrorCode> = {
    400: "api_bad_request",
    401: "api_unauthorized",
    404: "api_not_found",
    422: "api_unprocessable",
    429: "api_rate_limited",
    501: "api_not_implemented",
  };
  if (r.status === 401) {
    return new PimctlError(
      "api_unauthorized",
      `tenant "${at.tenant}" at ${at.baseUrl} refused the token (401). Either the token was rotated or revoked, it belongs to another ` +
        `tenant, or the Authorization header is missing or malformed. Check the variable or file the config names for this tenant.`,
      req,
    );
  }
  const code = codeFor[r.status] ?? (r.status >= 500 ? "api_server" : "api_protocol");
  const fallback: Record<string, string> = {
    api_not_found: "not found",
    api_unprocessable: "the tenant rejected the request",
    api_not_implemented: "API v1 does not implement this operation",
    api_rate_limited: "rate limited by the tenant; retries exhausted",
    api_server: "the tenant answered with a server error; retries exhausted",
  };
  return new PimctlError(code, message || fallback[code] || `unexpected status ${r.status}`, req);
}
