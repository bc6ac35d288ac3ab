/**
 * Brands and their sub-resources (API v1: Brands): language versions, assets, web ids,
 * attribute values, assigned attributes and attribute sets. Brands are paged.
 */
import { adoptAsset } from "./assets.js";
import { all, getList, page, readAll } from "../lists.js";
import type { ApiSelf } from "../core.js";
import type * as T from "../types.js";

/**
 * Brand attributes in one shape: an array of records whose `values` is an array of
 * {id, version_id, value}. Tenants also answer one record instead of an array, and
 * values keyed by version id; both are read.
 */
function brandAttributes(v: unknown): T.ApiBrandAttribute[] {
  const list = Array.isArray(v) ? v : v !== null && typeof v === "object" ? [v] : [];
  return list
    .filter((x): x is Record<string, unknown> => x !== null && typeof x === "object" && "attribute_id" in x)
    .map((x) => {
      const raw = x.values;
      const values = (
        Array.isArray(raw)
          ? raw
          : raw !== null && typeof raw === "object"
            ? Object.entries(raw as Record<string, unknown>).map(([k, val]) =>
                val !== null && typeof val === "object" ? { version_id: Number(k), ...(val as object) } : { version_id: Number(k), value: val },
              )
            : []
      ) as Array<Record<string, unknown>>;
      return {
        ...x,
        values: values.map((e) => ({ ...e, value: e.value === null || e.value === undefined ? "" : String(e.value) })),
      } as unknown as T.ApiBrandAttribute;
    });
}

/** The record a brand-attribute write answers with, whatever its envelope (the body is not checked further). */
function oneBrandAttribute(data: unknown, attributeId: number): T.ApiBrandAttribute {
  const d = data as Record<string, unknown> | null | undefined;
  const inner = d?.brand_attributes ?? d?.brands_attributes ?? d?.brand_attribute ?? d;
  return brandAttributes(inner).find((a) => a.attribute_id === attributeId) ?? ({ attribute_id: attributeId, values: [] } as unknown as T.ApiBrandAttribute);
}

