/**
 * The one table from plan actions to API calls: (type, op) -> request. The
 * planner decided everything; this only turns an action's changes and refs
 * into a body and a client call, with ids of records created earlier in the
 * run resolved through `id()`.
 */
import type { PimApi } from "../api/types.js";
import { PimctlError } from "../errors.js";
import { FIELDS, type FieldSpec } from "../plan/fields.js";
import type { Action, Json, Ref, ResourceType } from "../plan/types.js";

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

/** Fields written as they are: the compared fields of each table (src/model/schema.ts), less those the body translates. */
const plain = (specs: readonly FieldSpec[], ...translated: string[]): string[] => specs.map((f) => f.field).filter((f) => !translated.includes(f));
const DISPLAY_GROUP_FIELDS = plain(FIELDS.display_group);
const ATTRIBUTE_FIELDS = plain(FIELDS.attribute, "display_group");
const ATTRIBUTE_VERSION_FIELDS = plain(FIELDS.attribute_version);
const TYPE_VALUE_FIELDS = plain(FIELDS.type_value);
const ATTRIBUTE_SET_FIELDS = plain(FIELDS.attribute_set);
const BLOCK_FIELDS = plain(FIELDS.block);
const BRAND_FIELDS = plain(FIELDS.brand);
const CATEGORY_FIELDS = plain(FIELDS.category, "attribute_sets");
const ASSET_FIELDS = ["image_url", ...plain(FIELDS.asset)];

function categoryBody(a: Action, values: Record<string, Json>, id: IdOf): Record<string, unknown> {
  const body = pickFields(values, CATEGORY_FIELDS);
  if (a.changes.some((c) => c.field === "parent")) body.parent_id = a.refs.parent ? id(a.refs.parent, "parent category") : 0;
  if (values.attribute_sets !== undefined) {
    body.attribute_sets = (values.attribute_sets as string[]).map((n) => id(a.refs[`attribute_set:${n}`], `attribute set "${n}"`));
  }
  return body;
}

/** What a builder gets: the action, its changed values, and the resolver of ids. */
interface Input {
  a: Action;
  v: Record<string, Json>;
  id: IdOf;
  /** The record's own id. */
  self: () => number;
}
type Builder = (input: Input) => BuiltRequest;
type WriteOp = "create" | "update" | "delete";

const req = (method: BuiltRequest["method"], path: string, body: Record<string, unknown> | undefined, send: BuiltRequest["send"]): BuiltRequest => ({
  method,
  path,
  ...(body ? { body } : {}),
  send,
});

/** Brand and category sub-records share paths under their owner. */
const ownerPath = (a: Action): "brands" | "categories" => (a.type.startsWith("brand") ? "brands" : "categories");

const assetRequests: Partial<Record<WriteOp, Builder>> = {
  create: ({ a, v, id }) => {
    const owner = id(a.refs.owner, "owner");
    const body = pickFields(v, ASSET_FIELDS) as { image_url: string };
    const brand = ownerPath(a) === "brands";
    return req("POST", `/${ownerPath(a)}/${owner}/assets`, body, async (api) =>
      brand ? (await api.createBrandAsset(owner, body)).id : (await api.createCategoryAsset(owner, body)).id,
    );
  },
  update: ({ a, v, id, self }) => {
    const owner = id(a.refs.owner, "owner");
    const sid = self();
    const body = { image_url: a.identity?.image_url as string, ...pickFields(v, ASSET_FIELDS) };
    const brand = ownerPath(a) === "brands";
    return req(
      "PUT",
      `/${ownerPath(a)}/${owner}/assets/${sid}`,
      body,
      async (api) => void (brand ? await api.updateBrandAsset(owner, sid, body) : await api.updateCategoryAsset(owner, sid, body)),
    );
  },
  delete: ({ a, id, self }) => {
    const owner = id(a.refs.owner, "owner");
    const sid = self();
    const brand = ownerPath(a) === "brands";
    return req(
      "DELETE",
      `/${ownerPath(a)}/${owner}/assets/${sid}`,
      undefined,
      async (api) => void (brand ? await api.deleteBrandAsset(owner, sid) : await api.deleteCategoryAsset(owner, sid)),
    );
  },
};

/** POST .../channel/<CHANNELID> creates or updates a web id. */
const setWebId: Builder = ({ a, v, id }) => {
  const owner = id(a.refs.owner, "owner");
  const channel = id(a.refs.channel, "channel");
  const body = { web_id: v.web_id as string };
  const brand = ownerPath(a) === "brands";
  return req(
    "POST",
    `/${ownerPath(a)}/${owner}/channel/${channel}`,
    body,
    async (api) => void (brand ? await api.setBrandWebId(owner, channel, body.web_id) : await api.setCategoryWebId(owner, channel, body.web_id)),
  );
};

