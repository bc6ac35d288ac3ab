/**
 * The request core every kind's endpoints go through (src/api/kinds/): one keep-alive
 * pool and one concurrency limit per tenant, shared by every caller; retries only where
 * they are safe; a create whose answer was lost is looked up by its natural key and
 * adopted instead of duplicated; the circuit breaker's stop. Paged and list reads are in
 * lists.ts. Only this file sends requests.
 */
import { request as undiciRequest, errors as undiciErrors, type Dispatcher } from "undici";
import { createTransport } from "./transport.js";
import { PimctlError } from "../errors.js";
import type * as T from "./types.js";
import { canonical } from "./wire.js";
import { backoffMs, DEFAULT_RETRIES, type RetryPolicy } from "./retry.js";
import { Semaphore } from "./semaphore.js";
import { buildBaseUrl, CHANGELOG_PAGE_LIMIT, DEFAULT_PAGE_LIMIT, isLoopbackHost, type ClientOptions, type ClientStats } from "./options.js";
import { redactUrl } from "./base-url.js";
import { routeOf, TransportError, untrustedCertificate, type Attempt } from "./attempt.js";
import { errorForStatus } from "./http-error.js";
import { DOWNLOAD_TEXT_BYTES, exchangeOf, type ExchangeHook } from "./exchange.js";

/** What the endpoint methods of src/api/kinds/ see as `this`: the core, and the other endpoints. */
export type ApiSelf = ApiCore & T.PimApi;

/** How request() treats a request's answers. */
interface RequestOptions {
  retryPost?: boolean;
  adopt?: () => Promise<unknown | undefined>;
  allow404?: boolean;
  allow422?: boolean;
  /** Any answer but 401, 429 and 5xx is returned, not thrown (pimctl doctor reads what the tenant says). */
  answerAll?: boolean;
}

/** One attempt's outcome: an answer, or a failure worth retrying (ambiguous: the server may have acted). */
type AttemptOutcome = { answer: Attempt } | { failure: PimctlError; ambiguous: boolean; retryAfter?: string };

export class ApiCore {
  readonly tenant: string;
  readonly baseUrl: string;
  readonly basePath: string;
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
  readonly log: ((line: string) => void) | undefined;
  /** Told of every exchange (never the token): doctor's evidence, a support bundle. */
  private readonly onExchange: ExchangeHook | undefined;
  /** The page size asked for; lowered for the rest of the run when the tenant refuses it (422). */
  pageLimit: number;
  /** The same for the changelog list, which starts larger (CHANGELOG_PAGE_LIMIT). */
  changelogLimit = CHANGELOG_PAGE_LIMIT;
  /** Set by the first 401: the token is refused, so no further request is sent. */
  private refusedWith: PimctlError | undefined;
  private abortedWith: PimctlError | undefined;
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
        `tenant "${opts.tenant}": refusing plain http:// to ${url.host}: the token would travel unencrypted. Use https://, or set ` +
          `allow_insecure_http: true for this tenant`,
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
    this.onExchange = opts.onExchange;
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

