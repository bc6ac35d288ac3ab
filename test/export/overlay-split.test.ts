/**
 * What an overlay sets, record by record (src/manifest/overlay-owned.ts), and the tenant's catalogue
 * split for the two merges of export --merge into a shared base (src/export/overlay-split.ts): plain
 * data, texts parsed in memory. The end-to-end cases are in test/cli/export-merge-overlay.test.ts.
 */
import { describe, expect, it } from "vitest";
import { parseManifestData, parseManifestText } from "../../src/manifest/index.js";
import { CatalogueBuilder } from "../../src/manifest/catalogue-builder.js";
import { overlayOwnership } from "../../src/manifest/overlay-owned.js";
import { splitForOverlay } from "../../src/export/overlay-split.js";
import type { Catalogue } from "../../src/model/catalogue.js";

const BASE = [
  "attributes:",
  "  - name: Colour",
  "    type: selectbox",
  "    versions: { French: { name: Couleur, note: Teinte } }",
  "    values:",
  "      - value: Red",
  "        versions: { French: Rouge }",
  "      - value: Blue",
  "brands:",
  "  - name: Acme",
  "    desc: Tools",
  "    web_ids: { Webshop: acme, Outlet: acme-o }",
  "categories:",
  "  - name: Apparel",
  "    children:",
  "      - name: Shirts",
  "  - name: Garden",
  "",
].join("\n");

const OVERLAY = [
  "attributes:",
  "  - name: Colour",
  "    versions: { French: { name: Couleur (US) } }",
  "    values:",
  "      - value: Red",
  "        versions: { French: Rouge vif }",
  "      - { value: Blue, $remove: true }",
  "brands:",
  "  - name: Acme",
  "    desc: Tools (US)",
  "    web_ids: { Outlet: acme-us }",
  "categories:",
  "  - name: Apparel",
  "    $remove: true",
  "",
].join("\n");

function catalogueOf(text: string): Catalogue {
  const builder = new CatalogueBuilder({});
  const read = parseManifestText(text, "base.yaml");
  expect(read.errors).toEqual([]);
  builder.add(read.data!, read.parsed);
  return builder.build();
}

function owned(base: Catalogue) {
  const read = parseManifestData(OVERLAY, "overlays/prod-us/all.yaml");
  return overlayOwnership([{ file: "overlays/prod-us/all.yaml", data: read.data!, parsed: read.parsed }], base);
}

describe("what an overlay sets", () => {
  it("fields whole, name-keyed maps key by key, a version's texts field by field, child entries as records", () => {
    const base = catalogueOf(BASE);
    const o = owned(base);
    expect(o.of("brands", ["Acme"])).toMatchObject({ how: "patch", paths: [["desc"], ["web_ids", "Outlet"]] });
    expect(o.of("attributes", ["Colour"])).toMatchObject({ how: "patch", paths: [["versions", "French", "name"]] });
    expect(o.of("values", ["Colour", "Red"])).toMatchObject({ how: "patch", paths: [["versions", "French"]] });
    expect(o.of("values", ["Colour", "Blue"])).toMatchObject({ how: "remove", at: { file: "overlays/prod-us/all.yaml", line: 7 } });
    expect(o.removedAt(["Apparel", "Shirts"])).toMatchObject({ how: "remove", at: { line: 14 } });
    expect(o.of("categories", ["Garden"])).toBeUndefined();
  });
});

describe("the tenant's catalogue split between the base and the overlay", () => {
  it("gives the base its own values where the overlay sets them, and the overlay only those values on identity-only records", () => {
    const base = catalogueOf(BASE);
    const tenant = structuredClone(base);
    const acme = tenant.brands[0]!;
    acme.desc = "Tools for America";
    acme.web_ids = { Webshop: "acme-2", Outlet: "acme-us-2" };
    const split = splitForOverlay(tenant, base, owned(base), "prod-us");
    expect(split.base.brands).toEqual([{ ...acme, desc: "Tools", web_ids: { Webshop: "acme-2", Outlet: "acme-o" } }]);
    expect(split.overlay.brands).toEqual([{ name: "Acme", desc: "Tools for America", web_ids: { Outlet: "acme-us-2" } }]);
    // A record the overlay does not name is the base's alone.
    expect(split.overlay.categories.map((c) => c.path)).toEqual([]);
    expect(split.base.categories.map((c) => c.path.join("/"))).toEqual(["Apparel", "Apparel/Shirts", "Garden"]);
  });

  it("reports what the overlay removes and the tenant has, once per subtree, and keeps the base's records for it", () => {
    const base = catalogueOf(BASE);
    const tenant = structuredClone(base);
    const split = splitForOverlay(tenant, base, owned(base), "prod-us");
    expect(split.removed).toEqual([
      expect.stringMatching(
        /^overlays\/prod-us\/all\.yaml:7: value "Blue" of attribute "Colour" is removed for prod-us here \(\$remove\), but the tenant has it/,
      ),
      expect.stringMatching(/^overlays\/prod-us\/all\.yaml:14: category "Apparel" is removed for prod-us here/),
    ]);
    expect(split.base.attributes[0]!.values!.map((v) => v.value)).toEqual(["Red", "Blue"]);
    expect(split.overlay.attributes[0]!.values!.map((v) => v.value)).toEqual(["Red"]);
    // The tenant without them: nothing to report, and the base keeps them (they are not "only in the folder").
    const without = { ...tenant, categories: tenant.categories.filter((c) => c.path[0] !== "Apparel") };
    without.attributes = [{ ...tenant.attributes[0]!, values: tenant.attributes[0]!.values!.filter((v) => v.value !== "Blue") }];
    const quiet = splitForOverlay(without, base, owned(base), "prod-us");
    expect(quiet.removed).toEqual([]);
    expect(quiet.base.categories.map((c) => c.path.join("/"))).toEqual(["Garden", "Apparel", "Apparel/Shirts"]);
    expect(quiet.base.attributes[0]!.values!.map((v) => v.value)).toEqual(["Red", "Blue"]);
  });

  it("puts a new record in the overlay, under identity-only stubs of the base records it hangs on", () => {
    const base = catalogueOf(BASE);
    const tenant = structuredClone(base);
    tenant.categories.push({ name: "Pots", path: ["Garden", "Pots"] }, { name: "Clay", path: ["Garden", "Pots", "Clay"] });
    const split = splitForOverlay(tenant, base, owned(base), "prod-us");
    expect(split.overlay.categories).toEqual([
      { name: "Garden", path: ["Garden"] },
      { name: "Pots", path: ["Garden", "Pots"] },
      { name: "Clay", path: ["Garden", "Pots", "Clay"] },
    ]);
    expect([...split.stubs]).toEqual(["categories\0Garden"]);
    expect(split.base.categories.map((c) => c.path.join("/"))).not.toContain("Garden/Pots");
  });
});
