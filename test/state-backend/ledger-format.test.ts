/**
 * The ledger file is checked before it is used: a ledger in a newer format is
 * refused (naming the pimctl version it needs) and left as it is, never
 * rewritten as format 1 without its new sections; `state push FILE` takes only
 * a file that matches the ledger schema (schemas/ledger.schema.json), and the
 * error names the field.
 */
import { readFileSync } from "node:fs";
import { readFile, writeFile } from "node:fs/promises";
import path from "node:path";
import { Ajv } from "ajv";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { testProject, type TestProject } from "../helpers/project.js";
import { packageVersion } from "../../src/package.js";

let p: TestProject;
let ledgerFile: string;
let written: Record<string, unknown>;

beforeAll(async () => {
  p = await testProject({ files: { "catalogue/brands.yaml": "brands:\n  - name: Acme\n    web_ids: { Webshop: acme-01 }\n" } });
  const r = await p.cli(["apply", "--auto-approve"]);
  expect(r.code, r.stderr).toBe(0);
  ledgerFile = path.join(p.dir, ".pimctl", "demo.json");
  written = JSON.parse(await readFile(ledgerFile, "utf8")) as Record<string, unknown>;
});
afterAll(async () => p.close());

const noInternal = (r: { stderr: string }) => expect(r.stderr).not.toMatch(/internal error|TypeError|    at /);

describe("the ledger's format", () => {
  it("a ledger pimctl writes matches the published schema and says which pimctl reads it", () => {
    const schema = JSON.parse(readFileSync(path.resolve(import.meta.dirname, "../../schemas/ledger.schema.json"), "utf8")) as object;
    const validate = new Ajv({ strict: false }).compile(schema);
    expect(validate(written), JSON.stringify(validate.errors)).toBe(true);
    expect(written).toMatchObject({ format: 2, min_pimctl_version: "0.1.0", tenant: "demo" });
  });

  it("a ledger in a newer format is refused by plan, apply and state commands, naming the version it needs; the file is left as it is", async () => {
    const newer = `${JSON.stringify({ ...written, format: 3, min_pimctl_version: "7.3.0", leases: { "brand:1": { until: "2030-01-01" } } }, null, 2)}\n`;
    await writeFile(ledgerFile, newer);
    for (const args of [["plan"], ["apply", "--auto-approve"], ["state", "show", "--offline"], ["state", "rm", "brand:1"]]) {
      const r = await p.cli(args);
      expect(r.code, args.join(" ")).toBe(1);
      noInternal(r);
      expect(r.stderr).toContain(
        `the ledger ${ledgerFile} is in format 3, which needs pimctl 7.3.0 or later; this pimctl (${packageVersion()}) reads ledger format 2`,
      );
      expect(await readFile(ledgerFile, "utf8")).toBe(newer);
    }
    await writeFile(ledgerFile, `${JSON.stringify(written, null, 2)}\n`);
    expect((await p.cli(["plan", "--detailed-exitcode"])).code).toBe(0);
  });
});

describe("state push FILE checks the file against the ledger schema", () => {
  const cases: Array<[string, unknown, string]> = [
    ["null", null, "at (top level): must be object"],
    ["a list", [], "at (top level): must be object"],
    ["an owned id that is not a number", { owned: { brands: ["12"] } }, "at owned.brands[0]: must be integer"],
    [
      "an unknown table",
      { owned: { brand: [1] } },
      `at owned: key "brand" is none of display_groups, attributes, type_values, attribute_sets, blocks, brands, categories, brand_assets, category_assets`,
    ],
    ["a web id keyed by something but a record", { web_ids: { "12": { Webshop: "x" } } }, 'at web_ids: key "12" must match pattern "^(brand|category):\\d+$"'],
    ["an asset without its image_url", { assets: { "brand:1": { "5": {} } } }, 'at assets["brand:1"][5]: missing "image_url"'],
    ["an unknown section", { surprise: {} }, 'at (top level): unknown field "surprise"'],
    ["no format", { format: undefined }, 'at (top level): missing "format"'],
  ];
  for (const [what, edit, message] of cases) {
    it(`${what}: refused (exit 1) naming the field, nothing written`, async () => {
      const before = await readFile(ledgerFile, "utf8");
      const body = edit === null || Array.isArray(edit) ? edit : { ...written, ...(edit as object) };
      await p.write("push.json", JSON.stringify(body));
      const r = await p.cli(["state", "push", "push.json"]);
      expect(r.code).toBe(1);
      noInternal(r);
      expect(r.stderr).toContain(`the ledger push.json does not match the ledger schema (schemas/ledger.schema.json) ${message}`);
      expect(await readFile(ledgerFile, "utf8")).toBe(before);
    });
  }

  it("a ledger in a newer format is refused by state push too; a valid one is taken", async () => {
    await p.write("push.json", JSON.stringify({ ...written, format: 4, min_pimctl_version: undefined }));
    const newer = await p.cli(["state", "push", "push.json"]);
    expect(newer.code).toBe(1);
    expect(newer.stderr).toContain(`the ledger push.json is in format 4, which needs a newer pimctl; this pimctl (${packageVersion()}) reads ledger format 2`);
    // A newer format that names a version no newer than this one (copied along from an old file): "a newer pimctl", never itself.
    await p.write("push.json", JSON.stringify({ ...written, format: 3, min_pimctl_version: packageVersion() }));
    expect((await p.cli(["state", "push", "push.json"])).stderr).toContain("is in format 3, which needs a newer pimctl;");
    // Not an integer: a malformed file, not a newer one.
    await p.write("push.json", JSON.stringify({ ...written, format: 1.5 }));
    const half = await p.cli(["state", "push", "push.json"]);
    expect(half.code).toBe(1);
    expect(half.stderr).toContain("does not match the ledger schema");
    // Another tenant's ledger (same service, same base URL) is not this tenant's.
    await p.write("push.json", JSON.stringify({ ...written, tenant: "demo2" }));
    const other = await p.cli(["state", "push", "push.json"]);
    expect(other.code).toBe(1);
    expect(other.stderr).toContain('push.json is the ledger of tenant "demo2", not "demo"');
    // Bytes that are not UTF-8: an error with the place, never a U+FFFD stored.
    await writeFile(
      path.join(p.dir, "push.json"),
      Buffer.concat([Buffer.from(JSON.stringify(written).slice(0, -1) + ', "x": "caf'), Buffer.from([0xe9]), Buffer.from('"}')]),
    );
    const latin1 = await p.cli(["state", "push", "push.json"]);
    expect(latin1.code).toBe(1);
    expect(latin1.stderr).toMatch(/push\.json:1:\d+: this file is not UTF-8/);
    await p.write("push.json", JSON.stringify(written));
    const ok = await p.cli(["state", "push", "push.json"]);
    expect(ok.code, ok.stderr).toBe(0);
  });
});
