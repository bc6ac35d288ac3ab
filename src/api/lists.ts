/**
 * List reads over the request core: paged lists read whole and checked against
 * `meta.total` (readAll), a 422 for the page size stepped down, lists the document shows
 * unpaginated followed when a tenant pages them anyway, and next-page addresses kept on
 * the tenant's origin.
 */
import { PimctlError } from "../errors.js";
import type * as T from "./types.js";
import type { ApiCore } from "./core.js";
import type { Attempt } from "./attempt.js";

type Query = Record<string, string | number | undefined>;

/** Page sizes tried, largest first, when the tenant refuses a `limit` with 422 (the changelog starts above the other lists). */
export const PAGE_SIZES = [5000, 2500, 1000, 500, 250, 100, 50, 25, 10, 5, 1];

export function pageMeta(v: unknown): T.PageMeta | undefined {
  if (v === null || typeof v !== "object") return undefined;
  const m = v as Record<string, unknown>;
  const n = (x: unknown) => (x === null || x === undefined ? null : Number(x));
  if (n(m.last_page) === null || n(m.total) === null) return undefined;
  return {
    ...(m as object),
    current_page: n(m.current_page) ?? 1,
    last_page: n(m.last_page)!,
    total: n(m.total)!,
    per_page: n(m.per_page) ?? 0,
    from: n(m.from),
    to: n(m.to),
  } as T.PageMeta;
}

export function nextLink(v: unknown): string | undefined {
  const next = v !== null && typeof v === "object" ? (v as { next?: unknown }).next : undefined;
  return typeof next === "string" && next ? next : undefined;
}

/** First occurrence of each id wins; records without an id are kept. */
function dedupeById<R>(items: R[]): R[] {
  const seen = new Set<unknown>();
  return items.filter((x) => {
    const id = x !== null && typeof x === "object" ? (x as { id?: unknown }).id : undefined;
    if (id === undefined) return true;
    if (seen.has(id)) return false;
    seen.add(id);
    return true;
  });
}

/**
 * A list the document shows unpaginated. A tenant may page it anyway (links and
 * meta present): follow `links.next` (or count pages by meta) and dedupe by id,
 * so nothing is read twice or left out.
 */
export async function getList<R>(core: ApiCore, path: string, key: string, opts: { allow404?: boolean } = {}): Promise<R[]> {
  const r = await core.request("GET", path, undefined, opts.allow404 ? { allow404: true } : {});
  if (r.status === 404) return [];
  const data = core.parse<Record<string, unknown> | null>("GET", path, r);
  const first = data?.[key];
  if (!Array.isArray(first)) throw new PimctlError("api_protocol", `the answer has no "${key}" list`, { request: core.info("GET", path, r.status) });
  const meta = pageMeta(data?.meta);
  const next = nextLink(data?.links);
  if (!meta && !next) return first as R[];
  const pages = [first, ...(await laterPages(core, path, key, meta, next))];
  const all = dedupeById(pages.flat() as R[]);
  if (meta && all.length < meta.total) {
    throw new PimctlError(
      "api_protocol",
      `${key}: the tenant reported ${meta.total} records but its pages held ${all.length}; refusing to work from a truncated list`,
      {
        request: core.info("GET", path),
      },
    );
  }
  return all;
}

/** The pages after the first, by `links.next` (or by counting pages from meta), each checked to hold the list. */
async function laterPages(core: ApiCore, path: string, key: string, meta: T.PageMeta | undefined, next: string | undefined): Promise<unknown[][]> {
  const pages: unknown[][] = [];
  let current = meta?.current_page ?? 1;
  let nextPath = next ? sameTenantPath(core, next, path) : undefined;
  for (let guard = 0; guard < 10_000; guard++) {
    if (!nextPath && meta && current < meta.last_page) nextPath = `${path}${path.includes("?") ? "&" : "?"}page=${current + 1}`;
    if (!nextPath) break;
    const page = core.parse<Record<string, unknown> | null>("GET", nextPath, await core.request("GET", nextPath));
    const items = page?.[key];
    if (!Array.isArray(items)) throw new PimctlError("api_protocol", `page ${current + 1} has no "${key}" list`, { request: core.info("GET", nextPath) });
    pages.push(items);
    const pageMetaRead = pageMeta(page?.meta);
    current = pageMetaRead?.current_page ?? current + 1;
    const n = nextLink(page?.links);
    nextPath = n ? sameTenantPath(core, n, path) : undefined;
    if (!n && !pageMetaRead) break;
    if (!n && (pageMetaRead?.last_page ?? 0) <= current) break;
  }
  return pages;
}

