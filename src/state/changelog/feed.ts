/**
 * Reading the changelog feed (GET /changelogs) since a cursor, and deciding
 * whether what came back can be trusted for an incremental refresh.
 *
 * The API document says the feed is filtered by updated_at >= the given time,
 * so the entry at the cursor comes back again; it names no paging parameter
 * but `limit` and no retention. So the reader:
 * - proves nothing was dropped by finding the cursor's own entry again (a feed
 *   that no longer holds it keeps less than the snapshot's age: read in full);
 * - walks forward by time when a read may have been cut at a page (a service
 *   that ignores paging links would return only `limit` entries), until a read
 *   brings no entry it has not seen;
 * - refuses any entry it cannot understand (an unknown entity or change type,
 *   a missing id or time): the caller reads in full instead of guessing.
 */
import type { ApiChangelog, PimApi } from "../../api/types.js";

export interface FeedCursor {
  /** The newest entry seen when the snapshot was taken. */
  id: number;
  /** Its updated_at, exactly as the service wrote it (sent back verbatim). */
  updated_at: string;
  /**
   * Every entry seen at that same time. The >= filter returns them again, and
   * nothing says ids grow with time, so an entry at the boundary is new exactly
   * when it is not in this list.
   */
  seen: number[];
}

export const ENTITY_TYPES = ["product", "brand", "category", "product_asset", "attribute", "attribute_set"] as const;
export const CHANGE_TYPES = ["full", "delete", "reset"] as const;

/** Asked for, to save pages; the document names no maximum, so a refusal falls back to the default. */
const ASK_LIMIT = 1000;

export type FeedRead = { ok: true; entries: ApiChangelog[]; cursor: FeedCursor; requests: number } | { ok: false; reason: string; requests: number };

/** Why an entry cannot be used, or undefined when it can. */
export function misunderstood(e: unknown): string | undefined {
  const x = e as Partial<Record<keyof ApiChangelog, unknown>> | null;
  if (!x || typeof x !== "object") return "an entry is not an object";
  if (!Number.isInteger(x.id)) return "an entry has no integer id";
  if (!Number.isInteger(x.entity_id)) return `entry ${String(x.id)} has no integer entity_id`;
  if (typeof x.updated_at !== "string" || Number.isNaN(Date.parse(x.updated_at))) return `entry ${String(x.id)} has no readable updated_at`;
  if (!(ENTITY_TYPES as readonly unknown[]).includes(x.entity_type))
    return `entry ${String(x.id)} has entity_type ${JSON.stringify(x.entity_type)}, which API v1 does not list`;
  if (!(CHANGE_TYPES as readonly unknown[]).includes(x.change_type))
    return `entry ${String(x.id)} has change_type ${JSON.stringify(x.change_type)}, which API v1 does not list`;
  return undefined;
}

/** The newest of some entries: latest updated_at, then highest id. */
export function newest(entries: readonly ApiChangelog[]): ApiChangelog | undefined {
  let best: ApiChangelog | undefined;
  for (const e of entries) {
    if (!best) best = e;
    else {
      const d = Date.parse(e.updated_at) - Date.parse(best.updated_at);
      if (d > 0 || (d === 0 && e.id > best.id)) best = e;
    }
  }
  return best;
}

/**
 * Every entry at or after `since`. A read whose last page may have been cut
 * (see PimApi.listChangelogs) is continued from its newest time, until a read
 * brings nothing new; a cut read that cannot move forward (more entries at one
 * time than a read returns) cannot be proven whole.
 */
async function readSince(api: PimApi, since: string): Promise<{ entries: ApiChangelog[]; requests: number } | { reason: string; requests: number }> {
  const seen = new Map<number, ApiChangelog>();
  let from = since;
  let requests = 0;
  let limit: number | undefined = ASK_LIMIT;
  for (;;) {
    const paging = { cut: false };
    let batch: ApiChangelog[];
    try {
      batch = await api.listChangelogs({ updatedAt: from, seen: paging, ...(limit ? { limit } : {}) });
    } catch (e) {
      const code = (e as { code?: string }).code;
      if (!limit || (code !== "api_unprocessable" && code !== "api_bad_request")) throw e;
      requests++;
      limit = undefined;
      continue;
    }
    requests++;
    let fresh = 0;
    for (const e of batch) {
      const why = misunderstood(e);
      if (why) return { reason: why, requests };
      if (!seen.has(e.id)) {
        seen.set(e.id, e);
        fresh++;
      }
    }
    if (!paging.cut) break;
    const top = newest(batch)!;
    if (fresh === 0) {
      if (Date.parse(top.updated_at) === Date.parse(from))
        return { reason: `the feed returns ${batch.length} entries at ${from} without paging, and there may be more at that time`, requests };
      break;
    }
    from = top.updated_at;
  }
  return { entries: [...seen.values()].sort((a, b) => a.id - b.id), requests };
}

/** The cursor after some entries: the newest, and every entry at its time. */
export function cursorOf(entries: readonly ApiChangelog[]): FeedCursor | undefined {
  const top = newest(entries);
  if (!top) return undefined;
  const at = Date.parse(top.updated_at);
  return {
    id: top.id,
    updated_at: top.updated_at,
    seen: entries
      .filter((e) => Date.parse(e.updated_at) === at)
      .map((e) => e.id)
      .sort((a, b) => a - b),
  };
}

/**
 * The entries since the cursor that it has not seen, proven complete by the
 * cursor's own entry coming back.
 */
export async function readFeed(api: PimApi, cursor: FeedCursor): Promise<FeedRead> {
  const read = await readSince(api, cursor.updated_at);
  if ("reason" in read) return { ok: false, reason: read.reason, requests: read.requests };
  if (!read.entries.some((e) => e.id === cursor.id)) {
    return {
      ok: false,
      reason: `the feed no longer holds entry ${cursor.id} (${cursor.updated_at}), where the snapshot left off: it keeps less than the snapshot's age`,
      requests: read.requests,
    };
  }
  const seen = new Set(cursor.seen);
  return { ok: true, entries: read.entries.filter((e) => !seen.has(e.id)), cursor: cursorOf(read.entries)!, requests: read.requests };
}

/**
 * Where a new snapshot starts: the newest entry now. The feed cannot be read
 * newest-first, so recent windows are tried (by this machine's clock; a skewed
 * clock only costs a longer read or no cursor). No entry in 30 days: no cursor,
 * and the next changelog refresh reads in full.
 */
export async function currentCursor(api: PimApi, now: Date = new Date()): Promise<{ cursor?: FeedCursor; requests: number; reason?: string }> {
  let requests = 0;
  for (const minutes of [5, 60, 24 * 60, 30 * 24 * 60]) {
    const since = new Date(now.getTime() - minutes * 60_000).toISOString().replace(/\.\d{3}Z$/, "Z");
    const read = await readSince(api, since);
    requests += read.requests;
    if ("reason" in read) return { requests, reason: read.reason };
    const cursor = cursorOf(read.entries);
    if (cursor) return { cursor, requests };
  }
  return { requests, reason: "the feed has no entry in the last 30 days, so no cursor can be proven later" };
}
