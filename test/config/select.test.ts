import { mkdir, mkdtemp, rm, writeFile } from "node:fs/promises";
import { tmpdir } from "node:os";
import path from "node:path";
import { afterEach, describe, expect, it } from "vitest";
import { loadConfig, type Config } from "../../src/config/index.js";
import { rolloutWaves, selectOneTenant, selectTenants } from "../../src/config/select.js";
import { PimctlError, PimctlErrors } from "../../src/errors.js";
import { nameGlob } from "../../src/base/name-globs.js";

const NAMES = ["staging-eu", "prod-us", "prod-eu", "prod-apac", "staging-us", "dev"];

function fleet(rollout?: string[][]): Config {
  return {
    file: "/repo/pimctl.yaml",
    dir: "/repo",
    versions: {},
    prune: {},
    ledger_dir: "/repo/.pimctl",
    state: { backend: "local", remote: "origin" },
    scope: {},
    tenants: Object.fromEntries(NAMES.map((n) => [n, { name: n, base_url: `https://${n}.example.com/api/v1`, token_env: "T" }])),
    ...(rollout ? { rollout } : {}),
  };
}

const thrown = (f: () => unknown): PimctlError => {
  try {
    f();
  } catch (e) {
    return e as PimctlError;
  }
  throw new Error("did not throw");
};

describe("selectTenants", () => {
  it("takes names and globs, comma-separated, sorted by name, each once", () => {
    const c = fleet();
    expect(selectTenants(c, "prod-*")).toEqual(["prod-apac", "prod-eu", "prod-us"]);
    expect(selectTenants(c, "prod-us,staging-eu")).toEqual(["prod-us", "staging-eu"]);
    expect(selectTenants(c, "*-eu, prod-eu ,dev")).toEqual(["dev", "prod-eu", "staging-eu"]);
    expect(selectTenants(c, "*")).toEqual([...NAMES].sort());
    expect(selectTenants(c, "prod-?u")).toEqual(["prod-eu"]);
    expect(selectTenants(c, "[ps]*-us")).toEqual(["prod-us", "staging-us"]);
    expect(selectTenants(c, "prod-[!e]*")).toEqual(["prod-apac", "prod-us"]);
  });

  it("one plain name keeps today's answer and today's error (config, did you mean)", () => {
    const c = fleet();
    expect(selectTenants(c, "prod-eu")).toEqual(["prod-eu"]);
    const e = thrown(() => selectTenants(c, "prod-uss"));
    expect(e.code).toBe("config");
    expect(e.format()).toContain('tenant "prod-uss" is not configured in /repo/pimctl.yaml');
    expect(e.format()).toContain("did you mean: prod-us");
  });

  it("a name or glob that matches nothing is a usage error naming the configured tenants, every such part at once", () => {
    const e = thrown(() => selectTenants(fleet(), "qa-*,prod-eu,prd-us"));
    expect(e.code).toBe("usage");
    expect(e.format()).toContain('--tenant "qa-*", "prd-us" matches no configured tenant');
    expect(e.format()).toContain('"prd-us": did you mean: prod-us');
    expect(e.format()).toContain("configured tenants: dev, prod-apac, prod-eu, prod-us, staging-eu, staging-us");
    expect(thrown(() => selectTenants(fleet(), " , ")).code).toBe("usage");
  });

  it("without --tenant: the only tenant, else today's usage error", () => {
    const one: Config = { ...fleet(), tenants: { solo: { name: "solo", base_url: "https://s/api/v1", token_env: "T" } } };
    expect(selectTenants(one, undefined)).toEqual(["solo"]);
    const e = thrown(() => selectTenants(fleet(), undefined));
    expect(e.code).toBe("usage");
    expect(e.message).toBe("name a tenant with --tenant (configured: dev, prod-apac, prod-eu, prod-us, staging-eu, staging-us)");
  });

  it("a one-tenant command refuses a value that selects several, naming them", () => {
    expect(selectOneTenant(fleet(), "prod-e*", "export")).toBe("prod-eu");
    const e = thrown(() => selectOneTenant(fleet(), "prod-*", "export"));
    expect(e.code).toBe("usage");
    expect(e.message).toBe('export works on one tenant, and --tenant "prod-*" selects 3: prod-apac, prod-eu, prod-us');
  });

  it("globs treat regex characters literally and an unclosed [ as a character", () => {
    expect(nameGlob("a.b").test("axb")).toBe(false);
    expect(nameGlob("a[b").test("a[b")).toBe(true);
    expect(nameGlob("a+").test("a+")).toBe(true);
  });

  it("a class whose range runs backwards is a usage error naming it, never a crash (review: prod-[z-a])", () => {
    for (const spec of ["prod-[z-a]", "prod-eu,prod-[z-a]", "[!9-0]*"]) {
      const e = thrown(() => selectTenants(fleet(), spec));
      expect(e, spec).toBeInstanceOf(PimctlError);
      expect(e.code).toBe("usage");
    }
    expect(thrown(() => selectTenants(fleet(), "prod-[z-a]")).message).toBe(
      '--tenant "prod-[z-a]": the class [z-a] has a range that runs backwards (z-a); write it low to high, as in [a-z]',
    );
    expect(thrown(() => selectOneTenant(fleet(), "prod-[z-a]", "export")).code).toBe("usage");
    expect(selectTenants(fleet(), "prod-[a-z]u")).toEqual(["prod-eu"]);
  });
});

