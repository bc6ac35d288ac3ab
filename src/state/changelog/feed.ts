/**
 * Reading the changelog feed (GET /changelogs) since a cursor, and deciding
 * whether what came back can be trusted for an incremental refresh.
 *
 * The API document says the feed is filtered by updated_at >= the given time,
 * so the entries at the cursor's time come back again; it names no paging
 * parameter but `limit`, no largest `limit`, no order and no retention. So the reader:
 * - takes a read as whole only when the service's own count proves it (proof.ts);
 *   a bare list, a missing or inconsistent meta.total, a full page with no count:
 *   the caller reads in full instead, saying why;
 * - proves nothing was dropped by finding the cursor's own entry again (a feed
 *   that no longer holds it keeps less than the snapshot's age: read in full);
 * - takes a cursor only from a read proven whole, so it never rests inside a
 *   group of entries at one time that was not read to its end;
 * - does not re-read thousands of entries at the cursor's time when it can
 *   count them instead (pastTheBoundary);
 * - refuses any entry it cannot understand (an unknown entity or change type,
 *   a missing id or time): the caller reads in full instead of guessing.
 */
import type { ApiChangelog, ChangelogRead, PimApi } from "../../api/types.js";
import { dateInstant } from "../../api/wire.js";
import { unproven } from "./proof.js";

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
  /**
   * The first of them in the order the feed listed them (absent from snapshots written
   * before it was kept). Listed first again, it shows the feed dropped none of them
   * (pastTheBoundary).
   */
  head?: number;
}

export const ENTITY_TYPES = ["product", "brand", "category", "product_asset", "attribute", "attribute_set"] as const;
export const CHANGE_TYPES = ["full", "delete", "reset"] as const;

export type FeedRead = { ok: true; entries: ApiChangelog[]; cursor: FeedCursor; requests: number } | { ok: false; reason: string; requests: number };

/** An entry's time as an instant, whatever form the service writes it in (wire.ts); NaN when unreadable. */
export const instant = (t: string): number => dateInstant(t) ?? NaN;

/** Why an entry cannot be used, or undefined when it can. */
export function misunderstood(e: unknown): string | undefined {
  const x = e as Partial<Record<keyof ApiChangelog, unknown>> | null;
  if (!x || typeof x !== "object") return "an entry is not an object";
  if (!Number.isInteger(x.id)) return "an entry has no integer id";
  if (!Number.isInteger(x.entity_id)) return `entry ${String(x.id)} has no integer entity_id`;
  if (typeof x.updated_at !== "string" || Number.isNaN(instant(x.updated_at))) return `entry ${String(x.id)} has no readable updated_at`;
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
      const d = instant(e.updated_at) - instant(best.updated_at);
      if (d > 0 || (d === 0 && e.id > best.id)) best = e;
    }
  }
  return best;
}

/** The entries of a read, in the order they were first listed, or why they cannot be trusted. */
export type Listed = { listed: ApiChangelog[]; requests: number } | { reason: string; requests: number };

/**
 * Every entry at or after `since`, in the order first listed (`first`: a read of it already
 * made, whole), when every entry is understood and the read is proven whole (proof.ts).
 */
export async function readSince(api: PimApi, since: string, first?: ChangelogRead): Promise<Listed> {
  const read = first ?? (await api.readChangelogs({ updatedAt: since }));
  const requests = first ? 0 : read.requests;
  const seen = new Map<number, ApiChangelog>();
  for (const e of read.entries) {
    const why = misunderstood(e);
    if (why) return { reason: why, requests };
    if (!seen.has(e.id)) seen.set(e.id, e);
  }
  const why = unproven(read);
  return why ? { reason: why, requests } : { listed: [...seen.values()], requests };
}

/** The cursor after some entries (in the order listed): the newest, every entry at its time, and the first of those listed. */
export function cursorOf(listed: readonly ApiChangelog[]): FeedCursor | undefined {
  const top = newest(listed);
  if (!top) return undefined;
  const at = instant(top.updated_at);
  const atTop = listed.filter((e) => instant(e.updated_at) === at);
  return { id: top.id, updated_at: top.updated_at, seen: atTop.map((e) => e.id).sort((a, b) => a - b), head: atTop[0]!.id };
}

/**
 * The first instant after a time, at the precision it is written in: a millisecond when
 * it has a fraction other than zeros, else a second (a service that writes seconds,
 * or ".000000" for them, keeps seconds).
 */
