/**
 * The validators the build generates (ajv standalone code, dist/manifest/
 * validators.generated.js) are the schemas of today: they give the same verdict
 * and the same errors as compiling the schemas now, on valid and invalid documents.
 * (npm test builds first, so the file is there.)
 */
import { existsSync, readdirSync, readFileSync } from "node:fs";
import path from "node:path";
import { parse } from "yaml";
import { describe, expect, it } from "vitest";
import type { ValidateFunction } from "ajv";
import { compile } from "../../src/manifest/validate.js";
import { manifestSchema } from "../../src/model/schema.js";
import { configSchema } from "../../src/manifest/schema-source.js";
import { ledgerSchema } from "../../src/state/ledger-schema.js";
import { repoRoot } from "../helpers/paths.js";

const generatedFile = path.join(repoRoot, "dist/manifest/validators.generated.js");

const manifests: unknown[] = [
  ...readdirSync(path.join(repoRoot, "examples/catalogue")).map((f) => parse(readFileSync(path.join(repoRoot, "examples/catalogue", f), "utf8"))),
  { brands: [{ name: "Acme", colour: "red" }] },
  { brands: [{ desc: "no name" }] },
  { attributes: [{ name: "Colour", type: "selectbox", sort_order: "first", values: [{ value: 1 }] }] },
  { categories: [{ name: "A", children: [{ name: "B", is_visible: "yes", children: [{ nam: "C" }] }] }] },
  { display_groups: "not a list" },
  { unknown_kind: [] },
];
const configs: unknown[] = [
  parse(readFileSync(path.join(repoRoot, "examples/pimctl.yaml"), "utf8")),
  { tenants: { prod: { base_url: 5 } } },
  { tenants: {}, prune: { brands: "sometimes" }, max_deletes: "lots" },
];

const ledgers: unknown[] = [
  {
    format: 1,
    tenant: "demo",
    base_url: "http://127.0.0.1:4010/demo/api/v1",
    web_ids: { "brand:1": { Webshop: "a" } },
    assets: { "category:2": { "7": { image_url: "https://x/a.png" } } },
    owned: { brands: [1] },
  },
  null,
  { format: 1, tenant: "demo", base_url: "x", owned: { brand: ["1"] }, web_ids: { "12": {} } },
];

const verdict = (v: ValidateFunction, data: unknown) => ({
  ok: v(data),
  errors: (v.errors ?? []).map((e) => ({ path: e.instancePath, keyword: e.keyword, params: e.params, message: e.message })),
});

describe("the build's precompiled validators", () => {
  it("exist after the build", () => {
    expect(existsSync(generatedFile)).toBe(true);
  });

  it("judge manifests, configs and ledgers exactly as the schemas compiled now", async () => {
    const generated = (await import(generatedFile)) as { manifest: ValidateFunction; config: ValidateFunction; ledger: ValidateFunction };
    const now = { manifest: compile(manifestSchema), config: compile(configSchema), ledger: compile(ledgerSchema) };
    let invalid = 0;
    for (const doc of manifests) {
      const a = verdict(generated.manifest, doc);
      expect(a, JSON.stringify(doc)).toEqual(verdict(now.manifest, doc));
      if (!a.ok) invalid++;
    }
    for (const doc of configs) expect(verdict(generated.config, doc), JSON.stringify(doc)).toEqual(verdict(now.config, doc));
    for (const doc of ledgers) expect(verdict(generated.ledger, doc), JSON.stringify(doc)).toEqual(verdict(now.ledger, doc));
    expect(ledgers.map((doc) => now.ledger(doc))).toEqual([true, false, false]);
    expect(invalid).toBe(6);
  });
});
