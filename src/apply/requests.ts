/**
 * The one table from plan actions to API calls: (type, op) -> request. The
 * planner decided everything; this only turns an action's changes and refs
 * into a body and a client call, with ids of records created earlier in the
 * run resolved through `id()`.
 */
import type { PimApi } from "../api/types.js";
import { PimctlError } from "../errors.js";
import type { Action, Json, Ref } from "../plan/types.js";

export interface BuiltRequest {
  method: "POST" | "PUT" | "DELETE";
  path: string;
  body?: Record<string, unknown>;
  /** Sends it; returns the id of a created record, when there is one. */
  send: (api: PimApi) => Promise<number | undefined>;
}

/** Resolves a Ref to an id: known, or produced by an earlier create (a placeholder in dry runs). */
export type IdOf = (ref: Ref | undefined, what: string) => number;

function after(a: Action): Record<string, Json> {
  const out: Record<string, Json> = {};
  for (const c of a.changes) if (c.after !== undefined) out[c.field] = c.after;
  return out;
}

function pickFields(values: Record<string, Json>, fields: readonly string[]): Record<string, unknown> {
  const out: Record<string, unknown> = {};
  for (const f of fields) if (values[f] !== undefined) out[f] = values[f];
  return out;
}

const ATTRIBUTE_FIELDS = ["name", "type", "slug", "note", "length", "sort_order", "publish"] as const;
const BRAND_FIELDS = ["name", "desc", "excluded", "exclusion_start_date", "exclusion_end_date", "exclusion_reason", "seo_search_keywords", "seo_meta_desc", "seo_meta_keywords", "seo_title"] as const;
const CATEGORY_FIELDS = ["name", "slug", "desc", "status", "is_visible", "sort_order", "seo_meta_desc", "seo_meta_keywords", "seo_meta_title", "search_keywords"] as const;

function categoryBody(a: Action, values: Record<string, Json>, id: IdOf): Record<string, unknown> {
  const body = pickFields(values, CATEGORY_FIELDS);
  if (a.changes.some((c) => c.field === "parent")) body.parent_id = a.refs.parent ? id(a.refs.parent, "parent category") : 0;
  if (values.attribute_sets !== undefined) {
    body.attribute_sets = (values.attribute_sets as string[]).map((n) => id(a.refs[`attribute_set:${n}`], `attribute set "${n}"`));
  }
  return body;
}

