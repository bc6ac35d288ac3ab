/**
 * What a support bundle must never carry: tokens (the environment variables and files the config
 * names, whatever the service echoes of them), cookies, signed addresses, credentials in URLs,
 * and values of secret-looking variables. Headers and query strings are cleaned by name, and then
 * every string of the bundle is scrubbed of each secret value known, wherever it shows up.
 */
import { readFile } from "node:fs/promises";
import { redactUrl } from "../api/base-url.js";
import type { Config } from "../config/index.js";

export const REDACTED = "[redacted]";

/** Headers dropped whole: credentials and session state, by name. */
const SECRET_HEADER = /authorization|cookie|token|secret|signature|password|credential|api[-_]?key|session/i;
/** Query parameters whose value is replaced: signed addresses of object storage, tokens in links. */
const SECRET_PARAM = /token|signature|sig$|secret|key|password|credential|auth|expires/i;
/** Environment variables whose value is a secret whatever the config says. */
const SECRET_ENV = /token|secret|password|passwd|credential|api_?key|hmac|_key$/i;
/** Shorter values are not scrubbed: "1" would blank every digit of the bundle. */
const MIN_SECRET_LENGTH = 4;

export function cleanHeaders(h: Record<string, string | string[] | undefined>): Record<string, string | string[]> {
  const out: Record<string, string | string[]> = {};
  for (const [k, v] of Object.entries(h).sort(([a], [b]) => a.localeCompare(b))) {
    if (v === undefined || SECRET_HEADER.test(k)) continue;
    out[k] = k.toLowerCase() === "location" ? (Array.isArray(v) ? v.map(redactAddress) : redactAddress(v)) : v;
  }
  return out;
}

/** A path or an address with its secret-looking query values replaced and any user:password@ removed. */
export function redactAddress(address: string): string {
  const q = address.indexOf("?");
  const base = redactUrl(q < 0 ? address : address.slice(0, q));
  if (q < 0) return base;
  const params = address
    .slice(q + 1)
    .split("&")
    .map((p) => {
      const [k, ...v] = p.split("=");
      return SECRET_PARAM.test(decodeURIComponent(k ?? "")) && v.length ? `${k}=${REDACTED}` : p;
    });
  return `${base}?${params.join("&")}`;
}

/**
 * Every secret value this run could have seen: tokens, token files, secret-looking variables, and
 * `extra` (the session cookies the tenant set), each in every form a service may echo it in.
 */
export async function secretsOf(config: Config | undefined, env: NodeJS.ProcessEnv, extra: Iterable<string> = []): Promise<string[]> {
  const out = new Set<string>();
  const add = (v: string | undefined) => {
    for (const s of [v, v?.trim()]) if (s && s.length >= MIN_SECRET_LENGTH) for (const form of secretForms(s)) out.add(form);
  };
  for (const t of Object.values(config?.tenants ?? {})) {
    if (t.token_env) add(env[t.token_env]);
    if (t.token_file) add(await readFile(t.token_file, "utf8").catch(() => undefined));
  }
  for (const [k, v] of Object.entries(env)) if (SECRET_ENV.test(k)) add(v);
  for (const v of extra) add(v);
  // Longest first: a token that contains another is replaced whole.
  return [...out].sort((a, b) => b.length - a.length);
}

/**
 * The forms a service may echo a secret in: as sent, percent- or form-encoded (in a link, hex in
 * either case), JSON-escaped (PHP's json_encode also writes "/" as "\/"), and each of those quoted
 * as JSON once more (doctor's evidence quotes what the tenant answered).
 */
function secretForms(secret: string): string[] {
  const json = (s: string) => JSON.stringify(s).slice(1, -1);
  const php = (s: string) => json(s).replace(/\//g, "\\/");
  const encoded = [secret, encodeURIComponent(secret), new URLSearchParams({ s: secret }).toString().slice(2)];
  const out = new Set<string>();
  for (const e of [...encoded, ...encoded.map((x) => x.replace(/%[0-9A-F]{2}/g, (h) => h.toLowerCase()))])
    for (const form of [e, json(e), php(e)]) out.add(form).add(json(form));
  return [...out];
}

/** The values of the cookies a Set-Cookie header sets: a session is a credential too. */
export function cookieValues(header: string | string[] | undefined): string[] {
  return [header ?? []].flat().map((c) => c.split(";")[0]!.split("=").slice(1).join("=").trim());
}

/** Every string of a value (keys too) with each secret replaced (the start of one a cut left too), and any `Bearer <x>` cut. */
export function scrub<T>(value: T, secrets: readonly string[]): T {
  const clean = (s: string) => {
    let t = s;
    for (const secret of secrets) if (t.includes(secret)) t = t.split(secret).join(REDACTED);
    return withoutCutSecrets(t, secrets).replace(/\b(Bearer|Basic)\s+[A-Za-z0-9._~+/=%\\-]+/g, `$1 ${REDACTED}`);
  };
  const walk = (v: unknown): unknown => {
    if (typeof v === "string") return clean(v);
    if (Array.isArray(v)) return v.map(walk);
    if (v !== null && typeof v === "object") return Object.fromEntries(Object.entries(v as Record<string, unknown>).map(([k, x]) => [clean(k), walk(x)]));
    return v;
  };
  return walk(value) as T;
}

/**
 * A text with the first characters of a secret replaced where the text was cut: at its end (a body
 * cut to the bundle's size) or before an ellipsis (doctor's evidence quotes an answer cut short).
 * The rest of the secret went with the cut, so replacing whole values cannot see it.
 */
function withoutCutSecrets(text: string, secrets: readonly string[]): string {
  let t = text;
  const cuts = [t.length];
  for (let i = t.indexOf("…"); i >= 0; i = t.indexOf("…", i + 1)) cuts.push(i);
  // From the last cut back: a replacement moves only what follows it.
  for (const end of cuts.sort((a, b) => b - a)) {
    const at = cutSecretAt(t, end, secrets);
    if (at >= 0) t = `${t.slice(0, at)}${REDACTED}${t.slice(end)}`;
  }
  return t;
}

/** Where a secret's first characters (at least MIN_SECRET_LENGTH) run up to `end` of the text; -1 when none does. */
function cutSecretAt(t: string, end: number, secrets: readonly string[]): number {
  for (const secret of secrets) {
    const head = secret.slice(0, MIN_SECRET_LENGTH);
    for (let i = t.indexOf(head, Math.max(0, end - secret.length + 1)); i >= 0 && i + MIN_SECRET_LENGTH <= end; i = t.indexOf(head, i + 1))
      if (secret.startsWith(t.slice(i, end))) return i;
  }
  return -1;
}

/**
 * The config as a bundle shows it: addresses without credentials, token sources named (never
 * read). Variables stay: they are catalogue values, sent to the tenant in the bodies anyway.
 */
export function redactConfig(c: Config): Record<string, unknown> {
  const tenants = Object.fromEntries(
    Object.entries(c.tenants).map(([name, t]) => [
      name,
      {
        ...t,
        ...(t.base_url ? { base_url: redactAddress(t.base_url) } : {}),
        ...(t.url_template ? { url_template: redactAddress(t.url_template) } : {}),
      },
    ]),
  );
  return { ...c, tenants, ...(c.url_template ? { url_template: redactAddress(c.url_template) } : {}) };
}
