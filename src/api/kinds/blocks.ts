/** Blocks and their assets (API v1: Blocks); blocks are adopted by slug. */
import { getList } from "../lists.js";
import type { ApiSelf } from "../core.js";
import type * as T from "../types.js";

export const blockEndpoints = {
  listBlocks(this: ApiSelf): Promise<T.ApiBlock[]> {
    return getList(this, "/blocks", "blocks");
  },
  getBlock(this: ApiSelf, id: number): Promise<T.ApiBlock> {
    return this.get(`/blocks/${id}`, "block");
  },
  createBlock(this: ApiSelf, body: T.BlockWrite): Promise<T.ApiBlock> {
    return this.send("POST", "/blocks", body, "block", { adopt: async () => (await this.listBlocks()).find((b) => b.slug === body.slug) });
  },
  updateBlock(this: ApiSelf, id: number, body: T.BlockWrite): Promise<T.ApiBlock> {
    return this.send("PUT", `/blocks/${id}`, body, "block");
  },
  deleteBlock(this: ApiSelf, id: number): Promise<void> {
    return this.del(`/blocks/${id}`);
  },
  listBlockAssets(this: ApiSelf, blockId: number): Promise<T.ApiBlockAsset[]> {
    return getList(this, `/blocks/${blockId}/assets`, "block_assets");
  },
  getBlockAsset(this: ApiSelf, blockId: number, id: number): Promise<T.ApiBlockAsset> {
    return this.get(`/blocks/${blockId}/assets/${id}`, "block_asset");
  },
};
