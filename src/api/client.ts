/**
 * The API v1 client: the only code that knows paths, envelope keys and status
 * codes. One keep-alive pool and one concurrency limit per tenant, shared by
 * every caller; retries only where they are safe; a create whose answer was
 * lost is looked up by its natural key and adopted instead of duplicated.
 */
import { readFile } from "node:fs/promises";
import { Pool, errors as undiciErrors } from "undici";
import { PimctlError, type ErrorCode } from "../errors.js";
import type * as T from "./types.js";

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
  if (o.baseUrl) return o.baseUrl.replace(/\/+$/, "");
  if (o.hash && o.urlTemplate) return o.urlTemplate.replace(/\{hash\}/g, o.hash).replace(/\{region\}/g, o.region ?? "").replace(/\/+$/, "");
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

class Semaphore {
  private active = 0;
  private readonly waiting: Array<() => void> = [];
  constructor(private readonly limit: number) {}
  async run<R>(fn: () => Promise<R>): Promise<R> {
    if (this.active >= this.limit) await new Promise<void>((r) => this.waiting.push(r));
    this.active++;
    try {
      return await fn();
    } finally {
      this.active--;
      this.waiting.shift()?.();
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

export class PimClient implements T.PimApi {
  readonly tenant: string;
  readonly baseUrl: string;
  private readonly basePath: string;
  private readonly pool: Pool;
  private readonly limiter: Semaphore;
  private readonly token: string;
  private readonly policy: RetryPolicy;
  private readonly timeoutMs: number;
  private readonly random: () => number;
  private readonly log: ((line: string) => void) | undefined;
  readonly pageLimit: number;
  private readonly counters: ClientStats = { requests: 0, byMethod: {}, byRoute: {}, retries: 0, adopted: 0, bytesIn: 0, bytesOut: 0, timeMs: 0 };

  constructor(opts: ClientOptions) {
    this.tenant = opts.tenant;
    this.baseUrl = buildBaseUrl(opts);
    let url: URL;
    try {
      url = new URL(this.baseUrl);
    } catch {
      throw new PimctlError("config", `tenant "${opts.tenant}": base URL ${this.baseUrl} is not a valid URL`);
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
    this.pool = new Pool(url.origin, { connections: parallelism, keepAliveTimeout: 30_000, pipelining: 1 });
    this.limiter = new Semaphore(parallelism);
    this.token = opts.token;
    this.policy = { ...DEFAULT_RETRIES, ...opts.retries };
    this.timeoutMs = opts.timeoutMs ?? 30_000;
    this.random = opts.random ?? Math.random;
    this.log = opts.logHttp;
    this.pageLimit = opts.pageLimit ?? DEFAULT_PAGE_LIMIT;
  }

  stats(): ClientStats {
    return structuredClone(this.counters);
  }

  async close(): Promise<void> {
    await this.pool.close().catch(() => undefined);
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
      throw new TransportError(timeout ? "api_timeout" : "api_connection", timeout ? `no answer within ${this.timeoutMs} ms` : `connection failed (${err.code ?? err.message ?? "error"})`, sent || !refused);
    }
  }

  /**
   * One logical request with the retry policy. `retryPost` marks POSTs that
   * are safe to repeat; `adopt` looks a create up by its natural key after an
   * ambiguous failure (returns the record if the first attempt created it).
   */
  private async request(method: string, path: string, body?: unknown, opts: { retryPost?: boolean; adopt?: () => Promise<unknown | undefined>; allow404?: boolean } = {}): Promise<Attempt> {
    return this.limiter.run(async () => {
      const safe = method !== "POST" || opts.retryPost === true;
      for (let attempt = 0; ; attempt++) {
        let result: Attempt | undefined;
        let failure: PimctlError | undefined;
        let ambiguous = false;
        let retryAfter: string | undefined;
        try {
          result = await this.once(method, path, body);
        } catch (e) {
          if (!(e instanceof TransportError)) throw e;
          failure = new PimctlError(e.code, e.message, { request: this.info(method, path) });
          ambiguous = e.sent;
        }
        if (result) {
          if (result.status < 400) return result;
          if (result.status === 404 && opts.allow404) return result;
          failure = this.httpError(method, path, result);
          const retryable = result.status === 429 || result.status >= 500;
          if (!retryable) throw failure;
          ambiguous = result.status !== 429; // a 429 was refused before the server acted
          const ra = result.headers["retry-after"];
          retryAfter = Array.isArray(ra) ? ra[0] : ra;
        }
        if (attempt >= this.policy.max) throw failure!;
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
        if (!transient || attempt >= this.policy.max) throw e;
        this.counters.retries++;
        await new Promise((r) => setTimeout(r, backoffMs(attempt + 1, this.policy, this.random)));
      }
    }
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

  private async send<R>(method: "POST" | "PUT", path: string, body: unknown, key: string | undefined, opts?: { retryPost?: boolean; adopt?: () => Promise<unknown | undefined> }): Promise<R> {
    return this.parse<R>(method, path, await this.request(method, path, body, opts), key);
  }

  private async del(path: string): Promise<void> {
    await this.request("DELETE", path);
  }

  private async search<R>(path: string, name: string, key: string): Promise<R | null> {
    const r = await this.request("POST", path, { name }, { retryPost: true });
    if (!r.text.trim()) return null;
    const data = JSON.parse(r.text) as Record<string, unknown>;
    return (data[key] as R | undefined) ?? null;
  }

  private async page<R>(path: string, key: string, query: Record<string, string | number | undefined>): Promise<T.Page<R>> {
    const q = new URLSearchParams();
    for (const [k, v] of Object.entries(query)) if (v !== undefined) q.set(k, String(v));
    const full = `${path}?${q.toString()}`;
    const r = await this.request("GET", full);
    const data = this.parse<Record<string, unknown>>("GET", full, r);
    const items = data[key];
    if (!Array.isArray(items) || !data.meta) throw new PimctlError("api_protocol", `the page has no "${key}" list or meta`, { request: this.info("GET", path, r.status) });
    return { items: items as R[], links: data.links as T.PageLinks, meta: data.meta as T.PageMeta };
  }

  /** Every page: the first tells last_page, the rest are fetched concurrently. */
  private async all<R>(path: string, key: string, query: Record<string, string | number | undefined>): Promise<R[]> {
    const first = await this.page<R>(path, key, { ...query, page: 1 });
    const rest = await Promise.all(
      Array.from({ length: Math.max(0, first.meta.last_page - 1) }, (_, i) => this.page<R>(path, key, { ...query, page: i + 2 })),
    );
    return [first, ...rest].flatMap((p) => p.items);
  }

  // ---------------------------------------------------------------- API

  async ping(): Promise<{ time: string }> {
    return this.parse("GET", "/ping", await this.request("GET", "/ping"));
  }

  listAttributes(versionId?: number): Promise<T.ApiAttribute[]> {
    return this.get(versionId ? `/attributes/version/${versionId}` : "/attributes", "attributes");
  }
  getAttribute(id: number, versionId?: number): Promise<T.ApiAttribute> {
    return this.get(versionId ? `/attributes/${id}/version/${versionId}` : `/attributes/${id}`, "attribute");
  }
  createAttribute(body: T.AttributeWrite): Promise<T.ApiAttribute> {
    return this.send("POST", "/attributes", body, "attribute", { adopt: async () => (body.name ? ((await this.searchAttribute(body.name)) ?? undefined) : undefined) });
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
    return this.get(versionId ? `/attributes/${attributeId}/type_values/version/${versionId}` : `/attributes/${attributeId}/type_values`, "attribute_type_values");
  }
  getTypeValue(attributeId: number, id: number, versionId?: number): Promise<T.ApiTypeValue> {
    return this.get(versionId ? `/attributes/${attributeId}/type_values/${id}/version/${versionId}` : `/attributes/${attributeId}/type_values/${id}`, "attribute_type_value");
  }
  createTypeValue(attributeId: number, body: T.TypeValueWrite): Promise<T.ApiTypeValue> {
    return this.send("POST", `/attributes/${attributeId}/type_values`, body, "attribute_type_value", {
      adopt: async () => (await this.listTypeValues(attributeId)).find((v) => v.value === body.value),
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
    return this.get("/attribute_sets", "attribute_sets");
  }
  getAttributeSet(id: number): Promise<T.ApiAttributeSet> {
    return this.get(`/attribute_sets/${id}`, "attribute_set");
  }
  createAttributeSet(body: T.AttributeSetWrite): Promise<T.ApiAttributeSet> {
    return this.send("POST", "/attribute_sets", body, "attribute_set", { adopt: async () => (body.name ? ((await this.searchAttributeSet(body.name)) ?? undefined) : undefined) });
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
    const path = `/attribute_sets/${setId}/attributes`;
    const r = await this.request("GET", path, undefined, { allow404: true });
    if (r.status === 404) return [];
    return this.parse("GET", path, r, "attribute_set_attributes");
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
  removeAttributeFromSet(setId: number, assignmentId: number): Promise<void> {
    return this.del(`/attribute_sets/${setId}/attributes/${assignmentId}`);
  }

  listBlocks(): Promise<T.ApiBlock[]> {
    return this.get("/blocks", "blocks");
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
    return this.get(`/blocks/${blockId}/assets`, "block_assets");
  }
  getBlockAsset(blockId: number, id: number): Promise<T.ApiBlockAsset> {
    return this.get(`/blocks/${blockId}/assets/${id}`, "block_asset");
  }

  listBrands(opts: { versionId?: number; limit?: number } = {}): Promise<T.ApiBrand[]> {
    return this.all("/brands", "brands", { limit: opts.limit ?? this.pageLimit, version: opts.versionId || undefined });
  }
  listBrandsPage(opts: { page: number; versionId?: number; limit?: number }): Promise<T.Page<T.ApiBrand>> {
    return this.page("/brands", "brands", { page: opts.page, limit: opts.limit ?? this.pageLimit, version: opts.versionId || undefined });
  }
  getBrand(id: number, versionId?: number): Promise<T.ApiBrand> {
    return this.get(versionId ? `/brands/${id}/version/${versionId}` : `/brands/${id}`, "brand");
  }
  createBrand(body: T.BrandWrite): Promise<T.ApiBrand> {
    return this.send("POST", "/brands", body, "brand", { adopt: async () => (body.name ? ((await this.searchBrand(body.name)) ?? undefined) : undefined) });
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
    return this.get(`/brands/${brandId}/assets`, "brand_assets");
  }
  getBrandAsset(brandId: number, id: number): Promise<T.ApiAsset> {
    return this.get(`/brands/${brandId}/assets/${id}`, "brand_asset");
  }
  /** Not retried after an ambiguous failure: an asset has no natural key the API returns. */
  createBrandAsset(brandId: number, body: T.AssetWrite): Promise<T.ApiAsset> {
    return this.send("POST", `/brands/${brandId}/assets`, body, "brand_asset");
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
  listBrandAttributes(brandId: number): Promise<T.ApiBrandAttribute[]> {
    return this.get(`/brands/${brandId}/attributes`, "brand_attributes");
  }
  getBrandAttribute(brandId: number, attributeId: number): Promise<T.ApiBrandAttribute[]> {
    return this.get(`/brands/${brandId}/attributes/${attributeId}`, "brands_attributes");
  }
  createBrandAttribute(brandId: number, body: T.BrandAttributeWrite): Promise<T.ApiBrandAttribute> {
    return this.send("POST", `/brands/${brandId}/attributes`, body, "brand_attributes", {
      adopt: async () => {
        const found = (await this.getBrandAttribute(brandId, body.attribute_id))[0];
        return found?.values.some((v) => v.version_id === body.version_id) ? found : undefined;
      },
    });
  }
  updateBrandAttributeValue(brandId: number, attributeId: number, valueId: number, body: T.BrandAttributeWrite): Promise<T.ApiBrandAttribute> {
    return this.send("PUT", `/brands/${brandId}/attributes/${attributeId}/values/${valueId}`, body, "brand_attributes");
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
    return this.all("/categories", "categories", { limit: opts.limit ?? this.pageLimit, withAttributes: opts.withAttributes ? "true" : undefined });
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
        const parent = body.parent_id === 0 ? null : body.parent_id;
        return (await this.listCategories()).find((c) => (c.parent_id === 0 ? null : c.parent_id) === parent && c.name === body.name);
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
    return this.get(`/categories/${categoryId}/assets`, "category_assets");
  }
  getCategoryAsset(categoryId: number, id: number): Promise<T.ApiAsset> {
    return this.get(`/categories/${categoryId}/assets/${id}`, "category_asset");
  }
  createCategoryAsset(categoryId: number, body: T.AssetWrite): Promise<T.ApiAsset> {
    return this.send("POST", `/categories/${categoryId}/assets`, body, "category_asset");
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
  async listChangelogs(opts: { limit?: number; entityType?: T.ApiChangelog["entity_type"]; updatedAt?: string } = {}): Promise<T.ApiChangelog[]> {
    const q = new URLSearchParams();
    if (opts.limit) q.set("limit", String(opts.limit));
    if (opts.entityType) q.set("entity_type", opts.entityType);
    if (opts.updatedAt) q.set("updated_at", opts.updatedAt);
    const out: T.ApiChangelog[] = [];
    let path: string | undefined = `/changelogs${q.size ? `?${q.toString()}` : ""}`;
    const base = new URL(this.baseUrl);
    while (path) {
      const r = await this.request("GET", path);
      const data: { changelogs?: unknown; links?: T.PageLinks } = this.parse("GET", path, r);
      if (!Array.isArray(data.changelogs)) throw new PimctlError("api_protocol", 'the answer has no "changelogs" list', { request: this.info("GET", path, r.status) });
      out.push(...(data.changelogs as T.ApiChangelog[]));
      const next: URL | undefined = data.links?.next ? new URL(data.links.next) : undefined;
      path = next && next.origin === base.origin && next.pathname.startsWith(this.basePath) ? next.pathname.slice(this.basePath.length) + next.search : undefined;
    }
    return out;
  }
  getChangelog(id: number): Promise<T.ApiChangelog> {
    return this.get(`/changelogs/${id}`, "changelogs");
  }

  listChannels(): Promise<T.ApiChannel[]> {
    return this.get("/channels", "channels");
  }
  getChannel(id: number): Promise<T.ApiChannel> {
    return this.get(`/channels/${id}`, "channel");
  }

  listDisplayGroups(): Promise<T.ApiDisplayGroup[]> {
    return this.get("/display-groups", "display_groups");
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
  async downloadExport(fileUrl: string): Promise<Uint8Array> {
    const url = new URL(fileUrl);
    const base = new URL(this.baseUrl);
    if (url.origin !== base.origin) throw new PimctlError("api_protocol", `the export file is on another host (${url.host}); refusing to send the tenant's token there`);
    return this.limiter.run(async () => {
      const res = await this.pool.request({ method: "GET", path: url.pathname + url.search, headers: { authorization: `Bearer ${this.token}` }, headersTimeout: this.timeoutMs, bodyTimeout: this.timeoutMs });
      const buf = new Uint8Array(await res.body.arrayBuffer());
      this.counters.requests++;
      this.counters.bytesIn += buf.byteLength;
      this.log?.(`GET ${url.pathname} ${res.statusCode}`);
      if (res.statusCode >= 400) throw this.httpError("GET", url.pathname, { status: res.statusCode, headers: res.headers, text: Buffer.from(buf).toString("utf8") });
      return buf;
    });
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
