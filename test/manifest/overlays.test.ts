/**
 * Overlays (issue 35): a tenant's catalogue is the base with its overlay folder applied. Patch by
 * identity, add, $remove; maps merged key by key, child entries by identity; every record's place
 * from the file that set it; the base parsed once, equal compositions shared.
 */
import { mkdtemp, mkdir, rm, writeFile } from "node:fs/promises";
import { tmpdir } from "node:os";
import path from "node:path";
import { afterEach, describe, expect, it } from "vitest";
import { loadConfig } from "../../src/config/index.js";
import { ManifestReader } from "../../src/manifest/overlay-load.js";
import { loadFleetCatalogues } from "../../src/workflows/fleet-load.js";
import { loadManifests } from "../../src/manifest/index.js";
import { PimctlErrors } from "../../src/errors.js";

let dir: string;
afterEach(async () => rm(dir, { recursive: true, force: true }));

const CONFIG = `dir: catalogue
overlays: overlays
tenants:
  prod-eu: { base_url: "https://eu/api/v1", token_env: T, variables: { shop: Webshop EU } }
  prod-us: { base_url: "https://us/api/v1", token_env: T, variables: { shop: Webshop US } }
  staging-eu: { base_url: "https://seu/api/v1", token_env: T, variables: { shop: Webshop EU } }
  staging-us: { base_url: "https://sus/api/v1", token_env: T, variables: { shop: Webshop US } }
`;

const BASE: Record<string, string> = {
  "catalogue/groups.yaml": "display_groups:\n  - name: Basics\n  - name: Technical\n",
  "catalogue/attributes.yaml": [
    "attributes:",
    "  - name: Colour",
    "    type: selectbox",
    "    display_group: Basics",
    "    versions:",
    "      French: { name: Couleur, note: base note }",
    "    values:",
    "      - value: Red",
    "        versions: { French: Rouge }",
    "      - value: Blue",
    "  - name: Voltage",
    "    type: text",
    "    display_group: Technical",
    "",
  ].join("\n"),
  "catalogue/brands.yaml": [
    "brands:",
    "  - name: Acme",
    "    desc: Tools",
    "    web_ids:",
    "      ${shop}: acme",
    "  - name: Globex",
    "    desc: Everything",
    "",
  ].join("\n"),
  "catalogue/categories.yaml": [
    "categories:",
    "  - name: Apparel",
    "    desc: Clothes",
    "    children:",
    "      - name: Shirts",
    "        desc: Shirts",
    "      - name: Hats",
    "",
  ].join("\n"),
};

async function project(files: Record<string, string>, config = CONFIG) {
  dir = await mkdtemp(path.join(tmpdir(), "pimctl-overlays-"));
  for (const [file, text] of Object.entries({ "pimctl.yaml": config, ...BASE, ...files })) {
    await mkdir(path.dirname(path.join(dir, file)), { recursive: true });
    await writeFile(path.join(dir, file), text);
  }
  return loadConfig({ cwd: dir });
}

const fmt = (errors: { format(): string }[]) => errors.map((e) => e.format());

