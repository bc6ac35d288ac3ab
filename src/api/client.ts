/**
 * The API v1 client: the only code that knows paths, envelope keys and status
 * codes. One keep-alive pool and one concurrency limit per tenant, shared by
 * every caller; retries only where they are safe; a create whose answer was
 * lost is looked up by its natural key and adopted instead of duplicated.
 */
import { AsyncLocalStorage } from "node:async_hooks";
import { readFile } from "node:fs/promises";
import { request as undiciRequest, errors as undiciErrors, type Dispatcher } from "undici";
import { createTransport } from "./transport.js";
import { PimctlError, type ErrorCode } from "../errors.js";
import type * as T from "./types.js";
import { removeAssignment } from "./set-assignments.js";
import { canonical } from "./wire.js";
import { fillUrlTemplate, normaliseBaseUrl, redactUrl } from "./base-url.js";

export interface RetryPolicy {
  /** Retries after the first attempt. */
  max: number;
  baseMs: number;
  maxMs: number;
}

export interface ClientOptions {
  tenant: string;
  baseUrl?: string;
  hash?: string;
  region?: string;
  urlTemplate?: string;
  token: string;
  parallelism?: number;
  timeoutMs?: number;
  retries?: Partial<RetryPolicy>;
  allowInsecureHttp?: boolean;
  logHttp?: (line: string) => void;
  pageLimit?: number;
  /** Where HTTPS_PROXY, HTTP_PROXY and NO_PROXY are read (default: none, a direct connection). */
  env?: NodeJS.ProcessEnv;
  random?: () => number;
}

export interface ClientStats {
  requests: number;
  byMethod: Record<string, number>;
  byRoute: Record<string, number>;
  retries: number;
  adopted: number;
  bytesIn: number;
  bytesOut: number;
  timeMs: number;
}

export const DEFAULT_RETRIES: RetryPolicy = { max: 4, baseMs: 200, maxMs: 8_000 };
export const DEFAULT_PAGE_LIMIT = 1000;
/** The changelog list's default page size (API document, Limits): a page this long may have been cut. */
export const CHANGELOG_DEFAULT_PAGE = 250;

/** A token from an environment variable or a file; errors name the variable or file, never the value. */
export async function resolveToken(src: { tokenEnv?: string; tokenFile?: string }, env: NodeJS.ProcessEnv): Promise<string> {
  if (src.tokenEnv) {
    const v = env[src.tokenEnv]?.trim();
    if (!v) throw new PimctlError("config", `the token variable ${src.tokenEnv} is not set (or empty); export it before running pimctl`);
    return v;
  }
  if (src.tokenFile) {
    let text: string;
    try {
      text = await readFile(src.tokenFile, "utf8");
    } catch (e) {
      throw new PimctlError("config", `cannot read the token file ${src.tokenFile}: ${(e as NodeJS.ErrnoException).code ?? "error"}`);
    }
    const v = text.trim();
    if (!v) throw new PimctlError("config", `the token file ${src.tokenFile} is empty`);
    return v;
  }
  throw new PimctlError("config", "no token source: set token_env (an environment variable) or token_file for the tenant");
}

/** base URL from a template such as https://{hash}.{region}.example.com/api/v1 */
export function buildBaseUrl(o: Pick<ClientOptions, "baseUrl" | "hash" | "region" | "urlTemplate">): string {
  if (o.baseUrl) return normaliseBaseUrl(o.baseUrl);
  if (o.hash && o.urlTemplate) return normaliseBaseUrl(fillUrlTemplate(o.urlTemplate, o.hash, o.region));
  throw new PimctlError("config", "a tenant needs base_url, or hash (and region) with a url_template");
}

export function isLoopbackHost(host: string): boolean {
  const h = host.replace(/^\[|\]$/g, "");
  return h === "localhost" || h === "::1" || /^127\.\d+\.\d+\.\d+$/.test(h);
}

/** Delay before retry `attempt` (1-based): exponential with full jitter, or what Retry-After asks. */
export function backoffMs(attempt: number, policy: RetryPolicy, random: () => number, retryAfter?: string | null): number {
  const after = parseRetryAfter(retryAfter);
  if (after !== undefined) return Math.min(after, 60_000);
  const cap = Math.min(policy.maxMs, policy.baseMs * 2 ** (attempt - 1));
  return Math.round(cap / 2 + (random() * cap) / 2);
}

export function parseRetryAfter(v: string | null | undefined): number | undefined {
  if (!v) return undefined;
  if (/^\d+(\.\d+)?$/.test(v.trim())) return Math.round(Number(v) * 1000);
  const t = Date.parse(v);
  return Number.isNaN(t) ? undefined : Math.max(0, t - Date.now());
}

/** "/brands/12/assets/3" -> "/brands/:id/assets/:id" (for accounting without ids). */
export function routeOf(path: string): string {
  return path
    .split("?")[0]!
    .split("/")
    .map((s) => (/^\d+$/.test(s) ? ":id" : s))
    .join("/");
}

/** The slot a request holds, so look-ups made while holding it (adoption) reuse it. */
const heldSlot = new AsyncLocalStorage<{ chain: Promise<unknown> }>();

/**
 * The concurrency limit. Waiters are served in arrival order: a released slot
 * is handed to the oldest waiter, never left for a newcomer to take. A request
 * made while its caller already holds a slot (the look-up after a lost create
 * answer) runs in that slot, one at a time, and never waits for a second one:
 * at parallelism 1 it would wait for itself forever.
 */
export class Semaphore {
  private active = 0;
  private readonly waiting: Array<() => void> = [];
  constructor(private readonly limit: number) {}
  private acquire(): Promise<void> {
    if (this.active < this.limit) {
      this.active++;
      return Promise.resolve();
    }
    return new Promise<void>((r) => this.waiting.push(r));
  }
  private release(): void {
    const next = this.waiting.shift();
    if (next) next(); // the slot passes straight to the oldest waiter
    else this.active--;
  }
  get queued(): number {
    return this.waiting.length;
  }
  async run<R>(fn: () => Promise<R>): Promise<R> {
    const held = heldSlot.getStore();
    if (held) {
      // Nested: queue behind the caller's other nested work; each step gets its own chain, so
      // a look-up inside a look-up does not wait for itself either.
      const step = held.chain.then(() => heldSlot.run({ chain: Promise.resolve() }, fn));
      held.chain = step.catch(() => undefined);
      return step;
    }
    await this.acquire();
    try {
      return await heldSlot.run({ chain: Promise.resolve() }, fn);
    } finally {
      this.release();
    }
  }
}

interface Attempt {
  status: number;
  headers: Record<string, string | string[] | undefined>;
  text: string;
}

/** Failures where the server may have acted before the connection broke. */
class TransportError extends Error {
  constructor(
    readonly code: "api_timeout" | "api_connection",
    message: string,
    readonly sent: boolean,
  ) {
    super(message);
  }
}