describe("rolloutWaves", () => {
  it("puts each tenant in the first wave that matches it; the unnamed go last; empty waves dropped", () => {
    const c = fleet([["staging-*"], ["prod-eu"], ["prod-*", "staging-eu"], ["qa-*"]]);
    expect(rolloutWaves(c, [...NAMES])).toEqual([["staging-eu", "staging-us"], ["prod-eu"], ["prod-apac", "prod-us"], ["dev"]]);
    expect(rolloutWaves(c, ["prod-us", "prod-eu"])).toEqual([["prod-eu"], ["prod-us"]]);
    expect(rolloutWaves(c, ["dev"])).toEqual([["dev"]]);
  });

  it("without rollout: one wave of all, sorted", () => {
    expect(rolloutWaves(fleet(), ["prod-us", "dev", "prod-us"])).toEqual([["dev", "prod-us"]]);
    expect(rolloutWaves(fleet(), [])).toEqual([]);
  });
});

describe("pimctl.yaml rollout: and overlays:", () => {
  let dir: string;
  afterEach(async () => rm(dir, { recursive: true, force: true }));
  async function withConfig(text: string, folders: string[] = []) {
    dir = await mkdtemp(path.join(tmpdir(), "pimctl-select-"));
    await writeFile(path.join(dir, "pimctl.yaml"), text);
    for (const f of folders) await mkdir(path.join(dir, f), { recursive: true });
    return loadConfig({ cwd: dir });
  }
  const tenants =
    "tenants:\n  prod-eu: { base_url: 'https://a/api/v1', token_env: T, overlay: special/eu }\n  prod-us: { base_url: 'https://b/api/v1', token_env: T }\n";

  it("reads rollout as written and resolves overlay folders relative to the file", async () => {
    const c = await withConfig(`${tenants}overlays: overlays\nrollout:\n  - [prod-eu]\n  - ['prod-*']\n`, ["overlays", "special/eu"]);
    expect(c.rollout).toEqual([["prod-eu"], ["prod-*"]]);
    expect(c.overlays).toBe(path.join(dir, "overlays"));
    expect(c.tenants["prod-eu"]!.overlay).toBe(path.join(dir, "special/eu"));
    expect(c.tenants["prod-us"]!.overlay).toBeUndefined();
    expect(rolloutWaves(c, ["prod-us", "prod-eu"])).toEqual([["prod-eu"], ["prod-us"]]);
  });

  it("refuses a rollout name that no tenant has, at its line; a glob that matches none is allowed", async () => {
    const err = await withConfig(`${tenants}rollout:\n  - ['staging-*']\n  - [prod-eu, prod-uss]\n`).catch((e: unknown) => e);
    expect(err).toBeInstanceOf(PimctlErrors);
    const lines = (err as PimctlErrors).errors.map((e) => e.format());
    expect(lines).toHaveLength(1);
    expect(lines[0]).toMatch(/pimctl\.yaml:6:\d+: rollout: wave 2 names "prod-uss", which is not a configured tenant/);
  });

  it("refuses a rollout glob whose class runs backwards, at its line (review: it crashed every fleet command)", async () => {
    const err = await withConfig(`${tenants}rollout:\n  - [prod-eu]\n  - ['[z-a]', 'prod-*']\n`, ["special/eu"]).catch((e: unknown) => e);
    expect(err).toBeInstanceOf(PimctlErrors);
    expect((err as PimctlErrors).errors.map((e) => e.format())).toEqual([
      "pimctl.yaml:6:6: rollout: wave 2: the class [z-a] has a range that runs backwards (z-a); write it low to high, as in [a-z]",
    ]);
  });

  it("refuses a rollout that is not a list of lists", async () => {
    const err = await withConfig(`${tenants}rollout: [prod-eu]\n`).catch((e: unknown) => e);
    expect(err).toBeInstanceOf(PimctlErrors);
  });
});

describe("pickTenant (every command that works on one tenant)", () => {
  it("takes a glob or a list that selects one, and refuses one that selects several, naming them", async () => {
    const { pickTenant } = await import("../../src/tenant.js");
    expect(pickTenant(fleet(), "prod-e*").name).toBe("prod-eu");
    expect(pickTenant(fleet(), "dev,dev").name).toBe("dev");
    const e = thrown(() => pickTenant(fleet(), "staging-*"));
    expect(e.code).toBe("usage");
    expect(e.message).toBe('this command works on one tenant, and --tenant "staging-*" selects 2: staging-eu, staging-us');
    expect(thrown(() => pickTenant(fleet(), "qa-*")).message).toBe('--tenant "qa-*" matches no configured tenant in /repo/pimctl.yaml');
  });
});