export function justAfter(t: string): string {
  const fine = /:\d{2}\.\d*[1-9]/.test(t);
  const next = new Date(instant(t) + (fine ? 1 : 1000)).toISOString();
  return fine ? next : next.replace(/\.\d{3}Z$/, "Z");
}

/**
 * The entries since the cursor without re-reading the entries at its time, when the
 * first page of `>= cursor time` leaves pages unread (thousands of entries share the
 * second a large apply ended in). Instead of reading them, it counts them:
 * - the first page says how many entries match (`meta.total`), and lists the cursor's
 *   head first again: a feed that keeps less loses its oldest entries first (what the
 *   cursor's own entry proves rests on that too), so none seen at that time is gone;
 * - every entry after that time is read (`>= justAfter(time)`), whole;
 * - the entries at the cursor's time are then total - later; equal to the number seen,
 *   none is new (an entry arriving at that time after the snapshot makes it one more,
 *   wherever the service lists it).
 * The count trusts meta.total only as far as the later read proves it: that read must be
 * whole by its own total (proof.ts), or the feed's totals count something else and its
 * reason is returned (the caller reads in full). Anything else (no meta.total, another
 * head, an unseen entry at that time on the first page, an entry of the later read not
 * after that time, a count that does not add up, as when an entry arrives between the two
 * reads) returns no entries: the caller reads every entry since the cursor's time, as it
 * would without this.
 */
async function pastTheBoundary(
  api: PimApi,
  cursor: FeedCursor,
  first: ChangelogRead,
): Promise<{ entries?: ApiChangelog[]; cursor?: FeedCursor; reason?: string; requests: number }> {
  const at = instant(cursor.updated_at);
  const seen = new Set(cursor.seen);
  const total = first.totals[0];
  const usable = total !== undefined && seen.has(cursor.id) && cursor.head !== undefined && first.entries[0]?.id === cursor.head;
  if (!usable || first.entries.some((e) => misunderstood(e))) return { requests: 0 };
  const unseen = first.entries.filter((e) => !(seen.has(e.id) && instant(e.updated_at) === at));
  if (unseen.some((e) => !(instant(e.updated_at) > at))) return { requests: 0 };
  const later = await readSince(api, justAfter(cursor.updated_at));
  if ("reason" in later) return { reason: later.reason, requests: later.requests };
  const ids = new Set(later.listed.map((e) => e.id));
  const whole = later.listed.every((e) => instant(e.updated_at) > at) && unseen.every((e) => ids.has(e.id)) && total === seen.size + later.listed.length;
  if (!whole) return { requests: later.requests };
  return { entries: later.listed, cursor: cursorOf(later.listed) ?? cursor, requests: later.requests };
}

const byId = (entries: readonly ApiChangelog[]) => [...entries].sort((a, b) => a.id - b.id);

/**
 * The entries since the cursor that it has not seen, proven complete by the
 * cursor's own entry coming back, or by counting the entries at the cursor's
 * time when there are more of them than one page holds (pastTheBoundary).
 */
export async function readFeed(api: PimApi, cursor: FeedCursor): Promise<FeedRead> {
  const first = await api.readChangelogs({ updatedAt: cursor.updated_at, firstPage: true });
  let requests = first.requests;
  if (first.more) {
    const past = await pastTheBoundary(api, cursor, first);
    requests += past.requests;
    if (past.entries && past.cursor) return { ok: true, entries: byId(past.entries), cursor: past.cursor, requests };
    if (past.reason) return { ok: false, reason: past.reason, requests };
  }
  // Everything since the cursor's time, from its first page again when the first read left pages unread.
  const read = await readSince(api, cursor.updated_at, first.more ? undefined : first);
  requests += read.requests;
  if ("reason" in read) return { ok: false, reason: read.reason, requests };
  if (!read.listed.some((e) => e.id === cursor.id)) {
    return {
      ok: false,
      reason: `the feed no longer holds entry ${cursor.id} (${cursor.updated_at}), where the snapshot left off: it keeps less than the snapshot's age`,
      requests,
    };
  }
  const seen = new Set(cursor.seen);
  return { ok: true, entries: byId(read.listed.filter((e) => !seen.has(e.id))), cursor: cursorOf(read.listed)!, requests };
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
    const cursor = cursorOf(read.listed);
    if (cursor) return { cursor, requests };
  }
  return { requests, reason: "the feed has no entry in the last 30 days, so no cursor can be proven later" };
}
