/**
 * TenantStore: one tenant's data, for the server, the tests and the benchmarks that seed
 * and inspect a tenant directly. The tables, ids, changelog and persistence are the store
 * core (store-core.ts); each kind's rules (uniqueness, 404s, protected categories, cycles)
 * are plain functions of the store beside its routes, in kinds/<kind>.ts
 * (`createBrand(store, { name })`), which the routes call and a reader can jump to.
 */
import { createBrand } from "./kinds/brands.js";
import { StoreCore } from "./store-core.js";

export { HttpError } from "./errors.js";
export * from "./record-shapes.js";

/** A tenant: the store core's tables, with helpers that seed many records at once. */
export class TenantStore extends StoreCore {
  /** Bulk-load brands without HTTP (benchmarks, request-count tests). */
  seedBrands(count: number, prefix = "Brand"): void {
    for (let i = 0; i < count; i++) createBrand(this, { name: `${prefix} ${String(i).padStart(6, "0")}` });
  }

  setProductCount(brandId: number, n: number): void {
    this.getBrand(brandId).product_count = n;
  }

  protectCategory(id: number): void {
    this.getCategory(id).protected = true;
  }
}
