/**
 * How the emulator writes values on the wire, for the readings API v1 allows
 * but does not pin down: booleans (`--bool-format`), ids (`--id-format`),
 * dates (`--date-format`), and paging of lists the document shows unpaginated
 * (`--paginate-all-lists`). Handlers build answers in one canonical form; this
 * turns them into the chosen reading just before they are sent. Its field lists
 * are the emulator's own (not pimctl's table), so a field pimctl forgets shows.
 */

export type BoolFormat = "document" | "int" | "string" | "bool";
export type IdFormat = "number" | "string";
export type DateFormat = "document" | "iso-z" | "iso-offset" | "sql";

/** Fields the document types as boolean. */
const BOOLEAN_FIELDS = new Set([
  "publish",
  "excluded",
  "is_visible",
  "is_smart",
  "in_navigation",
  "thumbnail",
  "sync",
  "is_tree",
  "is_product_attribute",
  "publishable",
  "display_on_navigation",
]);
/** Fields the document says are "returned as 1 or 0": `bool` leaves them so. */
const DOCUMENTED_01 = new Set(["thumbnail", "is_tree", "is_product_attribute", "publishable", "display_on_navigation"]);
const DATE_FIELDS = new Set(["created_at", "updated_at", "exclusion_start_date", "exclusion_end_date"]);
const isIdField = (k: string) => k === "id" || k.endsWith("_id");

export interface WireFormat {
  bool: BoolFormat;
  id: IdFormat;
  date: DateFormat;
}

function formatBool(k: string, v: unknown, f: BoolFormat): unknown {
  if (f === "document" || (v !== true && v !== false && v !== 0 && v !== 1)) return v;
  const b = v === true || v === 1;
  if (f === "int") return b ? 1 : 0;
  if (f === "string") return b ? "1" : "0";
  return DOCUMENTED_01.has(k) ? (b ? 1 : 0) : b;
}

/** Milliseconds of a datetime in any of the forms above; one without a zone is UTC. NaN if none. */
export function parseUtc(v: string): number {
  const zoned = /(?:[zZ]|[+-]\d{2}:?\d{2})$/.test(v);
  return Date.parse(zoned || !/\d{2}:\d{2}/.test(v) ? v : `${v.replace(" ", "T")}Z`);
}

/** "2026-01-02T03:04:05Z" in the chosen form; text that is not a datetime is left alone. */
export function formatDate(v: unknown, f: DateFormat): unknown {
  if (f === "document" || typeof v !== "string") return v;
  const t = parseUtc(v);
  if (Number.isNaN(t)) return v;
  const iso = new Date(t).toISOString(); // 2026-01-02T03:04:05.000Z
  if (f === "iso-z") return iso;
  if (f === "iso-offset") return `${iso.slice(0, 19)}+00:00`;
  return `${iso.slice(0, 10)} ${iso.slice(11, 19)}`;
}

/** Applies the formats to a whole answer (records nest: type values in attributes, assets in categories). */
export function toWire(body: unknown, f: WireFormat, key?: string): unknown {
  if (Array.isArray(body)) {
    // attribute_sets as ids (or any id list) follow --id-format too.
    if (key === "attribute_sets" && f.id === "string") return body.map((x) => (typeof x === "number" ? String(x) : toWire(x, f)));
    return body.map((x) => toWire(x, f));
  }
  if (body === null || typeof body !== "object") return body;
  const out: Record<string, unknown> = {};
  for (const [k, v] of Object.entries(body as Record<string, unknown>)) {
    if (k === "links" || k === "meta") out[k] = v;
    else if (BOOLEAN_FIELDS.has(k)) out[k] = formatBool(k, v, f.bool);
    else if (DATE_FIELDS.has(k)) out[k] = formatDate(v, f.date);
    else if (isIdField(k) && typeof v === "number" && f.id === "string") out[k] = String(v);
    else out[k] = toWire(v, f, k);
  }
  return out;
}

/** GET routes whose answers the document shows as one unpaginated list, and the list's key. */
export const UNPAGINATED_LISTS: Readonly<Record<string, string>> = {
  "/attributes": "attributes",
  "/attributes/version/:version": "attributes",
  "/attributes/:id/type_values": "attribute_type_values",
  "/attributes/:id/type_values/version/:version": "attribute_type_values",
  "/attribute_sets": "attribute_sets",
  "/attribute_sets/:id/attributes": "attribute_set_attributes",
  "/blocks": "blocks",
  "/blocks/:id/assets": "block_assets",
  "/brands/:owner/assets": "brand_assets",
  "/brands/:id/attributes": "brand_attributes",
  "/categories/:owner/assets": "category_assets",
  "/channels": "channels",
  "/display-groups": "display_groups",
};

/** `--paginate-all-lists`: such a list answers 25 records a page, with links and meta like brands. */
export function paginateList(body: unknown, key: string, query: URLSearchParams, pageUrl: (page: number) => string, perPage = 25): unknown {
  const items = (body as Record<string, unknown> | null)?.[key];
  if (!Array.isArray(items)) return body;
  const raw = Number(query.get("page") ?? "1");
  const page = Number.isInteger(raw) && raw >= 1 ? raw : 1;
  const lastPage = Math.max(1, Math.ceil(items.length / perPage));
  const from = (page - 1) * perPage;
  const slice = items.slice(from, from + perPage);
  return {
    ...(body as object),
    [key]: slice,
    links: { first: pageUrl(1), last: pageUrl(lastPage), prev: page > 1 ? pageUrl(page - 1) : null, next: page < lastPage ? pageUrl(page + 1) : null },
    meta: {
      current_page: page,
      from: slice.length ? from + 1 : null,
      last_page: lastPage,
      path: pageUrl(1).split("?")[0],
      per_page: perPage,
      to: slice.length ? from + slice.length : null,
      total: items.length,
    },
  };
}