export const brandEndpoints = {
  listBrands(this: ApiSelf, opts: { versionId?: number; limit?: number } = {}): Promise<T.ApiBrand[]> {
    return all(this, "/brands", "brands", { limit: opts.limit, version: opts.versionId || undefined });
  },
  readBrands(this: ApiSelf, opts: { versionId?: number; first?: T.Page<T.ApiBrand> } = {}): Promise<T.ListRead<T.ApiBrand>> {
    return readAll(this, "/brands", "brands", { version: opts.versionId || undefined }, opts.first);
  },
  listBrandsPage(this: ApiSelf, opts: { page: number; versionId?: number; limit?: number }): Promise<T.Page<T.ApiBrand>> {
    return page(this, "/brands", "brands", { page: opts.page, limit: opts.limit ?? this.pageLimit, version: opts.versionId || undefined });
  },
  getBrand(this: ApiSelf, id: number, versionId?: number): Promise<T.ApiBrand> {
    return this.get(versionId ? `/brands/${id}/version/${versionId}` : `/brands/${id}`, "brand");
  },
  createBrand(this: ApiSelf, body: T.BrandWrite): Promise<T.ApiBrand> {
    return this.send("POST", "/brands", body, "brand", {
      adopt: () =>
        this.adoptByName(
          body.name,
          (n) => this.searchBrand(n),
          () => this.listBrands(),
        ),
    });
  },
  updateBrand(this: ApiSelf, id: number, body: T.BrandWrite): Promise<T.ApiBrand> {
    return this.send("PUT", `/brands/${id}`, body, "brand");
  },
  deleteBrand(this: ApiSelf, id: number): Promise<void> {
    return this.del(`/brands/${id}`);
  },
  searchBrand(this: ApiSelf, name: string): Promise<T.ApiBrand | null> {
    return this.search("/brands/search", name, "brand");
  },
  listBrandAssets(this: ApiSelf, brandId: number): Promise<T.ApiAsset[]> {
    return getList(this, `/brands/${brandId}/assets`, "brand_assets");
  },
  getBrandAsset(this: ApiSelf, brandId: number, id: number): Promise<T.ApiAsset> {
    return this.get(`/brands/${brandId}/assets/${id}`, "brand_asset");
  },
  createBrandAsset(this: ApiSelf, brandId: number, body: T.AssetWrite): Promise<T.ApiAsset> {
    return this.send("POST", `/brands/${brandId}/assets`, body, "brand_asset", { adopt: () => adoptAsset(() => this.listBrandAssets(brandId), body) });
  },

  updateBrandAsset(this: ApiSelf, brandId: number, id: number, body: T.AssetWrite): Promise<T.ApiAsset> {
    return this.send("PUT", `/brands/${brandId}/assets/${id}`, body, "brand_asset");
  },
  deleteBrandAsset(this: ApiSelf, brandId: number, id: number): Promise<void> {
    return this.del(`/brands/${brandId}/assets/${id}`);
  },
  async setBrandWebId(this: ApiSelf, brandId: number, channelId: number, webId: string): Promise<void> {
    await this.request("POST", `/brands/${brandId}/channel/${channelId}`, { web_id: webId }, { retryPost: true });
  },
  async listBrandAttributes(this: ApiSelf, brandId: number): Promise<T.ApiBrandAttribute[]> {
    return brandAttributes(await getList(this, `/brands/${brandId}/attributes`, "brand_attributes"));
  },
  /**
   * The document's envelope is `brands_attributes` holding an array; the list read uses
   * `brand_attributes` and the write answers with one object. Any of these shapes is read.
   */
  async getBrandAttribute(this: ApiSelf, brandId: number, attributeId: number): Promise<T.ApiBrandAttribute[]> {
    const path = `/brands/${brandId}/attributes/${attributeId}`;
    const r = await this.request("GET", path, undefined, { allow404: true });
    if (r.status === 404) return [];
    const data = this.parse<Record<string, unknown> | null>("GET", path, r);
    const inner = data?.brands_attributes ?? data?.brand_attributes ?? data?.brand_attribute ?? (data && "attribute_id" in data ? data : undefined);
    return brandAttributes(inner).filter((a) => a.attribute_id === attributeId);
  },
  async createBrandAttribute(this: ApiSelf, brandId: number, body: T.BrandAttributeWrite): Promise<T.ApiBrandAttribute> {
    return oneBrandAttribute(
      await this.send("POST", `/brands/${brandId}/attributes`, body, undefined, {
        adopt: async () => {
          const found = (await this.getBrandAttribute(brandId, body.attribute_id))[0];
          return found?.values.some((v) => v.version_id === body.version_id) ? found : undefined;
        },
      }),
      body.attribute_id,
    );
  },
  async updateBrandAttributeValue(
    this: ApiSelf,
    brandId: number,
    attributeId: number,
    valueId: number,
    body: T.BrandAttributeWrite,
  ): Promise<T.ApiBrandAttribute> {
    return oneBrandAttribute(await this.send("PUT", `/brands/${brandId}/attributes/${attributeId}/values/${valueId}`, body, undefined), attributeId);
  },
  deleteBrandAttributeValue(this: ApiSelf, brandId: number, attributeId: number, valueId: number): Promise<void> {
    return this.del(`/brands/${brandId}/attributes/${attributeId}/values/${valueId}`);
  },
  async assignBrandAttribute(this: ApiSelf, brandId: number, attributeId: number): Promise<void> {
    await this.request("POST", `/brands/${brandId}/assigned-attributes`, { attribute_id: attributeId }, { retryPost: true });
  },
  async assignBrandAttributeSet(this: ApiSelf, brandId: number, attributeSetId: number): Promise<void> {
    await this.request("POST", `/brands/${brandId}/assigned-attribute-sets`, { attribute_set_id: attributeSetId }, { retryPost: true });
  },
};