/**
 * Brand attributes in one shape: an array of records whose `values` is an array of
 * {id, version_id, value}. Tenants also answer one record instead of an array, and
 * values keyed by version id; both are read.
 */
function brandAttributes(v: unknown): T.ApiBrandAttribute[] {
  const list = Array.isArray(v) ? v : v !== null && typeof v === "object" ? [v] : [];
  return list
    .filter((x): x is Record<string, unknown> => x !== null && typeof x === "object" && "attribute_id" in x)
    .map((x) => {
      const raw = x.values;
      const values = (Array.isArray(raw) ? raw : raw !== null && typeof raw === "object" ? Object.entries(raw as Record<string, unknown>).map(([k, val]) => (val !== null && typeof val === "object" ? { version_id: Number(k), ...(val as object) } : { version_id: Number(k), value: val })) : []) as Array<Record<string, unknown>>;
      return { ...x, values: values.map((e) => ({ ...e, value: e.value === null || e.value === undefined ? "" : String(e.value) })) } as unknown as T.ApiBrandAttribute;
    });
}

/** The record a brand-attribute write answers with, whatever its envelope (the body is not checked further). */
function oneBrandAttribute(data: unknown, attributeId: number): T.ApiBrandAttribute {
  const d = data as Record<string, unknown> | null | undefined;
  const inner = d?.brand_attributes ?? d?.brands_attributes ?? d?.brand_attribute ?? d;
  return brandAttributes(inner).find((a) => a.attribute_id === attributeId) ?? { attribute_id: attributeId, values: [] } as unknown as T.ApiBrandAttribute;
}

/** Page sizes tried, largest first, when the tenant refuses a `limit` with 422. */
const PAGE_SIZES = [500, 250, 100, 50, 25, 10, 5, 1];

function pageMeta(v: unknown): T.PageMeta | undefined {
  if (v === null || typeof v !== "object") return undefined;
  const m = v as Record<string, unknown>;
  const n = (x: unknown) => (x === null || x === undefined ? null : Number(x));
  if (n(m.last_page) === null || n(m.total) === null) return undefined;
  return { ...(m as object), current_page: n(m.current_page) ?? 1, last_page: n(m.last_page)!, total: n(m.total)!, per_page: n(m.per_page) ?? 0, from: n(m.from), to: n(m.to) } as T.PageMeta;
}

function nextLink(v: unknown): string | undefined {
  const next = v !== null && typeof v === "object" ? (v as { next?: unknown }).next : undefined;
  return typeof next === "string" && next ? next : undefined;
}

/** First occurrence of each id wins; records without an id are kept. */
function dedupeById<R>(items: R[]): R[] {
  const seen = new Set<unknown>();
  return items.filter((x) => {
    const id = x !== null && typeof x === "object" ? (x as { id?: unknown }).id : undefined;
    if (id === undefined) return true;
    if (seen.has(id)) return false;
    seen.add(id);
    return true;
  });
}

/** TLS verification failures: never transient, and the fix is the CA, so say so (retrying would only repeat it). */
function untrustedCertificate(code: string | undefined): string | undefined {
  const codes = ["UNABLE_TO_VERIFY_LEAF_SIGNATURE", "SELF_SIGNED_CERT_IN_CHAIN", "DEPTH_ZERO_SELF_SIGNED_CERT", "UNABLE_TO_GET_ISSUER_CERT_LOCALLY", "UNABLE_TO_GET_ISSUER_CERT", "CERT_UNTRUSTED"];
  if (code !== undefined && codes.includes(code)) {
    return `the tenant's TLS certificate is not trusted (${code}): if a private CA or a TLS-inspecting proxy signs it, point NODE_EXTRA_CA_CERTS at that CA's PEM file`;
  }
  if (code === "CERT_HAS_EXPIRED" || code === "ERR_TLS_CERT_ALTNAME_INVALID") return `the tenant's TLS certificate is not valid for this address (${code})`;
  return undefined;
}

export class PimClient implements T.PimApi {
  readonly tenant: string;
  readonly baseUrl: string;
  private readonly basePath: string;
  /** The keep-alive pool, or the proxy agent behind HTTPS_PROXY (src/api/transport.ts). */
  private readonly pool: Dispatcher;
  private readonly origin: string;
  /** The proxy requests go through, redacted; undefined when direct. */
  readonly proxy: string | undefined;
  private readonly limiter: Semaphore;
  private readonly token: string;
  private readonly policy: RetryPolicy;
  private readonly timeoutMs: number;
  private readonly random: () => number;
  private readonly log: ((line: string) => void) | undefined;
  /** The page size asked for; lowered for the rest of the run when the tenant refuses it (422). */
  pageLimit: number;
  /** Set by the first 401: the token is refused, so no further request is sent. */
  private refusedWith: PimctlError | undefined;
  /** Set by stopRetrying(): a failed attempt is final (the tenant is down; retries only add minutes). */
  private retriesStopped = false;
  /** Which id DELETE /attribute_sets/<S>/attributes/<ID> takes on this tenant, once seen. */
  setAttributeDeleteId: "attribute" | "assignment" | undefined;
  private readonly counters: ClientStats = { requests: 0, byMethod: {}, byRoute: {}, retries: 0, adopted: 0, bytesIn: 0, bytesOut: 0, timeMs: 0 };

  constructor(opts: ClientOptions) {
    this.tenant = opts.tenant;
    this.baseUrl = buildBaseUrl(opts);
    let url: URL;
    try {
      url = new URL(this.baseUrl);
    } catch {
      throw new PimctlError("config", `tenant "${opts.tenant}": base URL ${redactUrl(this.baseUrl)} is not a valid URL`);
    }
    if (url.protocol === "http:" && !isLoopbackHost(url.hostname) && !opts.allowInsecureHttp) {
      throw new PimctlError(
        "insecure_url",
        `tenant "${opts.tenant}": refusing plain http:// to ${url.host}: the token would travel unencrypted. Use https://, or set allow_insecure_http: true for this tenant`,
      );
    }
    if (url.protocol !== "http:" && url.protocol !== "https:") throw new PimctlError("config", `tenant "${opts.tenant}": base URL must be http(s)`);
    this.basePath = url.pathname.replace(/\/+$/, "");
    const parallelism = Math.max(1, opts.parallelism ?? 8);
    const transport = createTransport(url, parallelism, opts.env ?? {});
    this.pool = transport.dispatcher;
    this.origin = url.origin;
    this.proxy = transport.via;
    this.limiter = new Semaphore(parallelism);
    this.token = opts.token;
    this.policy = { ...DEFAULT_RETRIES, ...opts.retries };
    this.timeoutMs = opts.timeoutMs ?? 30_000;
    this.random = opts.random ?? Math.random;
    this.log = opts.logHttp;
    this.pageLimit = opts.pageLimit ?? DEFAULT_PAGE_LIMIT;
  }

