/** What a plan does to translation coverage, counted per language version (src/plan/coverage.ts). */
import { describe, expect, it } from "vitest";
import { emptyCatalogue, type Catalogue } from "../../src/model/catalogue.js";
import { emptyRemote, type RemoteCatalogue } from "../../src/model/remote.js";
import { translationCoverage } from "../../src/plan/coverage.js";
import { buildPlan } from "../../src/plan/planner.js";
import { translatableTexts } from "../../src/plan/texts.js";
import { renderPlan } from "../../src/render/index.js";

const desired: Catalogue = {
  ...emptyCatalogue(),
  managed: ["attributes"],
  versions: ["French", "German"],
  attributes: [
    {
      name: "Colour",
      type: "selectbox",
      versions: { French: { name: "Couleur" } },
      values: [
        { value: "Blue", versions: { French: "Bleu" } },
        { value: "Crimson", previous_values: ["Red"], versions: { French: "Rouge", German: "Rot" } },
      ],
    },
    { name: "Size", type: "text" },
  ],
};
const remote: RemoteCatalogue = {
  ...emptyRemote(),
  read: ["attributes"],
  version_ids: { French: 2, German: 3 },
  attributes: [
    { id: 1, name: "Colour", type: "selectbox", versions: { French: { name: "Couleur" } }, values: [{ id: 10, value: "Red", versions: { French: "Rouge" } }] },
  ],
};

describe("translation coverage in plans", () => {
  it("counts texts added, now outdated (master renamed, translation kept) and missing (created without one), per version", () => {
    const { plan, errors } = buildPlan({ tenant: "demo", desired, remote });
    expect(errors).toEqual([]);
    expect(plan.translations).toEqual([
      // Blue's French is added; Red became Crimson while "Rouge" stays; Size has no French.
      { version: "French", added: 1, updated: 0, outdated: 1, missing: 1 },
      // Crimson's German is written with the rename (not outdated); Blue and Size have no German.
      { version: "German", added: 1, updated: 0, outdated: 0, missing: 2 },
    ]);
    expect(renderPlan(plan, "text", { color: false })).toContain(
      "Translations\n  French: 1 text added, 1 now outdated, 1 missing\n  German: 1 text added, 0 now outdated, 2 missing\n",
    );
  });

  it("a plan that changes no text says nothing about translations", () => {
    const { plan } = buildPlan({ tenant: "demo", desired: { ...desired, attributes: [] }, remote: { ...remote, attributes: [] } });
    expect(plan.translations).toBeUndefined();
    expect(renderPlan(plan, "markdown", { color: false })).not.toContain("Translations");
  });

  it("counts units only: brand and category texts, which API v1 cannot write, add nothing (neither missing nor outdated)", () => {
    const withRecords: Catalogue = {
      ...desired,
      managed: ["attributes", "brands", "categories"],
      attributes: [],
      brands: [{ name: "Acme", desc: "Tools since 1950", versions: { French: { desc: "Outils" } } }],
      categories: [{ name: "Apparel", path: ["Apparel"], desc: "Clothes" }],
    };
    const tenant: RemoteCatalogue = {
      ...remote,
      read: ["attributes", "brands", "categories"],
      attributes: [],
      brands: [{ id: 5, name: "Acme", desc: "Tools", product_count: 0, versions: { French: { desc: "Outils" } } }],
    };
    const { plan, errors } = buildPlan({ tenant: "demo", desired: withRecords, remote: tenant });
    expect(errors).toEqual([]);
    // The brand's desc changes (its French stays) and a category is created without French: no unit is touched.
    expect(plan.actions.map((a) => `${a.op} ${a.address}`)).toEqual(expect.arrayContaining(['update brand["Acme"]', 'create category["Apparel"]']));
    expect(plan.translations).toBeUndefined();
  });

  describe("texts with ${variables}: counted on the templates, as translations status counts them", () => {
    // The tenant's texts were written with shop = "Acme"; the variable is now "Acme Inc".
    const withNote = (note: string, french: string, german: string): Catalogue => ({
      ...emptyCatalogue(),
      managed: ["attributes"],
      versions: ["French", "German"],
      attributes: [{ name: "Size", type: "text", note, versions: { French: { note: french }, German: { note: german } } }],
    });
    const tenant: RemoteCatalogue = {
      ...emptyRemote(),
      read: ["attributes"],
      version_ids: { French: 2, German: 3 },
      attributes: [
        { id: 1, name: "Size", type: "text", note: "Sold by Acme", values: [], versions: { French: { note: "Vendu par Acme" }, German: { note: "Verkauft" } } },
      ],
    };
    const variables = new Set(["shop"]);
    const templatesOf = (c: Catalogue) => ({ texts: translatableTexts(c), variables });

    it("a master text whose template did not change (only the variable's value) leaves no translation outdated or updated", () => {
      const desired = withNote("Sold by Acme Inc", "Vendu par Acme Inc", "Verkauft");
      const { plan } = buildPlan({ tenant: "demo", desired, remote: tenant });
      expect(plan.actions.map((a) => `${a.op} ${a.address}`)).toEqual(['update attribute["Size"]', 'update attribute["Size"].version["French"]']);
      const templates = templatesOf(withNote("Sold by ${shop}", "Vendu par ${shop}", "Verkauft"));
      expect(translationCoverage(plan.actions, desired, templates)).toEqual([]);
    });

    it("a master template that changed still makes a translation outdated, even one re-written only through the variable", () => {
      const desired = withNote("Made by Acme Inc", "Vendu par Acme Inc", "Verkauft");
      const { plan } = buildPlan({ tenant: "demo", desired, remote: tenant });
      const templates = templatesOf(withNote("Made by ${shop}", "Vendu par ${shop}", "Verkauft"));
      expect(translationCoverage(plan.actions, desired, templates)).toEqual([
        { version: "French", added: 0, updated: 0, outdated: 1, missing: 0 },
        { version: "German", added: 0, updated: 0, outdated: 1, missing: 0 },
      ]);
    });
  });
});
