import { describe, expect, it } from "vitest";
import { catalogueToFiles, remoteToCatalogue } from "../../src/export/index.js";
import { ledger, remote } from "../fixtures/plan/every-action.js";

describe("export: tenant state to manifests", () => {
  const files = catalogueToFiles(remoteToCatalogue(remote, ledger), { tenant: "demo" });

  it("writes one file per kind, with names instead of ids and no empty fields", () => {
    expect(Object.keys(files)).toEqual(["display_groups.yaml", "attributes.yaml", "attribute_sets.yaml", "blocks.yaml", "brands.yaml", "categories.yaml"]);
    const all = Object.values(files).join("\n");
    expect(all).not.toMatch(/\bid:|product_count|assignment_ids|child_count|parent_id/);
    expect(all).not.toMatch(/: ""|: \[\]|: \{\}|: null/);
  });

  it("nests categories as trees and restores write-only values from the ledger", () => {
    expect(files["categories.yaml"]).toContain("categories:\n  - name: Apparel\n    children:\n      - name: Tops\n        status: enabled\n");
    expect(files["brands.yaml"]).toContain("image_url: https://cdn.example.com/acme.png");
  });

  it("is byte-identical run after run", () => {
    const again = catalogueToFiles(remoteToCatalogue(structuredClone(remote), ledger), { tenant: "demo" });
    expect(again).toEqual(files);
  });
});
