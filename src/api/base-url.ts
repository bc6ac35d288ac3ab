/**
 * A tenant's base URL as text: filled from a template, and written one way.
 * No I/O and no client: the config, the ledger and saved plans use these
 * without loading the HTTP stack.
 */

/** A url_template with the tenant's hash and region in it, as written (not yet normalised). */
export function fillUrlTemplate(template: string, hash: string, region: string | undefined): string {
  return template.replace(/\{hash\}/g, hash).replace(/\{region\}/g, region ?? "");
}

/**
 * A base URL in one spelling: half of a tenant's identity (saved plans and the
 * ledger compare it), and the form every message prints. Scheme and host in
 * lower case, the default port dropped, no trailing slash, and never a user
 * name or password: the config refuses them, and what is not in the URL cannot
 * reach a plan file, the ledger or an error. Text that is no URL keeps its
 * spelling (without credentials) for the client to refuse.
 */
export function normaliseBaseUrl(url: string): string {
  let u: URL;
  try {
    u = new URL(url);
  } catch {
    return url.replace(/(\/\/)[^/]*@/, "$1").replace(/\/+$/, "");
  }
  return `${u.protocol}//${u.host}${u.pathname.replace(/\/+$/, "")}${u.search}`;
}

/**
 * The URL with any user name and password replaced, for messages: through the
 * URL parser where it parses (it reads `http:/u:p@host` and `http:\\u:p@host`
 * as credentials too), else everything from the scheme to the last "@" (a text
 * that is no URL may still hold a password, and may hold a "/" inside it).
 */
export function redactUrl(url: string): string {
  try {
    const u = new URL(url);
    if (u.username || u.password) {
      u.username = "";
      u.password = "";
      return u.href.replace(/^([a-z][a-z0-9+.-]*:\/\/)/i, "$1***@");
    }
    return url;
  } catch {
    return url.replace(/^([a-z][a-z0-9+.-]*:[\\/]*).*@/i, "$1***@");
  }
}

/** A URL with a user name or password in it, in any spelling the URL parser reads; a text that is no URL, with an "@". */
export function hasCredentials(url: string): boolean {
  try {
    const u = new URL(url);
    return u.username !== "" || u.password !== "";
  } catch {
    return url.includes("@");
  }
}
