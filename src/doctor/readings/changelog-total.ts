/**
 * changelogTotal: what the changelog's meta.total counts, from reads alone. The whole feed is
 * read (a few pages at most) beside a query that narrows it (the newest second, or one entity
 * type): a total of the entries a query matches equals what each read lists; one of the tenant's
 * whole feed stays the same under any filter; one a write behind is one short on every read.
 * A second read of the whole feed's total shows nothing arrived meanwhile (else nothing is named).
 */
import { PROBE_LISTS, rawChangelogPage, rawPage, type RawAnswer } from "../../api/probes.js";
import { dateInstant } from "../../api/wire.js";
import { evidence, hasPaging, keysOf, metaOf, recordsOf, type DoctorContext } from "../context.js";
import type { Evidence, Verdict } from "../types.js";
import { pageSizes } from "./paging.js";

type Total = "matching" | "absent" | "tenant" | "lagging";

const FEED = PROBE_LISTS.find((l) => l.paging === "changelog")!;
/** Pages read of one query at most: a whole read is wanted, not the whole history of a large tenant. */
const MAX_PAGES = 5;
/** Queries tried to narrow the feed. */
const MAX_FILTERS = 3;

/** One query's pages: the distinct entries listed, each page's meta.total as sent, whether the last page was reached. */
interface FeedRead {
  query: Record<string, string>;
  answers: RawAnswer[];
  entries: Array<Record<string, unknown>>;
  totals: unknown[];
  whole: boolean;
  limit: number;
}

const distinct = (r: FeedRead) => new Set(r.entries.map((e) => String(e.id))).size;
const morePages = (json: unknown, page: number) => {
  const next = (json as { links?: { next?: unknown } } | null)?.links?.next;
  return (typeof next === "string" && next !== "") || Number(metaOf(json)?.last_page) > page;
};
const totalText = (t: unknown) => (t === undefined ? "absent" : JSON.stringify(t));
const described = (q: Record<string, string>) =>
  Object.entries(q)
    .map(([k, v]) => `${k}=${v}`)
    .join("&") || "the whole feed";

async function readFeed(ctx: DoctorContext, query: Record<string, string>, limit: number): Promise<FeedRead> {
  const first = await rawChangelogPage(ctx.api, query, limit);
  const answers = [first.answer];
  while (answers.length < MAX_PAGES && answers.at(-1)!.status < 300 && morePages(answers.at(-1)!.json, answers.length))
    answers.push(await rawPage(ctx.api, FEED, first.accepted, { ...query, page: String(answers.length + 1) }));
  const last = answers.at(-1)!;
  return {
    query,
    answers,
    entries: answers.flatMap((a) => recordsOf(a.json, FEED.key)),
    totals: answers.map((a) => metaOf(a.json)?.total),
    whole: answers.every((a) => a.status < 300) && !morePages(last.json, answers.length),
    limit: first.accepted,
  };
}

/** Queries that list fewer entries than the whole feed: the newest second seen, then each entity type seen, fewest first. */
function narrowing(entries: Array<Record<string, unknown>>): Array<Record<string, string>> {
  const times = entries.map((e) => e.updated_at).filter((t): t is string => typeof t === "string" && dateInstant(t) !== undefined);
  const newest = [...times].sort((a, b) => dateInstant(b)! - dateInstant(a)!)[0];
  const older = newest !== undefined && times.some((t) => Math.floor(dateInstant(t)! / 1000) < Math.floor(dateInstant(newest)! / 1000));
  const byType = new Map<string, number>();
  for (const e of entries) if (typeof e.entity_type === "string") byType.set(e.entity_type, (byType.get(e.entity_type) ?? 0) + 1);
  const types = [...byType].filter(([, n]) => n < entries.length).sort((a, b) => a[1] - b[1] || a[0].localeCompare(b[0]));
  return [...(older ? [{ updated_at: newest }] : []), ...types.map(([t]) => ({ entity_type: t }))];
}

const shows = (r: FeedRead): Evidence =>
  evidence(
    r.answers[0]!,
    `${described(r.query)}: ${distinct(r)} ${distinct(r) === 1 ? "entry" : "entries"} listed on ${r.answers.length} page${r.answers.length === 1 ? "" : "s"}` +
      `${r.whole ? "" : " (more pages not read)"}, meta.total ${[...new Set(r.totals.map(totalText))].join(" then ")}`,
  );

