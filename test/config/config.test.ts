import { mkdtemp, rm, writeFile } from "node:fs/promises";
import { tmpdir } from "node:os";
import path from "node:path";
import { afterEach, describe, expect, it } from "vitest";
import { loadConfig } from "../../src/config/index.js";
import { PimctlErrors } from "../../src/errors.js";

let dir: string;
afterEach(async () => rm(dir, { recursive: true, force: true }));

async function withConfig(text: string) {
  dir = await mkdtemp(path.join(tmpdir(), "pimctl-config-"));
  await writeFile(path.join(dir, "pimctl.yaml"), text);
  return loadConfig({ cwd: dir });
}

describe("pimctl.yaml", () => {
  it("reads tenants, versions, prune and resolves directories relative to the file", async () => {
    const c = await withConfig(
      "dir: catalogue\nurl_template: https://{hash}.{region}.example.com/api/v1\ntenants:\n  prod:\n    hash: abc\n    region: eu\n    token_env: PROD_TOKEN\n    variables: { n: 3 }\nversions: { French: 2 }\nprune: { brands: true }\n",
    );
    expect(c.dir).toBe(path.join(dir, "catalogue"));
    expect(c.ledger_dir).toBe(path.join(dir, ".pimctl"));
    expect(c.tenants.prod).toMatchObject({ name: "prod", hash: "abc", token_env: "PROD_TOKEN", variables: { n: "3" } });
    expect(c.prune).toEqual({ brands: true });
  });

  it("refuses a token written in the file, with the line", async () => {
    const err = await withConfig("tenants:\n  prod:\n    base_url: https://x/api/v1\n    token: s3cret\n").catch((e: unknown) => e);
    expect(err).toBeInstanceOf(PimctlErrors);
    const e = (err as PimctlErrors).errors;
    expect(e[0]!.format()).toMatch(/pimctl\.yaml:4:5: tenant "prod": a token must never be written in the config/);
    expect(e.map((x) => x.format()).join("\n")).not.toContain("s3cret");
  });

  it("refuses credentials in every value that becomes a URL (url_template, hash, region as filled in), with base_url's message and never the password", async () => {
    const refused = async (text: string): Promise<string[]> => {
      const err = await withConfig(text).catch((e: unknown) => e);
      expect(err).toBeInstanceOf(PimctlErrors);
      const lines = (err as PimctlErrors).errors.map((e) => e.format());
      expect(lines.join("\n")).not.toContain("hunter2");
      return lines;
    };
    const fix = "name the token's environment variable with token_env, or a file with token_file";
    expect(
      await refused(
        "url_template: https://admin:hunter2@{hash}.{region}.example.com/api/v1\ntenants:\n  prod:\n    hash: abc\n    region: eu\n    token_env: T\n",
      ),
    ).toEqual([`pimctl.yaml:1:15: url_template must not hold credentials (https://***@{hash}.{region}.example.com/api/v1); ${fix}`]);
    expect(await refused("tenants:\n  prod:\n    hash: abc\n    url_template: https://admin:hunter2@{hash}.example.com/api/v1\n    token_env: T\n")).toEqual([
      `pimctl.yaml:4:19: tenant "prod": url_template must not hold credentials (https://***@{hash}.example.com/api/v1); ${fix}`,
    ]);
    expect(
      await refused(
        "url_template: https://{hash}.{region}.example.com/api/v1\ntenants:\n  prod:\n    hash: 'admin:hunter2@evil'\n    region: eu\n    token_env: T\n",
      ),
    ).toEqual([`pimctl.yaml:4:11: tenant "prod": hash must not hold credentials (https://***@evil.eu.example.com/api/v1); ${fix}`]);
    expect(
      await refused(
        "url_template: https://{region}.pim.example.com/{hash}/api/v1\ntenants:\n  prod:\n    hash: abc\n    region: 'admin:hunter2@evil'\n    token_env: T\n",
      ),
    ).toEqual([`pimctl.yaml:5:13: tenant "prod": region must not hold credentials (https://***@evil.pim.example.com/abc/api/v1); ${fix}`]);
    // Spellings the URL parser reads as credentials too, and one that is no URL at all: never printed.
    for (const url of [
      "http:/u:secretpw@127.0.0.1:4611/demo/api/v1",
      "http:u:secretpw@127.0.0.1/x",
      "http:\\\\u:secretpw@127.0.0.1/x",
      "http://u:secret/pw@127.0.0.1:4611/x",
    ]) {
      const lines = await refused(`tenants:\n  prod:\n    base_url: '${url}'\n    token_env: T\n`);
      expect(lines).toHaveLength(1);
      expect(lines[0]).not.toContain("secret");
      expect(lines[0]).toContain('tenant "prod": base_url must not hold credentials (http://***@127.0.0.1');
    }
    // A token in the query string is refused the same way (it would reach saved plans and the ledger).
    expect(await refused("tenants:\n  prod:\n    base_url: https://pim.example.com/api/v1?token=hunter2\n    token_env: T\n")).toEqual([
      'pimctl.yaml:3:15: tenant "prod": base_url must not have a query or fragment (https://pim.example.com/api/v1?...): a base URL is scheme, host, port and path; a token goes in token_env or token_file',
    ]);
    // A password with an @ in it is hidden whole.
    expect(await refused("tenants:\n  prod:\n    base_url: https://admin:hun@ter2@pim.example.com/api/v1\n    token_env: T\n")).toEqual([
      `pimctl.yaml:3:15: tenant "prod": base_url must not hold credentials (https://***@pim.example.com/api/v1); ${fix}`,
    ]);
  });

  it("is read as UTF-8 only, as the manifests are: a Latin-1 byte is an error at file:line:col, never a U+FFFD in a value", async () => {
    dir = await mkdtemp(path.join(tmpdir(), "pimctl-config-"));
    await writeFile(path.join(dir, "pimctl.yaml"), Buffer.concat([Buffer.from("versions:\n  Fran"), Buffer.from([0xe7]), Buffer.from("ais: 2\n")]));
    const err = await loadConfig({ cwd: dir }).catch((e: unknown) => e);
    expect(err).toBeInstanceOf(PimctlErrors);
    expect((err as PimctlErrors).errors[0]!.format()).toMatch(/^pimctl\.yaml:2:7: this file is not UTF-8/);
  });

  it("explains a tenant without an address or token source", async () => {
    const err = (await withConfig("tenants:\n  prod:\n    region: eu\n").catch((e: unknown) => e)) as PimctlErrors;
    expect(err.errors.map((e) => e.message)).toEqual([
      'tenant "prod" needs base_url, or hash and region with a url_template',
      'tenant "prod" needs token_env (an environment variable) or token_file',
    ]);
  });

  it("no default config: an error saying how to create one (never a scan of the working directory); a missing explicit one is an error", async () => {
    dir = await mkdtemp(path.join(tmpdir(), "pimctl-config-"));
    await expect(loadConfig({ cwd: dir })).rejects.toMatchObject({
      message: `no pimctl.yaml found in ${dir}`,
      details: expect.arrayContaining([expect.stringContaining("pimctl init")]),
    });
    expect((await loadConfig({ cwd: dir, dir: "." })).tenants).toEqual({});
    await expect(loadConfig({ cwd: dir, configPath: "nope.yaml" })).rejects.toThrow(/cannot read the config file nope.yaml: ENOENT/);
  });

  it("the example configs load", async () => {
    const root = path.resolve(import.meta.dirname, "../../examples");
    dir = await mkdtemp(path.join(tmpdir(), "pimctl-config-"));
    const promo = await loadConfig({ cwd: path.join(root, "promotion") });
    expect(Object.keys(promo.tenants)).toEqual(["staging", "prod"]);
    expect(promo.tenants.prod!.versions).toEqual({ French: 7 });
    const local = await loadConfig({ cwd: root });
    expect(local.dir).toBe(path.join(root, "catalogue"));
    expect(local.tenants.demo).toMatchObject({ base_url: "http://127.0.0.1:4010/demo/api/v1", token_env: "PIMCTL_DEMO_TOKEN" });
  });
});
