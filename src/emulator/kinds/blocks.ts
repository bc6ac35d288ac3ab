/**
 * Blocks (content snippets by slug) and their assets: the records' rules and the routes.
 * API v1 answers 501 to a block DELETE and to every block asset write.
 */
import { notFound, unprocessable } from "../errors.js";
import type { BlockRec } from "../record-shapes.js";
import { type StoreCore } from "../store-core.js";
import { bodyObject, intParam, notImplemented, ok, pick, type RouteSpec } from "../request.js";

// ------------------------------------------------------------------ records

export function createBlock(s: StoreCore, body: { name: string; slug: string; content?: string }): BlockRec {
  for (const b of s.blocks.values()) if (b.slug === body.slug) throw unprocessable("slug", "The slug has already been taken.");
  const b = { id: s.id("blocks"), name: body.name, slug: body.slug, content: body.content ?? "" };
  s.blocks.set(b.id, b);
  s.changed(null, b.id);
  return b;
}

export function updateBlock(s: StoreCore, id: number, body: { name?: string; slug?: string; content?: string }): BlockRec {
  const b = s.getBlock(id);
  if (body.slug !== undefined && body.slug !== b.slug)
    for (const o of s.blocks.values()) if (o.slug === body.slug) throw unprocessable("slug", "The slug has already been taken.");
  if (body.name !== undefined) b.name = body.name;
  if (body.slug !== undefined) b.slug = body.slug;
  if (body.content !== undefined) b.content = body.content;
  s.changed(null, id);
  return b;
}

// ------------------------------------------------------------------- routes

export const blockRoutes: RouteSpec[] = [
  ["GET", "/blocks", (c) => ok({ blocks: [...c.store.blocks.values()].sort((a, b) => a.id - b.id) })],
  ["GET", "/blocks/:id", (c) => ok({ block: c.store.getBlock(intParam(c, "id")) })],
  [
    "POST",
    "/blocks",
    (c) => ok({ block: createBlock(c.store, pick(bodyObject(c), { name: "string", slug: "string", content: "string" }, ["name", "slug"]) as never) }, 201),
  ],
  [
    "PUT",
    "/blocks/:id",
    (c) => ok({ block: updateBlock(c.store, intParam(c, "id"), pick(bodyObject(c), { name: "string", slug: "string", content: "string" }) as never) }),
  ],
  ["DELETE", "/blocks/:id", notImplemented],
  [
    "GET",
    "/blocks/:id/assets",
    (c) => {
      const id = c.store.getBlock(intParam(c, "id")).id;
      return ok({
        block_assets: [...c.store.blockAssets.values()]
          .filter((a) => a.owner_id === id)
          .map((a) => ({ id: a.id, block_id: id, uri: a.uri, alttext: a.alttext, sort_order: a.sort_order, thumbnail: a.thumbnail ? 1 : 0 })),
      });
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
];
