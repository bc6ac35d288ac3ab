/**
 * The requests `pimctl doctor` sends to learn how a tenant reads API v1, answered raw: the
 * status, the headers and the body as the tenant wrote it (never coerced by wire.ts, since the
 * wire form is what doctor looks at). Paths and envelope keys stay here, in the client; the
 * readings are decided in src/doctor/. Every request goes through the request core (retries,
 * the concurrency limit, the 401 stop, the exchange recorder).
 */
import type { ApiCore } from "./core.js";
import { getLimited } from "./lists.js";

/** One request and its answer, as the tenant wrote it. */
export interface RawAnswer {
  method: string;
  /** Below the tenant's base URL, query included. */
  path: string;
  body?: unknown;
  status: number;
  headers: Record<string, string | string[] | undefined>;
  text: string;
  /** The parsed body; undefined when empty or not JSON (`notJson` says which). */
  json: unknown;
  notJson: boolean;
  ms: number;
}

/** How each list is read: its path, its envelope key, and whether API v1 shows it paged. */
export interface ProbeList {
  kind: string;
  path: string;
  key: string;
  /**
   * "paged": links and meta documented, with `limit`; "fixed": paged at a documented size, no `limit` (generic entities);
   * "unpaged": one answer documented; "changelog": paged with only `limit` named.
   */
  paging: "paged" | "fixed" | "unpaged" | "changelog";
}

export const PROBE_LISTS: readonly ProbeList[] = [
  { kind: "attributes", path: "/attributes", key: "attributes", paging: "unpaged" },
  { kind: "attribute_sets", path: "/attribute_sets", key: "attribute_sets", paging: "unpaged" },
  { kind: "blocks", path: "/blocks", key: "blocks", paging: "unpaged" },
  { kind: "brands", path: "/brands", key: "brands", paging: "paged" },
  { kind: "categories", path: "/categories", key: "categories", paging: "paged" },
  { kind: "channels", path: "/channels", key: "channels", paging: "unpaged" },
  { kind: "display_groups", path: "/display-groups", key: "display_groups", paging: "unpaged" },
  { kind: "generic_entities", path: "/generic-entities", key: "generic_entities", paging: "fixed" },
  { kind: "changelogs", path: "/changelogs", key: "changelogs", paging: "changelog" },
];

/** The exact-match search endpoints: path and the envelope key of a hit. */
export const PROBE_SEARCHES = {
  brands: { path: "/brands/search", key: "brand" },
  attributes: { path: "/attributes/search", key: "attribute" },
  attribute_sets: { path: "/attribute_sets/search", key: "attribute_set" },
} as const;
export type SearchKind = keyof typeof PROBE_SEARCHES;

function rawOf(method: string, path: string, body: unknown, r: { status: number; headers: RawAnswer["headers"]; text: string }, ms: number): RawAnswer {
  let json: unknown;
  let notJson = false;
  if (r.text.trim()) {
    try {
      json = JSON.parse(r.text);
    } catch {
      notJson = true;
    }
  }
  return { method, path, ...(body !== undefined ? { body } : {}), status: r.status, headers: r.headers, text: r.text, json, notJson, ms };
}

/** Any request, answered raw (a 401, a 429 or a 5xx after the retries still throws, as for every read). */
export async function rawRequest(core: ApiCore, method: string, path: string, body?: unknown): Promise<RawAnswer> {
  const t0 = Date.now();
  const r = await core.request(method, path, body, { answerAll: true, ...(method === "POST" ? { retryPost: true } : {}) });
  return rawOf(method, path, body, r, Date.now() - t0);
}

/**
 * A list's first page with `limit` (none for a list shown unpaged), stepping down on 422 as
 * the reads do (lists.ts getLimited); the refusals are in the exchanges. `accepted` is the
 * limit the answer came for.
 */
export async function rawFirstPage(core: ApiCore, list: ProbeList, limit: number | undefined): Promise<{ answer: RawAnswer; accepted?: number }> {
  if (limit === undefined) return { answer: await rawRequest(core, "GET", list.path) };
  const t0 = Date.now();
  const { r, full, limit: accepted } = await getLimited(core, list.path, { limit, page: 1 }, () => undefined);
  return { answer: rawOf("GET", full, undefined, r, Date.now() - t0), ...(accepted !== undefined ? { accepted } : {}) };
}

/** One page of a list at exactly this `limit`: a 422 is an answer here (the page-size search). */
export function rawPage(core: ApiCore, list: ProbeList, limit: number, extra: Record<string, string> = {}): Promise<RawAnswer> {
  const q = new URLSearchParams({ ...extra, limit: String(limit) });
  return rawRequest(core, "GET", `${list.path}?${q.toString()}`);
}

export function rawSearch(core: ApiCore, kind: SearchKind, name: string): Promise<RawAnswer> {
  return rawRequest(core, "POST", PROBE_SEARCHES[kind].path, { name });
}

/** The attribute list in a language version (API v1: GET /attributes/version/<VERSION_ID>). */
export function rawAttributesInVersion(core: ApiCore, versionId: number): Promise<RawAnswer> {
  return rawRequest(core, "GET", `/attributes/version/${versionId}`);
}

/**
 * The changelog's first page for a query (`entity_type`, `updated_at`), stepping down on 422 from
 * `limit` as the reads do; `accepted` is the limit the answer came for (the next pages ask for it).
 */
export async function rawChangelogPage(core: ApiCore, query: Record<string, string>, limit: number): Promise<{ answer: RawAnswer; accepted: number }> {
  const t0 = Date.now();
  const { r, full, limit: accepted } = await getLimited(core, "/changelogs", { ...query, limit }, () => undefined);
  return { answer: rawOf("GET", full, undefined, r, Date.now() - t0), accepted: accepted ?? limit };
}

/** The changelog's first page since a time, of one entity type (a probe's deletes), stepping down on 422. */
export async function rawChangelogSince(core: ApiCore, since: string, entityType: string): Promise<RawAnswer> {
  return (await rawChangelogPage(core, { updated_at: since, entity_type: entityType }, 1000)).answer;
}

/** A category by id, raw: after a delete, 404 says it is gone. */
export function rawCategory(core: ApiCore, id: number): Promise<RawAnswer> {
  return rawRequest(core, "GET", `/categories/${id}`);
}

/** DELETE of a category, raw: a 422 (or another refusal) is the answer doctor wants to see. */
export function rawDeleteCategory(core: ApiCore, id: number): Promise<RawAnswer> {
  return rawRequest(core, "DELETE", `/categories/${id}`);
}

/** DELETE /attribute_sets/<SET>/attributes/<ID> with the id doctor chooses, raw. */
export function rawDeleteSetMember(core: ApiCore, setId: number, id: number): Promise<RawAnswer> {
  return rawRequest(core, "DELETE", `/attribute_sets/${setId}/attributes/${id}`);
}
