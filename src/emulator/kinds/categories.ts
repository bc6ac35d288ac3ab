/**
 * Categories, a tree: the records' rules (unique names among siblings, no cycles, a
 * protected category refuses updates, a delete with children refuses or cascades by
 * `--category-delete-with-children`), their JSON (attribute sets in the
 * `--category-attribute-sets-read` shape) and their routes; assets and web ids: assets.ts.
 */
import { HttpError, unprocessable } from "../errors.js";
import { CATEGORY_TEXT, type CategoryRec } from "../record-shapes.js";
import { now, slugify, type StoreCore } from "../store-core.js";
import { bodyObject, intParam, noContent, ok, paginate, pick, versionParam, type FieldKind, type RequestContext, type RouteSpec } from "../request.js";
import { assetJson, assetRoutes, assetsOf } from "./assets.js";
import { setAssignments } from "./attribute-sets.js";

// ------------------------------------------------------------------ records

function siblingNamed(s: StoreCore, parentId: number | null, name: string, except?: number): boolean {
  for (const id of s.children(parentId)) if (id !== except && s.categories.get(id)?.name === name) return true;
  return false;
}

function checkSets(s: StoreCore, ids: unknown): number[] {
  if (!Array.isArray(ids) || ids.some((i) => typeof i !== "number" || !s.attributeSets.has(i))) {
    throw unprocessable("attribute_sets", "The attribute sets must be an array of existing attribute set ids.");
  }
  return ids as number[];
}

export function createCategory(s: StoreCore, body: Partial<CategoryRec> & { parent_id: number | null; name: string }): CategoryRec {
  const parent = body.parent_id === 0 || body.parent_id === null ? null : body.parent_id;
  if (parent !== null && !s.categories.has(parent)) throw unprocessable("parent_id", "The selected parent id is invalid.");
  if (siblingNamed(s, parent, body.name)) throw unprocessable("name", "The name has already been taken within this parent.");
  const t = now();
  const c: CategoryRec = {
    id: s.id("categories"),
    parent_id: parent,
    name: body.name,
    slug: body.slug ?? slugify(body.name),
    desc: body.desc ?? null,
    status: body.status ?? "enabled",
    is_visible: body.is_visible ?? true,
    sort_order: body.sort_order ?? 0,
    attribute_sets: body.attribute_sets === undefined ? [] : checkSets(s, body.attribute_sets),
    seo_meta_desc: body.seo_meta_desc ?? null,
    seo_meta_keywords: body.seo_meta_keywords ?? null,
    seo_meta_title: body.seo_meta_title ?? null,
    search_keywords: body.search_keywords ?? null,
    protected: body.protected ?? false,
    versions: body.versions ?? {},
    created_at: t,
    updated_at: t,
  };
  s.categories.set(c.id, c);
  s.link(c.id, parent);
  s.categoryIds = null;
  s.changed("category", c.id);
  return c;
}

export function updateCategory(s: StoreCore, id: number, body: Partial<CategoryRec>): CategoryRec {
  const c = s.getCategory(id);
  // The document says a protected category "cannot be updated" and names no status: 422, like its other refusals.
  if (c.protected)
    throw new HttpError(422, {
      message: "This category is protected and cannot be updated.",
      errors: { id: ["This category is protected and cannot be updated."] },
    });
  const parent = body.parent_id === undefined ? c.parent_id : movedUnder(s, id, body.parent_id);
  const name = body.name ?? c.name;
  if ((name !== c.name || parent !== c.parent_id) && siblingNamed(s, parent, name, id)) {
    throw unprocessable("name", "The name has already been taken within this parent.");
  }
  const sets = body.attribute_sets === undefined ? undefined : checkSets(s, body.attribute_sets);
  if (parent !== c.parent_id) {
    s.childrenOf.get(c.parent_id)?.delete(id);
    s.link(id, parent);
    c.parent_id = parent;
  }
  c.name = name;
  if (sets) c.attribute_sets = sets;
  for (const k of [...CATEGORY_TEXT, "status", "is_visible", "sort_order"] as const) {
    if (body[k] !== undefined) (c as unknown as Record<string, unknown>)[k] = body[k];
  }
  c.updated_at = now();
  s.changed("category", id);
  return c;
}

/** The parent a category `id` moves under (0 or null: a root); refused when absent or when it is the category or below it. */
function movedUnder(s: StoreCore, id: number, parentId: number | null): number | null {
  const parent = parentId === 0 || parentId === null ? null : parentId;
  if (parent === null) return null;
  if (!s.categories.has(parent)) throw unprocessable("parent_id", "The selected parent id is invalid.");
  for (let cur: number | null = parent; cur !== null; cur = s.categories.get(cur)?.parent_id ?? null) {
    if (cur === id) throw unprocessable("parent_id", "A category cannot be moved under itself or one of its descendants.");
  }
  return parent;
}

