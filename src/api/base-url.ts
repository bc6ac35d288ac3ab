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
