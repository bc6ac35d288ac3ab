/**
 * The API v1 routes: path pattern -> handler. Handlers parse and check the
 * request, call the TenantStore, and shape responses exactly as the API
 * document states (envelope keys, 1/0 booleans where stated, pagination).
 */
import {
  BRAND_FIELDS,
  CATEGORY_TEXT,
  HttpError,
  notFound,
  unprocessable,
  type AssetRec,
  type AttributeRec,
  type BrandRec,
  type CategoryRec,
  type TenantStore,
  type TypeValueRec,
} from "./store.js";
import { parseUtc, type BoolFormat, type DateFormat, type IdFormat } from "./wire-format.js";

export interface EmulatorSwitches {
  /** Read shape of category.attribute_sets: [{id,name}] (default), [id] or "1,2". Writes always take ids. */
  categoryAttributeSetsRead: "objects" | "ids" | "csv";
  /** Asset uri: the emulator's own address (default), or the image_url given. */
  assetUri: "rehost" | "echo";
  /** Exact-match search: case-sensitive (default) or not. */
  searchCase: "sensitive" | "insensitive";
  /** Version reads fall back to master text where no translation exists (default true). */
  versionFallback: boolean;
  /** DELETE of a category with children: refuse with 422 (default) or delete the subtree. */
  categoryDeleteWithChildren: "refuse" | "cascade";
  /** A cascaded category delete: a changelog entry for every category (default) or only for the one deleted. */
  changelogSubtreeDeletes: "each" | "root";
  /** The changelog list: paged with links and meta (default), or only the first `limit` entries and no paging at all. */
  changelogPaging: "links" | "capped";
  /** Booleans on the wire: as the document shows them (default: 1/0 where it says so), or all 1/0, "1"/"0", true/false. */
  boolFormat: BoolFormat;
  /** Ids on the wire: numbers (default) or numeric strings. */
  idFormat: IdFormat;
  /** One id sequence per table (default, as a database) or one for all tables. */
  idSequence: "per-table" | "global";
  /** Which id DELETE /attribute_sets/<S>/attributes/<ID> takes: the assignment row's (default) or the attribute's. */
  setAttributeDeleteId: "assignment" | "attribute";
  /** How an exact-match search says "nothing": an empty 200 body (default), 404, 200 [] or 200 null. */
  searchEmpty: "empty-body" | "404" | "empty-array" | "null";
  /** A `limit` above this answers 422; undefined: larger values are clamped to 1000. */
  maxPageSize: number | undefined;
  /** Lists the document shows unpaginated answer 25 a page with links and meta. */
  paginateAllLists: boolean;
  /** Dates on the wire: as stored (default, ISO 8601 with Z, no milliseconds), or iso-z (with ms), iso-offset (+00:00), sql. */
  dateFormat: DateFormat;
  /** file_url serves the file (default) or redirects to a second address (object storage) that refuses the tenant token. */
  exportDownload: "direct" | "redirect";
}

export const DEFAULT_SWITCHES: EmulatorSwitches = {
  categoryAttributeSetsRead: "objects",
  assetUri: "rehost",
  searchCase: "sensitive",
  versionFallback: true,
  categoryDeleteWithChildren: "refuse",
  changelogSubtreeDeletes: "each",
  changelogPaging: "links",
  boolFormat: "document",
  idFormat: "number",
  idSequence: "per-table",
  setAttributeDeleteId: "assignment",
  searchEmpty: "empty-body",
  maxPageSize: undefined,
  paginateAllLists: false,
  dateFormat: "document",
  exportDownload: "direct",
};

/** A search without a match, in the reading `--search-empty` names. */
function searchMiss(c: RequestContext): Reply {
  switch (c.switches.searchEmpty) {
    case "404":
      throw notFound("Record");
    case "empty-array":
      return { status: 200, body: [] };
    case "null":
      return { status: 200, body: null };
    default:
      return { status: 200 };
  }
}

/** Largest accepted `limit`; larger values are clamped. */
export const MAX_LIMIT = 1000;

export interface RequestContext {
  store: TenantStore;
  method: string;
  params: Record<string, string>;
  query: URLSearchParams;
  /** Parsed JSON body; undefined when empty; `invalidJson` when it did not parse. */
  body: unknown;
  invalidJson: boolean;
  /** Absolute URL of the tenant base (…/<hash>/api/v1), for links and file urls. */
  baseUrl: string;
  /** The emulator origin (http://127.0.0.1:PORT), for re-hosted asset uris. */
  origin: string;
  switches: EmulatorSwitches;
  exportStepMs: number;
}

export interface Reply {
  status: number;
  /** undefined = no body. */
  body?: unknown;
}

type Handler = (c: RequestContext) => Reply;

export interface Route {
  method: string;
  pattern: string;
  segments: string[];
  handler: Handler;
  /** Whether it writes (drop_after_commit and persistence care). */
  write: boolean;
  /** Always 501 in API v1, on every tenant and for every token. */
  notImplemented: boolean;
}

const ok = (body: unknown, status = 200): Reply => ({ status, body });
const noContent: Reply = { status: 204 };
const notImplemented = (): Reply => ({ status: 501, body: { message: "Not implemented." } });

// ------------------------------------------------------------- validation

function bodyObject(c: RequestContext): Record<string, unknown> {
  if (c.invalidJson) throw new HttpError(400, { message: "The request body is not valid JSON." });
  if (c.body === undefined) return {};
  if (c.body === null || typeof c.body !== "object" || Array.isArray(c.body)) throw new HttpError(422, { message: "The request body must be a JSON object." });
  return c.body as Record<string, unknown>;
}