/** A `links.next` address as a path below the tenant base; another origin is refused loudly. */
export function sameTenantPath(core: ApiCore, link: string, forPath: string): string {
  let next: URL;
  try {
    next = new URL(link, core.baseUrl);
  } catch {
    throw new PimctlError("api_protocol", `the next-page address "${link}" is not a URL`, { request: core.info("GET", forPath) });
  }
  const base = new URL(core.baseUrl);
  if (next.origin !== base.origin || !next.pathname.startsWith(core.basePath)) {
    throw new PimctlError("api_protocol", `the next-page address points outside the tenant (${next.origin}); refusing to follow it with the tenant's token`, {
      request: core.info("GET", forPath),
    });
  }
  return next.pathname.slice(core.basePath.length) + next.search;
}

/**
 * A GET of a list with `limit` in its query. The largest page size is not in the document:
 * a 422 steps the limit down through PAGE_SIZES until the tenant takes one, and `keep` is
 * told each smaller size so the run asks for it from then on. `requests` counts the refusals too.
 */
export async function getLimited(
  core: ApiCore,
  path: string,
  query: Query,
  keep: (limit: number) => void,
): Promise<{ r: Attempt; full: string; limit: number | undefined; requests: number }> {
  for (let requests = 1; ; requests++) {
    const q = new URLSearchParams();
    for (const [k, v] of Object.entries(query)) if (v !== undefined) q.set(k, String(v));
    const full = q.size ? `${path}?${q.toString()}` : path;
    const r = await core.request("GET", full, undefined, { allow422: query.limit !== undefined });
    if (r.status !== 422) return { r, full, limit: query.limit === undefined ? undefined : Number(query.limit), requests };
    const limit = Number(query.limit);
    const smaller = PAGE_SIZES.find((n) => n < limit);
    if (smaller === undefined) throw core.httpError("GET", full, r);
    core.log?.(`GET ${path}: limit=${limit} refused (422); using limit=${smaller} for this tenant from now on`);
    keep(smaller);
    query = { ...query, limit: smaller };
  }
}

export async function page<R>(core: ApiCore, path: string, key: string, query: Query): Promise<T.Page<R>> {
  const { r, full, limit } = await getLimited(core, path, query, (smaller) => {
    if (core.pageLimit > smaller) core.pageLimit = smaller;
  });
  const data = core.parse<Record<string, unknown>>("GET", full, r);
  const items = data[key];
  const meta = pageMeta(data.meta);
  if (!Array.isArray(items) || !meta)
    throw new PimctlError("api_protocol", `the page has no "${key}" list or meta`, { request: core.info("GET", path, r.status) });
  return { items: items as R[], links: data.links as T.PageLinks, meta: meta as T.PageMeta, limit: limit ?? meta.per_page };
}

/**
 * Every page, read so that a concurrent writer cannot make pimctl miss or
 * double a record: records are deduped by id, and the count is checked against
 * `meta.total` (first and last page must agree too); on a mismatch the whole
 * list is read again, up to three times. `complete: false` says the list kept
 * changing: the caller must not conclude that a record is absent.
 */
export async function readAll<R extends { id: number }>(core: ApiCore, path: string, key: string, query: Query, first?: T.Page<R>): Promise<T.ListRead<R>> {
  let problem = "";
  let union: R[] = [];
  for (let round = 0; round < 3; round++) {
    const head = round === 0 && first ? first : await page<R>(core, path, key, { ...query, limit: query.limit ?? core.pageLimit, page: 1 });
    const limit = head.limit;
    const rest = await Promise.all(
      Array.from({ length: Math.max(0, head.meta.last_page - 1) }, (_, i) => page<R>(core, path, key, { ...query, limit, page: i + 2 })),
    );
    const pages = [head, ...rest];
    const items = dedupeById(pages.flatMap((p) => p.items));
    const totals = new Set(pages.map((p) => p.meta.total));
    const raw = pages.reduce((n, p) => n + p.items.length, 0);
    union = dedupeById([...union, ...items]);
    if (totals.size === 1 && items.length === head.meta.total && raw === items.length) return { items, complete: true, pages: pages.length };
    problem = `${path} changed while it was read: meta.total ${[...totals].join(" then ")}, ${raw} records on the pages, ${items.length} distinct`;
    core.log?.(`GET ${path}: ${problem}; reading it again`);
  }
  return { items: union, complete: false, problem, pages: 0 };
}

/** Every page as a plain array; throws when the list would not hold still. */
export async function all<R extends { id: number }>(core: ApiCore, path: string, key: string, query: Query): Promise<R[]> {
  const read = await readAll<R>(core, path, key, query);
  if (!read.complete)
    throw new PimctlError("api_protocol", `${read.problem}; three reads did not agree, try again when the tenant is quieter`, {
      request: core.info("GET", path),
    });
  return read.items;
}