/** The readings every read fits (a read of one page count is checked against its own entries only when it was read whole). */
function fitting(reads: FeedRead[]): Total[] {
  const totals = reads.flatMap((r) => r.totals);
  if (totals.every((t) => t === undefined)) return ["absent"];
  if (!totals.every((t) => Number.isInteger(t))) return [];
  const last = (r: FeedRead) => r.totals.at(-1) as number;
  const whole = reads.filter((r) => r.whole);
  const tenantTotal = last(reads[0]!);
  const fits: Record<Exclude<Total, "absent">, boolean> = {
    matching: whole.every((r) => last(r) === distinct(r)),
    lagging: whole.every((r) => last(r) === Math.max(0, distinct(r) - 1)),
    tenant: totals.every((t) => t === tenantTotal) && (!reads[0]!.whole || tenantTotal === distinct(reads[0]!)),
  };
  return (Object.keys(fits) as Array<keyof typeof fits>).filter((k) => fits[k]);
}

/** The whole feed, and reads narrowing it until one lists fewer entries (or MAX_FILTERS were tried). */
async function readings(ctx: DoctorContext, all: FeedRead): Promise<FeedRead[]> {
  const reads = [all];
  const whole = distinct(all);
  for (const query of narrowing(all.entries).slice(0, MAX_FILTERS)) {
    const r = await readFeed(ctx, query, all.limit);
    reads.push(r);
    if (r.whole && distinct(r) > 0 && (!all.whole || distinct(r) < whole)) break;
  }
  return reads;
}

/** The largest page the changelog takes, as the page-size search found it (shared): no second step-down from 1000. */
async function feedLimit(ctx: DoctorContext): Promise<number> {
  const size = (await pageSizes(ctx)).find((p) => p.list === FEED.kind);
  return size?.how === "422-above" && size.largest !== undefined ? size.largest : 1000;
}

export async function detectChangelogTotal(ctx: DoctorContext): Promise<Verdict<Total>> {
  const all = await readFeed(ctx, {}, await feedLimit(ctx));
  const head = all.answers[0]!;
  if (head.status >= 300)
    return { outcome: "undetermined", why: `GET ${FEED.path} answered ${head.status}`, evidence: [evidence(head, `status ${head.status}`)] };
  if (!Array.isArray((head.json as Record<string, unknown> | null)?.[FEED.key]))
    return {
      outcome: "undetermined",
      why: `the changelog answered ${keysOf(head.json)} (changelogPaging names it)`,
      evidence: [evidence(head, keysOf(head.json))],
    };
  if (!hasPaging(head.json))
    return {
      outcome: "undetermined",
      why:
        "the changelog answers without links or meta (changelogPaging: capped), so it has no meta.total to read; " +
        "--refresh=changelog reads in full there anyway",
      evidence: [evidence(head, keysOf(head.json))],
    };
  if (!all.entries.length) return { outcome: "undetermined", why: "the changelog is empty: there is nothing for meta.total to count", evidence: [shows(all)] };
  const reads = await readings(ctx, all);
  const again = await rawPage(ctx.api, FEED, 1);
  const shown = [...reads.map(shows), evidence(again, `the whole feed again: meta.total ${totalText(metaOf(again.json)?.total)}`)];
  if (metaOf(again.json)?.total !== all.totals[0] || new Set(all.totals).size > 1)
    return {
      outcome: "undetermined",
      why: "entries arrived while doctor read the feed (its meta.total changed): run doctor again when the tenant is quieter",
      evidence: shown,
    };
  const fits = fitting(reads);
  if (fits.length === 1) return { outcome: "known", reading: fits[0]!, evidence: shown };
  if (fits.length > 1)
    return {
      outcome: "undetermined",
      why:
        "no query listed fewer entries than the whole feed (one entity type, one second), so a total of the entries matched " +
        "and one of the tenant's feed read alike",
      candidates: fits,
      evidence: shown,
    };
  return {
    outcome: "unknown",
    seen: reads.map((r) => `${described(r.query)}: ${distinct(r)} entries, meta.total ${r.totals.map(totalText).join(" then ")}`).join("; "),
    pimctl:
      "pimctl takes a read of the feed as whole only when its meta.total equals the entries listed: --refresh=changelog reads in full " +
      "and says why in one line whenever they differ (plans read in full, as always)",
    evidence: shown,
  };
}