  /** A line for --log-http (debug facts the client learned about the tenant). */
  note(line: string): void {
    this.log?.(`debug: ${line}`);
  }

  stats(): ClientStats {
    return structuredClone(this.counters);
  }

  async close(): Promise<void> {
    await this.pool.close().catch(() => undefined);
  }

  stopRetrying(): void {
    this.retriesStopped = true;
  }

  // ----------------------------------------------------------- transport

  private async once(method: string, path: string, body: unknown): Promise<Attempt> {
    const payload = body === undefined ? undefined : JSON.stringify(body);
    const t0 = Date.now();
    this.counters.requests++;
    this.counters.byMethod[method] = (this.counters.byMethod[method] ?? 0) + 1;
    const route = `${method} ${routeOf(path)}`;
    this.counters.byRoute[route] = (this.counters.byRoute[route] ?? 0) + 1;
    if (payload) this.counters.bytesOut += Buffer.byteLength(payload);
    let sent = false;
    try {
      const res = await this.pool.request({
        origin: this.origin,
        method: method as "GET",
        path: this.basePath + path,
        headers: {
          authorization: `Bearer ${this.token}`,
          accept: "application/json",
          ...(payload ? { "content-type": "application/json" } : {}),
        },
        ...(payload ? { body: payload } : {}),
        headersTimeout: this.timeoutMs,
        bodyTimeout: this.timeoutMs,
      });
      sent = true;
      const text = await res.body.text();
      this.counters.bytesIn += Buffer.byteLength(text);
      const ms = Date.now() - t0;
      this.counters.timeMs += ms;
      this.log?.(`${method} ${path} ${res.statusCode} ${ms}ms`);
      return { status: res.statusCode, headers: res.headers, text };
    } catch (e) {
      const ms = Date.now() - t0;
      this.counters.timeMs += ms;
      const err = e as { code?: string; message?: string };
      const timeout = err.code === "UND_ERR_HEADERS_TIMEOUT" || err.code === "UND_ERR_BODY_TIMEOUT" || e instanceof undiciErrors.HeadersTimeoutError;
      const refused = err.code === "ECONNREFUSED" || err.code === "ENOTFOUND" || err.code === "EAI_AGAIN";
      this.log?.(`${method} ${path} ${timeout ? "timeout" : "connection error"} ${ms}ms`);
      const untrusted = untrustedCertificate(err.code);
      if (untrusted) throw new PimctlError("api_connection", untrusted, { request: this.info(method, path) });
      throw new TransportError(
        timeout ? "api_timeout" : "api_connection",
        timeout ? `no answer from ${this.hostPort()} within ${this.timeoutMs} ms` : `connection to ${this.hostPort()} failed (${err.code ?? err.message ?? "error"})`,
        sent || !refused,
      );
    }
  }

  /**
   * One logical request with the retry policy. `retryPost` marks POSTs that
   * are safe to repeat; `adopt` looks a create up by its natural key after an
   * ambiguous failure (returns the record if the first attempt created it).
   */
  private async request(
    method: string,
    path: string,
    body?: unknown,
    opts: { retryPost?: boolean; adopt?: () => Promise<unknown | undefined>; allow404?: boolean; allow422?: boolean } = {},
  ): Promise<Attempt> {
    return this.limiter.run(async () => {
      const safe = method !== "POST" || opts.retryPost === true;
      // Whether an earlier attempt may have reached the server and acted.
      let mayHaveActed = false;
      for (let attempt = 0; ; attempt++) {
        // After a 401 every request with this token fails: do not send more of them.
        if (this.refusedWith) throw new PimctlError("api_unauthorized", this.refusedWith.message, { request: this.info(method, path, 401) });
        let result: Attempt | undefined;
        let failure: PimctlError | undefined;
        let ambiguous = false;
        let retryAfter: string | undefined;
        try {
          result = await this.once(method, path, body);
        } catch (e) {
          if (!(e instanceof TransportError)) throw e;
          failure = new PimctlError(e.code, e.message, { request: this.info(method, path), details: this.connectionHelp(e.code) });
          ambiguous = e.sent;
        }
        if (result) {
          if (result.status < 400) return result;
          if (result.status === 404 && opts.allow404) return result;
          if (result.status === 422 && opts.allow422) return result;
          // A retried DELETE that finds nothing: the attempt whose answer was lost deleted it.
          if (result.status === 404 && method === "DELETE" && mayHaveActed) {
            this.log?.(`${method} ${path} 404 on retry: the earlier attempt deleted it`);
            return { status: 204, headers: {}, text: "" };
          }
          failure = this.httpError(method, path, result);
          if (result.status === 401) this.refusedWith = failure;
          const retryable = result.status === 429 || result.status >= 500;
          if (!retryable) throw failure;
          ambiguous = result.status !== 429; // a 429 was refused before the server acted
          const ra = result.headers["retry-after"];
          retryAfter = Array.isArray(ra) ? ra[0] : ra;
        }
        if (ambiguous) mayHaveActed = true;
        if (attempt >= this.policy.max || this.retriesStopped) throw failure!;
        if (!safe && ambiguous) {
          // The first attempt may have created the record: look before trying again.
          if (!opts.adopt) throw failure!;
          const existing = await this.withRetries(opts.adopt);
          if (existing !== undefined) {
            this.counters.adopted++;
            this.log?.(`${method} ${path} adopted the record the lost attempt created`);
            return { status: 200, headers: {}, text: JSON.stringify(existing) };
          }
        }
        this.counters.retries++;
        await new Promise((r) => setTimeout(r, backoffMs(attempt + 1, this.policy, this.random, retryAfter)));
      }
    });
  }

  /** Retries for look-ups made while a limiter slot is already held (GETs and searches are safe). */
  private async withRetries<R>(fn: () => Promise<R>): Promise<R> {
    for (let attempt = 0; ; attempt++) {
      try {
        return await fn();
      } catch (e) {
        const code = (e as PimctlError).code;
        const transient = code === "api_server" || code === "api_rate_limited" || code === "api_timeout" || code === "api_connection";
        if (!transient || attempt >= this.policy.max || this.retriesStopped) throw e;
        this.counters.retries++;
        await new Promise((r) => setTimeout(r, backoffMs(attempt + 1, this.policy, this.random)));
      }
    }
  }

  /** host:port, the port spelled out even when the scheme implies it: that is what a firewall rule names. */
  private hostPort(): string {
    const url = new URL(this.origin);
    return `${url.hostname}:${url.port || (url.protocol === "https:" ? "443" : "80")}`;
  }