export function deleteCategory(s: StoreCore, id: number, cascade: boolean, logDescendants = true, top = true): void {
  const c = s.getCategory(id);
  const kids = [...s.children(id)];
  if (kids.length && !cascade) throw unprocessable("id", "The category has child categories; delete or move them first.");
  for (const k of kids) deleteCategory(s, k, true, logDescendants, false);
  s.categories.delete(id);
  s.childrenOf.get(c.parent_id)?.delete(id);
  s.childrenOf.delete(id);
  s.categoryIds = null;
  for (const [aid, a] of s.categoryAssets) if (a.owner_id === id) s.categoryAssets.delete(aid);
  for (const m of s.categoryWebIds.values()) m.delete(id);
  if (top || logDescendants) s.changed("category", id, "delete");
}

// --------------------------------------------------------------------- JSON

export function categoryJson(c: RequestContext, cat: CategoryRec, opts: { withAttributes?: boolean; version?: number } = {}): Record<string, unknown> {
  const s = c.store;
  const parent = cat.parent_id === null ? undefined : s.categories.get(cat.parent_id);
  const v = opts.version ? (cat.versions[opts.version] ?? {}) : undefined;
  const fb = c.switches.versionFallback;
  const text = (k: "name" | (typeof CATEGORY_TEXT)[number]) => (v ? (v[k] ?? (fb ? cat[k] : null)) : cat[k]);
  const assets = assetsOf(c.store, "category", cat.id);
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
    attribute_sets: attributeSetsJson(c, cat),
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
  if (opts.withAttributes) out.attributes = categoryAttributesJson(c, cat);
  return out;
}

/** A category's attribute sets in the `--category-attribute-sets-read` reading: objects, ids, or one comma-separated text. */
function attributeSetsJson(c: RequestContext, cat: CategoryRec): unknown {
  switch (c.switches.categoryAttributeSetsRead) {
    case "ids":
      return [...cat.attribute_sets];
    case "csv":
      return cat.attribute_sets.join(",");
    default:
      return cat.attribute_sets.map((id) => ({ id, name: c.store.attributeSets.get(id)?.name ?? null }));
  }
}

/** `?withAttributes=true`: the attributes of the category's sets, each once, in the sets' order. */
function categoryAttributesJson(c: RequestContext, cat: CategoryRec): Record<string, unknown>[] {
  const seen = new Set<number>();
  const attrs: Record<string, unknown>[] = [];
  for (const setId of cat.attribute_sets) {
    for (const asg of setAssignments(c.store, setId)) {
      if (seen.has(asg.attribute_id)) continue;
      seen.add(asg.attribute_id);
      const a = c.store.attributes.get(asg.attribute_id);
      if (a) attrs.push({ id: a.id, name: a.name, slug: a.slug, displayName: a.name, sortOrder: asg.sort_order, value: "" });
    }
  }
  return attrs;
}

// ------------------------------------------------------------------- routes

const CATEGORY_WRITE: Record<string, FieldKind> = {
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

function checkStatus(s: unknown): void {
  if (s !== undefined && s !== "enabled" && s !== "disabled") throw unprocessable("status", "The selected status is invalid (enabled or disabled).");
}

export const categoryRoutes: RouteSpec[] = [
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
    (c) =>
      ok({
        category: categoryJson(c, c.store.getCategory(intParam(c, "id")), {
          withAttributes: c.query.get("withAttributes") === "true" || c.query.get("withAttributes") === "1",
        }),
      }),
  ],
  [
    "GET",
    "/categories/:id/version/:version",
    (c) => ok({ category: categoryJson(c, c.store.getCategory(intParam(c, "id")), { version: versionParam(c) || undefined }) }),
  ],
  [
    "POST",
    "/categories",
    (c) => {
      const b = pick(bodyObject(c), CATEGORY_WRITE, ["name"]);
      if (b.parent_id === undefined) throw unprocessable("parent_id", "The parent id field is required (0 for a root category).");
      checkStatus(b.status);
      return ok({ category: categoryJson(c, createCategory(c.store, b as never)) }, 201);
    },
  ],
  [
    "PUT",
    "/categories/:id",
    (c) => {
      const b = pick(bodyObject(c), CATEGORY_WRITE);
      checkStatus(b.status);
      return ok({ category: categoryJson(c, updateCategory(c.store, intParam(c, "id"), b as never)) });
    },
  ],
  [
    "DELETE",
    "/categories/:id",
    (c) => {
      deleteCategory(c.store, intParam(c, "id"), c.switches.categoryDeleteWithChildren === "cascade", c.switches.changelogSubtreeDeletes === "each");
      return noContent;
    },
  ],
  ...assetRoutes("category"),
];
