/**
 * The read side of a doctor run: the token and latency (pings), each list's first page as the
 * tenant writes it (reach), then every detector of the table in the table's order. A detector
 * that fails (the tenant stopped answering) is a finding that says so, never the end of the run.
 */
import type { PimClient } from "../api/client.js";
import { PROBE_LISTS, rawFirstPage } from "../api/probes.js";
import { coerceId } from "../api/wire.js";
import { PimctlError } from "../errors.js";
import { SWITCHES } from "../emulator/switches.js";
import { interruptedBy } from "../holdings.js";
import { keysOf, recordsOf, requestText, type DoctorContext, type ListAnswer } from "./context.js";
import { DETECTORS, type Detector } from "./detectors.js";
import type { Finding, ListReach, SwitchName, Verdict } from "./types.js";
import { SWITCH_NAMES, jsonReading } from "./vocabulary.js";

/** The tenant's latency: `n` pings one after the other (the first one also checks the token). */
export async function pings(api: PimClient, n: number): Promise<{ pings: number[]; median_ms: number; slowest_ms: number }> {
  const times: number[] = [];
  for (let i = 0; i < n; i++) {
    const t0 = performance.now();
    await api.ping();
    times.push(Math.round(performance.now() - t0));
  }
  const sorted = [...times].sort((a, b) => a - b);
  const mid = Math.floor(sorted.length / 2);
  const median = sorted.length % 2 ? sorted[mid]! : Math.round((sorted[mid - 1]! + sorted[mid]!) / 2);
  return { pings: times, median_ms: median, slowest_ms: sorted[sorted.length - 1]! };
}

/** Each list's first page, raw: paged lists at the document's default page (25), stepping down on 422. */
export async function readLists(api: PimClient): Promise<Map<string, ListAnswer>> {
  const out = new Map<string, ListAnswer>();
  for (const list of PROBE_LISTS) {
    try {
      const { answer, accepted } = await rawFirstPage(api, list, list.paging === "paged" || list.paging === "changelog" ? 25 : undefined);
      out.set(list.kind, {
        list,
        answer,
        ...(accepted !== undefined ? { accepted } : {}),
        records: answer.status < 300 ? recordsOf(answer.json, list.key) : [],
      });
    } catch (e) {
      if (e instanceof PimctlError && e.code === "api_unauthorized") throw e;
      const status = e instanceof PimctlError ? e.request?.status : undefined;
      out.set(list.kind, { list, records: [], error: e instanceof Error ? e.message : String(e), ...(status !== undefined ? { status } : {}) });
    }
  }
  return out;
}

/** What each list said to the token: its status and records, or why it cannot be read as API v1 shows it. */
export function reachOf(lists: Map<string, ListAnswer>): ListReach[] {
  return [...lists.values()].map((l): ListReach => {
    const a = l.answer;
    const request = a ? requestText(a) : `GET ${l.list.path}`;
    const refused = (status: number) => `answered ${status}${status === 403 ? " (the token may not reach this list)" : ""}`;
    if (!a) return { kind: l.list.kind, request, ...(l.status !== undefined ? { status: l.status } : {}), problem: refusedBy(l, refused) };
    const envelope = a.json !== null && typeof a.json === "object" && Array.isArray((a.json as Record<string, unknown>)[l.list.key]);
    const problem =
      a.status >= 300
        ? refused(a.status)
        : a.notJson
          ? "answered with a body that is not JSON"
          : !envelope
            ? `answered ${keysOf(a.json)}, not {${l.list.key}: [...]}`
            : undefined;
    return { kind: l.list.kind, request, status: a.status, ...(envelope ? { records: l.records.length } : {}), ...(problem ? { problem } : {}) };
  });
}

/** Why a list that threw could not be read: the status that refused it, as a raw answer's would read, else the error. */
function refusedBy(l: ListAnswer, refused: (status: number) => string): string {
  if (l.status !== undefined && l.status >= 300) return refused(l.status);
  return l.error ?? "no answer";
}

/** The language version ids the channels publish (0, the master, left out). */
export function versionsOf(lists: Map<string, ListAnswer>): number[] {
  const ids = (lists.get("channels")?.records ?? []).map((c) => coerceId(c.version_id)).filter((v): v is number => typeof v === "number" && v > 0);
  return [...new Set(ids)].sort((a, b) => a - b);
}

/** A detector's verdict as the report's finding. */
export function findingOf<K extends SwitchName>(name: K, detector: Detector<K>, v: Verdict<unknown>): Finding {
  const base = { switch: name, option: SWITCHES[name].option, needs: detector.needs };
  switch (v.outcome) {
    case "known":
      return { ...base, outcome: "known", reading: jsonReading(v.reading), means: detector.means(v.reading as never), evidence: v.evidence };
    case "unknown":
      return { ...base, outcome: "unknown", seen: v.seen, means: v.pimctl, evidence: v.evidence };
    case "undetermined":
      return { ...base, outcome: "undetermined", means: v.why, ...(v.candidates ? { candidates: v.candidates.map(jsonReading) } : {}), evidence: v.evidence };
    case "not-probed":
      return { ...base, outcome: "not-probed", means: v.why, evidence: [] };
  }
}

/** Every detector, in the table's order; after a signal the rest are left, each saying so. */
export async function detectAll(ctx: DoctorContext, signal: AbortSignal | undefined): Promise<Finding[]> {
  const findings: Finding[] = [];
  for (const name of SWITCH_NAMES) {
    const detector = DETECTORS[name] as Detector<SwitchName>;
    if (signal?.aborted) {
      findings.push(findingOf(name, detector, { outcome: "not-probed", why: `${interruptedBy(signal)}: not looked at` }));
      continue;
    }
    const verdict = await detector.detect(ctx).catch((e: unknown): Verdict<unknown> => {
      if (e instanceof PimctlError && e.code === "api_unauthorized") throw e;
      return { outcome: "undetermined", why: `the probe failed: ${e instanceof Error ? e.message : String(e)}`, evidence: [] };
    });
    findings.push(findingOf(name, detector, verdict));
  }
  return findings;
}
