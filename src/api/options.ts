/** What a client is built from (a tenant's config), what it counts, and where its token comes from. */
import { readFile } from "node:fs/promises";
import { PimctlError } from "../errors.js";
import { fillUrlTemplate, normaliseBaseUrl } from "./base-url.js";
import type { RetryPolicy } from "./retry.js";
import type { ExchangeHook } from "./exchange.js";

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
  /** Told of every HTTP exchange, without the token (pimctl doctor's evidence, a support bundle). */
  onExchange?: ExchangeHook;
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

export const DEFAULT_PAGE_LIMIT = 1000;
/**
 * The changelog page size asked for first: its entries are small, and a warm changelog refresh
 * after a large apply meets thousands of them at one second. The document names no maximum
 * (a 422 steps down; a tenant that clamps silently just sends shorter pages).
 */
export const CHANGELOG_PAGE_LIMIT = 10_000;

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