  /** Drop the requests in flight, and fail every later one at once (no retry): a run that refuses mid-read must not wait for them, as close() would. */
  async abort(): Promise<void> {
    this.abortedWith ??= new PimctlError("interrupted", `the reads of tenant "${this.tenant}" were abandoned: the run refused`);
    await this.pool.destroy().catch(() => undefined);
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
    // What a recorder is shown of the request: everything but the token.
    const shown: Record<string, string> = { accept: "application/json", ...(payload ? { "content-type": "application/json" } : {}) };
    const record = (answer: Parameters<typeof exchangeOf>[1]) => this.onExchange?.(exchangeOf({ t0, method, path, headers: shown, body: payload }, answer));
    try {
      const res = await this.pool.request({
        origin: this.origin,
        method: method as "GET",
        path: this.basePath + path,
        headers: { authorization: `Bearer ${this.token}`, ...shown },
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
      record({ status: res.statusCode, headers: res.headers, text });
      return { status: res.statusCode, headers: res.headers, text };
    } catch (e) {
      const ms = Date.now() - t0;
      this.counters.timeMs += ms;
      if (this.abortedWith) throw this.abortedWith;
      const err = e as { code?: string; message?: string };
      const timeout = err.code === "UND_ERR_HEADERS_TIMEOUT" || err.code === "UND_ERR_BODY_TIMEOUT" || e instanceof undiciErrors.HeadersTimeoutError;
      const refused = err.code === "ECONNREFUSED" || err.code === "ENOTFOUND" || err.code === "EAI_AGAIN";
      this.log?.(`${method} ${path} ${timeout ? "timeout" : "connection error"} ${ms}ms`);
      record({ error: timeout ? "timeout" : (err.code ?? "connection error") });
      const untrusted = untrustedCertificate(err.code);
      if (untrusted) throw new PimctlError("api_connection", untrusted, { request: this.info(method, path) });
      throw new TransportError(
        timeout ? "api_timeout" : "api_connection",
        timeout
          ? `no answer from ${this.hostPort()} within ${this.timeoutMs} ms`
          : `connection to ${this.hostPort()} failed (${err.code ?? err.message ?? "error"})`,
        sent || !refused,
      );
    }
  }

  /**
   * One logical request with the retry policy. `retryPost` marks POSTs that
   * are safe to repeat; `adopt` looks a create up by its natural key after an
   * ambiguous failure (returns the record if the first attempt created it).
   */
  async request(method: string, path: string, body?: unknown, opts: RequestOptions = {}): Promise<Attempt> {
    return this.limiter.run(async () => {
      const safe = method !== "POST" || opts.retryPost === true;
      // Whether an earlier attempt may have reached the server and acted.
      let mayHaveActed = false;
      for (let attempt = 0; ; attempt++) {
        // After a 401 every request with this token fails: do not send more of them.
        if (this.refusedWith) throw new PimctlError("api_unauthorized", this.refusedWith.message, { request: this.info(method, path, 401) });
        const outcome = await this.attempt(method, path, body, opts, mayHaveActed);
        if ("answer" in outcome) return outcome.answer;
        const { failure, ambiguous } = outcome;
        if (ambiguous) mayHaveActed = true;
        if (attempt >= this.policy.max || this.retriesStopped) throw failure;
        if (!safe && ambiguous) {
          // The first attempt may have created the record: look before trying again.
          if (!opts.adopt) throw failure;
          const existing = await this.withRetries(opts.adopt);
          if (existing !== undefined) {
            this.counters.adopted++;
            this.log?.(`${method} ${path} adopted the record the lost attempt created`);
            return { status: 200, headers: {}, text: JSON.stringify(existing) };
          }
        }
        this.counters.retries++;
        await new Promise((r) => setTimeout(r, backoffMs(attempt + 1, this.policy, this.random, outcome.retryAfter)));
      }
    });
  }

  /**
   * One attempt: an answer to return (what the options accept), or a failure worth retrying, with
   * whether the server may have acted on it and its Retry-After. A failure not worth retrying is thrown.
   */
  private async attempt(method: string, path: string, body: unknown, opts: RequestOptions, mayHaveActed: boolean): Promise<AttemptOutcome> {
    let result: Attempt;
    try {
      result = await this.once(method, path, body);
    } catch (e) {
      if (!(e instanceof TransportError)) throw e;
      return { failure: new PimctlError(e.code, e.message, { request: this.info(method, path), details: this.connectionHelp(e.code) }), ambiguous: e.sent };
    }
    if (result.status < 400) return { answer: result };
    if (result.status === 404 && opts.allow404) return { answer: result };
    if (result.status === 422 && opts.allow422) return { answer: result };
    if (opts.answerAll && result.status !== 401 && result.status !== 429 && result.status < 500) return { answer: result };
    // A retried DELETE that finds nothing: the attempt whose answer was lost deleted it.
    if (result.status === 404 && method === "DELETE" && mayHaveActed) {
      this.log?.(`${method} ${path} 404 on retry: the earlier attempt deleted it`);
      return { answer: { status: 204, headers: {}, text: "" } };
    }
    const failure = this.httpError(method, path, result);
    if (result.status === 401) this.refusedWith = failure;
    const retryable = result.status === 429 || result.status >= 500;
    if (!retryable) throw failure;
    const ra = result.headers["retry-after"];
    const retryAfter = Array.isArray(ra) ? ra[0] : ra;
    // A 429 was refused before the server acted.
    return { failure, ambiguous: result.status !== 429, ...(retryAfter !== undefined ? { retryAfter } : {}) };
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

  // ------------------------------------- what lists.ts and the kinds (kinds/) build on

  info(method: string, path: string, status?: number) {
    return { method, path: path.split("?")[0]!, tenant: this.tenant, ...(status !== undefined ? { status } : {}) };
  }

  httpError(method: string, path: string, r: Attempt): PimctlError {
    return errorForStatus({ tenant: this.tenant, baseUrl: this.baseUrl, request: this.info(method, path, r.status) }, r);
  }

  parse<R>(method: string, path: string, r: Attempt, key?: string): R {
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

  async get<R>(path: string, key: string): Promise<R> {
    return this.parse<R>("GET", path, await this.request("GET", path), key);
  }

  async send<R>(
    method: "POST" | "PUT",
    path: string,
    body: unknown,
    key: string | undefined,
    opts?: { retryPost?: boolean; adopt?: () => Promise<unknown | undefined> },
  ): Promise<R> {
    return this.parse<R>(method, path, await this.request(method, path, body, opts), key);
  }

  async del(path: string): Promise<void> {
    await this.request("DELETE", path);
  }

  /**
   * Exact-match search. "Nothing found" comes as 404, as 200 with an empty body,
   * `[]`, `null` or `{}`: all mean no match. A list answer is searched for the
   * exact name; a record whose name differs (a case-insensitive or fuzzy service)
   * is not a match.
   */
  async search<R extends { name?: string }>(path: string, name: string, key: string): Promise<R | null> {
    const r = await this.request("POST", path, { name }, { retryPost: true, allow404: true });
    if (r.status === 404 || !r.text.trim()) return null;
    const data = this.parse<unknown>("POST", path, r);
    const inner = data !== null && typeof data === "object" && !Array.isArray(data) && key in data ? (data as Record<string, unknown>)[key] : data;
    const candidates = Array.isArray(inner) ? inner : inner !== null && typeof inner === "object" && "id" in inner ? [inner] : [];
    return (candidates as R[]).find((c) => c.name === name) ?? null;
  }

  /** Adoption by exact name: the search answer only when its name is identical, else the full list. */
  async adoptByName<R extends { name?: string }>(
    name: string | undefined,
    search: (n: string) => Promise<R | null>,
    list: () => Promise<R[]>,
  ): Promise<R | undefined> {
    if (!name) return undefined;
    const hit = await search(name);
    if (hit && hit.name === name) return hit;
    return (await list()).find((r) => r.name === name);
  }

  /** For set-assignments.ts: a DELETE whose 404 is an answer, not an error. */
  async deleteAllowing404(path: string): Promise<number> {
    return (await this.request("DELETE", path, undefined, { allow404: true })).status;
  }

  async ping(): Promise<{ time: string }> {
    return this.parse("GET", "/ping", await this.request("GET", "/ping"));
  }

  /**
   * One GET of an export file (kinds/exports.ts follows its redirects and waits): on the
   * tenant's own origin with the token, anywhere else without it.
   */
  async download(url: URL, own: boolean): Promise<{ status: number; headers: Record<string, string | string[] | undefined>; buf: Uint8Array }> {
    const headers: Record<string, string> = own ? { authorization: `Bearer ${this.token}` } : {};
    return this.limiter.run(async () => {
      this.counters.requests++;
      const t0 = Date.now();
      const r = own
        ? await this.pool.request({
            origin: this.origin,
            method: "GET",
            path: url.pathname + url.search,
            headers,
            headersTimeout: this.timeoutMs,
            bodyTimeout: this.timeoutMs,
          })
        : await undiciRequest(url, {
            method: "GET",
            headers,
            headersTimeout: this.timeoutMs,
            bodyTimeout: this.timeoutMs,
            ...(this.proxy ? { dispatcher: this.pool } : {}),
          });
      const buf = new Uint8Array(await r.body.arrayBuffer());
      this.counters.bytesIn += buf.byteLength;
      this.log?.(`GET ${own ? url.pathname : `${url.origin}${url.pathname}`} ${r.statusCode}`);
      // The tenant's own file below its base when it is there, else the whole address (a bundle redacts its query).
      const where = own && url.pathname.startsWith(this.basePath) ? url.pathname.slice(this.basePath.length) + url.search : url.href;
      const text = Buffer.from(buf.subarray(0, DOWNLOAD_TEXT_BYTES)).toString("utf8");
      const bytes = buf.byteLength > DOWNLOAD_TEXT_BYTES ? buf.byteLength : undefined;
      this.onExchange?.(
        exchangeOf({ t0, method: "GET", path: where, headers: {} }, { status: r.statusCode, headers: r.headers, text, ...(bytes ? { bytes } : {}) }),
      );
      return { status: r.statusCode, headers: r.headers, buf };
    });
  }
}
