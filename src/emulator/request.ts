/**
 * What every route handler shares: the request context, replies, body checks,
 * path and paging parameters (Laravel-style links and meta), and the search
 * answers. The handlers themselves live with their kind, in kinds/<kind>.ts.
 */
import { HttpError, notFound, unprocessable } from "./errors.js";
import type { StoreCore } from "./store-core.js";
import type { EmulatorSwitches } from "./switches.js";

export interface RequestContext {
  store: StoreCore;
  method: string;
  params: Record<string, string>;
  query: URLSearchParams;
  /** Parsed JSON body; undefined when empty; `invalidJson` when it did not parse. */
  body: unknown;
  invalidJson: boolean;
  /** Absolute URL of the tenant base (…/<hash>/api/v1), for links and file urls. */
  baseUrl: string;
  /** The emulator origin (http://127.0.0.1:PORT), for re-hosted asset uris. */
  origin: string;
  switches: EmulatorSwitches;
  exportStepMs: number;
}

export interface Reply {
  status: number;
  /** undefined = no body. */
  body?: unknown;
}

export type Handler = (c: RequestContext) => Reply;

export interface Route {
  method: string;
  pattern: string;
  segments: string[];
  handler: Handler;
  /** Whether it writes (drop_after_commit and persistence care). */
  write: boolean;
  /** Always 501 in API v1, on every tenant and for every token. */
  notImplemented: boolean;
}

export const ok = (body: unknown, status = 200): Reply => ({ status, body });
export const noContent: Reply = { status: 204 };
export const notImplemented = (): Reply => ({ status: 501, body: { message: "Not implemented." } });

// ------------------------------------------------------------- validation

export function bodyObject(c: RequestContext): Record<string, unknown> {
  if (c.invalidJson) throw new HttpError(400, { message: "The request body is not valid JSON." });
  if (c.body === undefined) return {};
  if (c.body === null || typeof c.body !== "object" || Array.isArray(c.body)) throw new HttpError(422, { message: "The request body must be a JSON object." });
  return c.body as Record<string, unknown>;
}

export type FieldKind = "string" | "nullable-string" | "int" | "nullable-int" | "bool" | "int-array";

/** Whether a body's value has the field's type (a boolean may come as 0 or 1). */
const HAS_KIND: Readonly<Record<FieldKind, (v: unknown) => boolean>> = {
  string: (v) => typeof v === "string",
  "nullable-string": (v) => v === null || typeof v === "string",
  int: (v) => Number.isInteger(v),
  "nullable-int": (v) => v === null || Number.isInteger(v),
  bool: (v) => typeof v === "boolean" || v === 0 || v === 1,
  "int-array": (v) => Array.isArray(v) && v.every((x) => Number.isInteger(x)),
};

export function pick(b: Record<string, unknown>, spec: Record<string, FieldKind>, required: string[] = []): Record<string, unknown> {
  const out: Record<string, unknown> = {};
  for (const r of required) {
    if (b[r] === undefined || b[r] === null || b[r] === "") throw unprocessable(r, `The ${r} field is required.`);
  }
  for (const [k, kind] of Object.entries(spec)) {
    const v = b[k];
    if (v === undefined) continue;
    if (!HAS_KIND[kind](v)) throw unprocessable(k, `The ${k} field has the wrong type (expected ${kind}).`);
    out[k] = kind === "bool" ? v === true || v === 1 : v;
  }
  return out;
}

export function intParam(c: RequestContext, name: string): number {
  const v = Number(c.params[name]);
  if (!Number.isSafeInteger(v) || v < 0) throw notFound("Record");
  return v;
}

export function pageParams(c: RequestContext, defaultLimit: number): { page: number; limit: number } {
  const rawPage = Number(c.query.get("page") ?? "1");
  const rawLimit = Number(c.query.get("limit") ?? String(defaultLimit));
  const page = Number.isInteger(rawPage) && rawPage >= 1 ? rawPage : 1;
  const max = c.switches.maxPageSize;
  const over = max !== undefined && Number.isInteger(rawLimit) && rawLimit > max;
  if (over && c.switches.oversizedLimit === "refuse") throw unprocessable("limit", `The limit may not be greater than ${max}.`);
  const limit = Number.isInteger(rawLimit) && rawLimit >= 1 ? Math.min(rawLimit, MAX_LIMIT, max ?? MAX_LIMIT) : defaultLimit;
  return { page, limit };
}

/** Laravel-style pagination: links with absolute page addresses, meta with counts. */
export function paginate<T>(c: RequestContext, path: string, items: T[], defaultLimit: number): { items: T[]; links: unknown; meta: unknown } {
  const { page, limit } = pageParams(c, defaultLimit);
  const total = items.length;
  const lastPage = Math.max(1, Math.ceil(total / limit));
  const from = (page - 1) * limit;
  const slice = items.slice(from, from + limit);
  const url = (p: number) => {
    const q = new URLSearchParams(c.query);
    q.set("page", String(p));
    return `${c.baseUrl}${path}?${q.toString()}`;
  };
  return {
    items: slice,
    links: { first: url(1), last: url(lastPage), prev: page > 1 ? url(page - 1) : null, next: page < lastPage ? url(page + 1) : null },
    meta: {
      current_page: page,
      from: slice.length ? from + 1 : null,
      last_page: lastPage,
      path: `${c.baseUrl}${path}`,
      per_page: limit,
      to: slice.length ? from + slice.length : null,
      total,
    },
  };
}

export const same = (c: RequestContext, a: string, b: string) => (c.switches.searchCase === "insensitive" ? a.toLowerCase() === b.toLowerCase() : a === b);

export function versionParam(c: RequestContext): number {
  return intParam(c, "version");
}

/** A search without a match, in the reading `--search-empty` names. */
export function searchMiss(c: RequestContext): Reply {
  switch (c.switches.searchEmpty) {
    case "404":
      throw notFound("Record");
    case "empty-array":
      return { status: 200, body: [] };
    case "null":
      return { status: 200, body: null };
    default:
      return { status: 200 };
  }
}

/** Largest accepted `limit`; larger values are clamped. */
export const MAX_LIMIT = 1000;

/** A route as a kind lists it: method, path pattern below /api/v1, handler. */
export type RouteSpec = [method: string, pattern: string, handler: Handler];