type Kind = "string" | "nullable-string" | "int" | "nullable-int" | "bool" | "int-array";

function pick(b: Record<string, unknown>, spec: Record<string, Kind>, required: string[] = []): Record<string, unknown> {
  const out: Record<string, unknown> = {};
  for (const r of required) {
    if (b[r] === undefined || b[r] === null || b[r] === "") throw unprocessable(r, `The ${r} field is required.`);
  }
  for (const [k, kind] of Object.entries(spec)) {
    const v = b[k];
    if (v === undefined) continue;
    const bad = () => unprocessable(k, `The ${k} field has the wrong type (expected ${kind}).`);
    switch (kind) {
      case "string":
        if (typeof v !== "string") throw bad();
        break;
      case "nullable-string":
        if (v !== null && typeof v !== "string") throw bad();
        break;
      case "int":
        if (!Number.isInteger(v)) throw bad();
        break;
      case "nullable-int":
        if (v !== null && !Number.isInteger(v)) throw bad();
        break;
      case "bool":
        if (typeof v !== "boolean" && v !== 0 && v !== 1) throw bad();
        out[k] = v === true || v === 1;
        continue;
      case "int-array":
        if (!Array.isArray(v) || v.some((x) => !Number.isInteger(x))) throw bad();
        break;
    }
    out[k] = v;
  }
  return out;
}

function intParam(c: RequestContext, name: string): number {
  const v = Number(c.params[name]);
  if (!Number.isSafeInteger(v) || v < 0) throw notFound("Record");
  return v;
}

function pageParams(c: RequestContext, defaultLimit: number): { page: number; limit: number } {
  const rawPage = Number(c.query.get("page") ?? "1");
  const rawLimit = Number(c.query.get("limit") ?? String(defaultLimit));
  const page = Number.isInteger(rawPage) && rawPage >= 1 ? rawPage : 1;
  const max = c.switches.maxPageSize;
  if (max !== undefined && Number.isInteger(rawLimit) && rawLimit > max) throw unprocessable("limit", `The limit may not be greater than ${max}.`);
  const limit = Number.isInteger(rawLimit) && rawLimit >= 1 ? Math.min(rawLimit, MAX_LIMIT) : defaultLimit;
  return { page, limit };
}

/** Laravel-style pagination: links with absolute page addresses, meta with counts. */
function paginate<T>(c: RequestContext, path: string, items: T[], defaultLimit: number): { items: T[]; links: unknown; meta: unknown } {
  const { page, limit } = pageParams(c, defaultLimit);
  const total = items.length;
  const lastPage = Math.max(1, Math.ceil(total / limit));
  const from = (page - 1) * limit;
  const slice = items.slice(from, from + limit);
  const url = (p: number) => {
    const q = new URLSearchParams(c.query);
    q.set("page", String(p));
    return `${c.baseUrl}${path}?${q.toString()}`;
  };
  return {
    items: slice,
    links: { first: url(1), last: url(lastPage), prev: page > 1 ? url(page - 1) : null, next: page < lastPage ? url(page + 1) : null },
    meta: {
      current_page: page,
      from: slice.length ? from + 1 : null,
      last_page: lastPage,
      path: `${c.baseUrl}${path}`,
      per_page: limit,
      to: slice.length ? from + slice.length : null,
      total,
    },
  };
}

const same = (c: RequestContext, a: string, b: string) => (c.switches.searchCase === "insensitive" ? a.toLowerCase() === b.toLowerCase() : a === b);

// ------------------------------------------------------------- serialisers

function typeValueJson(tv: TypeValueRec, version: number | undefined, fallback: boolean): Record<string, unknown> | undefined {
  const base = { attribute_id: tv.attribute_id, slug: tv.slug, sort_order: tv.sort_order, created_at: tv.created_at, updated_at: tv.updated_at };
  if (!version) return { id: tv.id, ...base, value: tv.value, version_id: 0 };
  const v = tv.versions[version];
  if (!v && !fallback) return undefined;
  return { id: v?.id ?? tv.id, ...base, value: v?.value ?? tv.value, version_id: version, master_attribute_type_value_id: tv.id };
}

function attributeJson(c: RequestContext, a: AttributeRec, version?: number, withDetails = true): Record<string, unknown> {
  const v = version ? a.versions[version] : undefined;
  const fb = c.switches.versionFallback;
  const dg = a.display_group_id === null ? undefined : c.store.displayGroups.get(a.display_group_id);
  return {
    id: a.id,
    name: version ? (v?.name ?? (fb ? a.name : null)) : a.name,
    type: a.type,
    slug: a.slug,
    ...(withDetails ? { note: version ? (v?.note !== undefined ? v.note : fb ? a.note : null) : a.note, length: a.length } : {}),
    display_group_id: a.display_group_id,
    display_group_name: dg?.name ?? null,
    sort_order: a.sort_order,
    publish: a.publish,
    version_id: version ?? 0,
    typeValuesArray: c.store
      .typeValuesOf(a.id)
      .map((tv) => typeValueJson(tv, version, fb))
      .filter((x) => x !== undefined),
    created_at: a.created_at,
    updated_at: a.updated_at,
  };
}

