/**
 * `--refresh=changelog`: read the tenant through a snapshot kept up to date
 * with the changelog feed, or read it in full (and start a snapshot) when the
 * snapshot cannot be proven current. See cached-api.ts for what the feed
 * covers and feed.ts for how a gap in the feed is detected.
 */
import type { PimApi } from "../../api/types.js";
import { PimctlError } from "../../errors.js";
import { cachedApi } from "./cached-api.js";
import { currentCursor, readFeed } from "./feed.js";
import { invalidate } from "./cached-api.js";
import { emptySnapshot, loadSnapshot, NO_SNAPSHOT, saveSnapshot, snapshotFile } from "./snapshot.js";

export type RefreshMode = "full" | "changelog";
export const REFRESH_MODES: readonly RefreshMode[] = ["full", "changelog"];

/** How the state was read, for the person running the plan. */
export interface RefreshReport {
  mode: RefreshMode;
  /** Why a changelog refresh read in full instead. */
  fallback?: string;
  /** Feed entries the snapshot had not seen. */
  entries?: number;
  /** Records re-read because the feed named them. */
  rereads?: number;
  /** Reads answered from the snapshot. */
  hits?: number;
  /** Requests spent on the feed. */
  feed_requests?: number;
}

export interface Refresh {
  api: PimApi;
  report: RefreshReport;
  /** After a successful read: store the snapshot for the next run (nothing when none is kept). */
  commit(): Promise<void>;
}

/** Errors that mean "this tenant's feed cannot be used", not "stop". */
const FEED_UNUSABLE = new Set(["api_not_found", "api_not_implemented", "api_protocol", "api_bad_request", "api_unprocessable"]);

export async function openRefresh(real: PimApi, o: { mode: RefreshMode; cacheDir: string; baseUrl: string; rebuild?: string }): Promise<Refresh> {
  if (o.mode === "full") return { api: real, report: { mode: "full" }, commit: async () => undefined };
  const file = snapshotFile(o.cacheDir, o.baseUrl);
  const startedAt = new Date().toISOString();
  let feedRequests = 0;
  const full = async (why: string): Promise<Refresh> => {
    const at = await guard(() => currentCursor(real));
    if ("value" in at) feedRequests += at.value.requests;
    const cursor = "value" in at ? at.value.cursor : undefined;
    const fallback = oneLine(why, cursor ? undefined : "error" in at ? at.error : (at.value.reason ?? "no cursor"));
    if (!cursor) return { api: real, report: { mode: "full", fallback, feed_requests: feedRequests }, commit: async () => undefined };
    const recording = cachedApi(real, emptySnapshot(o.baseUrl, cursor, startedAt), { brands: new Set(), categories: new Set(), sets: new Set() });
    return {
      api: recording.api,
      report: { mode: "full", fallback, feed_requests: feedRequests },
      commit: () => saveSnapshot(file, { ...recording.finish(), cursor, taken_at: startedAt }),
    };
  };

  if (o.rebuild) return full(o.rebuild);
  const loaded = await loadSnapshot(file, o.baseUrl);
  if ("reason" in loaded) return full(loaded.reason);
  const feed = await guard(() => readFeed(real, loaded.snapshot.cursor));
  if ("error" in feed) return full(feed.error);
  feedRequests += feed.value.requests;
  if (!feed.value.ok) return full(feed.value.reason);
  const { entries, cursor } = feed.value;
  const pending = invalidate(loaded.snapshot, entries);
  const cached = cachedApi(real, loaded.snapshot, pending);
  const report: RefreshReport = { mode: "changelog", entries: entries.length, rereads: pending.rereads, feed_requests: feedRequests };
  return {
    api: cached.api,
    report,
    commit: async () => {
      report.hits = cached.stats().hits;
      await saveSnapshot(file, { ...cached.finish(), cursor, taken_at: startedAt });
    },
  };
}

/**
 * Why a changelog refresh read in full, as one line: the reason it could not use the snapshot,
 * and why no new snapshot can start when that is another reason. The lasting reason leads: with
 * no snapshot yet, or the same reason twice, the line is why none can start.
 */
function oneLine(why: string, noSnapshot: string | undefined): string {
  const flat = (t: string) => t.replace(/\s*[\r\n]+\s*/g, " ").trim();
  if (noSnapshot === undefined) return flat(why);
  if (why === NO_SNAPSHOT || flat(noSnapshot) === flat(why)) return flat(noSnapshot);
  return `${flat(why)}; and no snapshot can be started: ${flat(noSnapshot)}`;
}

/** A feed read that fails in a way that only means "read in full". */
async function guard<T>(read: () => Promise<T>): Promise<{ value: T } | { error: string }> {
  try {
    return { value: await read() };
  } catch (e) {
    if (e instanceof PimctlError && FEED_UNUSABLE.has(e.code)) return { error: `the changelog feed could not be read (${e.message})` };
    throw e;
  }
}
