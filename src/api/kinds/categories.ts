/** Categories, their assets and web ids (API v1: Categories); categories are paged. */
import { adoptAsset } from "./assets.js";
import { all, getList, page, readAll } from "../lists.js";
import type { ApiSelf } from "../core.js";
import type * as T from "../types.js";

export const categoryEndpoints = {
  listCategories(this: ApiSelf, opts: { withAttributes?: boolean; limit?: number } = {}): Promise<T.ApiCategory[]> {
    return all(this, "/categories", "categories", { limit: opts.limit, withAttributes: opts.withAttributes ? "true" : undefined });
  },
  readCategories(this: ApiSelf, opts: { withAttributes?: boolean } = {}): Promise<T.ListRead<T.ApiCategory>> {
    return readAll(this, "/categories", "categories", { withAttributes: opts.withAttributes ? "true" : undefined });
  },
  listCategoriesPage(this: ApiSelf, opts: { page: number; withAttributes?: boolean; limit?: number }): Promise<T.Page<T.ApiCategory>> {
    return page(this, "/categories", "categories", {
      page: opts.page,
      limit: opts.limit ?? this.pageLimit,
      withAttributes: opts.withAttributes ? "true" : undefined,
    });
  },
  getCategory(this: ApiSelf, id: number, opts: { withAttributes?: boolean; versionId?: number } = {}): Promise<T.ApiCategory> {
    if (opts.versionId) return this.get(`/categories/${id}/version/${opts.versionId}`, "category");
    return this.get(`/categories/${id}${opts.withAttributes ? "?withAttributes=true" : ""}`, "category");
  },
  createCategory(this: ApiSelf, body: T.CategoryWrite & { parent_id: number; name: string }): Promise<T.ApiCategory> {
    return this.send("POST", "/categories", body, "category", {
      adopt: async () => {
        // Same name under the same parent, exactly: never a near match.
        const parent = body.parent_id === 0 ? null : body.parent_id;
        return (await this.listCategories()).find(
          (c) => (c.parent_id === 0 || c.parent_id === undefined ? null : c.parent_id) === parent && c.name === body.name,
        );
      },
    });
  },
  updateCategory(this: ApiSelf, id: number, body: T.CategoryWrite): Promise<T.ApiCategory> {
    return this.send("PUT", `/categories/${id}`, body, "category");
  },
  deleteCategory(this: ApiSelf, id: number): Promise<void> {
    return this.del(`/categories/${id}`);
  },
  listCategoryAssets(this: ApiSelf, categoryId: number): Promise<T.ApiAsset[]> {
    return getList(this, `/categories/${categoryId}/assets`, "category_assets");
  },
  getCategoryAsset(this: ApiSelf, categoryId: number, id: number): Promise<T.ApiAsset> {
    return this.get(`/categories/${categoryId}/assets/${id}`, "category_asset");
  },
  createCategoryAsset(this: ApiSelf, categoryId: number, body: T.AssetWrite): Promise<T.ApiAsset> {
    return this.send("POST", `/categories/${categoryId}/assets`, body, "category_asset", {
      adopt: () => adoptAsset(() => this.listCategoryAssets(categoryId), body),
    });
  },
  updateCategoryAsset(this: ApiSelf, categoryId: number, id: number, body: T.AssetWrite): Promise<T.ApiAsset> {
    return this.send("PUT", `/categories/${categoryId}/assets/${id}`, body, "category_asset");
  },
  deleteCategoryAsset(this: ApiSelf, categoryId: number, id: number): Promise<void> {
    return this.del(`/categories/${categoryId}/assets/${id}`);
  },
  async setCategoryWebId(this: ApiSelf, categoryId: number, channelId: number, webId: string): Promise<void> {
    await this.request("POST", `/categories/${categoryId}/channel/${channelId}`, { web_id: webId }, { retryPost: true });
  },
};
