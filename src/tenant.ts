/**
 * From config to a connected client: which tenant, where it is, which token.
 * The only place that turns a tenant's config into a base URL and a client.
 */
import { buildBaseUrl, createClient, resolveToken, type PimClient } from "./api/client.js";
import type { Config, TenantConfig } from "./config/index.js";
import { PimctlError } from "./errors.js";
import { pickTenant } from "./config/select.js";
import type { ExchangeHook } from "./api/exchange.js";

export { pickTenant };

export interface ConnectOptions {
  env: NodeJS.ProcessEnv;
  parallelism?: number;
  logHttp?: (line: string) => void;
  timeoutMs?: number;
  /** Told of every HTTP exchange, without the token. */
  onExchange?: ExchangeHook;
}

export interface Connection {
  name: string;
  tenant: TenantConfig;
  baseUrl: string;
  api: PimClient;
}

/** base_url as given, or url_template (tenant's, else the config's) filled with hash and region. */
export function tenantBaseUrl(config: Config, name: string, tenant: TenantConfig): string {
  const template = tenant.url_template ?? config.url_template;
  if (!tenant.base_url && (!tenant.hash || !template)) {
    throw new PimctlError("config", `tenant "${name}" needs base_url, or hash and region with a url_template`);
  }
  return buildBaseUrl({
    ...(tenant.base_url ? { baseUrl: tenant.base_url } : {}),
    ...(tenant.hash ? { hash: tenant.hash } : {}),
    ...(tenant.region ? { region: tenant.region } : {}),
    ...(template ? { urlTemplate: template } : {}),
  });
}

export async function connect(config: Config, name: string | undefined, opts: ConnectOptions): Promise<Connection> {
  const picked = pickTenant(config, name);
  const baseUrl = tenantBaseUrl(config, picked.name, picked.tenant);
  const token = await resolveToken(
    {
      ...(picked.tenant.token_env ? { tokenEnv: picked.tenant.token_env } : {}),
      ...(picked.tenant.token_file ? { tokenFile: picked.tenant.token_file } : {}),
    },
    opts.env,
  );
  const api = createClient({
    tenant: picked.name,
    baseUrl,
    token,
    parallelism: opts.parallelism ?? picked.tenant.parallelism ?? 8,
    ...(picked.tenant.allow_insecure_http ? { allowInsecureHttp: true } : {}),
    ...(opts.logHttp ? { logHttp: opts.logHttp } : {}),
    ...(opts.timeoutMs ? { timeoutMs: opts.timeoutMs } : {}),
    ...(opts.onExchange ? { onExchange: opts.onExchange } : {}),
    env: opts.env,
  });
  if (api.proxy) opts.logHttp?.(`requests to ${baseUrl} go through the proxy ${api.proxy}`);
  return { name: picked.name, tenant: picked.tenant, baseUrl, api };
}

/**
 * Manifests that use ${variables} need a tenant. When none is chosen (several
 * are configured and --tenant is missing), that is the one problem to report,
 * first, instead of one "not defined" error per ${} use.
 */
export function tenantProblemFirst(config: Config, tenantChosen: boolean, errors: PimctlError[]): PimctlError[] {
  if (tenantChosen) return errors;
  const uses = errors.filter((e) => e.code === "undefined_variable");
  if (!uses.length) return errors;
  const names = Object.keys(config.tenants).sort();
  const first = uses[0]!.location;
  const problem = new PimctlError(
    "usage",
    names.length
      ? `the manifests use \${variables} (${uses.length} use${uses.length === 1 ? "" : "s"}), whose values come from a tenant: name one with ` +
          `--tenant (configured: ${names.join(", ")})`
      : `the manifests use \${variables} (${uses.length} use${uses.length === 1 ? "" : "s"}), but no tenant is ` +
          `configured${config.file ? ` in ${config.file}` : ""}: add one with its variables: under tenants:`,
    { details: first ? [`first use: ${first.file}:${first.line}:${first.column}`] : [] },
  );
  // Alone, so it is what a person reads first: the other checks ran without the tenant's values.
  const others = errors.length - uses.length;
  if (others)
    problem.details.push(`${others} more problem${others === 1 ? "" : "s"} found without a tenant: run again with --tenant to see them with its values`);
  return [problem];
}