describe("overlays", () => {
  it("patches by identity (maps key by key, versions field by field, children by identity), adds and removes", async () => {
    const config = await project({
      "overlays/prod-us/brands.yaml": [
        "brands:",
        "  - name: Acme",
        "    desc: Tools (US)",
        "    web_ids: { Amazon: B00 }",
        "  - name: Globex",
        "    $remove: true",
        "  - name: Initech",
        "    desc: US only",
        "",
      ].join("\n"),
      "overlays/prod-us/more.yaml": [
        "attributes:",
        "  - name: Colour",
        "    display_group: Technical",
        "    versions:",
        "      French: { note: us note }",
        "    values:",
        "      - { value: Blue, $remove: true }",
        "      - value: Red",
        "        sort_order: 3",
        "      - value: Green",
        "categories:",
        "  - name: Apparel",
        "    children:",
        "      - name: Shirts",
        "        desc: Shirts (US)",
        "      - { name: Hats, $remove: true }",
        "      - name: Boots",
        "",
      ].join("\n"),
    });
    const reader = new ManifestReader(dir);
    const fleet = await loadFleetCatalogues(config, ["prod-eu", "prod-us"], { cwd: dir, reader });
    const us = fleet.get("prod-us")!;
    expect(fmt(us.errors)).toEqual([]);
    const c = us.catalogue;
    expect(c.brands.map((b) => [b.name, b.desc, b.web_ids])).toEqual([
      ["Acme", "Tools (US)", { "Webshop US": "acme", Amazon: "B00" }],
      ["Initech", "US only", undefined],
    ]);
    const colour = c.attributes.find((a) => a.name === "Colour")!;
    expect(colour.display_group).toBe("Technical");
    expect(colour.versions).toEqual({ French: { name: "Couleur", note: "us note" } });
    expect(colour.values!.map((v) => [v.value, v.sort_order, v.versions])).toEqual([
      ["Red", 3, { French: "Rouge" }],
      ["Green", undefined, undefined],
    ]);
    expect(c.categories.map((x) => [x.path.join("/"), x.desc])).toEqual([
      ["Apparel", "Clothes"],
      ["Apparel/Boots", undefined],
      ["Apparel/Shirts", "Shirts (US)"],
    ]);
    // Places: the overlay's for what it set, the base's for the rest.
    const acme = c.brands[0]!;
    expect(`${acme.source!.file}:${acme.source!.line}`).toBe("catalogue/brands.yaml:2");
    expect(`${c.brands[1]!.source!.file}:${c.brands[1]!.source!.line}`).toBe("overlays/prod-us/brands.yaml:7");
    // The other tenant has the base alone, and the base was parsed once for both.
    const eu = fleet.get("prod-eu")!;
    expect(eu.catalogue.brands.map((b) => [b.name, b.desc, b.web_ids])).toEqual([
      ["Acme", "Tools", { "Webshop EU": "acme" }],
      ["Globex", "Everything", undefined],
    ]);
    const alone = await loadManifests(config.dir, { cwd: dir, variables: { shop: "Webshop EU" }, listedVersions: [], exclude: [config.overlays!] });
    expect(eu.catalogue).toEqual(alone.catalogue);
  });

  it("parses the base once per run and shares one catalogue among tenants with the same overlay and variables", async () => {
    const config = await project({ "overlays/prod-us/brands.yaml": "brands:\n  - name: Acme\n    desc: US\n" });
    const reader = new ManifestReader(dir);
    const fleet = await loadFleetCatalogues(config, ["prod-eu", "prod-us", "staging-eu", "staging-us"], { cwd: dir, reader });
    expect(fleet.get("prod-eu")).toBe(fleet.get("staging-eu"));
    expect(fleet.get("prod-us")).not.toBe(fleet.get("staging-us"));
    expect(fleet.get("staging-us")!.catalogue.brands[0]!.desc).toBe("Tools");
    expect(fleet.get("prod-us")!.catalogue.brands[0]!.desc).toBe("US");
    // 4 base files: 3 without ${ parsed once, brands.yaml once per shop (2), and the overlay once.
    expect(reader.parsed).toBe(3 + 2 + 1);
  });

  it("an error two fields make, one set by the overlay, names both places (review: Colour's type set by the overlay, blamed on the base)", async () => {
    const config = await project({
      "overlays/prod-us/attributes.yaml": "attributes:\n  - name: Colour\n    type: text\n",
      "overlays/prod-eu/attributes.yaml": "attributes:\n  - name: Voltage\n    values:\n      - value: High\n",
    });
    const fleet = await loadFleetCatalogues(config, ["prod-eu", "prod-us", "staging-eu"], { cwd: dir });
    const why = "which has no selectable values; remove values: or use selectbox or multiselect";
    expect(fmt(fleet.get("prod-us")!.errors)).toEqual([
      `catalogue/attributes.yaml:7:5: attribute "Colour" has type text, ${why} (its type is set at overlays/prod-us/attributes.yaml:3:11)`,
    ]);
    expect(fmt(fleet.get("prod-eu")!.errors)).toEqual([
      `overlays/prod-eu/attributes.yaml:3:5: attribute "Voltage" has type text, ${why} (its type is set at catalogue/attributes.yaml:12:11)`,
    ]);
    expect(fmt(fleet.get("staging-eu")!.errors)).toEqual([]);
    // In one file, the message is what it always was.
    await writeFile(path.join(dir, "catalogue/attributes.yaml"), "attributes:\n  - name: Size\n    type: text\n    values: [{ value: S }]\n");
    const plain = await loadManifests(path.join(dir, "catalogue"), { cwd: dir, variables: { shop: "Webshop EU" } });
    expect(fmt(plain.errors)).toEqual([`catalogue/attributes.yaml:4:5: attribute "Size" has type text, ${why}`]);
  });

  it("$remove: false is one error that says what to write, not a second about what a removal holds", async () => {
    const config = await project({ "overlays/prod-us/brands.yaml": "brands:\n  - name: Acme\n    $remove: false\n    desc: Tools (US)\n" });
    const us = (await loadFleetCatalogues(config, ["prod-us"], { cwd: dir })).get("prod-us")!;
    expect(fmt(us.errors)).toEqual([
      "overlays/prod-us/brands.yaml:3:5: $remove takes true (remove this brand for this tenant)\n" +
        "  to change fields for this tenant, write the entry without $remove",
    ]);
  });

  it("warns where an added entry looks like a patch that missed: a name a letter from the base's, a root category the base has nested", async () => {
    const config = await project({
      "overlays/prod-us/brands.yaml": "brands:\n  - name: Acmee\n    desc: Tools (US)\n  - name: Initech\n    desc: US only\n",
      "overlays/prod-us/categories.yaml": "categories:\n  - name: Shirts\n    desc: Shirts (US)\n",
    });
    const us = (await loadFleetCatalogues(config, ["prod-us"], { cwd: dir })).get("prod-us")!;
    expect(fmt(us.errors)).toEqual([]);
    // Still added, as the rule says: the warnings name the overlay's line and what was likely meant.
    expect(us.catalogue.brands.map((b) => b.name).sort()).toEqual(["Acme", "Acmee", "Globex", "Initech"]);
    expect(fmt(us.warnings)).toEqual([
      'overlays/prod-us/brands.yaml:2:5: the overlay adds a brand "Acmee", which the base does not declare: did you mean "Acme"?\n' +
        "  an overlay entry patches the base entry with exactly its identity; any other identity adds a record for this tenant",
      'overlays/prod-us/categories.yaml:2:5: the overlay adds a root category "Shirts"; the base has "Shirts" at Apparel > Shirts\n' +
        "  to patch it, write it nested from its root as the base does; to add a root category of that name, leave it as it is",
    ]);
  });

  it("errors name the overlay's file:line for what the overlay set, the base's for the rest", async () => {
    const config = await project({
      "overlays/prod-us/attributes.yaml": [
        "attributes:",
        "  - name: Voltage",
        "    display_group: Nowhere",
        "    length: -4",
        "  - { name: Weight, $remove: true }",
        "categories:",
        "  - name: Apparel",
        "    children:",
        "      - { name: Socks, $remove: true }",
        "  - name: Globex",
        "    $remove: true",
        "    desc: x",
        "brands:",
        "  - name: Acme",
        "    attribute_sets: [Nowhere]",
        "",
      ].join("\n"),
    });
    const us = (await loadFleetCatalogues(config, ["prod-us"], { cwd: dir })).get("prod-us")!;
    const lines = fmt(us.errors).map((l) => l.split("\n")[0]);
    expect(lines).toEqual(
      expect.arrayContaining([
        expect.stringMatching(/^overlays\/prod-us\/attributes\.yaml:5:5: \$remove: the base declares no attribute "Weight"/),
        expect.stringMatching(/^overlays\/prod-us\/attributes\.yaml:9:9: \$remove: the base declares no category "Socks"/),
        expect.stringMatching(/^overlays\/prod-us\/attributes\.yaml:11:5: an entry with \$remove: true holds only its name, not desc/),
        expect.stringMatching(/^overlays\/prod-us\/attributes\.yaml:10:5: \$remove: the base declares no category "Globex"/),
        expect.stringMatching(/^overlays\/prod-us\/attributes\.yaml:4:\d+: .*length/),
        expect.stringMatching(/^overlays\/prod-us\/attributes\.yaml:15:\d+: .*Nowhere/),
      ]),
    );
  });

  it("reads anchors, aliases and merge keys in an overlay, and reports a patch written twice", async () => {
    const config = await project({
      "overlays/prod-us/brands.yaml": [
        "x-us: &us",
        "  desc: American",
        "  seo_title: US",
        "brands:",
        "  - name: Acme",
        "    <<: *us",
        "  - name: Globex",
        "    <<: *us",
        "    desc: Global (US)",
        "",
      ].join("\n"),
      "overlays/prod-us/again.yaml": "brands:\n  - name: Acme\n    desc: again\n",
    });
    const us = (await loadFleetCatalogues(config, ["prod-us"], { cwd: dir })).get("prod-us")!;
    expect(fmt(us.errors).map((l) => l.split("\n")[0])).toEqual([
      'overlays/prod-us/brands.yaml:5:5: the overlay names the brand "Acme" twice (first at overlays/prod-us/again.yaml:2:5)',
    ]);
    const globex = us.catalogue.brands.find((b) => b.name === "Globex")!;
    expect([globex.desc, globex.seo_title]).toEqual(["Global (US)", "US"]);
  });

  it("a tenant's own overlay: wins, a missing one is an error; overlay folders inside dir: are not read as the base", async () => {
    const config = await project(
      {
        "catalogue/overlays/prod-us/brands.yaml": "brands:\n  - name: Acme\n    desc: inside\n",
        "special/brands.yaml": "brands:\n  - name: Acme\n    desc: own\n",
      },
      CONFIG.replace("overlays: overlays", "overlays: catalogue/overlays").replace(
        "variables: { shop: Webshop EU } }",
        "variables: { shop: Webshop EU }, overlay: special }",
      ),
    );
    const fleet = await loadFleetCatalogues(config, ["prod-eu", "prod-us", "staging-eu"], { cwd: dir });
    expect(fmt(fleet.get("prod-us")!.errors)).toEqual([]);
    expect(fleet.get("prod-us")!.catalogue.brands[0]!.desc).toBe("inside");
    expect(fleet.get("prod-eu")!.catalogue.brands[0]!.desc).toBe("own");
    expect(fleet.get("staging-eu")!.catalogue.brands[0]!.desc).toBe("Tools");
    // A missing folder is refused when the config is loaded (src/config/overlays.ts), before any manifest is read.
    const gone = await project({}, CONFIG.replace("variables: { shop: Webshop US } }", "variables: { shop: Webshop US }, overlay: nowhere }")).catch(
      (e: unknown) => e,
    );
    expect(gone).toBeInstanceOf(PimctlErrors);
    expect(fmt((gone as PimctlErrors).errors)).toEqual([
      "pimctl.yaml:2:11: overlays: the folder overlays does not exist, so no tenant would get its overlay; create it, or correct the path",
      'pimctl.yaml:5:101: tenant "prod-us": its overlay folder nowhere does not exist',
    ]);
    const typo = await project({ "overlays/prod-uss/brands.yaml": "brands: []\n" }).catch((e: unknown) => e);
    expect(fmt((typo as PimctlErrors).errors)).toEqual([
      "pimctl.yaml:2:11: the overlay folder overlays/prod-uss names no configured tenant\n  did you mean: prod-us?",
    ]);
  });
});