  /** What to check when the tenant cannot be reached: the address in the config first, then the way there. */
  private connectionHelp(code: "api_timeout" | "api_connection"): string[] {
    return [
      `check the base URL of tenant "${this.tenant}" in the config (${this.baseUrl}) and that the service is up`,
      this.proxy
        ? `requests go through the proxy ${this.proxy} (HTTPS_PROXY): check that it is reachable and allows ${this.hostPort()}`
        : `check the network from this machine to ${this.hostPort()} (DNS, firewall; set HTTPS_PROXY if it needs a proxy)`,
      ...(code === "api_timeout" ? ["a tenant that answers slowly under load: try a lower --parallelism"] : []),
    ];
  }

  private info(method: string, path: string, status?: number) {
    return { method, path: path.split("?")[0]!, tenant: this.tenant, ...(status !== undefined ? { status } : {}) };
  }

  private httpError(method: string, path: string, r: Attempt): PimctlError {
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
    const req = { request: this.info(method, path, r.status) };
    const codeFor: Record<number, ErrorCode> = { 400: "api_bad_request", 401: "api_unauthorized", 404: "api_not_found", 422: "api_unprocessable", 429: "api_rate_limited", 501: "api_not_implemented" };
    if (r.status === 401) {
      return new PimctlError(
        "api_unauthorized",
        `tenant "${this.tenant}" at ${this.baseUrl} refused the token (401). Either the token was rotated or revoked, it belongs to another tenant, or the Authorization header is missing or malformed. Check the variable or file the config names for this tenant.`,
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

  private parse<R>(method: string, path: string, r: Attempt, key?: string): R {
    if (!r.text) return undefined as R;
    let data: unknown;
    try {
      data = JSON.parse(r.text);
    } catch {
      throw new PimctlError("api_protocol", "the tenant answered with a body that is not JSON", { request: this.info(method, path, r.status) });
    }
    data = canonical(data);
    if (key === undefined) return data as R;
    const value = (data as Record<string, unknown> | null)?.[key];
    if (value === undefined) {
      // Adopted records come back without their envelope.
      if (data && typeof data === "object" && "id" in (data as object)) return data as R;
      throw new PimctlError("api_protocol", `the answer has no "${key}" key`, { request: this.info(method, path, r.status) });
    }
    return value as R;
  }

  private async get<R>(path: string, key: string): Promise<R> {
    return this.parse<R>("GET", path, await this.request("GET", path), key);
  }

  /**
   * A list the document shows unpaginated. A tenant may page it anyway (links and
   * meta present): follow `links.next` (or count pages by meta) and dedupe by id,
   * so nothing is read twice or left out.
   */
  private async getList<R>(path: string, key: string, opts: { allow404?: boolean } = {}): Promise<R[]> {
    const r = await this.request("GET", path, undefined, opts.allow404 ? { allow404: true } : {});
    if (r.status === 404) return [];
    const data = this.parse<Record<string, unknown> | null>("GET", path, r);
    const first = data?.[key];
    if (!Array.isArray(first)) throw new PimctlError("api_protocol", `the answer has no "${key}" list`, { request: this.info("GET", path, r.status) });
    const meta = pageMeta(data?.meta);
    const next = nextLink(data?.links);
    if (!meta && !next) return first as R[];
    const pages: unknown[][] = [first];
    let current = meta?.current_page ?? 1;
    let nextPath = next ? this.sameTenantPath(next, path) : undefined;
    for (let guard = 0; guard < 10_000; guard++) {
      if (!nextPath && meta && current < meta.last_page) nextPath = `${path}${path.includes("?") ? "&" : "?"}page=${current + 1}`;
      if (!nextPath) break;
      const page = this.parse<Record<string, unknown> | null>("GET", nextPath, await this.request("GET", nextPath));
      const items = page?.[key];
      if (!Array.isArray(items)) throw new PimctlError("api_protocol", `page ${current + 1} has no "${key}" list`, { request: this.info("GET", nextPath) });
      pages.push(items);
      current = pageMeta(page?.meta)?.current_page ?? current + 1;
      const n = nextLink(page?.links);
      nextPath = n ? this.sameTenantPath(n, path) : undefined;
      if (!n && !pageMeta(page?.meta)) break;
      if (!n && (pageMeta(page?.meta)?.last_page ?? 0) <= current) break;
    }
    const all = dedupeById(pages.flat() as R[]);
    if (meta && all.length < meta.total) {
      throw new PimctlError("api_protocol", `${key}: the tenant reported ${meta.total} records but its pages held ${all.length}; refusing to work from a truncated list`, {
        request: this.info("GET", path),
      });
    }
    return all;
  }

  /** A `links.next` address as a path below the tenant base; another origin is refused loudly. */
  private sameTenantPath(link: string, forPath: string): string {
    let next: URL;
    try {
      next = new URL(link, this.baseUrl);
    } catch {
      throw new PimctlError("api_protocol", `the next-page address "${link}" is not a URL`, { request: this.info("GET", forPath) });
    }
    const base = new URL(this.baseUrl);
    if (next.origin !== base.origin || !next.pathname.startsWith(this.basePath)) {
      throw new PimctlError("api_protocol", `the next-page address points outside the tenant (${next.origin}); refusing to follow it with the tenant's token`, { request: this.info("GET", forPath) });
    }
    return next.pathname.slice(this.basePath.length) + next.search;
  }

  private async send<R>(method: "POST" | "PUT", path: string, body: unknown, key: string | undefined, opts?: { retryPost?: boolean; adopt?: () => Promise<unknown | undefined> }): Promise<R> {
    return this.parse<R>(method, path, await this.request(method, path, body, opts), key);
  }

  private async del(path: string): Promise<void> {
    await this.request("DELETE", path);
  }

  /**
   * Exact-match search. "Nothing found" comes as 404, as 200 with an empty body,
   * `[]`, `null` or `{}`: all mean no match. A list answer is searched for the
   * exact name; a record whose name differs (a case-insensitive or fuzzy service)
   * is not a match.
   */
  private async search<R extends { name?: string }>(path: string, name: string, key: string): Promise<R | null> {
    const r = await this.request("POST", path, { name }, { retryPost: true, allow404: true });
    if (r.status === 404 || !r.text.trim()) return null;
    const data = this.parse<unknown>("POST", path, r);
    const inner = data !== null && typeof data === "object" && !Array.isArray(data) && key in data ? (data as Record<string, unknown>)[key] : data;
    const candidates = Array.isArray(inner) ? inner : inner !== null && typeof inner === "object" && "id" in inner ? [inner] : [];
    return (candidates as R[]).find((c) => c.name === name) ?? null;
  }

  private async page<R>(path: string, key: string, query: Record<string, string | number | undefined>): Promise<T.Page<R>> {
    for (;;) {
      const q = new URLSearchParams();
      for (const [k, v] of Object.entries(query)) if (v !== undefined) q.set(k, String(v));
      const full = `${path}?${q.toString()}`;
      const r = await this.request("GET", full, undefined, { allow422: query.limit !== undefined });
      if (r.status === 422) {
        // The largest page size is not in the document: step down, and keep the size for the run.
        const limit = Number(query.limit);
        const smaller = PAGE_SIZES.find((n) => n < limit);
        if (smaller === undefined) throw this.httpError("GET", full, r);
        this.log?.(`GET ${path}: limit=${limit} refused (422); using limit=${smaller} for this tenant from now on`);
        if (this.pageLimit > smaller) this.pageLimit = smaller;
        query = { ...query, limit: smaller };
        continue;
      }
      const data = this.parse<Record<string, unknown>>("GET", full, r);
      const items = data[key];
      const meta = pageMeta(data.meta);
      if (!Array.isArray(items) || !meta) throw new PimctlError("api_protocol", `the page has no "${key}" list or meta`, { request: this.info("GET", path, r.status) });
      return { items: items as R[], links: data.links as T.PageLinks, meta: meta as T.PageMeta, limit: Number(query.limit ?? meta.per_page) };
    }
  }

  /**
   * Every page, read so that a concurrent writer cannot make pimctl miss or
   * double a record: records are deduped by id, and the count is checked against
   * `meta.total` (first and last page must agree too); on a mismatch the whole
   * list is read again, up to three times. `complete: false` says the list kept
   * changing: the caller must not conclude that a record is absent.
   */
  async readAll<R extends { id: number }>(path: string, key: string, query: Record<string, string | number | undefined>, first?: T.Page<R>): Promise<T.ListRead<R>> {
    let problem = "";
    let union: R[] = [];
    for (let round = 0; round < 3; round++) {
      const head = round === 0 && first ? first : await this.page<R>(path, key, { ...query, limit: query.limit ?? this.pageLimit, page: 1 });
      const limit = head.limit;
      const rest = await Promise.all(
        Array.from({ length: Math.max(0, head.meta.last_page - 1) }, (_, i) => this.page<R>(path, key, { ...query, limit, page: i + 2 })),
      );
      const pages = [head, ...rest];
      const items = dedupeById(pages.flatMap((p) => p.items));
      const totals = new Set(pages.map((p) => p.meta.total));
      const raw = pages.reduce((n, p) => n + p.items.length, 0);
      union = dedupeById([...union, ...items]);
      if (totals.size === 1 && items.length === head.meta.total && raw === items.length) return { items, complete: true, pages: pages.length };
      problem = `${path} changed while it was read: meta.total ${[...totals].join(" then ")}, ${raw} records on the pages, ${items.length} distinct`;
      this.log?.(`GET ${path}: ${problem}; reading it again`);
    }
    return { items: union, complete: false, problem, pages: 0 };
  }

  /** Every page as a plain array; throws when the list would not hold still. */
  private async all<R extends { id: number }>(path: string, key: string, query: Record<string, string | number | undefined>): Promise<R[]> {
    const read = await this.readAll<R>(path, key, query);
    if (!read.complete) throw new PimctlError("api_protocol", `${read.problem}; three reads did not agree, try again when the tenant is quieter`, { request: this.info("GET", path) });
    return read.items;
  }

  // ---------------------------------------------------------------- API

  async ping(): Promise<{ time: string }> {
    return this.parse("GET", "/ping", await this.request("GET", "/ping"));
  }

  listAttributes(versionId?: number): Promise<T.ApiAttribute[]> {
    return this.getList(versionId ? `/attributes/version/${versionId}` : "/attributes", "attributes");
  }
  getAttribute(id: number, versionId?: number): Promise<T.ApiAttribute> {
    return this.get(versionId ? `/attributes/${id}/version/${versionId}` : `/attributes/${id}`, "attribute");
  }
  createAttribute(body: T.AttributeWrite): Promise<T.ApiAttribute> {
    return this.send("POST", "/attributes", body, "attribute", { adopt: () => this.adoptByName(body.name, (n) => this.searchAttribute(n), () => this.listAttributes()) });
  }
  updateAttribute(id: number, body: T.AttributeWrite): Promise<T.ApiAttribute> {
    return this.send("PUT", `/attributes/${id}`, body, "attribute");
  }
  updateAttributeVersion(id: number, versionId: number, body: T.AttributeVersionWrite): Promise<T.ApiAttribute> {
    return this.send("PUT", `/attributes/${id}/version/${versionId}`, body, "attribute");
  }
  deleteAttribute(id: number): Promise<void> {
    return this.del(`/attributes/${id}`);
  }
  deleteAttributeVersion(id: number, versionId: number): Promise<void> {
    return this.del(`/attributes/${id}/version/${versionId}`);
  }
  searchAttribute(name: string): Promise<T.ApiAttribute | null> {
    return this.search("/attributes/search", name, "attribute");
  }

  listTypeValues(attributeId: number, versionId?: number): Promise<T.ApiTypeValue[]> {
    return this.getList(versionId ? `/attributes/${attributeId}/type_values/version/${versionId}` : `/attributes/${attributeId}/type_values`, "attribute_type_values");
  }
  getTypeValue(attributeId: number, id: number, versionId?: number): Promise<T.ApiTypeValue> {
    return this.get(versionId ? `/attributes/${attributeId}/type_values/${id}/version/${versionId}` : `/attributes/${attributeId}/type_values/${id}`, "attribute_type_value");
  }
  createTypeValue(attributeId: number, body: T.TypeValueWrite): Promise<T.ApiTypeValue> {
    return this.send("POST", `/attributes/${attributeId}/type_values`, body, "attribute_type_value", {
      adopt: async () => (await this.listTypeValues(attributeId)).find((v) => v.value === body.value && (v.attribute_id === undefined || v.attribute_id === attributeId)),
    });
  }
  updateTypeValue(attributeId: number, id: number, body: T.TypeValueWrite): Promise<T.ApiTypeValue> {
    return this.send("PUT", `/attributes/${attributeId}/type_values/${id}`, body, "attribute_type_value");
  }
  updateTypeValueVersion(attributeId: number, id: number, versionId: number, body: { value: string }): Promise<T.ApiTypeValue> {
    return this.send("PUT", `/attributes/${attributeId}/type_values/${id}/version/${versionId}`, body, "attribute_type_value");
  }
  deleteTypeValue(attributeId: number, id: number): Promise<void> {
    return this.del(`/attributes/${attributeId}/type_values/${id}`);
  }
  deleteTypeValueVersion(attributeId: number, id: number, versionId: number): Promise<void> {
    return this.del(`/attributes/${attributeId}/type_values/${id}/version/${versionId}`);
  }

  listAttributeSets(): Promise<T.ApiAttributeSet[]> {
    return this.getList("/attribute_sets", "attribute_sets");
  }
  getAttributeSet(id: number): Promise<T.ApiAttributeSet> {
    return this.get(`/attribute_sets/${id}`, "attribute_set");
  }
  createAttributeSet(body: T.AttributeSetWrite): Promise<T.ApiAttributeSet> {
    return this.send("POST", "/attribute_sets", body, "attribute_set", { adopt: () => this.adoptByName(body.name, (n) => this.searchAttributeSet(n), () => this.listAttributeSets()) });
  }
  updateAttributeSet(id: number, body: T.AttributeSetWrite): Promise<T.ApiAttributeSet> {
    return this.send("PUT", `/attribute_sets/${id}`, body, "attribute_set");
  }
  deleteAttributeSet(id: number): Promise<void> {
    return this.del(`/attribute_sets/${id}`);
  }
  searchAttributeSet(name: string): Promise<T.ApiAttributeSet | null> {
    return this.search("/attribute_sets/search", name, "attribute_set");
  }
  /** [] on the documented 404 (a set without attributes; the API answers the same for a missing set). */
  async listAttributeSetAttributes(setId: number): Promise<T.ApiAttributeSetAttribute[]> {
    return this.getList(`/attribute_sets/${setId}/attributes`, "attribute_set_attributes", { allow404: true });
  }
  async getAttributeSetAttribute(setId: number, attributeId: number): Promise<T.ApiAttributeSetAttribute | null> {
    const path = `/attribute_sets/${setId}/attributes/${attributeId}`;
    const r = await this.request("GET", path, undefined, { allow404: true });
    if (r.status === 404) return null;
    return this.parse("GET", path, r, "attribute_set_attribute");
  }
  async addAttributeToSet(setId: number, attributeId: number): Promise<void> {
    await this.request("POST", `/attribute_sets/${setId}/attributes`, { attribute_id: attributeId }, { adopt: async () => (await this.getAttributeSetAttribute(setId, attributeId)) ?? undefined });
  }
  removeAttributeFromSet(setId: number, target: { assignmentId: number; attributeId: number }): Promise<void> {
    return removeAssignment(this, setId, target);
  }

  /** Adoption by exact name: the search answer only when its name is identical, else the full list. */
  private async adoptByName<R extends { name?: string }>(name: string | undefined, search: (n: string) => Promise<R | null>, list: () => Promise<R[]>): Promise<R | undefined> {
    if (!name) return undefined;
    const hit = await search(name);
    if (hit && hit.name === name) return hit;
    return (await list()).find((r) => r.name === name);
  }

  /** For set-assignments.ts: a DELETE whose 404 is an answer, not an error. */
  async deleteAllowing404(path: string): Promise<number> {
    return (await this.request("DELETE", path, undefined, { allow404: true })).status;
  }

  listBlocks(): Promise<T.ApiBlock[]> {
    return this.getList("/blocks", "blocks");
  }
  getBlock(id: number): Promise<T.ApiBlock> {
    return this.get(`/blocks/${id}`, "block");
  }
  createBlock(body: T.BlockWrite): Promise<T.ApiBlock> {
    return this.send("POST", "/blocks", body, "block", { adopt: async () => (await this.listBlocks()).find((b) => b.slug === body.slug) });
  }
  updateBlock(id: number, body: T.BlockWrite): Promise<T.ApiBlock> {
    return this.send("PUT", `/blocks/${id}`, body, "block");
  }
  deleteBlock(id: number): Promise<void> {
    return this.del(`/blocks/${id}`);
  }
  listBlockAssets(blockId: number): Promise<T.ApiBlockAsset[]> {
    return this.getList(`/blocks/${blockId}/assets`, "block_assets");
  }
  getBlockAsset(blockId: number, id: number): Promise<T.ApiBlockAsset> {
    return this.get(`/blocks/${blockId}/assets/${id}`, "block_asset");
  }

  listBrands(opts: { versionId?: number; limit?: number } = {}): Promise<T.ApiBrand[]> {
    return this.all("/brands", "brands", { limit: opts.limit, version: opts.versionId || undefined });
  }
  readBrands(opts: { versionId?: number; first?: T.Page<T.ApiBrand> } = {}): Promise<T.ListRead<T.ApiBrand>> {
    return this.readAll("/brands", "brands", { version: opts.versionId || undefined }, opts.first);
  }
  listBrandsPage(opts: { page: number; versionId?: number; limit?: number }): Promise<T.Page<T.ApiBrand>> {
    return this.page("/brands", "brands", { page: opts.page, limit: opts.limit ?? this.pageLimit, version: opts.versionId || undefined });
  }
  getBrand(id: number, versionId?: number): Promise<T.ApiBrand> {
    return this.get(versionId ? `/brands/${id}/version/${versionId}` : `/brands/${id}`, "brand");
  }
  createBrand(body: T.BrandWrite): Promise<T.ApiBrand> {
    return this.send("POST", "/brands", body, "brand", { adopt: () => this.adoptByName(body.name, (n) => this.searchBrand(n), () => this.listBrands()) });
  }
  updateBrand(id: number, body: T.BrandWrite): Promise<T.ApiBrand> {
    return this.send("PUT", `/brands/${id}`, body, "brand");
  }
  deleteBrand(id: number): Promise<void> {
    return this.del(`/brands/${id}`);
  }
  searchBrand(name: string): Promise<T.ApiBrand | null> {
    return this.search("/brands/search", name, "brand");
  }
  listBrandAssets(brandId: number): Promise<T.ApiAsset[]> {
    return this.getList(`/brands/${brandId}/assets`, "brand_assets");
  }
  getBrandAsset(brandId: number, id: number): Promise<T.ApiAsset> {
    return this.get(`/brands/${brandId}/assets/${id}`, "brand_asset");
  }
  createBrandAsset(brandId: number, body: T.AssetWrite): Promise<T.ApiAsset> {
    return this.send("POST", `/brands/${brandId}/assets`, body, "brand_asset", { adopt: () => this.adoptAsset(() => this.listBrandAssets(brandId), body) });
  }

  /**
   * After an ambiguous failure of an asset create: the owner's only asset with this alt text
   * is the one the lost attempt made (the planner adopts the same way). Two or more with
   * that alt text: not adopted, not retried (the failure is reported).
   */
  private async adoptAsset(list: () => Promise<T.ApiAsset[]>, body: T.AssetWrite): Promise<T.ApiAsset | undefined> {
    const same = (await list()).filter((a) => (a.alttext ?? "") === (body.alttext ?? ""));
    if (same.length === 1) return same[0];
    if (same.length > 1) throw new PimctlError("apply_failed", `the asset create's answer was lost and ${same.length} assets carry the alt text "${body.alttext ?? ""}": not retried, so as not to duplicate it; the next plan adopts or creates it`);
    return undefined;
  }
  updateBrandAsset(brandId: number, id: number, body: T.AssetWrite): Promise<T.ApiAsset> {
    return this.send("PUT", `/brands/${brandId}/assets/${id}`, body, "brand_asset");
  }
  deleteBrandAsset(brandId: number, id: number): Promise<void> {
    return this.del(`/brands/${brandId}/assets/${id}`);
  }
  async setBrandWebId(brandId: number, channelId: number, webId: string): Promise<void> {
    await this.request("POST", `/brands/${brandId}/channel/${channelId}`, { web_id: webId }, { retryPost: true });
  }
  async listBrandAttributes(brandId: number): Promise<T.ApiBrandAttribute[]> {
    return brandAttributes(await this.getList(`/brands/${brandId}/attributes`, "brand_attributes"));
  }
  /**
   * The document's envelope is `brands_attributes` holding an array; the list read uses
   * `brand_attributes` and the write answers with one object. Any of these shapes is read.
   */
  async getBrandAttribute(brandId: number, attributeId: number): Promise<T.ApiBrandAttribute[]> {
    const path = `/brands/${brandId}/attributes/${attributeId}`;
    const r = await this.request("GET", path, undefined, { allow404: true });
    if (r.status === 404) return [];
    const data = this.parse<Record<string, unknown> | null>("GET", path, r);
    const inner = data?.brands_attributes ?? data?.brand_attributes ?? data?.brand_attribute ?? (data && "attribute_id" in data ? data : undefined);
    return brandAttributes(inner).filter((a) => a.attribute_id === attributeId);
  }
  async createBrandAttribute(brandId: number, body: T.BrandAttributeWrite): Promise<T.ApiBrandAttribute> {
    return oneBrandAttribute(await this.send("POST", `/brands/${brandId}/attributes`, body, undefined, {
      adopt: async () => {
        const found = (await this.getBrandAttribute(brandId, body.attribute_id))[0];
        return found?.values.some((v) => v.version_id === body.version_id) ? found : undefined;
      },
    }), body.attribute_id);
  }
  async updateBrandAttributeValue(brandId: number, attributeId: number, valueId: number, body: T.BrandAttributeWrite): Promise<T.ApiBrandAttribute> {
    return oneBrandAttribute(await this.send("PUT", `/brands/${brandId}/attributes/${attributeId}/values/${valueId}`, body, undefined), attributeId);
  }
  deleteBrandAttributeValue(brandId: number, attributeId: number, valueId: number): Promise<void> {
    return this.del(`/brands/${brandId}/attributes/${attributeId}/values/${valueId}`);
  }
  async assignBrandAttribute(brandId: number, attributeId: number): Promise<void> {
    await this.request("POST", `/brands/${brandId}/assigned-attributes`, { attribute_id: attributeId }, { retryPost: true });
  }
  async assignBrandAttributeSet(brandId: number, attributeSetId: number): Promise<void> {
    await this.request("POST", `/brands/${brandId}/assigned-attribute-sets`, { attribute_set_id: attributeSetId }, { retryPost: true });
  }

  listCategories(opts: { withAttributes?: boolean; limit?: number } = {}): Promise<T.ApiCategory[]> {
    return this.all("/categories", "categories", { limit: opts.limit, withAttributes: opts.withAttributes ? "true" : undefined });
  }
  readCategories(opts: { withAttributes?: boolean } = {}): Promise<T.ListRead<T.ApiCategory>> {
    return this.readAll("/categories", "categories", { withAttributes: opts.withAttributes ? "true" : undefined });
  }
  listCategoriesPage(opts: { page: number; withAttributes?: boolean; limit?: number }): Promise<T.Page<T.ApiCategory>> {
    return this.page("/categories", "categories", { page: opts.page, limit: opts.limit ?? this.pageLimit, withAttributes: opts.withAttributes ? "true" : undefined });
  }
  getCategory(id: number, opts: { withAttributes?: boolean; versionId?: number } = {}): Promise<T.ApiCategory> {
    if (opts.versionId) return this.get(`/categories/${id}/version/${opts.versionId}`, "category");
    return this.get(`/categories/${id}${opts.withAttributes ? "?withAttributes=true" : ""}`, "category");
  }
  createCategory(body: T.CategoryWrite & { parent_id: number; name: string }): Promise<T.ApiCategory> {
    return this.send("POST", "/categories", body, "category", {
      adopt: async () => {
        // Same name under the same parent, exactly: never a near match.
        const parent = body.parent_id === 0 ? null : body.parent_id;
        return (await this.listCategories()).find((c) => (c.parent_id === 0 || c.parent_id === undefined ? null : c.parent_id) === parent && c.name === body.name);
      },
    });
  }
  updateCategory(id: number, body: T.CategoryWrite): Promise<T.ApiCategory> {
    return this.send("PUT", `/categories/${id}`, body, "category");
  }
  deleteCategory(id: number): Promise<void> {
    return this.del(`/categories/${id}`);
  }
  listCategoryAssets(categoryId: number): Promise<T.ApiAsset[]> {
    return this.getList(`/categories/${categoryId}/assets`, "category_assets");
  }
  getCategoryAsset(categoryId: number, id: number): Promise<T.ApiAsset> {
    return this.get(`/categories/${categoryId}/assets/${id}`, "category_asset");
  }
  createCategoryAsset(categoryId: number, body: T.AssetWrite): Promise<T.ApiAsset> {
    return this.send("POST", `/categories/${categoryId}/assets`, body, "category_asset", { adopt: () => this.adoptAsset(() => this.listCategoryAssets(categoryId), body) });
  }
  updateCategoryAsset(categoryId: number, id: number, body: T.AssetWrite): Promise<T.ApiAsset> {
    return this.send("PUT", `/categories/${categoryId}/assets/${id}`, body, "category_asset");
  }
  deleteCategoryAsset(categoryId: number, id: number): Promise<void> {
    return this.del(`/categories/${categoryId}/assets/${id}`);
  }
  async setCategoryWebId(categoryId: number, channelId: number, webId: string): Promise<void> {
    await this.request("POST", `/categories/${categoryId}/channel/${channelId}`, { web_id: webId }, { retryPost: true });
  }

  /**
   * Changelog entries, all pages: API v1 names no paging parameter but `limit`, so the
   * client follows `links.next` when the answer has one, and never builds page numbers.
   */
  async listChangelogs(opts: { limit?: number; entityType?: T.ApiChangelog["entity_type"]; updatedAt?: string; seen?: { cut: boolean } } = {}): Promise<T.ApiChangelog[]> {
    const q = new URLSearchParams();
    if (opts.limit) q.set("limit", String(opts.limit));
    if (opts.entityType) q.set("entity_type", opts.entityType);
    if (opts.updatedAt) q.set("updated_at", opts.updatedAt);
    const out: T.ApiChangelog[] = [];
    let path: string | undefined = `/changelogs${q.size ? `?${q.toString()}` : ""}`;
    // Every page must parse and say where the next one is; a page that does not is an
    // error, never a quiet end of the feed (an incremental sync would skip changes).
    for (let n = 1; path; n++) {
      const r = await this.request("GET", path);
      let data: { changelogs?: unknown; links?: unknown; meta?: unknown } | null;
      try {
        data = this.parse("GET", path, r);
      } catch (e) {
        throw new PimctlError("api_protocol", `changelog page ${n} could not be read: ${(e as Error).message}; stopping instead of returning a partial feed`, { request: this.info("GET", path, r.status) });
      }
      if (!data || !Array.isArray(data.changelogs)) throw new PimctlError("api_protocol", `changelog page ${n} has no "changelogs" list; stopping instead of returning a partial feed`, { request: this.info("GET", path, r.status) });
      out.push(...(data.changelogs as T.ApiChangelog[]));
      const next = nextLink(data.links);
      const meta = pageMeta(data.meta);
      if (!next && meta && meta.current_page < meta.last_page) {
        throw new PimctlError("api_protocol", `changelog page ${n} says it is page ${meta.current_page} of ${meta.last_page} but gives no next address; stopping instead of returning a partial feed`, { request: this.info("GET", path) });
      }
      if (opts.seen) opts.seen.cut = !next && !(meta && meta.current_page >= meta.last_page) && (data.changelogs as unknown[]).length >= CHANGELOG_DEFAULT_PAGE;
      path = next ? this.sameTenantPath(next, path) : undefined;
    }
    return out;
  }
  getChangelog(id: number): Promise<T.ApiChangelog> {
    return this.get(`/changelogs/${id}`, "changelogs");
  }

  listChannels(): Promise<T.ApiChannel[]> {
    return this.getList("/channels", "channels");
  }
  getChannel(id: number): Promise<T.ApiChannel> {
    return this.get(`/channels/${id}`, "channel");
  }

  listDisplayGroups(): Promise<T.ApiDisplayGroup[]> {
    return this.getList("/display-groups", "display_groups");
  }
  getDisplayGroup(id: number): Promise<T.ApiDisplayGroup> {
    return this.get(`/display-groups/${id}`, "display_group");
  }
  createDisplayGroup(body: T.DisplayGroupWrite): Promise<T.ApiDisplayGroup> {
    return this.send("POST", "/display-groups", body, "display_group", { adopt: async () => (await this.listDisplayGroups()).find((d) => d.name === body.name) });
  }
  updateDisplayGroup(id: number, body: T.DisplayGroupWrite): Promise<T.ApiDisplayGroup> {
    return this.send("PUT", `/display-groups/${id}`, body, "display_group");
  }

  /** Not retried after an ambiguous failure: a second export job would start. */
  createExport(profileId: number): Promise<T.ApiExport> {
    return this.send("POST", "/exports", { profile_id: profileId }, "export");
  }
  getExport(id: number): Promise<T.ApiExport> {
    return this.get(`/exports/${id}`, "export");
  }
  /**
   * The export file. `file_url` may be on the tenant's origin (sent with the token),
   * redirect to another host such as object storage, or answer 202 until the file is
   * ready. Another host never receives the tenant's token. An empty body or JSON that
   * does not parse is an error: a 0-byte backup must not pass for one.
   */
  async downloadExport(fileUrl: string, opts: { readyTimeoutMs?: number } = {}): Promise<Uint8Array> {
    const base = new URL(this.baseUrl);
    let url = new URL(fileUrl, this.baseUrl);
    const deadline = Date.now() + (opts.readyTimeoutMs ?? 120_000);
    for (let hop = 0, wait = 0; ; ) {
      const own = url.origin === base.origin;
      if (!own && url.protocol !== "https:" && !isLoopbackHost(url.hostname)) {
        throw new PimctlError("insecure_url", `the export file is on ${url.host} over plain http; refusing to download a backup unencrypted`);
      }
      const headers: Record<string, string> = own ? { authorization: `Bearer ${this.token}` } : {};
      const res = await this.limiter.run(async () => {
        this.counters.requests++;
        const r = own
          ? await this.pool.request({ origin: this.origin, method: "GET", path: url.pathname + url.search, headers, headersTimeout: this.timeoutMs, bodyTimeout: this.timeoutMs })
          : await undiciRequest(url, { method: "GET", headers, headersTimeout: this.timeoutMs, bodyTimeout: this.timeoutMs, ...(this.proxy ? { dispatcher: this.pool } : {}) });
        const buf = new Uint8Array(await r.body.arrayBuffer());
        this.counters.bytesIn += buf.byteLength;
        this.log?.(`GET ${own ? url.pathname : `${url.origin}${url.pathname}`} ${r.statusCode}`);
        return { status: r.statusCode, headers: r.headers, buf };
      });
      const where = own ? url.pathname : `${url.origin}${url.pathname}`;
      if (res.status >= 300 && res.status < 400) {
        const loc = res.headers.location;
        const target = Array.isArray(loc) ? loc[0] : loc;
        if (!target || ++hop > 5) throw new PimctlError("api_protocol", `the export download redirected ${target ? "too many times" : "without a Location"} (${where})`);
        url = new URL(target, url);
        continue;
      }
      if (res.status === 202) {
        if (Date.now() > deadline) throw new PimctlError("apply_failed", `the export file at ${where} was still not ready (202) when the wait ran out`);
        const ra = res.headers["retry-after"];
        await new Promise((r) => setTimeout(r, Math.min(5_000, parseRetryAfter(Array.isArray(ra) ? ra[0] : ra) ?? 250 * 2 ** Math.min(4, wait++))));
        continue;
      }
      if (res.status >= 400) throw this.httpError("GET", where, { status: res.status, headers: res.headers, text: Buffer.from(res.buf).toString("utf8") });
      if (res.buf.byteLength === 0) throw new PimctlError("api_protocol", `the export download from ${where} was empty (0 bytes); not saving it as a backup`);
      const type = String(res.headers["content-type"] ?? "");
      if (type.includes("json") || res.buf[0] === 0x7b || res.buf[0] === 0x5b) {
        try {
          JSON.parse(Buffer.from(res.buf).toString("utf8"));
        } catch {
          throw new PimctlError("api_protocol", `the export download from ${where} is not valid JSON (${res.buf.byteLength} bytes, truncated?); not saving it as a backup`);
        }
      }
      return res.buf;
    }
  }

  listGenericEntities(): Promise<T.ApiGenericEntity[]> {
    return this.all("/generic-entities", "generic_entities", {});
  }
  listGenericEntitiesPage(page: number): Promise<T.Page<T.ApiGenericEntity>> {
    return this.page("/generic-entities", "generic_entities", { page });
  }
  getGenericEntity(id: number): Promise<T.ApiGenericEntity> {
    return this.get(`/generic-entities/${id}`, "generic_entity");
  }
}

export function createClient(opts: ClientOptions): PimClient {
  return new PimClient(opts);
}