export function buildRequest(a: Action, id: IdOf): BuiltRequest {
  const v = after(a);
  const self = () => id(a.refs.self, "the record itself");
  const key = `${a.type}:${a.op === "rename" || a.op === "move" ? "update" : a.op}`;
  const req = (method: BuiltRequest["method"], path: string, body: Record<string, unknown> | undefined, send: BuiltRequest["send"]): BuiltRequest => ({
    method,
    path,
    ...(body ? { body } : {}),
    send,
  });
  switch (key) {
    case "display_group:create": {
      const body = pickFields(v, ["name", "sort_order", "in_navigation"]);
      return req("POST", "/display-groups", body, async (api) => (await api.createDisplayGroup(body)).id);
    }
    case "display_group:update": {
      const sid = self();
      const body = pickFields(v, ["name", "sort_order", "in_navigation"]);
      return req("PUT", `/display-groups/${sid}`, body, async (api) => void (await api.updateDisplayGroup(sid, body)));
    }
    case "attribute:create": {
      // POST needs sort_order and publish: send defaults when the manifest leaves them unmanaged.
      const body: Record<string, unknown> = { sort_order: 0, publish: false, ...pickFields(v, ATTRIBUTE_FIELDS) };
      if ("display_group" in v) body.display_group_id = v.display_group === null ? null : id(a.refs.display_group, "display group");
      return req("POST", "/attributes", body, async (api) => (await api.createAttribute(body)).id);
    }
    case "attribute:update": {
      const sid = self();
      const body: Record<string, unknown> = pickFields(v, ATTRIBUTE_FIELDS);
      if ("display_group" in v) body.display_group_id = v.display_group === null ? null : id(a.refs.display_group, "display group");
      return req("PUT", `/attributes/${sid}`, body, async (api) => void (await api.updateAttribute(sid, body)));
    }
    case "attribute:delete": {
      const sid = self();
      return req("DELETE", `/attributes/${sid}`, undefined, async (api) => void (await api.deleteAttribute(sid)));
    }
    case "attribute_version:create":
    case "attribute_version:update": {
      const aid = id(a.refs.attribute, "attribute");
      const body = pickFields(v, ["name", "note"]);
      return req("PUT", `/attributes/${aid}/version/${a.version_id}`, body, async (api) => void (await api.updateAttributeVersion(aid, a.version_id!, body)));
    }
    case "type_value:create": {
      const aid = id(a.refs.attribute, "attribute");
      const body = pickFields(v, ["value", "slug", "sort_order"]) as { value: string };
      return req("POST", `/attributes/${aid}/type_values`, body, async (api) => (await api.createTypeValue(aid, body)).id);
    }
    case "type_value:update": {
      const aid = id(a.refs.attribute, "attribute");
      const sid = self();
      const body = pickFields(v, ["value", "slug", "sort_order"]) as { value: string };
      return req("PUT", `/attributes/${aid}/type_values/${sid}`, body, async (api) => void (await api.updateTypeValue(aid, sid, body)));
    }
    case "type_value:delete": {
      const aid = id(a.refs.attribute, "attribute");
      const sid = self();
      return req("DELETE", `/attributes/${aid}/type_values/${sid}`, undefined, async (api) => void (await api.deleteTypeValue(aid, sid)));
    }
    case "type_value_version:create":
    case "type_value_version:update": {
      const aid = id(a.refs.attribute, "attribute");
      const tid = id(a.refs.value, "type value");
      const body = { value: v.value as string };
      return req("PUT", `/attributes/${aid}/type_values/${tid}/version/${a.version_id}`, body, async (api) => void (await api.updateTypeValueVersion(aid, tid, a.version_id!, body)));
    }
    case "attribute_set:create": {
      const body = { sort_order: 0, ...pickFields(v, ["name", "sort_order"]) };
      return req("POST", "/attribute_sets", body, async (api) => (await api.createAttributeSet(body)).id);
    }
    case "attribute_set:update": {
      const sid = self();
      const body = pickFields(v, ["name", "sort_order"]);
      return req("PUT", `/attribute_sets/${sid}`, body, async (api) => void (await api.updateAttributeSet(sid, body)));
    }
    case "attribute_set:delete": {
      const sid = self();
      return req("DELETE", `/attribute_sets/${sid}`, undefined, async (api) => void (await api.deleteAttributeSet(sid)));
    }
    case "attribute_set_attribute:create": {
      const setId = id(a.refs.attribute_set, "attribute set");
      const attrId = id(a.refs.attribute, "attribute");
      return req("POST", `/attribute_sets/${setId}/attributes`, { attribute_id: attrId }, async (api) => void (await api.addAttributeToSet(setId, attrId)));
    }
    case "attribute_set_attribute:delete": {
      const setId = id(a.refs.attribute_set, "attribute set");
      const sid = self();
      return req("DELETE", `/attribute_sets/${setId}/attributes/${sid}`, undefined, async (api) => void (await api.removeAttributeFromSet(setId, sid)));
    }
    case "block:create": {
      const slug = v.slug as string;
      const body = { name: slug, ...pickFields(v, ["name", "slug", "content"]) };
      return req("POST", "/blocks", body, async (api) => (await api.createBlock(body)).id);
    }
    case "block:update": {
      const sid = self();
      const body = pickFields(v, ["name", "slug", "content"]);
      return req("PUT", `/blocks/${sid}`, body, async (api) => void (await api.updateBlock(sid, body)));
    }
    case "brand:create": {
      const body = pickFields(v, BRAND_FIELDS);
      return req("POST", "/brands", body, async (api) => (await api.createBrand(body)).id);
    }
    case "brand:update": {
      const sid = self();
      const body = pickFields(v, BRAND_FIELDS);
      return req("PUT", `/brands/${sid}`, body, async (api) => void (await api.updateBrand(sid, body)));
    }
    case "brand:delete": {
      const sid = self();
      return req("DELETE", `/brands/${sid}`, undefined, async (api) => void (await api.deleteBrand(sid)));
    }
    case "brand_asset:create":
    case "category_asset:create": {
      const owner = id(a.refs.owner, "owner");
      const body = pickFields(v, ["image_url", "alttext", "thumbnail"]) as { image_url: string };
      const brand = a.type === "brand_asset";
      return req("POST", `/${brand ? "brands" : "categories"}/${owner}/assets`, body, async (api) =>
        brand ? (await api.createBrandAsset(owner, body)).id : (await api.createCategoryAsset(owner, body)).id,
      );
    }
    case "brand_asset:update":
    case "category_asset:update": {
      const owner = id(a.refs.owner, "owner");
      const sid = self();
      const body = { image_url: a.identity?.image_url as string, ...pickFields(v, ["image_url", "alttext", "thumbnail"]) };
      const brand = a.type === "brand_asset";
      return req("PUT", `/${brand ? "brands" : "categories"}/${owner}/assets/${sid}`, body, async (api) =>
        void (brand ? await api.updateBrandAsset(owner, sid, body) : await api.updateCategoryAsset(owner, sid, body)),
      );
    }
    case "brand_asset:delete":
    case "category_asset:delete": {
      const owner = id(a.refs.owner, "owner");
      const sid = self();
      const brand = a.type === "brand_asset";
      return req("DELETE", `/${brand ? "brands" : "categories"}/${owner}/assets/${sid}`, undefined, async (api) =>
        void (brand ? await api.deleteBrandAsset(owner, sid) : await api.deleteCategoryAsset(owner, sid)),
      );
    }
    case "brand_web_id:create":
    case "brand_web_id:update":
    case "category_web_id:create":
    case "category_web_id:update": {
      const owner = id(a.refs.owner, "owner");
      const channel = id(a.refs.channel, "channel");
      const body = { web_id: v.web_id as string };
      const brand = a.type === "brand_web_id";
      return req("POST", `/${brand ? "brands" : "categories"}/${owner}/channel/${channel}`, body, async (api) =>
        void (brand ? await api.setBrandWebId(owner, channel, body.web_id) : await api.setCategoryWebId(owner, channel, body.web_id)),
      );
    }
    case "brand_attribute_value:create": {
      const brand = id(a.refs.brand, "brand");
      const body = { attribute_id: id(a.refs.attribute, "attribute"), version_id: a.version_id ?? 0, values: [{ value: v.value as string }] };
      return req("POST", `/brands/${brand}/attributes`, body, async (api) => void (await api.createBrandAttribute(brand, body)));
    }
    case "brand_attribute_value:update": {
      const brand = id(a.refs.brand, "brand");
      const attr = id(a.refs.attribute, "attribute");
      const sid = self();
      const body = { attribute_id: attr, version_id: a.version_id ?? 0, values: [{ value: v.value as string }] };
      return req("PUT", `/brands/${brand}/attributes/${attr}/values/${sid}`, body, async (api) => void (await api.updateBrandAttributeValue(brand, attr, sid, body)));
    }
    case "brand_assigned_attribute:create": {
      const brand = id(a.refs.brand, "brand");
      const attr = id(a.refs.attribute, "attribute");
      return req("POST", `/brands/${brand}/assigned-attributes`, { attribute_id: attr }, async (api) => void (await api.assignBrandAttribute(brand, attr)));
    }
    case "brand_assigned_attribute_set:create": {
      const brand = id(a.refs.brand, "brand");
      const set = id(a.refs.attribute_set, "attribute set");
      return req("POST", `/brands/${brand}/assigned-attribute-sets`, { attribute_set_id: set }, async (api) => void (await api.assignBrandAttributeSet(brand, set)));
    }
    case "category:create": {
      const body = categoryBody(a, v, id) as { parent_id: number; name: string };
      return req("POST", "/categories", body, async (api) => (await api.createCategory(body)).id);
    }
    case "category:update": {
      const sid = self();
      const body = categoryBody(a, v, id);
      return req("PUT", `/categories/${sid}`, body, async (api) => void (await api.updateCategory(sid, body)));
    }
    case "category:delete": {
      const sid = self();
      return req("DELETE", `/categories/${sid}`, undefined, async (api) => void (await api.deleteCategory(sid)));
    }
    default:
      throw new PimctlError("internal", `no request is defined for ${a.type} ${a.op} (${a.address})`);
  }
}
