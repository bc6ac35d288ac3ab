/**
 * One HTTP exchange as the request core saw it, handed to a recorder (`ClientOptions.onExchange`):
 * what `pimctl doctor` reads its evidence from and what a support bundle keeps. The core builds it
 * without the authorization header, so no recorder ever holds the token it sent.
 */
export interface Exchange {
  /** When the request left (ISO 8601). */
  at: string;
  method: string;
  /** Below the tenant's base URL, query included; the whole address for another host (an export's storage). */
  path: string;
  /** The answer's status; undefined when none came (`error` says why). */
  status?: number;
  /** The transport failure when no answer came: "timeout" or the connection error's code. */
  error?: string;
  ms: number;
  /** The headers sent, never `authorization`. */
  requestHeaders: Record<string, string>;
  requestBody?: string;
  responseHeaders: Record<string, string | string[] | undefined>;
  /** The answer's text (a download's first bytes only: DOWNLOAD_TEXT_BYTES). */
  responseBody: string;
  /** The answer's size in bytes, when the body was cut here. */
  responseBytes?: number;
}

export type ExchangeHook = (x: Exchange) => void;

/** How much of a downloaded file a recorder is given: an export can be the whole catalogue. */
export const DOWNLOAD_TEXT_BYTES = 64 * 1024;

/** An exchange from what the core has at hand when the answer (or the failure) comes. */
export function exchangeOf(
  request: { t0: number; method: string; path: string; headers: Record<string, string>; body?: string | undefined },
  answer: { status?: number; error?: string; headers?: Exchange["responseHeaders"]; text?: string; bytes?: number },
): Exchange {
  return {
    at: new Date(request.t0).toISOString(),
    method: request.method,
    path: request.path,
    ...(answer.status !== undefined ? { status: answer.status } : {}),
    ...(answer.error !== undefined ? { error: answer.error } : {}),
    ms: Date.now() - request.t0,
    requestHeaders: request.headers,
    ...(request.body !== undefined ? { requestBody: request.body } : {}),
    responseHeaders: answer.headers ?? {},
    responseBody: answer.text ?? "",
    ...(answer.bytes !== undefined ? { responseBytes: answer.bytes } : {}),
  };
}
