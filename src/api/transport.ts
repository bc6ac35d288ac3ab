/**
 * How requests leave the machine. Directly: one keep-alive pool per tenant.
 * Behind a corporate proxy: HTTPS_PROXY / HTTP_PROXY / NO_PROXY (either case)
 * are honoured the way curl and most tools read them, through undici's
 * EnvHttpProxyAgent, which tunnels with CONNECT: the proxy sees the host and
 * port, never the request's headers, so the tenant token is not sent to it.
 * Custom CAs (a TLS-inspecting proxy, a private tenant) come from
 * NODE_EXTRA_CA_CERTS, which Node reads at start-up.
 */
import { EnvHttpProxyAgent, Pool, type Dispatcher } from "undici";

export interface ProxySettings {
  httpProxy?: string;
  httpsProxy?: string;
  noProxy?: string;
}

/** The proxy variables of an environment; lower case wins, as curl has it. */
export function proxySettings(env: NodeJS.ProcessEnv): ProxySettings | undefined {
  const pick = (name: string): string | undefined => (env[name.toLowerCase()] ?? env[name.toUpperCase()])?.trim() || undefined;
  const httpProxy = pick("http_proxy");
  const httpsProxy = pick("https_proxy");
  const noProxy = pick("no_proxy");
  if (!httpProxy && !httpsProxy) return undefined;
  return { ...(httpProxy ? { httpProxy } : {}), ...(httpsProxy ? { httpsProxy } : {}), ...(noProxy ? { noProxy } : {}) };
}

/** A proxy address for logs: credentials in it are never printed. */
export function redactProxy(url: string): string {
  return url.replace(/\/\/[^/@]*@/, "//***@");
}

export interface Transport {
  /** Sends requests; give `origin` with every request (a proxy agent serves many origins). */
  dispatcher: Dispatcher;
  /** The proxy requests to this origin go through, redacted; undefined when direct. */
  via: string | undefined;
}

export function createTransport(origin: URL, connections: number, env: NodeJS.ProcessEnv): Transport {
  const poolOptions = { connections, keepAliveTimeout: 30_000, pipelining: 1 };
  const proxy = proxySettings(env);
  if (!proxy) return { dispatcher: new Pool(origin.origin, poolOptions), via: undefined };
  const chosen = origin.protocol === "https:" ? (proxy.httpsProxy ?? proxy.httpProxy) : proxy.httpProxy;
  return {
    dispatcher: new EnvHttpProxyAgent({ ...proxy, ...poolOptions }),
    via: chosen && !bypassed(origin, proxy.noProxy) ? redactProxy(chosen) : undefined,
  };
}

/** NO_PROXY as EnvHttpProxyAgent reads it (hosts, .domains, host:port, *), for saying whether a proxy is used. */
function bypassed(origin: URL, noProxy: string | undefined): boolean {
  if (!noProxy) return false;
  const host = origin.hostname.toLowerCase();
  const port = origin.port || (origin.protocol === "https:" ? "443" : "80");
  return noProxy
    .split(/[,\s]+/)
    .filter(Boolean)
    .some((entry) => {
      if (entry === "*") return true;
      const [h, p] = entry
        .toLowerCase()
        .replace(/^\*?\./, ".")
        .split(":");
      if (p && p !== port) return false;
      return h!.startsWith(".") ? host.endsWith(h!) || host === h!.slice(1) : host === h;
    });
}
