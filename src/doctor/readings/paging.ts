/**
 * Paging: the largest page each paged list takes (stepping down on 422 as the reads do, then
 * narrowing to the exact size), whether the lists API v1 shows unpaged come in pages anyway,
 * and whether the changelog says more entries follow.
 */
import { PROBE_LISTS, rawFirstPage, rawPage, type ProbeList, type RawAnswer } from "../../api/probes.js";
import { PAGE_SIZES } from "../../api/lists.js";
import { PimctlError } from "../../errors.js";
import { MAX_PAGE_LIMIT_CLAMP } from "../vocabulary.js";
import { evidence, hasPaging, keysOf, metaOf, recordsOf, type DoctorContext } from "../context.js";
import type { Evidence, PageSize, Verdict } from "../types.js";

const ok = (a: RawAnswer) => a.status < 400;

/** The first size above it that the reads' step-down tries (the one the tenant refused). */
const refusedAbove = (accepted: number, start: number) => [start, ...PAGE_SIZES].filter((n) => n > accepted).sort((a, b) => a - b)[0] ?? start;

/** Between a size taken and one refused, the exact largest: a few requests, halving the gap. */
async function narrow(ctx: DoctorContext, list: ProbeList, taken: number, refused: number, shown: Evidence[]): Promise<number> {
  let lo = taken;
  let hi = refused;
  while (hi - lo > 1) {
    const mid = Math.floor((lo + hi) / 2);
    const a = await rawPage(ctx.api, list, mid);
    if (ok(a)) lo = mid;
    else if (a.status === 422) hi = mid;
    else break;
  }
  const last = await rawPage(ctx.api, list, lo + 1);
  shown.push(evidence(last, `limit=${lo + 1} refused (${last.status})`));
  return lo;
}

/** The largest page one list takes; `guess` (another list's size) is tried first, two requests when it holds. */
async function largestPage(ctx: DoctorContext, list: ProbeList, guess: number | undefined): Promise<PageSize> {
  const shown: Evidence[] = [];
  if (guess !== undefined) {
    const [at, above] = [await rawPage(ctx.api, list, guess), await rawPage(ctx.api, list, guess + 1)];
    if (ok(at) && above.status === 422) {
      shown.push(evidence(at, `limit=${guess} taken`), evidence(above, `limit=${guess + 1} refused (422)`));
      return { list: list.kind, largest: guess, how: "422-above", evidence: shown };
    }
  }
  const start = list.paging === "changelog" ? 10_000 : 5000;
  let first: Awaited<ReturnType<typeof rawFirstPage>>;
  try {
    first = await rawFirstPage(ctx.api, list, start);
  } catch (e) {
    // Only a 422 at every size is a page size refused; a 403 or a proxy's page says nothing of page sizes.
    const status = e instanceof PimctlError ? e.request?.status : undefined;
    if (status === 422) return { list: list.kind, how: "refused", evidence: [{ request: `GET ${list.path}?limit=1`, shows: (e as Error).message }] };
    const shows = e instanceof PimctlError ? e.format() : String(e);
    return {
      list: list.kind,
      how: "unreachable",
      evidence: [{ request: `GET ${list.path}?limit=${start}`, ...(status !== undefined ? { status } : {}), shows }],
    };
  }
  const accepted = first.accepted ?? start;
  const meta = metaOf(first.answer.json);
  const perPage = meta ? Number(meta.per_page) : undefined;
  if (accepted < start) {
    shown.push({ request: `GET ${list.path}?limit=${start}`, status: 422, shows: `refused, stepped down to limit=${accepted} as the reads do` });
    const largest = await narrow(ctx, list, accepted, refusedAbove(accepted, start), shown);
    shown.splice(1, 0, { request: `GET ${list.path}?limit=${largest}`, shows: `limit=${largest} taken` });
    return { list: list.kind, largest, how: "422-above", evidence: shown };
  }
  if (perPage === undefined || !Number.isFinite(perPage)) {
    shown.push(evidence(first.answer, `limit=${start} taken; no meta to tell whether it was clamped (${keysOf(first.answer.json)})`));
    return { list: list.kind, largest: start, how: "no-meta", evidence: shown };
  }
  shown.push(evidence(first.answer, `limit=${start} taken; meta.per_page: ${perPage}`));
  return { list: list.kind, largest: perPage, how: perPage < start ? "clamped" : "accepted", evidence: shown };
}

/** Every paged list's largest page (shared by the finding and the report's page sizes). */
export function pageSizes(ctx: DoctorContext): Promise<PageSize[]> {
  return ctx.memo("page-sizes", async () => {
    const out: PageSize[] = [];
    let guess: number | undefined;
    for (const list of PROBE_LISTS.filter((l) => l.paging === "paged" || l.paging === "changelog")) {
      const p = await largestPage(ctx, list, guess);
      if (p.how === "422-above") guess = p.largest;
      out.push(p);
    }
    return out;
  });
}

/**
 * maxPageSize: N when every paged list takes at most N (refusing a larger limit with 422, or cutting
 * it to N: oversizedLimit says which); the table's default (null) when they clamp at 1000.
 */
