/**
 * TenantStore: one tenant's data and the rules API v1 states for it. The tables, ids,
 * changelog and persistence are the store core (store-core.ts); each kind's rules
 * (uniqueness, 404s, protected categories, cycles) live beside its routes in
 * kinds/<kind>.ts and are offered here as methods, for the server, the tests and the
 * benchmarks that seed and inspect a tenant directly.
 */
import { KIND_RECORDS } from "./kinds/index.js";
import { StoreCore, type AsMethods } from "./store-core.js";

export { HttpError } from "./errors.js";
export * from "./records.js";

/** Every kind's rules as methods: declared here (declaration merging), installed on the prototype below. */
export interface TenantStore extends AsMethods<typeof KIND_RECORDS> {}

/** A tenant: the store core's tables with every kind's rules as methods. */
export class TenantStore extends StoreCore {
  // ------------------------------------------------------- seeding helpers

  /** Bulk-load brands without HTTP (benchmarks, request-count tests). */
  seedBrands(count: number, prefix = "Brand"): void {
    for (let i = 0; i < count; i++) this.createBrand({ name: `${prefix} ${String(i).padStart(6, "0")}` });
  }

  setProductCount(brandId: number, n: number): void {
    this.getBrand(brandId).product_count = n;
  }

  protectCategory(id: number): void {
    this.getCategory(id).protected = true;
  }
}

// Through the prototype, so the server calls a rule as the tenant's method and a test can
// still replace one on an instance (test/cli/apply-outcomes.test.ts refuses writes so).
for (const [name, rule] of Object.entries(KIND_RECORDS) as Array<[string, (s: StoreCore, ...args: unknown[]) => unknown]>) {
  Object.defineProperty(TenantStore.prototype, name, {
    value: function (this: StoreCore, ...args: unknown[]) {
      return rule(this, ...args);
    },
    writable: true,
    configurable: true,
  });
}
