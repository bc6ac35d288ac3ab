/**
 * One HTTP attempt as the request core sees it: its answer, the transport
 * failures that may have reached the server, what a TLS failure means, and the
 * route an answer is counted under.
 */
export interface Attempt {
  status: number;
  headers: Record<string, string | string[] | undefined>;
  text: string;
}

/** Failures where the server may have acted before the connection broke. */
export class TransportError extends Error {
  constructor(
    readonly code: "api_timeout" | "api_connection",
    message: string,
    readonly sent: boolean,
  ) {
    super(message);
  }
}

/** TLS verification failures: never transient, and the fix is the CA, so say so (retrying would only repeat it). */
export function untrustedCertificate(code: string | undefined): string | undefined {
  const codes = [
    "UNABLE_TO_VERIFY_LEAF_SIGNATURE",
    "SELF_SIGNED_CERT_IN_CHAIN",
    "DEPTH_ZERO_SELF_SIGNED_CERT",
    "UNABLE_TO_GET_ISSUER_CERT_LOCALLY",
    "UNABLE_TO_GET_ISSUER_CERT",
    "CERT_UNTRUSTED",
  ];
  if (code !== undefined && codes.includes(code)) {
    return (
      `the tenant's TLS certificate is not trusted (${code}): if a private CA or a TLS-inspecting proxy signs it, point NODE_EXTRA_CA_CERTS ` +
      `at that CA's PEM file`
    );
  }
  if (code === "CERT_HAS_EXPIRED" || code === "ERR_TLS_CERT_ALTNAME_INVALID") return `the tenant's TLS certificate is not valid for this address (${code})`;
  return undefined;
}

/** "/brands/12/assets/3" -> "/brands/:id/assets/:id" (for accounting without ids). */
export function routeOf(path: string): string {
  return path
    .split("?")[0]!
    .split("/")
    .map((s) => (/^\d+$/.test(s) ? ":id" : s))
    .join("/");
}
