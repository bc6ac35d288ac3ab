/** Channels: read-only in API v1 (seeded with every tenant, store-core.ts seedDefaults). */
import { notFound } from "../errors.js";
import { intParam, ok, type RouteSpec } from "../request.js";

export const channelRoutes: RouteSpec[] = [
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
];