export async function detectMaxPageSize(ctx: DoctorContext): Promise<Verdict<number | undefined>> {
  const sizes = (await pageSizes(ctx)).filter((p) => p.how !== "no-meta" && p.how !== "unreachable");
  const evidenceOf = sizes.flatMap((p) => p.evidence.slice(0, 2));
  if (!sizes.length) return { outcome: "undetermined", why: "no paged list answered with meta", evidence: [] };
  const forms = new Set(sizes.map((p) => `${p.how}:${p.largest}`));
  const [only] = sizes;
  if (forms.size === 1 && only!.how === "422-above") return { outcome: "known", reading: only!.largest, evidence: evidenceOf };
  if (forms.size === 1 && only!.how === "clamped" && only!.largest! <= MAX_PAGE_LIMIT_CLAMP)
    return { outcome: "known", reading: only!.largest === MAX_PAGE_LIMIT_CLAMP ? undefined : only!.largest, evidence: evidenceOf };
  const seen = sizes.map((p) => `${p.list}: ${p.how === "refused" ? "every limit refused" : `${p.how} ${p.largest}`}`).join("; ");
  const refused = sizes.some((p) => p.how === "refused");
  return {
    outcome: "unknown",
    seen,
    pimctl: refused
      ? "pimctl cannot read a list that refuses every page size: plans stop with the tenant's 422"
      : "pimctl asks for 1000 a page (10,000 for the changelog), steps down on each 422 and keeps the smaller size for the run, and follows " +
        "meta.last_page whatever size comes back: reads stay whole, only the request count differs; no emulator reading does this",
    evidence: evidenceOf,
  };
}

/** paginateAllLists: whether the lists API v1 shows as one answer carry links or meta. */
export async function detectPaginateAllLists(ctx: DoctorContext): Promise<Verdict<boolean>> {
  const lists = [...ctx.lists.values()].filter((l) => l.list.paging === "unpaged" && l.answer);
  if (!lists.length) return { outcome: "undetermined", why: "no list API v1 shows unpaged could be read", evidence: [] };
  const shown = lists.map((l) => evidence(l.answer!, keysOf(l.answer!.json)));
  const bad = lists.find((l) => !ok(l.answer!) || !Array.isArray((l.answer!.json as Record<string, unknown> | null)?.[l.list.key]));
  if (bad) {
    return {
      outcome: "unknown",
      seen: `GET ${bad.list.path} answered ${bad.answer!.status} with ${keysOf(bad.answer!.json)}, not {${bad.list.key}: [...]}`,
      pimctl:
        `pimctl refuses to read ${bad.list.kind.replace("_", " ")} from it (api_protocol: the answer has no "${bad.list.key}" list): ` +
        "plan and apply stop there",
      evidence: shown,
    };
  }
  const paged = lists.filter((l) => hasPaging(l.answer!.json));
  if (paged.length === lists.length) return { outcome: "known", reading: true, evidence: shown };
  if (!paged.length) return { outcome: "known", reading: false, evidence: shown };
  return {
    outcome: "unknown",
    seen: `some of these lists come in pages (${paged.map((l) => l.list.kind).join(", ")}), the others in one answer`,
    pimctl: "pimctl follows pages wherever links or meta appear and reads the rest whole, so reads stay complete; no emulator reading mixes the two",
    evidence: shown,
  };
}

/** changelogPaging: links and meta on a page of one entry, or the first entries only and nothing saying more follow. */
export async function detectChangelogPaging(ctx: DoctorContext): Promise<Verdict<"links" | "capped">> {
  const list = PROBE_LISTS.find((l) => l.paging === "changelog")!;
  const one = await rawPage(ctx.api, list, 1);
  if (!ok(one)) return { outcome: "undetermined", why: `GET ${list.path}?limit=1 answered ${one.status}`, evidence: [evidence(one, `status ${one.status}`)] };
  const entries = recordsOf(one.json, list.key);
  if (hasPaging(one.json)) return { outcome: "known", reading: "links", evidence: [evidence(one, keysOf(one.json))] };
  if (!Array.isArray((one.json as Record<string, unknown> | null)?.[list.key]))
    return {
      outcome: "unknown",
      seen: `the changelog answered ${keysOf(one.json)}, not {changelogs: [...]}`,
      pimctl: "pimctl cannot read this feed: --refresh=changelog reads in full (plans are unaffected); drift cannot name when records changed",
      evidence: [evidence(one, keysOf(one.json))],
    };
  if (entries.length > 1)
    return {
      outcome: "unknown",
      seen: `limit=1 answered ${entries.length} entries and no paging`,
      pimctl: "pimctl cannot tell whether this feed was cut: --refresh=changelog falls back to full reads when an answer may be cut",
      evidence: [evidence(one, `${entries.length} entries, ${keysOf(one.json)}`)],
    };
  if (!entries.length) return { outcome: "undetermined", why: "the changelog is empty", evidence: [evidence(one, "0 entries, no links or meta")] };
  const two = await rawPage(ctx.api, list, 2);
  const shown = [evidence(one, `1 entry, ${keysOf(one.json)}`), evidence(two, `${recordsOf(two.json, list.key).length} entries, ${keysOf(two.json)}`)];
  if (recordsOf(two.json, list.key).length === 2 && !hasPaging(two.json)) return { outcome: "known", reading: "capped", evidence: shown };
  return { outcome: "undetermined", why: "the changelog holds one entry: whether a longer feed would say more follow cannot be seen", evidence: shown };
}
