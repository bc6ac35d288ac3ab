/** Checks of pimctl.yaml that keep a token out of it: none written as a value, none inside a URL. */
import { PimctlError } from "../errors.js";
import { pointer, type ParsedYaml } from "../manifest/yaml.js";
import { fillUrlTemplate, hasCredentials, redactUrl } from "../api/base-url.js";
import type { TenantConfig } from "./types.js";

/**
 * Credentials in any value that becomes a tenant's URL: base_url, the
 * url_templates, and hash and region as filled into their template (a hash
 * "user:pass@host" makes a URL with credentials). Each is refused with the same
 * message, at its own line; the URL is printed redacted.
 */
export function credentialErrors(data: Record<string, unknown>, parsed: ParsedYaml): PimctlError[] {
  const out: PimctlError[] = [];
  const refuse = (at: string[], label: string, url: string) =>
    out.push(
      new PimctlError(
        "config",
        `${label} must not hold credentials (${redactUrl(url)}); name the token's environment variable with token_env, or a file with token_file`,
        {
          location: parsed.at(pointer(at)),
        },
      ),
    );
  // A token in a query string (?token=...) travels as far as a password in the URL: into saved plans and the ledger.
  const refuseQuery = (at: string[], label: string, url: string) => {
    let u: URL | undefined;
    try {
      u = new URL(url);
    } catch {
      return;
    }
    if (u.search || u.hash) {
      out.push(
        new PimctlError(
          "config",
          `${label} must not have a query or fragment (${redactUrl(url).replace(/[?#].*$/, "?...")}): ` +
            "a base URL is scheme, host, port and path; a token goes in token_env or token_file",
          { location: parsed.at(pointer(at)) },
        ),
      );
    }
  };
  const topTemplate = typeof data.url_template === "string" ? data.url_template : undefined;
  if (topTemplate && hasCredentials(topTemplate)) refuse(["url_template"], "url_template", topTemplate);
  for (const [name, t] of Object.entries((data.tenants ?? {}) as Record<string, TenantConfig>)) {
    if (!t || typeof t !== "object") continue;
    for (const key of ["base_url", "url_template"] as const) {
      const url = t[key];
      if (typeof url === "string" && hasCredentials(url)) refuse(["tenants", name, key], `tenant "${name}": ${key}`, url);
      else if (typeof url === "string" && key === "base_url") refuseQuery(["tenants", name, key], `tenant "${name}": ${key}`, url);
    }
    const template = t.url_template ?? topTemplate;
    if (t.base_url || typeof t.hash !== "string" || typeof template !== "string" || hasCredentials(template)) continue;
    const url = fillUrlTemplate(template, t.hash, typeof t.region === "string" ? t.region : undefined);
    if (hasCredentials(url)) {
      const key = t.hash.includes("@") || typeof t.region !== "string" ? "hash" : "region";
      refuse(["tenants", name, key], `tenant "${name}": ${key}`, url);
    }
  }
  return out;
}
