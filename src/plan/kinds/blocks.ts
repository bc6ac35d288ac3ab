/** Blocks: by slug; API v1 cannot delete them (501). */
import { addr } from "../address.js";
import type { PlanContext } from "../context.js";
import { FIELDS, createChanges, updateChanges } from "../fields.js";
import { leftover } from "../action-builders.js";
import type { KindPlanner } from "./kind.js";

export const blocks: KindPlanner = {
  kind: "blocks",

  plan(ctx: PlanContext): void {
    const remoteBySlug = new Map(ctx.remote.blocks.map((b) => [b.slug, b]));
    const declared = new Set<string>();
    for (const d of ctx.desired.blocks) {
      declared.add(d.slug);
      const r = remoteBySlug.get(d.slug);
      const address = addr.block(d.slug);
      const src = d.source ? { source: d.source } : {};
      if (!r) {
        ctx.add({ address, kind: "blocks", type: "block", op: "create", changes: createChanges(d, FIELDS.block), ...src }, null);
        ctx.ownership.created("blocks", address, d.slug);
        continue;
      }
      ctx.own("blocks", r.id, d.slug);
      const changes = updateChanges(d, r, FIELDS.block);
      if (changes.length) ctx.add({ address, kind: "blocks", type: "block", op: "update", changes, refs: { self: { id: r.id } }, ...src }, r);
    }
    for (const r of ctx.remote.blocks) {
      if (declared.has(r.slug)) continue;
      leftover(ctx, {
        table: "blocks",
        key: r.slug,
        kind: "blocks",
        type: "block",
        address: addr.block(r.slug),
        remote: r,
        change: { field: "slug", before: r.slug },
        unsupported: "API v1 cannot delete blocks (DELETE /blocks/<ID> answers 501)",
      });
    }
  },
};