function assetUri(c: RequestContext, kind: string, imageUrl: string): (id: number) => string {
  if (c.switches.assetUri === "echo") return () => imageUrl;
  const name = imageUrl.split(/[/?#]/).filter(Boolean).pop() ?? "image";
  return (id) => `${c.origin}/assets/${c.store.hash}/${kind}/${id}/${encodeURIComponent(name)}`;
}

function assetJson(kind: "brand" | "category", a: AssetRec): Record<string, unknown> {
  return { id: a.id, [`${kind}_id`]: a.owner_id, uri: a.uri, alttext: a.alttext, thumbnail: a.thumbnail ? 1 : 0 };
}

function brandJson(b: BrandRec, version?: number, fallback = true): Record<string, unknown> {
  const v = version ? (b.versions[version] ?? {}) : undefined;
  const text = (k: (typeof BRAND_FIELDS)[number]) => (v ? (v[k] ?? (fallback ? b[k] : null)) : b[k]);
  return {
    id: b.id,
    name: b.name,
    desc: text("desc"),
    excluded: b.excluded,
    exclusion_start_date: b.exclusion_start_date,
    exclusion_end_date: b.exclusion_end_date,
    exclusion_reason: text("exclusion_reason"),
    seo_search_keywords: text("seo_search_keywords"),
    seo_meta_desc: text("seo_meta_desc"),
    seo_meta_keywords: text("seo_meta_keywords"),
    seo_title: text("seo_title"),
    product_count: b.product_count,
    ...(version ? { version_id: version } : {}),
    created_at: b.created_at,
    updated_at: b.updated_at,
  };
}

function brandAttributesJson(c: RequestContext, brandId: number, onlyAttribute?: number): Record<string, unknown>[] {
  const byAttr = new Map<number, Array<{ id: number; version_id: number; value: string }>>();
  for (const aid of c.store.brandAssignedAttributes.get(brandId) ?? []) byAttr.set(aid, []);
  for (const v of c.store.brandAttributeValues(brandId)) {
    const list = byAttr.get(v.attribute_id) ?? [];
    list.push({ id: v.id, version_id: v.version_id, value: v.value });
    byAttr.set(v.attribute_id, list);
  }
  const out: Record<string, unknown>[] = [];
  for (const [aid, values] of [...byAttr].sort((x, y) => x[0] - y[0])) {
    if (onlyAttribute !== undefined && aid !== onlyAttribute) continue;
    const a = c.store.attributes.get(aid);
    if (!a) continue;
    out.push({ attribute_id: aid, name: a.name, slug: a.slug, user_defined_key: a.slug, type: a.type, values });
  }
  return out;
}

function categoryJson(c: RequestContext, cat: CategoryRec, opts: { withAttributes?: boolean; version?: number } = {}): Record<string, unknown> {
  const s = c.store;
  const parent = cat.parent_id === null ? undefined : s.categories.get(cat.parent_id);
  const v = opts.version ? (cat.versions[opts.version] ?? {}) : undefined;
  const fb = c.switches.versionFallback;
  const text = (k: "name" | (typeof CATEGORY_TEXT)[number]) => (v ? (v[k] ?? (fb ? cat[k] : null)) : cat[k]);
  const assets = s.assetsOf("category", cat.id);
  const thumb = assets.find((a) => a.thumbnail);
  const channels: Array<{ id: number; name: string }> = [];
  for (const [chId, m] of s.categoryWebIds) if (m.has(cat.id)) channels.push({ id: chId, name: s.channels.get(chId)?.channel_name ?? "" });
  const out: Record<string, unknown> = {
    id: cat.id,
    parent_id: cat.parent_id,
    parent_name: parent?.name ?? null,
    name: text("name"),
    slug: text("slug"),
    desc: text("desc"),
    status: cat.status,
    is_visible: cat.is_visible,
    sort_order: cat.sort_order,
    attribute_sets:
      c.switches.categoryAttributeSetsRead === "ids"
        ? [...cat.attribute_sets]
        : c.switches.categoryAttributeSetsRead === "csv"
          ? cat.attribute_sets.join(",")
          : cat.attribute_sets.map((id) => ({ id, name: s.attributeSets.get(id)?.name ?? null })),
    seo_meta_desc: text("seo_meta_desc"),
    seo_meta_keywords: text("seo_meta_keywords"),
    seo_meta_title: text("seo_meta_title"),
    search_keywords: text("search_keywords"),
    is_smart: 0,
    fqn: s.pathOf(cat).join(" > "),
    category_attributes: [],
    channels: channels.sort((a, b) => a.id - b.id),
    assets: assets.map((a) => assetJson("category", a)),
    assets_thumbnail: thumb ? assetJson("category", thumb) : null,
    image_alttext: thumb?.alttext ?? null,
    ...(opts.version ? { version_id: opts.version } : {}),
    created_at: cat.created_at,
    updated_at: cat.updated_at,
  };
  if (opts.withAttributes) {
    const seen = new Set<number>();
    const attrs: Record<string, unknown>[] = [];
    for (const setId of cat.attribute_sets) {
      for (const asg of s.assignmentsOf(setId)) {
        if (seen.has(asg.attribute_id)) continue;
        seen.add(asg.attribute_id);
        const a = s.attributes.get(asg.attribute_id);
        if (a) attrs.push({ id: a.id, name: a.name, slug: a.slug, displayName: a.name, sortOrder: asg.sort_order, value: "" });
      }
    }
    out.attributes = attrs;
  }
  return out;
}

function exportJson(c: RequestContext, e: { id: number; profile_id: number; created_ms: number; failed: boolean }): Record<string, unknown> {
  const steps = Math.floor((Date.now() - e.created_ms) / Math.max(1, c.exportStepMs));
  const status = e.failed ? "failed" : steps <= 0 ? "queued" : steps === 1 ? "processing" : "done";
  return {
    id: e.id,
    profile_id: e.profile_id,
    status,
    filename: status === "done" ? `export-${e.id}.json` : null,
    file_url: `${c.origin}/exports/${c.store.hash}/${e.id}/export-${e.id}.json`,
    created_at: new Date(e.created_ms).toISOString().replace("Z", "+00:00"),
  };
}

// ------------------------------------------------------------------ routes

const ATTRIBUTE_WRITE: Record<string, Kind> = {
  name: "string",
  type: "string",
  slug: "string",
  note: "nullable-string",
  length: "nullable-int",
  display_group_id: "nullable-int",
  sort_order: "int",
  publish: "bool",
};
// The attribute's type enum; "calculated" is listed only for product attributes, so writes refuse it.
const ATTRIBUTE_TYPES = ["selectbox", "date", "datetime", "text", "textarea", "multiselect", "json", "markdown"];
const BRAND_WRITE: Record<string, Kind> = {
  name: "string",
  desc: "nullable-string",
  excluded: "bool",
  exclusion_start_date: "nullable-string",
  exclusion_end_date: "nullable-string",
  exclusion_reason: "nullable-string",
  seo_search_keywords: "nullable-string",
  seo_meta_desc: "nullable-string",
  seo_meta_keywords: "nullable-string",
  seo_title: "nullable-string",
};
const CATEGORY_WRITE: Record<string, Kind> = {
  parent_id: "nullable-int",
  name: "string",
  slug: "nullable-string",
  desc: "nullable-string",
  status: "string",
  is_visible: "bool",
  sort_order: "int",
  attribute_sets: "int-array",
  seo_meta_desc: "nullable-string",
  seo_meta_keywords: "nullable-string",
  seo_meta_title: "nullable-string",
  search_keywords: "nullable-string",
};

function checkType(t: unknown): void {
  if (t !== undefined && !ATTRIBUTE_TYPES.includes(t as string)) throw unprocessable("type", `The selected type is invalid (one of ${ATTRIBUTE_TYPES.join(", ")}).`);
}
function checkStatus(s: unknown): void {
  if (s !== undefined && s !== "enabled" && s !== "disabled") throw unprocessable("status", "The selected status is invalid (enabled or disabled).");
}

function versionParam(c: RequestContext): number {
  return intParam(c, "version");
}

function assetRoutes(kind: "brand" | "category"): Array<[string, string, Handler]> {
  const base = kind === "brand" ? "/brands/:owner/assets" : "/categories/:owner/assets";
  const env = `${kind}_assets`;
  const one = `${kind}_asset`;
  const owner = (c: RequestContext) => {
    const id = intParam(c, "owner");
    if (kind === "brand") c.store.getBrand(id);
    else c.store.getCategory(id);
    return id;
  };
  const write = (c: RequestContext, create: boolean) => {
    const b = pick(bodyObject(c), { image_url: "string", alttext: "nullable-string", thumbnail: "bool" }, create ? ["image_url"] : []);
    return { image_url: b.image_url as string | undefined, alttext: (b.alttext as string | null | undefined) ?? undefined, thumbnail: b.thumbnail as boolean | undefined };
  };
  return [
    ["GET", base, (c) => ok({ [env]: c.store.assetsOf(kind, owner(c)).map((a) => assetJson(kind, a)) })],
    ["GET", `${base}/:id`, (c) => ok({ [one]: assetJson(kind, c.store.getAsset(kind, owner(c), intParam(c, "id"))) })],
    [
      "POST",
      base,
      (c) => {
        const id = owner(c);
        const b = write(c, true);
        const a = c.store.createAsset(kind, id, assetUri(c, kind, b.image_url!), { ...(b.alttext !== undefined ? { alttext: b.alttext } : {}), ...(b.thumbnail !== undefined ? { thumbnail: b.thumbnail } : {}) });
        return ok({ [one]: assetJson(kind, a) }, 201);
      },
    ],
    [
      "PUT",
      `${base}/:id`,
      (c) => {
        const id = owner(c);
        const assetId = intParam(c, "id");
        const b = write(c, false);
        const uri = b.image_url === undefined ? undefined : assetUri(c, kind, b.image_url)(assetId);
        const a = c.store.updateAsset(kind, id, assetId, uri, { ...(b.alttext !== undefined ? { alttext: b.alttext } : {}), ...(b.thumbnail !== undefined ? { thumbnail: b.thumbnail } : {}) });
        return ok({ [one]: assetJson(kind, a) });
      },
    ],
    [
      "DELETE",
      `${base}/:id`,
      (c) => {
        c.store.deleteAsset(kind, owner(c), intParam(c, "id"));
        return noContent;
      },
    ],
    [
      "POST",
      kind === "brand" ? "/brands/:owner/channel/:channel" : "/categories/:owner/channel/:channel",
      (c) => {
        if (c.invalidJson) throw new HttpError(400, { message: "The request body is not valid JSON." });
        const b = bodyObject(c);
        if (b.web_id === undefined || b.web_id === null || b.web_id === "") throw unprocessable("web_id", "The web id field is required.");
        if (typeof b.web_id !== "string" && typeof b.web_id !== "number") throw unprocessable("web_id", "The web id must be a string.");
        c.store.setWebId(kind, intParam(c, "owner"), intParam(c, "channel"), String(b.web_id));
        return ok({ message: "Web id saved.", web_id: String(b.web_id) });
      },
    ],
  ];
}

const table: Array<[string, string, Handler]> = [
  ["GET", "/ping", () => ok({ time: new Date().toISOString() })],

  // Attributes
  ["GET", "/attributes", (c) => ok({ attributes: [...c.store.attributes.values()].sort((a, b) => a.id - b.id).map((a) => attributeJson(c, a, undefined, false)) })],
  ["GET", "/attributes/version/:version", (c) => ok({ attributes: [...c.store.attributes.values()].sort((a, b) => a.id - b.id).map((a) => attributeJson(c, a, versionParam(c), false)) })],
  ["GET", "/attributes/:id", (c) => ok({ attribute: attributeJson(c, c.store.getAttribute(intParam(c, "id"))) })],
  ["GET", "/attributes/:id/version/:version", (c) => ok({ attribute: attributeJson(c, c.store.getAttribute(intParam(c, "id")), versionParam(c)) })],
  [
    "POST",
    "/attributes",
    (c) => {
      const b = pick(bodyObject(c), ATTRIBUTE_WRITE, ["name", "type"]);
      checkType(b.type);
      return ok({ attribute: attributeJson(c, c.store.createAttribute(b as never)) }, 201);
    },
  ],
  [
    "PUT",
    "/attributes/:id",
    (c) => {
      const b = pick(bodyObject(c), ATTRIBUTE_WRITE);
      checkType(b.type);
      return ok({ attribute: attributeJson(c, c.store.updateAttribute(intParam(c, "id"), b as never)) });
    },
  ],
  [
    "PUT",
    "/attributes/:id/version/:version",
    (c) => {
      const b = pick(bodyObject(c), { name: "string", note: "nullable-string" });
      const v = versionParam(c);
      if (v === 0) throw unprocessable("version_id", "Use PUT /attributes/<ID> for the master version.");
      return ok({ attribute: attributeJson(c, c.store.setAttributeVersion(intParam(c, "id"), v, b as never), v) });
    },
  ],
  [
    "DELETE",
    "/attributes/:id",
    (c) => {
      c.store.deleteAttribute(intParam(c, "id"));
      return noContent;
    },
  ],
  [
    "DELETE",
    "/attributes/:id/version/:version",
    (c) => {
      c.store.deleteAttributeVersion(intParam(c, "id"), versionParam(c));
      return noContent;
    },
  ],
  [
    "POST",
    "/attributes/search",
    (c) => {
      const b = pick(bodyObject(c), { name: "string" }, ["name"]);
      const found = [...c.store.attributes.values()].find((a) => same(c, a.name, b.name as string));
      return found ? ok({ attribute: attributeJson(c, found) }) : searchMiss(c);
    },
  ],

  // Attribute type values
  ["GET", "/attributes/:id/type_values", (c) => ok({ attribute_type_values: c.store.typeValuesOf(c.store.getAttribute(intParam(c, "id")).id).map((t) => typeValueJson(t, undefined, true)) })],
  [
    "GET",
    "/attributes/:id/type_values/version/:version",
    (c) =>
      ok({
        attribute_type_values: c.store
          .typeValuesOf(c.store.getAttribute(intParam(c, "id")).id)
          .map((t) => typeValueJson(t, versionParam(c), c.switches.versionFallback))
          .filter((x) => x !== undefined),
      }),
  ],
  ["GET", "/attributes/:id/type_values/:tv", (c) => ok({ attribute_type_value: typeValueJson(c.store.getTypeValue(intParam(c, "id"), intParam(c, "tv")), undefined, true) })],
  [
    "GET",
    "/attributes/:id/type_values/:tv/version/:version",
    (c) => {
      const tv = typeValueJson(c.store.getTypeValue(intParam(c, "id"), intParam(c, "tv")), versionParam(c), c.switches.versionFallback);
      if (!tv) throw notFound("Attribute type value version");
      return ok({ attribute_type_value: tv });
    },
  ],
  [
    "POST",
    "/attributes/:id/type_values",
    (c) => {
      const b = pick(bodyObject(c), { value: "string", slug: "nullable-string", sort_order: "int" }, ["value"]);
      return ok({ attribute_type_value: typeValueJson(c.store.createTypeValue(intParam(c, "id"), b as never), undefined, true) }, 201);
    },
  ],
  [
    "PUT",
    "/attributes/:id/type_values/:tv",
    (c) => {
      const b = pick(bodyObject(c), { value: "string", slug: "nullable-string", sort_order: "int" });
      return ok({ attribute_type_value: typeValueJson(c.store.updateTypeValue(intParam(c, "id"), intParam(c, "tv"), b as never), undefined, true) });
    },
  ],
  [
    "PUT",
    "/attributes/:id/type_values/:tv/version/:version",
    (c) => {
      const b = pick(bodyObject(c), { value: "string" }, ["value"]);
      const v = versionParam(c);
      if (v === 0) throw unprocessable("version_id", "Use PUT .../type_values/<ID> for the master version.");
      const tv = c.store.setTypeValueVersion(intParam(c, "id"), intParam(c, "tv"), v, b.value as string);
      return ok({ attribute_type_value: typeValueJson(tv, v, true) });
    },
  ],
  [
    "DELETE",
    "/attributes/:id/type_values/:tv",
    (c) => {
      c.store.deleteTypeValue(intParam(c, "id"), intParam(c, "tv"));
      return noContent;
    },
  ],
  [
    "DELETE",
    "/attributes/:id/type_values/:tv/version/:version",
    (c) => {
      c.store.deleteTypeValueVersion(intParam(c, "id"), intParam(c, "tv"), versionParam(c));
      return noContent;
    },
  ],

  // Attribute sets
  ["GET", "/attribute_sets", (c) => ok({ attribute_sets: [...c.store.attributeSets.values()].sort((a, b) => a.id - b.id) })],
  ["GET", "/attribute_sets/:id", (c) => ok({ attribute_set: c.store.getSet(intParam(c, "id")) })],
  ["POST", "/attribute_sets", (c) => ok({ attribute_set: c.store.createSet(pick(bodyObject(c), { name: "string", sort_order: "int" }, ["name"]) as never) }, 201)],
  ["PUT", "/attribute_sets/:id", (c) => ok({ attribute_set: c.store.updateSet(intParam(c, "id"), pick(bodyObject(c), { name: "string", sort_order: "int" }) as never) })],
  [
    "DELETE",
    "/attribute_sets/:id",
    (c) => {
      c.store.deleteSet(intParam(c, "id"));
      return noContent;
    },
  ],
  [
    "POST",
    "/attribute_sets/search",
    (c) => {
      const b = pick(bodyObject(c), { name: "string" }, ["name"]);
      const found = [...c.store.attributeSets.values()].find((s) => same(c, s.name, b.name as string));
      return found ? ok({ attribute_set: found }) : searchMiss(c);
    },
  ],
  [
    "GET",
    "/attribute_sets/:id/attributes",
    (c) => {
      const id = intParam(c, "id");
      if (!c.store.attributeSets.has(id)) throw notFound("Attribute set");
      const list = c.store.assignmentsOf(id);
      if (!list.length) throw notFound("Attribute set attributes");
      return ok({ attribute_set_attributes: list.map((a) => ({ id: a.id, attribute_id: a.attribute_id, attribute_set_id: a.attribute_set_id })) });
    },
  ],
  [
    "GET",
    "/attribute_sets/:id/attributes/:attribute",
    (c) => {
      const setId = intParam(c, "id");
      c.store.getSet(setId);
      const a = c.store.assignmentsOf(setId).find((x) => x.attribute_id === intParam(c, "attribute"));
      if (!a) throw notFound("Attribute set attribute");
      return ok({ attribute_set_attribute: a });
    },
  ],
  [
    "POST",
    "/attribute_sets/:id/attributes",
    (c) => {
      const b = pick(bodyObject(c), { attribute_id: "int" }, ["attribute_id"]);
      const a = c.store.assign(intParam(c, "id"), b.attribute_id as number);
      return ok({ attribute_set_attribute: a }, 201);
    },
  ],
  [
    "DELETE",
    "/attribute_sets/:id/attributes/:assignment",
    (c) => {
      const setId = intParam(c, "id");
      const id = intParam(c, "assignment");
      if (c.switches.setAttributeDeleteId === "attribute") {
        const a = c.store.assignmentsOf(setId).find((x) => x.attribute_id === id);
        if (!a) throw notFound("Attribute set attribute");
        c.store.unassign(setId, a.id);
      } else c.store.unassign(setId, id);
      return noContent;
    },
  ],

  // Blocks
  ["GET", "/blocks", (c) => ok({ blocks: [...c.store.blocks.values()].sort((a, b) => a.id - b.id) })],
  ["GET", "/blocks/:id", (c) => ok({ block: c.store.getBlock(intParam(c, "id")) })],
  ["POST", "/blocks", (c) => ok({ block: c.store.createBlock(pick(bodyObject(c), { name: "string", slug: "string", content: "string" }, ["name", "slug"]) as never) }, 201)],
  ["PUT", "/blocks/:id", (c) => ok({ block: c.store.updateBlock(intParam(c, "id"), pick(bodyObject(c), { name: "string", slug: "string", content: "string" }) as never) })],
  ["DELETE", "/blocks/:id", notImplemented],
  [
    "GET",
    "/blocks/:id/assets",
    (c) => {
      const id = c.store.getBlock(intParam(c, "id")).id;
      return ok({ block_assets: [...c.store.blockAssets.values()].filter((a) => a.owner_id === id).map((a) => ({ id: a.id, block_id: id, uri: a.uri, alttext: a.alttext, sort_order: a.sort_order, thumbnail: a.thumbnail ? 1 : 0 })) });
    },
  ],
  [
    "GET",
    "/blocks/:id/assets/:asset",
    (c) => {
      const id = c.store.getBlock(intParam(c, "id")).id;
      const a = c.store.blockAssets.get(intParam(c, "asset"));
      if (!a || a.owner_id !== id) throw notFound("Block asset");
      return ok({ block_asset: { id: a.id, block_id: id, uri: a.uri, alttext: a.alttext, sort_order: a.sort_order, thumbnail: a.thumbnail ? 1 : 0 } });
    },
  ],
  ["POST", "/blocks/:id/assets", notImplemented],
  ["PUT", "/blocks/:id/assets/:asset", notImplemented],
  ["DELETE", "/blocks/:id/assets/:asset", notImplemented],

  // Brands
  [
    "GET",
    "/brands",
    (c) => {
      const v = Number(c.query.get("version") ?? "0");
      const version = Number.isInteger(v) && v > 0 ? v : undefined;
      const ids = c.store.sortedBrandIds();
      const { page, limit } = pageParams(c, 25);
      const p = paginate(c, "/brands", ids, 25);
      void page;
      void limit;
      return ok({ brands: p.items.map((id) => brandJson(c.store.brands.get(id)!, version, c.switches.versionFallback)), links: p.links, meta: p.meta });
    },
  ],
  ["GET", "/brands/:id", (c) => ok({ brand: brandJson(c.store.getBrand(intParam(c, "id"))) })],
  ["GET", "/brands/:id/version/:version", (c) => ok({ brand: brandJson(c.store.getBrand(intParam(c, "id")), versionParam(c) || undefined, c.switches.versionFallback) })],
  ["POST", "/brands", (c) => ok({ brand: brandJson(c.store.createBrand(pick(bodyObject(c), BRAND_WRITE, ["name"]) as never)) }, 201)],
  ["PUT", "/brands/:id", (c) => ok({ brand: brandJson(c.store.updateBrand(intParam(c, "id"), pick(bodyObject(c), BRAND_WRITE) as never)) })],
  [
    "DELETE",
    "/brands/:id",
    (c) => {
      c.store.deleteBrand(intParam(c, "id"));
      return noContent;
    },
  ],
  [
    "POST",
    "/brands/search",
    (c) => {
      const b = pick(bodyObject(c), { name: "string" }, ["name"]);
      const found = c.store.brandByNameLookup(b.name as string, c.switches.searchCase === "insensitive");
      return found ? ok({ brand: brandJson(found) }) : searchMiss(c);
    },
  ],
  ...assetRoutes("brand"),
  ["GET", "/brands/:id/attributes", (c) => ok({ brand_attributes: brandAttributesJson(c, c.store.getBrand(intParam(c, "id")).id) })],
  ["GET", "/brands/:id/attributes/:attribute", (c) => ok({ brands_attributes: brandAttributesJson(c, c.store.getBrand(intParam(c, "id")).id, intParam(c, "attribute")) })],
  [
    "POST",
    "/brands/:id/attributes",
    (c) => {
      const brandId = intParam(c, "id");
      const b = brandAttributeBody(c);
      for (const v of b.values) c.store.createBrandAttributeValue(brandId, b.attribute_id, b.version_id, v);
      return ok({ brand_attributes: brandAttributesJson(c, brandId, b.attribute_id)[0] ?? null }, 201);
    },
  ],
  [
    "PUT",
    "/brands/:id/attributes/:attribute/values/:value",
    (c) => {
      const brandId = intParam(c, "id");
      const attributeId = intParam(c, "attribute");
      const b = brandAttributeBody(c);
      c.store.updateBrandAttributeValue(brandId, attributeId, intParam(c, "value"), b.values[0]!);
      return ok({ brand_attributes: brandAttributesJson(c, brandId, attributeId)[0] ?? null });
    },
  ],
  [
    "DELETE",
    "/brands/:id/attributes/:attribute/values/:value",
    (c) => {
      c.store.deleteBrandAttributeValue(intParam(c, "id"), intParam(c, "attribute"), intParam(c, "value"));
      return noContent;
    },
  ],
  [
    "POST",
    "/brands/:id/assigned-attributes",
    (c) => {
      const b = pick(bodyObject(c), { attribute_id: "int" }, ["attribute_id"]);
      c.store.assignBrandAttribute(intParam(c, "id"), b.attribute_id as number);
      return ok({ message: "Attribute assigned." });
    },
  ],
  [
    "POST",
    "/brands/:id/assigned-attribute-sets",
    (c) => {
      const b = pick(bodyObject(c), { attribute_set_id: "int" }, ["attribute_set_id"]);
      c.store.assignBrandSet(intParam(c, "id"), b.attribute_set_id as number);
      return ok({ message: "Attribute set assigned." });
    },
  ],

  // Categories
  [
    "GET",
    "/categories",
    (c) => {
      const withAttributes = c.query.get("withAttributes") === "true" || c.query.get("withAttributes") === "1";
      const p = paginate(c, "/categories", c.store.sortedCategoryIds(), 25);
      return ok({ categories: p.items.map((id) => categoryJson(c, c.store.categories.get(id)!, { withAttributes })), links: p.links, meta: p.meta });
    },
  ],
  [
    "GET",
    "/categories/:id",
    (c) => ok({ category: categoryJson(c, c.store.getCategory(intParam(c, "id")), { withAttributes: c.query.get("withAttributes") === "true" || c.query.get("withAttributes") === "1" }) }),
  ],
  ["GET", "/categories/:id/version/:version", (c) => ok({ category: categoryJson(c, c.store.getCategory(intParam(c, "id")), { version: versionParam(c) || undefined }) })],
  [
    "POST",
    "/categories",
    (c) => {
      const b = pick(bodyObject(c), CATEGORY_WRITE, ["name"]);
      if (b.parent_id === undefined) throw unprocessable("parent_id", "The parent id field is required (0 for a root category).");
      checkStatus(b.status);
      return ok({ category: categoryJson(c, c.store.createCategory(b as never)) }, 201);
    },
  ],
  [
    "PUT",
    "/categories/:id",
    (c) => {
      const b = pick(bodyObject(c), CATEGORY_WRITE);
      checkStatus(b.status);
      return ok({ category: categoryJson(c, c.store.updateCategory(intParam(c, "id"), b as never)) });
    },
  ],
  [
    "DELETE",
    "/categories/:id",
    (c) => {
      c.store.deleteCategory(intParam(c, "id"), c.switches.categoryDeleteWithChildren === "cascade", c.switches.changelogSubtreeDeletes === "each");
      return noContent;
    },
  ],
  ...assetRoutes("category"),

  // Changelogs
  [
    "GET",
    "/changelogs",
    (c) => {
      let list = c.store.changelogs;
      const type = c.query.get("entity_type");
      if (type) list = list.filter((e) => e.entity_type === type);
      const since = c.query.get("updated_at");
      if (since) {
        // A client may send back a time in the form it read (SQL form is UTC, like every time here).
        const t = parseUtc(since);
        if (Number.isNaN(t)) throw unprocessable("updated_at", "The updated at is not a valid ISO 8601 datetime.");
        list = list.filter((e) => Date.parse(e.updated_at) >= Math.floor(t / 1000) * 1000);
      }
      const p = paginate(c, "/changelogs", list, 250);
      if (c.switches.changelogPaging === "capped") return ok({ changelogs: p.items });
      return ok({ changelogs: p.items, links: p.links, meta: p.meta });
    },
  ],
  [
    "GET",
    "/changelogs/:id",
    (c) => {
      const e = c.store.changelogs[intParam(c, "id") - 1];
      if (!e) throw notFound("Changelog");
      return ok({ changelogs: e });
    },
  ],

  // Channels
  ["GET", "/channels", (c) => ok({ channels: [...c.store.channels.values()].sort((a, b) => a.id - b.id).map((ch) => ({ ...ch, sync: ch.sync ? 1 : 0 })) })],
  [
    "GET",
    "/channels/:id",
    (c) => {
      const ch = c.store.channels.get(intParam(c, "id"));
      if (!ch) throw notFound("Channel");
      return ok({ channel: { ...ch, sync: ch.sync ? 1 : 0 } });
    },
  ],

  // Display groups
  ["GET", "/display-groups", (c) => ok({ display_groups: [...c.store.displayGroups.values()].sort((a, b) => a.id - b.id).map((d) => ({ ...d, in_navigation: d.in_navigation ? 1 : 0 })) })],
  [
    "GET",
    "/display-groups/:id",
    (c) => {
      const d = c.store.getDisplayGroup(intParam(c, "id"));
      return ok({ display_group: { ...d, in_navigation: d.in_navigation ? 1 : 0 } });
    },
  ],
  [
    "POST",
    "/display-groups",
    (c) => {
      const d = c.store.createDisplayGroup(pick(bodyObject(c), { name: "string", sort_order: "int", in_navigation: "bool" }, ["name"]) as never);
      return ok({ display_group: { ...d, in_navigation: d.in_navigation ? 1 : 0 } }, 201);
    },
  ],
  [
    "PUT",
    "/display-groups/:id",
    (c) => {
      const d = c.store.updateDisplayGroup(intParam(c, "id"), pick(bodyObject(c), { name: "string", sort_order: "int", in_navigation: "bool" }) as never);
      return ok({ display_group: { ...d, in_navigation: d.in_navigation ? 1 : 0 } });
    },
  ],

  // Exports
  [
    "POST",
    "/exports",
    (c) => {
      const b = bodyObject(c);
      if (b.profile_id === undefined || b.profile_id === null) throw unprocessable("profile_id", "The profile id field is required.");
      if (!Number.isInteger(b.profile_id) || !c.store.exportProfiles.has(b.profile_id as number)) throw unprocessable("profile_id", "The selected profile id is invalid.");
      const e = { id: c.store.id("exports"), profile_id: b.profile_id as number, created_ms: Date.now(), failed: false };
      c.store.exports.set(e.id, e);
      return ok({ export: { ...exportJson(c, e), status: "queued", filename: null } }, 201);
    },
  ],
  [
    "GET",
    "/exports/:id",
    (c) => {
      const e = c.store.exports.get(intParam(c, "id"));
      if (!e) throw notFound("Export");
      return ok({ export: exportJson(c, e) });
    },
  ],

  // Generic entities
  [
    "GET",
    "/generic-entities",
    (c) => {
      const all = [...c.store.genericEntities.values()].sort((a, b) => a.id - b.id).map(genericJson);
      const q = new URLSearchParams(c.query);
      q.delete("limit");
      const p = paginate({ ...c, query: q }, "/generic-entities", all, 1000);
      return ok({ generic_entities: p.items, links: p.links, meta: p.meta });
    },
  ],
  [
    "GET",
    "/generic-entities/:id",
    (c) => {
      const g = c.store.genericEntities.get(intParam(c, "id"));
      if (!g) throw notFound("Generic entity");
      return ok({ generic_entity: genericJson(g) });
    },
  ],
];

function genericJson(g: { is_tree: boolean; is_product_attribute: boolean; publishable: boolean; display_on_navigation: boolean }): Record<string, unknown> {
  return { ...g, is_tree: g.is_tree ? 1 : 0, is_product_attribute: g.is_product_attribute ? 1 : 0, publishable: g.publishable ? 1 : 0, display_on_navigation: g.display_on_navigation ? 1 : 0 };
}

function brandAttributeBody(c: RequestContext): { attribute_id: number; version_id: number; values: string[] } {
  const b = bodyObject(c);
  const p = pick(b, { attribute_id: "int", version_id: "int" }, ["attribute_id"]);
  if (!Array.isArray(b.values) || b.values.length === 0 || b.values.some((v) => v === null || typeof v !== "object" || typeof (v as { value?: unknown }).value !== "string")) {
    throw unprocessable("values", "The values field must be a non-empty array of objects with a string value.");
  }
  return { attribute_id: p.attribute_id as number, version_id: (p.version_id as number | undefined) ?? 0, values: (b.values as Array<{ value: string }>).map((v) => v.value) };
}

export const ROUTES: Route[] = table.map(([method, pattern, handler]) => ({
  method,
  pattern,
  segments: pattern.split("/").filter(Boolean),
  handler,
  write: method !== "GET",
  notImplemented: handler === notImplemented,
}));

/** Find the route for a path below /api/v1; literal segments win over parameters (search before :id). */
export function matchRoute(method: string, path: string): { route: Route; params: Record<string, string> } | { allowed: string[] } | undefined {
  const parts = path.split("/").filter(Boolean);
  let best: { route: Route; params: Record<string, string>; score: number } | undefined;
  const allowed: string[] = [];
  for (const route of ROUTES) {
    if (route.segments.length !== parts.length) continue;
    const params: Record<string, string> = {};
    let score = 0;
    let okMatch = true;
    for (let i = 0; i < parts.length; i++) {
      const s = route.segments[i]!;
      if (s.startsWith(":")) params[s.slice(1)] = decodeURIComponent(parts[i]!);
      else if (s === parts[i]) score++;
      else {
        okMatch = false;
        break;
      }
    }
    if (!okMatch) continue;
    if (route.method !== method) {
      allowed.push(route.method);
      continue;
    }
    if (!best || score > best.score) best = { route, params, score };
  }
  if (best) return { route: best.route, params: best.params };
  return allowed.length ? { allowed } : undefined;
}
