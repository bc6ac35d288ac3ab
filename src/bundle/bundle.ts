/**
 * A support bundle: one JSON file for a bug report, written by `--bundle FILE` (doctor, plan,
 * apply). pimctl's and Node's versions, the config without tokens or credentials, doctor's
 * readings (the switches: `pimctl emulator --switches FILE` replays them), how the run ended, and
 * its HTTP exchanges (method, path, status, time, headers without authorization or cookies,
 * bodies cut to BODY_BYTES), which `pimctl doctor --replay FILE` sends again to an emulator.
 * Secrets are kept out twice: by name as exchanges are recorded, and by value when the file is
 * written (redact.ts).
 */
import os from "node:os";
import type { Exchange, ExchangeHook } from "../api/exchange.js";
import type { Config } from "../config/index.js";
import { commitFiles } from "../files/atomic-files.js";
import { packageVersion } from "../package.js";
import { jsonText } from "../base/controls.js";
import type { DoctorReport } from "../doctor/types.js";
import { cleanHeaders, cookieValues, redactAddress, redactConfig, scrub, secretsOf } from "./redact.js";

/** Each body is cut to this many characters: the shape of an answer, not a copy of the tenant. */
export const BODY_BYTES = 8192;
/** Bodies are kept for this many exchanges, and for every failed one after. */
const MAX_BODIES = 1000;
/** Exchanges beyond this are counted, not kept: a plan of a large tenant makes tens of thousands. */
const MAX_EXCHANGES = 20_000;

export interface BundleExchange {
  seq: number;
  at: string;
  method: string;
  path: string;
  status?: number;
  error?: string;
  ms: number;
  request_headers: Record<string, string | string[]>;
  request_body?: string;
  response_headers: Record<string, string | string[]>;
  response_body?: string;
  /** The body's full length when it was cut (or left out). */
  response_length?: number;
}

export interface Bundle {
  format: "pimctl-bundle";
  format_version: 1;
  created_at: string;
  command: string;
  /** The options the command ran with. */
  options: Record<string, unknown>;
  pimctl_version: string;
  node_version: string;
  platform: string;
  config: Record<string, unknown> | { error: string };
  tenant?: string;
  /** Doctor's known readings (a plan or apply bundle has none): `pimctl emulator --switches` reads them. */
  switches: Record<string, unknown>;
  doctor?: DoctorReport;
  outcome: { exit_code?: number; error?: string };
  body_bytes: number;
  exchanges: BundleExchange[];
  /** Exchanges beyond the kept ones: counted only. */
  exchanges_not_kept: number;
}

const cut = (s: string | undefined) => (s === undefined || s.length <= BODY_BYTES ? s : s.slice(0, BODY_BYTES));

export class BundleRecorder {
  readonly exchanges: BundleExchange[] = [];
  notKept = 0;
  /** The values of the cookies the tenant set: its Set-Cookie headers are dropped, and a body that echoes one is scrubbed of it. */
  readonly cookies = new Set<string>();

  readonly record: ExchangeHook = (x: Exchange) => {
    for (const v of cookieValues(x.responseHeaders["set-cookie"])) this.cookies.add(v);
    if (this.exchanges.length >= MAX_EXCHANGES) {
      this.notKept++;
      return;
    }
    const failed = x.status === undefined || x.status >= 400;
    const keepBody = this.exchanges.length < MAX_BODIES || failed;
    const length = x.responseBytes ?? x.responseBody.length;
    const body = keepBody ? cut(x.responseBody) : undefined;
    this.exchanges.push({
      seq: this.exchanges.length + 1,
      at: x.at,
      method: x.method,
      path: redactAddress(x.path),
      ...(x.status !== undefined ? { status: x.status } : {}),
      ...(x.error !== undefined ? { error: x.error } : {}),
      ms: x.ms,
      request_headers: cleanHeaders(x.requestHeaders),
      ...(x.requestBody !== undefined ? { request_body: cut(x.requestBody)! } : {}),
      response_headers: cleanHeaders(x.responseHeaders),
      ...(body !== undefined ? { response_body: body } : {}),
      ...(body === undefined || length > body.length ? { response_length: length } : {}),
    });
  };
}

export interface BundleParts {
  command: string;
  options: Record<string, unknown>;
  config: Config | { error: string };
  tenant?: string;
  doctor?: DoctorReport;
  outcome: Bundle["outcome"];
  recorder: BundleRecorder;
  env: NodeJS.ProcessEnv;
}

/** The bundle, every string scrubbed of each secret value the config and environment name. */
export async function buildBundle(p: BundleParts): Promise<Bundle> {
  const config = "error" in p.config ? undefined : (p.config as Config);
  const bundle: Bundle = {
    format: "pimctl-bundle",
    format_version: 1,
    created_at: new Date().toISOString(),
    command: p.command,
    options: p.options,
    pimctl_version: packageVersion(),
    node_version: process.version,
    platform: `${os.platform()} ${os.arch()}`,
    config: config ? redactConfig(config) : (p.config as { error: string }),
    ...(p.tenant ? { tenant: p.tenant } : {}),
    switches: p.doctor?.switches ?? {},
    ...(p.doctor ? { doctor: p.doctor } : {}),
    outcome: p.outcome,
    body_bytes: BODY_BYTES,
    exchanges: p.recorder.exchanges,
    exchanges_not_kept: p.recorder.notKept,
  };
  return scrub(bundle, await secretsOf(config, p.env, p.recorder.cookies));
}

export async function writeBundle(file: string, p: BundleParts): Promise<void> {
  await commitFiles([{ file, text: `${jsonText(await buildBundle(p), 2)}\n` }]);
}
