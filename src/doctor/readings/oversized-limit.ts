/**
 * oversizedLimit: what a `limit` above the largest page a list takes gets. The page-size search
 * (paging.ts) already asked for more than each list takes; a 422 just above the largest page is
 * a refusal. A 200 whose meta.per_page is smaller than the limit sent is a cut, and one more
 * request shows it on the list with the most records: a limit one above that size answers that
 * many records, with more pages to follow when the list holds more. Where every list clamps at
 * 1000 (maxPageSize's default) both readings answer alike, so neither is named.
 */
import { PROBE_LISTS, rawPage } from "../../api/probes.js";
import { evidence, metaOf, recordsOf, type DoctorContext } from "../context.js";
import { MAX_PAGE_LIMIT_CLAMP } from "../vocabulary.js";
import type { PageSize, Verdict } from "../types.js";
import { pageSizes } from "./paging.js";

type Oversized = "refuse" | "clamp";

const more = (json: unknown) => {
  const next = (json as { links?: { next?: unknown } } | null)?.links?.next;
  return typeof next === "string" && next !== "";
};

/** The clamped list holding the most records, as its first page (doctor's first read of it) says: meta.total, else pages to follow. */
function fullestList(ctx: DoctorContext, clamped: PageSize[]) {
  const sizeOf = (kind: string) => {
    const l = ctx.lists.get(kind);
    const total = Number(metaOf(l?.answer?.json)?.total);
    return Number.isFinite(total) ? total : (l?.records.length ?? 0) + (more(l?.answer?.json) ? 1 : 0);
  };
  const kind = [...clamped].sort((a, b) => sizeOf(b.list) - sizeOf(a.list) || a.list.localeCompare(b.list))[0]!.list;
  return PROBE_LISTS.find((l) => l.kind === kind)!;
}

/** A limit one above the size the lists clamp to: taken and cut to that size (clamp), or refused. */
async function confirmClamp(ctx: DoctorContext, clamped: PageSize[], size: number): Promise<Verdict<Oversized>> {
  const list = fullestList(ctx, clamped);
  const a = await rawPage(ctx.api, list, size + 1);
  const meta = metaOf(a.json);
  const listed = recordsOf(a.json, list.key).length;
  const total = Number(meta?.total);
  const cut =
    Number.isFinite(total) && total > listed
      ? `${listed} records of meta.total ${total}, more pages to follow`
      : more(a.json)
        ? `${listed} records, links.next to more`
        : `${listed} records (the whole list)`;
  const shown = [...clamped.flatMap((p) => p.evidence.slice(0, 1)), evidence(a, `limit=${size + 1} taken: ${cut}; meta.per_page: ${String(meta?.per_page)}`)];
  if (a.status < 300 && listed <= size && Number(meta?.per_page) === size) return { outcome: "known", reading: "clamp", evidence: shown };
  return {
    outcome: "unknown",
    seen:
      `a limit far above ${size} came back as ${size} a page, but limit=${size + 1} answered ${a.status} ` +
      `with ${listed} records and meta.per_page ${String(meta?.per_page)}`,
    pimctl:
      "pimctl never takes a short answer for a list's end (it follows meta.last_page and checks meta.total), so reads stay whole or stop " +
      "with the tenant's answer; no emulator reading does this",
    evidence: shown,
  };
}

export async function detectOversizedLimit(ctx: DoctorContext): Promise<Verdict<Oversized>> {
  const sizes = (await pageSizes(ctx)).filter((p) => p.how === "422-above" || p.how === "clamped");
  if (!sizes.length) return { outcome: "undetermined", why: "no paged list answered a limit above its largest page with 422 or with meta", evidence: [] };
  const refused = sizes.filter((p) => p.how === "422-above");
  const clamped = sizes.filter((p) => p.how === "clamped");
  if (refused.length && clamped.length)
    return {
      outcome: "unknown",
      seen: `${refused.map((p) => p.list).join(", ")} refuse a larger limit (422); ${clamped.map((p) => p.list).join(", ")} cut it without a word`,
      pimctl: "pimctl steps down on each 422 and follows meta.last_page whatever size comes back, so reads stay whole; no emulator reading mixes the two",
      evidence: sizes.flatMap((p) => p.evidence.slice(0, 2)),
    };
  // The step just above the largest page (the page-size search's last request) shows the 422.
  if (refused.length) return { outcome: "known", reading: "refuse", evidence: refused.flatMap((p) => p.evidence.filter((e) => e.status === 422).slice(-1)) };
  const cut = new Set(clamped.map((p) => p.largest));
  if (cut.size === 1 && clamped[0]!.largest === MAX_PAGE_LIMIT_CLAMP)
    return {
      outcome: "undetermined",
      why:
        `every paged list cuts a larger limit to ${MAX_PAGE_LIMIT_CLAMP} (maxPageSize's default), where both readings answer alike: ` +
        `pimctl asks for ${MAX_PAGE_LIMIT_CLAMP} a page and follows meta.last_page either way`,
      candidates: ["refuse", "clamp"],
      evidence: clamped.flatMap((p) => p.evidence.slice(0, 1)),
    };
  if (cut.size > 1)
    return {
      outcome: "unknown",
      seen: `the lists cut a larger limit to different sizes: ${clamped.map((p) => `${p.list} ${String(p.largest)}`).join(", ")}`,
      pimctl: "pimctl follows meta.last_page whatever size comes back, so reads stay whole; no emulator reading cuts lists to different sizes",
      evidence: clamped.flatMap((p) => p.evidence.slice(0, 1)),
    };
  return confirmClamp(ctx, clamped, clamped[0]!.largest!);
}
