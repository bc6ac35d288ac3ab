import { describe, expect, it } from "vitest";
import { pickTenant, tenantBaseUrl } from "../../src/tenant.js";
import type { Config } from "../../src/config/index.js";

const config: Config = {
  dir: "/x",
  versions: {},
  prune: {},
  ledger_dir: "/x/.pimctl",
  state: { backend: "local", remote: "origin" },
  scope: {},
  url_template: "https://{hash}.{region}.pim.example.com/api/v1",
  tenants: {
    prod: { name: "prod", hash: "abc", region: "eu", token_env: "T" },
    staging: { name: "staging", base_url: "https://staging.example.com/api/v1/", token_env: "S" },
  },
};

describe("tenant addressing", () => {
  it("fills the URL template with hash and region, or takes base_url as given", () => {
    expect(tenantBaseUrl(config, "prod", config.tenants.prod!)).toBe("https://abc.eu.pim.example.com/api/v1");
    expect(tenantBaseUrl(config, "staging", config.tenants.staging!)).toBe("https://staging.example.com/api/v1");
    expect(() => tenantBaseUrl({ ...config, url_template: undefined }, "prod", config.tenants.prod!)).toThrow(
      'tenant "prod" needs base_url, or hash and region with a url_template',
    );
  });
  it("picks the tenant named, or explains", () => {
    expect(pickTenant(config, "prod").name).toBe("prod");
    expect(() => pickTenant(config, "prd")).toThrow('tenant "prd" is not configured');
    expect(() => pickTenant(config, undefined)).toThrow("name a tenant with --tenant (configured: prod, staging)");
  });
});
