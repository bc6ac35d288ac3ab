/**
 * Assets of brands and categories (images by address) and their web ids per channel:
 * the records' rules, their JSON and the routes both kinds mount (brands.ts, categories.ts).
 * `--asset-uri` decides whether a stored uri is re-hosted here or echoes the image_url.
 */
import { HttpError, notFound, unprocessable } from "../errors.js";
import type { AssetRec } from "../record-shapes.js";
import { type StoreCore } from "../store-core.js";
import { bodyObject, intParam, noContent, ok, pick, type RequestContext, type RouteSpec } from "../request.js";

// ------------------------------------------------------------------ records

export function assetTable(s: StoreCore, kind: "brand" | "category"): Map<number, AssetRec> {
  return kind === "brand" ? s.brandAssets : s.categoryAssets;
}

export function assetsOf(s: StoreCore, kind: "brand" | "category", ownerId: number): AssetRec[] {
  const out: AssetRec[] = [];
  for (const a of assetTable(s, kind).values()) if (a.owner_id === ownerId) out.push(a);
  return out.sort((a, b) => a.sort_order - b.sort_order || a.id - b.id);
}

export function getAsset(s: StoreCore, kind: "brand" | "category", ownerId: number, id: number): AssetRec {
  const a = assetTable(s, kind).get(id);
  if (!a || a.owner_id !== ownerId) throw notFound(`${kind === "brand" ? "Brand" : "Category"} asset`);
  return a;
}

export function createAsset(
  s: StoreCore,
  kind: "brand" | "category",
  ownerId: number,
  uri: (id: number) => string,
  body: { alttext?: string; thumbnail?: boolean },
): AssetRec {
  if (kind === "brand") s.getBrand(ownerId);
  else s.getCategory(ownerId);
  const id = s.id(kind === "brand" ? "brandAssets" : "categoryAssets");
  const a: AssetRec = {
    id,
    owner_id: ownerId,
    uri: uri(id),
    alttext: body.alttext ?? "",
    thumbnail: body.thumbnail ?? false,
    sort_order: assetsOf(s, kind, ownerId).length,
  };
  assetTable(s, kind).set(id, a);
  s.changed(kind, ownerId);
  return a;
}

export function updateAsset(
  s: StoreCore,
  kind: "brand" | "category",
  ownerId: number,
  id: number,
  uri: string | undefined,
  body: { alttext?: string; thumbnail?: boolean },
): AssetRec {
  const a = getAsset(s, kind, ownerId, id);
  if (uri !== undefined) a.uri = uri;
  if (body.alttext !== undefined) a.alttext = body.alttext;
  if (body.thumbnail !== undefined) a.thumbnail = body.thumbnail;
  s.changed(kind, ownerId);
  return a;
}

export function deleteAsset(s: StoreCore, kind: "brand" | "category", ownerId: number, id: number): void {
  getAsset(s, kind, ownerId, id);
  assetTable(s, kind).delete(id);
  s.changed(kind, ownerId);
}

export function setWebId(s: StoreCore, kind: "brand" | "category", ownerId: number, channelId: number, webId: string): void {
  if (kind === "brand") s.getBrand(ownerId);
  else s.getCategory(ownerId);
  if (!s.channels.has(channelId)) throw notFound("Channel");
  const all = kind === "brand" ? s.brandWebIds : s.categoryWebIds;
  let m = all.get(channelId);
  if (!m) all.set(channelId, (m = new Map()));
  for (const [other, w] of m) if (w === webId && other !== ownerId) throw unprocessable("web_id", "The web id has already been taken in this channel.");
  m.set(ownerId, webId);
  s.changed(kind, ownerId);
}

// --------------------------------------------------------------------- JSON

function assetUri(c: RequestContext, kind: string, imageUrl: string): (id: number) => string {
  if (c.switches.assetUri === "echo") return () => imageUrl;
  const name = imageUrl.split(/[/?#]/).filter(Boolean).pop() ?? "image";
  return (id) => `${c.origin}/assets/${c.store.hash}/${kind}/${id}/${encodeURIComponent(name)}`;
}

export function assetJson(kind: "brand" | "category", a: AssetRec): Record<string, unknown> {
  return { id: a.id, [`${kind}_id`]: a.owner_id, uri: a.uri, alttext: a.alttext, thumbnail: a.thumbnail ? 1 : 0 };
}

// ------------------------------------------------------------------- routes

/** An owner's asset routes and its web id route: /brands/:owner/... or /categories/:owner/... */
export function assetRoutes(kind: "brand" | "category"): RouteSpec[] {
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
    return {
      image_url: b.image_url as string | undefined,
      alttext: (b.alttext as string | null | undefined) ?? undefined,
      thumbnail: b.thumbnail as boolean | undefined,
    };
  };
  return [
    [
      "GET",
      base,
      (c) =>
        ok({
          [env]: assetsOf(c.store, kind, owner(c)).map((a) => assetJson(kind, a)),
        }),
    ],
    ["GET", `${base}/:id`, (c) => ok({ [one]: assetJson(kind, getAsset(c.store, kind, owner(c), intParam(c, "id"))) })],
    [
      "POST",
      base,
      (c) => {
        const id = owner(c);
        const b = write(c, true);
        const a = createAsset(c.store, kind, id, assetUri(c, kind, b.image_url!), {
          ...(b.alttext !== undefined ? { alttext: b.alttext } : {}),
          ...(b.thumbnail !== undefined ? { thumbnail: b.thumbnail } : {}),
        });
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
        const a = updateAsset(c.store, kind, id, assetId, uri, {
          ...(b.alttext !== undefined ? { alttext: b.alttext } : {}),
          ...(b.thumbnail !== undefined ? { thumbnail: b.thumbnail } : {}),
        });
        return ok({ [one]: assetJson(kind, a) });
      },
    ],
    [
      "DELETE",
      `${base}/:id`,
      (c) => {
        deleteAsset(c.store, kind, owner(c), intParam(c, "id"));
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
        setWebId(c.store, kind, intParam(c, "owner"), intParam(c, "channel"), String(b.web_id));
        return ok({ message: "Web id saved.", web_id: String(b.web_id) });
      },
    ],
  ];
}
