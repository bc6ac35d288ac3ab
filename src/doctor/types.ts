/**
 * What `pimctl doctor` finds, as data: one finding per switch of the emulator's table
 * (src/emulator/switches.ts: the same names, so a tenant's readings replay locally), the facts
 * around them (token and reach, latency, page sizes, leftovers of earlier probes), and the
 * evidence for each: the request and the part of the answer that decided it.
 */
import type { EmulatorSwitches } from "../emulator/switches.js";

export type SwitchName = keyof EmulatorSwitches;
export type Reading<K extends SwitchName = SwitchName> = EmulatorSwitches[K];

/** A request and the part of its answer that decided a finding. */
export interface Evidence {
  /** "GET /brands?limit=25" (below the tenant's base URL). */
  request: string;
  /** The answer's status; absent when none came. */
  status?: number;
  /** What in the answer decided: `publish: 1`, `keys: display_groups, links, meta`. */
  shows: string;
}

/**
 * A detector's verdict on one switch:
 * - known: the answers fit exactly one reading of the table;
 * - unknown: they fit none (the tenant reads API v1 in a way nobody modelled);
 * - undetermined: the answers fit several readings, or there was nothing to look at;
 * - not-probed: only a write reveals it and write probes were off (or it needs an option).
 */
export type Verdict<V> =
  | { outcome: "known"; reading: V; evidence: Evidence[] }
  | { outcome: "unknown"; seen: string; pimctl: string; evidence: Evidence[] }
  | { outcome: "undetermined"; why: string; candidates?: V[]; evidence: Evidence[] }
  | { outcome: "not-probed"; why: string };

/** A verdict as the report shows it: the switch's name and option, and what follows for pimctl. */
export interface Finding {
  switch: SwitchName;
  /** The `pimctl emulator` option of the switch. */
  option: string;
  /** Whether reads decide it, or only --write-probes. */
  needs: "read" | "write";
  outcome: Verdict<unknown>["outcome"];
  /** The reading, when known (null for maxPageSize's clamp at 1000, the table's default). */
  reading?: unknown;
  /** What was seen, for an unknown answer. */
  seen?: string;
  /** Known: what pimctl does under the reading. Unknown: what pimctl does with such answers, and what it refuses. Otherwise: why not decided. */
  means: string;
  candidates?: unknown[];
  evidence: Evidence[];
}

/** One list's answer to the token: reach. */
export interface ListReach {
  kind: string;
  request: string;
  status?: number;
  /** Records on the first page. */
  records?: number;
  /** Why the list cannot be read as API v1 shows it (a status, an envelope); absent when it can. */
  problem?: string;
}

export interface PageSize {
  list: string;
  /** The largest `limit` the list took (a 422 above it), or the one it clamped to. */
  largest?: number;
  /** refused: every limit answered 422; unreachable: the list answered otherwise (a 403, a proxy's page, no answer). */
  how: "422-above" | "clamped" | "accepted" | "no-meta" | "refused" | "unreachable";
  evidence: Evidence[];
}

/** A record a write probe made, by kind and id, and whether it is gone. */
export interface ProbeRecord {
  kind: "brand" | "brand_asset" | "attribute" | "attribute_set" | "category";
  id: number;
  name: string;
  /** The brand of an asset, the parent of a category. */
  owner?: number;
}

export interface Leftover extends ProbeRecord {
  /** The command that removes it. */
  remove: string;
  /** Why it is still there, when a removal failed. */
  error?: string;
}

export interface DoctorReport {
  format_version: 1;
  tenant: string;
  base_url: string;
  pimctl_version: string;
  node_version: string;
  token: "accepted" | "refused";
  /** Milliseconds of each ping, in order; median and slowest. */
  latency?: { pings: number[]; median_ms: number; slowest_ms: number };
  reach: ListReach[];
  page_sizes: PageSize[];
  findings: Finding[];
  /** The known readings by switch name: `pimctl emulator --switches FILE` reads this. */
  switches: Partial<Record<SwitchName, unknown>>;
  /** The same as `pimctl emulator` options. */
  emulator_options: string[];
  write_probes: { ran: boolean; why_not?: string; removed: ProbeRecord[]; left: Leftover[]; notes: string[] };
  /** Records of earlier doctor runs (by their name prefix) still in the tenant after this run. */
  leftovers: Leftover[];
  /** Records of earlier runs this run removed (--write-probes, --remove-leftovers). */
  leftovers_removed: ProbeRecord[];
  /** Set when a signal stopped the run. */
  interrupted?: string;
  /** The requests this run sent. */
  requests: number;
}