const putAttributeVersion: Builder = ({ a, v, id }) => {
  const aid = id(a.refs.attribute, "attribute");
  const body = pickFields(v, ATTRIBUTE_VERSION_FIELDS);
  return req("PUT", `/attributes/${aid}/version/${a.version_id}`, body, async (api) => void (await api.updateAttributeVersion(aid, a.version_id!, body)));
};

const putTypeValueVersion: Builder = ({ a, v, id }) => {
  const aid = id(a.refs.attribute, "attribute");
  const tid = id(a.refs.value, "type value");
  const body = { value: v.value as string };
  return req(
    "PUT",
    `/attributes/${aid}/type_values/${tid}/version/${a.version_id}`,
    body,
    async (api) => void (await api.updateTypeValueVersion(aid, tid, a.version_id!, body)),
  );
};

/**
 * Every resource type a plan can hold, with a builder per op it writes. A
 * type missing here is a type error; an op missing for a type (display group
 * deletes, language versions of brands and categories) is what API v1 cannot
 * do: the planner makes those `unsupported`, never applied.
 */
const REQUESTS = {
  display_group: {
    create: ({ v }) => {
      const body = pickFields(v, DISPLAY_GROUP_FIELDS);
      return req("POST", "/display-groups", body, async (api) => (await api.createDisplayGroup(body)).id);
    },
    update: ({ v, self }) => {
      const sid = self();
      const body = pickFields(v, DISPLAY_GROUP_FIELDS);
      return req("PUT", `/display-groups/${sid}`, body, async (api) => void (await api.updateDisplayGroup(sid, body)));
    },
  },
  attribute: {
    create: ({ a, v, id }) => {
      // POST needs sort_order and publish: send defaults when the manifest leaves them unmanaged.
      const body: Record<string, unknown> = { sort_order: 0, publish: false, ...pickFields(v, ATTRIBUTE_FIELDS) };
      if ("display_group" in v) body.display_group_id = v.display_group === null ? null : id(a.refs.display_group, "display group");
      return req("POST", "/attributes", body, async (api) => (await api.createAttribute(body)).id);
    },
    update: ({ a, v, id, self }) => {
      const sid = self();
      const body: Record<string, unknown> = pickFields(v, ATTRIBUTE_FIELDS);
      if ("display_group" in v) body.display_group_id = v.display_group === null ? null : id(a.refs.display_group, "display group");
      return req("PUT", `/attributes/${sid}`, body, async (api) => void (await api.updateAttribute(sid, body)));
    },
    delete: ({ self }) => {
      const sid = self();
      return req("DELETE", `/attributes/${sid}`, undefined, async (api) => void (await api.deleteAttribute(sid)));
    },
  },
  // Creating a version's text is a PUT of the version record, like an update.
  attribute_version: { create: putAttributeVersion, update: putAttributeVersion },
  type_value: {
    create: ({ a, v, id }) => {
      const aid = id(a.refs.attribute, "attribute");
      const body = pickFields(v, TYPE_VALUE_FIELDS) as { value: string };
      return req("POST", `/attributes/${aid}/type_values`, body, async (api) => (await api.createTypeValue(aid, body)).id);
    },
    update: ({ a, v, id, self }) => {
      const aid = id(a.refs.attribute, "attribute");
      const sid = self();
      const body = pickFields(v, TYPE_VALUE_FIELDS) as { value: string };
      return req("PUT", `/attributes/${aid}/type_values/${sid}`, body, async (api) => void (await api.updateTypeValue(aid, sid, body)));
    },
    delete: ({ a, id, self }) => {
      const aid = id(a.refs.attribute, "attribute");
      const sid = self();
      return req("DELETE", `/attributes/${aid}/type_values/${sid}`, undefined, async (api) => void (await api.deleteTypeValue(aid, sid)));
    },
  },
  type_value_version: { create: putTypeValueVersion, update: putTypeValueVersion },
  attribute_set: {
    create: ({ v }) => {
      const body = { sort_order: 0, ...pickFields(v, ATTRIBUTE_SET_FIELDS) };
      return req("POST", "/attribute_sets", body, async (api) => (await api.createAttributeSet(body)).id);
    },
    update: ({ v, self }) => {
      const sid = self();
      const body = pickFields(v, ATTRIBUTE_SET_FIELDS);
      return req("PUT", `/attribute_sets/${sid}`, body, async (api) => void (await api.updateAttributeSet(sid, body)));
    },
    delete: ({ self }) => {
      const sid = self();
      return req("DELETE", `/attribute_sets/${sid}`, undefined, async (api) => void (await api.deleteAttributeSet(sid)));
    },
  },
  attribute_set_attribute: {
    create: ({ a, id }) => {
      const setId = id(a.refs.attribute_set, "attribute set");
      const attrId = id(a.refs.attribute, "attribute");
      return req("POST", `/attribute_sets/${setId}/attributes`, { attribute_id: attrId }, async (api) => void (await api.addAttributeToSet(setId, attrId)));
    },
    delete: ({ a, id, self }) => {
      const setId = id(a.refs.attribute_set, "attribute set");
      const sid = self();
      const attributeId = id(a.refs.attribute, "attribute");
      return req(
        "DELETE",
        `/attribute_sets/${setId}/attributes/${sid}`,
        undefined,
        async (api) => void (await api.removeAttributeFromSet(setId, { assignmentId: sid, attributeId })),
      );
    },
  },
  block: {
    create: ({ v }) => {
      const body = { name: v.slug as string, ...pickFields(v, BLOCK_FIELDS) };
      return req("POST", "/blocks", body, async (api) => (await api.createBlock(body)).id);
    },
    update: ({ v, self }) => {
      const sid = self();
      const body = pickFields(v, BLOCK_FIELDS);
      return req("PUT", `/blocks/${sid}`, body, async (api) => void (await api.updateBlock(sid, body)));
    },
  },
  brand: {
    create: ({ v }) => {
      const body = pickFields(v, BRAND_FIELDS);
      return req("POST", "/brands", body, async (api) => (await api.createBrand(body)).id);
    },
    update: ({ v, self }) => {
      const sid = self();
      const body = pickFields(v, BRAND_FIELDS);
      return req("PUT", `/brands/${sid}`, body, async (api) => void (await api.updateBrand(sid, body)));
    },
    delete: ({ self }) => {
      const sid = self();
      return req("DELETE", `/brands/${sid}`, undefined, async (api) => void (await api.deleteBrand(sid)));
    },
  },
  brand_version: {},
  brand_asset: assetRequests,
  brand_web_id: { create: setWebId, update: setWebId },
  brand_attribute_value: {
    create: ({ a, v, id }) => {
      const brand = id(a.refs.brand, "brand");
      const body = { attribute_id: id(a.refs.attribute, "attribute"), version_id: a.version_id ?? 0, values: [{ value: v.value as string }] };
      return req("POST", `/brands/${brand}/attributes`, body, async (api) => void (await api.createBrandAttribute(brand, body)));
    },
    update: ({ a, v, id, self }) => {
      const brand = id(a.refs.brand, "brand");
      const attr = id(a.refs.attribute, "attribute");
      const sid = self();
      const body = { attribute_id: attr, version_id: a.version_id ?? 0, values: [{ value: v.value as string }] };
      return req(
        "PUT",
        `/brands/${brand}/attributes/${attr}/values/${sid}`,
        body,
        async (api) => void (await api.updateBrandAttributeValue(brand, attr, sid, body)),
      );
    },
  },
  brand_assigned_attribute: {
    create: ({ a, id }) => {
      const brand = id(a.refs.brand, "brand");
      const attr = id(a.refs.attribute, "attribute");
      return req("POST", `/brands/${brand}/assigned-attributes`, { attribute_id: attr }, async (api) => void (await api.assignBrandAttribute(brand, attr)));
    },
  },
  brand_assigned_attribute_set: {
    create: ({ a, id }) => {
      const brand = id(a.refs.brand, "brand");
      const set = id(a.refs.attribute_set, "attribute set");
      return req(
        "POST",
        `/brands/${brand}/assigned-attribute-sets`,
        { attribute_set_id: set },
        async (api) => void (await api.assignBrandAttributeSet(brand, set)),
      );
    },
  },
  category: {
    create: ({ a, v, id }) => {
      const body = categoryBody(a, v, id) as { parent_id: number; name: string };
      return req("POST", "/categories", body, async (api) => (await api.createCategory(body)).id);
    },
    update: ({ a, v, id, self }) => {
      const sid = self();
      const body = categoryBody(a, v, id);
      return req("PUT", `/categories/${sid}`, body, async (api) => void (await api.updateCategory(sid, body)));
    },
    delete: ({ self }) => {
      const sid = self();
      return req("DELETE", `/categories/${sid}`, undefined, async (api) => void (await api.deleteCategory(sid)));
    },
  },
  category_version: {},
  category_asset: assetRequests,
  category_web_id: { create: setWebId, update: setWebId },
} satisfies Record<ResourceType, Partial<Record<WriteOp, Builder>>>;

export function buildRequest(a: Action, id: IdOf): BuiltRequest {
  const op: WriteOp | undefined = a.op === "rename" || a.op === "move" ? "update" : a.op === "unsupported" ? undefined : a.op;
  const builder = op ? (REQUESTS[a.type] as Partial<Record<WriteOp, Builder>>)[op] : undefined;
  if (!builder) throw new PimctlError("internal", `no request is defined for ${a.type} ${a.op} (${a.address})`);
  return builder({ a, v: after(a), id, self: () => id(a.refs.self, "the record itself") });
}
