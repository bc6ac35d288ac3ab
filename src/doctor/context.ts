/**
 * What every detector sees: the client, the lists as the tenant answered them (raw), the
 * language versions its channels name, the write probes' records when they ran, and a memo so
 * two detectors that need the same request (or the same write) share it.
 */
import type { PimClient } from "../api/client.js";
import type { Exchange } from "../api/exchange.js";
import type { ProbeList, RawAnswer } from "../api/probes.js";
import type { Evidence } from "./types.js";
import type { ProbeFixture, ProbeRecords } from "./probe-records.js";

/** A list's first page, raw, and its records (empty when the answer is not the documented envelope). */
export interface ListAnswer {
  list: ProbeList;
  answer?: RawAnswer;
  /** The limit the answer came for (paged lists, after any step-down). */
  accepted?: number;
  records: Array<Record<string, unknown>>;
  /** Why it could not be read (a thrown error's message). */
  error?: string;
  /** The status that refused it, when one came (a paged list's first page throws on a 403). */
  status?: number;
}

export interface DoctorContext {
  api: PimClient;
  lists: Map<string, ListAnswer>;
  /** Language version ids the channels name (not 0). */
  versions: number[];
  /** The write probes' records, when --write-probes is on. */
  probes: ProbeRecords | undefined;
  /** The fixture the write probes made first (brands, a set, attributes, a category tree). */
  fixture: ProbeFixture | undefined;
  /** The export profile for the download probe (--export-profile). */
  exportProfile: number | undefined;
  /** The image the asset probe names (--probe-image): a tenant that re-hosts fetches it. */
  probeImage: string;
  /** Lines for the report's write probes section (an export job API v1 cannot delete). */
  notes: string[];
  /** Every exchange of this run so far, in order (the client's recorder). */
  exchanges: Exchange[];
  memo<T>(key: string, fn: () => Promise<T>): Promise<T>;
}

export function makeMemo(): DoctorContext["memo"] {
  const done = new Map<string, Promise<unknown>>();
  return <T>(key: string, fn: () => Promise<T>): Promise<T> => {
    let p = done.get(key) as Promise<T> | undefined;
    if (!p) done.set(key, (p = fn()));
    return p;
  };
}

/** "POST /brands/search {"name":"x"}": a request as evidence shows it. */
export function requestText(a: { method: string; path: string; body?: unknown }): string {
  return `${a.method} ${a.path}${a.body === undefined ? "" : ` ${JSON.stringify(a.body)}`}`;
}

export function evidence(a: RawAnswer, shows: string): Evidence {
  return { request: requestText(a), status: a.status, shows };
}

/** A value as evidence quotes it: JSON, cut short. */
export function quote(v: unknown, max = 80): string {
  const s = v === undefined ? "(absent)" : JSON.stringify(v);
  return s.length > max ? `${s.slice(0, max - 1)}…` : s;
}

/** The records of an answer under its envelope key; [] when the answer is not that envelope. */
export function recordsOf(json: unknown, key: string): Array<Record<string, unknown>> {
  const list = json !== null && typeof json === "object" && !Array.isArray(json) ? (json as Record<string, unknown>)[key] : undefined;
  return Array.isArray(list) ? list.filter((r): r is Record<string, unknown> => r !== null && typeof r === "object" && !Array.isArray(r)) : [];
}

/** An answer's `meta` object, or undefined when it has none. */
export function metaOf(json: unknown): Record<string, unknown> | undefined {
  const m = json !== null && typeof json === "object" ? (json as Record<string, unknown>).meta : undefined;
  return m !== null && typeof m === "object" ? (m as Record<string, unknown>) : undefined;
}

/** Whether an answer says anything about pages (`links` or `meta`). */
export const hasPaging = (json: unknown): boolean => json !== null && typeof json === "object" && ("links" in (json as object) || "meta" in (json as object));

/** The top-level keys of an answer, for evidence. */
export function keysOf(json: unknown): string {
  if (json === null) return "null";
  if (Array.isArray(json)) return `a bare array of ${json.length}`;
  if (typeof json !== "object") return JSON.stringify(json);
  const keys = Object.keys(json as object);
  return keys.length ? `keys: ${keys.join(", ")}` : "{}";
}

/** The raw answers doctor has so far, lists first: what the wire-form detectors walk. */
export function answersSeen(ctx: DoctorContext): RawAnswer[] {
  return [...ctx.lists.values()].flatMap((l) => (l.answer ? [l.answer] : []));
}
