/**
 * The messages a team meets on its first day say what is wrong and what to do:
 * the tenant problem before the variable errors it causes, one syntax error
 * instead of the reference errors it causes, connection errors that name the
 * address, did-you-mean on references, warnings for names that differ in case,
 * typos of configured version names.
 */
import { createServer } from "node:net";
import { describe, expect, it } from "vitest";
import { createClient } from "../../src/api/client.js";
import { PimctlError } from "../../src/errors.js";
import { offlineProjects } from "../helpers/offline.js";

const { project, cli } = offlineProjects("pimctl-messages-");

const twoTenants = [
  "dir: catalogue",
  "tenants:",
  "  staging:",
  "    base_url: http://127.0.0.1:9/api/v1",
  "    token_env: PIMCTL_T",
  "    variables: { shop: Webshop }",
  "  prod:",
  "    base_url: http://127.0.0.1:9/api/v1",
  "    token_env: PIMCTL_T",
  "    variables: { shop: Webshop }",
  "",
].join("\n");
const usesVariables = "brands:\n  - name: Acme\n    web_ids:\n      ${shop}: acme\n  - name: Zenith\n    web_ids:\n      ${shop}: zenith\n";

describe("the tenant problem first, instead of one error per ${} use", () => {
  it("no --tenant with two tenants: one error naming the configured tenants and the first use", async () => {
    const root = await project("no-tenant", twoTenants, { "brands.yaml": usesVariables });
    for (const cmd of [["validate"], ["plan"]]) {
      const r = await cli(root, cmd);
      expect(r.code).toBe(1);
      expect(r.stderr).toContain(
        "error: the manifests use ${variables} (2 uses), whose values come from a tenant: name one with --tenant (configured: prod, staging)",
      );
      expect(r.stderr).toContain("first use: catalogue/brands.yaml:4:7");
      expect(r.stderr).not.toContain("is not defined");
      expect(r.stderr.match(/^error: /gm)).toHaveLength(1);
    }
  });

  it("a mistyped --tenant: did-you-mean, and no variable errors", async () => {
    const root = await project("typo-tenant", twoTenants, { "brands.yaml": usesVariables });
    for (const cmd of [
      ["validate", "--tenant", "prd"],
      ["plan", "--tenant", "prd"],
    ]) {
      const r = await cli(root, cmd);
      expect(r.code).toBe(1);
      expect(r.stderr).toContain('tenant "prd" is not configured');
      expect(r.stderr).toContain("did you mean: prod?");
      expect(r.stderr).not.toContain("is not defined");
    }
  });

  it("diff: a mistyped --to or --from names the tenants, before any variable error", async () => {
    const root = await project("typo-diff", twoTenants, { "brands.yaml": usesVariables });
    const to = await cli(root, ["diff", "--from", "catalogue", "--to", "prd"]);
    expect(to.code).toBe(1);
    expect(to.stderr).toContain('tenant "prd" is not configured');
    expect(to.stderr).toContain("did you mean: prod?");
    expect(to.stderr).not.toContain("is not defined");
    const from = await cli(root, ["diff", "--from", "stagng", "--to", "prod"]);
    expect(from.code).toBe(1);
    expect(from.stderr).toContain("--from stagng is neither a configured tenant nor a directory\n  did you mean: staging?");
  });

  it("a tenant chosen: its variables resolve; one without the variable says 'for this tenant'", async () => {
    const root = await project("with-tenant", twoTenants.replace("    variables: { shop: Webshop }\n  prod:", "  prod:"), { "brands.yaml": usesVariables });
    expect((await cli(root, ["validate", "--tenant", "prod"])).code).toBe(0);
    const r = await cli(root, ["validate", "--tenant", "staging"]);
    expect(r.code).toBe(1);
    expect(r.stderr).toContain("variable ${shop} is not defined for this tenant");
  });
});

describe("one YAML syntax error, not the reference errors its lost entries cause", () => {
  it("an indentation mistake in attributes.yaml: one error with a hint, and the skipped checks counted", async () => {
    const root = await project("indent", "dir: catalogue\n", {
      "attributes.yaml": "attributes:\n  - name: Colour\n      type: selectbox\n  - name: Size\n    type: text\n",
      "sets.yaml": "attribute_sets:\n  - name: Clothing\n    attributes: [Colour, Size]\n",
    });
    const r = await cli(root, ["validate"]);
    expect(r.code).toBe(1);
    expect(r.stderr).toContain("catalogue/attributes.yaml:2:11: YAML syntax:");
    expect(r.stderr).toContain("an indentation mistake: line 3 is indented 6 spaces, but the keys of this entry start at column 5 (4 spaces)");
    expect(r.stderr).toContain("2 more checks (references to what the files declare) skipped until the syntax error is fixed");
    expect(r.stderr).not.toContain("which no manifest declares");
    expect(r.stderr).toContain("1 error");
  });

  it("a key one space short (the commonest slip) names the line and the column its entry's keys start at", async () => {
    const root = await project("short", "dir: catalogue\n", {
      "attributes.yaml": "attributes:\n  - name: Size\n    type: selectbox\n   values:\n      - value: S\n",
    });
    const r = await cli(root, ["validate"]);
    expect(r.code).toBe(1);
    expect(r.stderr).toContain("catalogue/attributes.yaml:4:1: YAML syntax: Sequence item without - indicator");
    expect(r.stderr).toContain("an indentation mistake: line 4 is indented 3 spaces, but the keys of the entry above it start at column 5 (4 spaces)");
  });

  it("tabs as indentation say so", async () => {
    const root = await project("tabs", "dir: catalogue\n", { "brands.yaml": "brands:\n  - name: Acme\n\tdesc: x\n" });
    const r = await cli(root, ["validate"]);
    expect(r.code).toBe(1);
    expect(r.stderr).toContain("indent with spaces: YAML does not allow tabs as indentation");
  });
});

describe("references, names and versions", () => {
  it("a reference to an undeclared attribute, set or display group suggests the nearest declared names", async () => {
    const root = await project("refs", "dir: catalogue\n", {
      "a.yaml": [
        "display_groups:\n  - name: Technical",
        "attributes:\n  - name: Colour\n    type: text\n    display_group: Technicle",
        "attribute_sets:\n  - name: Apparel\n    attributes: [Color]",
        "categories:\n  - name: Shirts\n    attribute_sets: [Aparel]",
        "",
      ].join("\n"),
    });
    const r = await cli(root, ["validate"]);
    expect(r.code).toBe(1);
    expect(r.stderr).toContain('attribute "Colour" refers to display group "Technicle", which no manifest declares\n  did you mean: "Technical"?');
    expect(r.stderr).toContain('attribute set "Apparel" refers to attribute "Color", which no manifest declares\n  did you mean: "Colour"?');
    expect(r.stderr).toContain('category "Shirts" refers to attribute set "Aparel", which no manifest declares\n  did you mean: "Apparel"?');
  });

  it("names that differ only in case are warned, with both places", async () => {
    const root = await project("case", "dir: catalogue\n", {
      "a.yaml":
        "attributes:\n  - name: Colour\n    type: selectbox\n    values: [{ value: Red }, { value: red }]\n  - name: colour\n    type: text\nbrands:\n  - name: Acme\n  - name: ACME\n",
    });
    const r = await cli(root, ["validate"]);
    expect(r.code, r.stderr).toBe(0);
    expect(r.stderr).toContain(
      'warning: catalogue/a.yaml:5:5: attribute "colour" differs only in case from "Colour" (at catalogue/a.yaml:2): two records, or one misspelt?',
    );
    expect(r.stderr).toContain('value of attribute "Colour" "red" differs only in case from "Red"');
    expect(r.stderr).toContain('brand "ACME" differs only in case from "Acme"');
  });

  it("a typo of a version name the config lists is a validate error with file:line; other names are left to plan", async () => {
    const config = "dir: catalogue\nversions: { French: 2, German: 3 }\n";
    const root = await project("versions", config, {
      "a.yaml":
        "attributes:\n  - name: Colour\n    type: selectbox\n    versions: { Frnech: { name: Couleur }, Spanish: { name: Color } }\n    values:\n      - value: Red\n        versions: { Frnech: Rouge }\n",
    });
    const r = await cli(root, ["validate"]);
    expect(r.code).toBe(1);
    expect(r.stderr).toContain('catalogue/a.yaml:4:17: unknown language version "Frnech": the config lists "French", "German"\n  did you mean "French"?');
    expect(r.stderr).not.toContain("Spanish");
    expect(r.stderr.match(/^error: /gm)).toHaveLength(1);
  });
});

describe("connection errors name the address and what to check", () => {
  it("refused: host:port, the tenant's base URL in the config, the network", async () => {
    // A port that was just free: nothing listens on it.
    const port = await new Promise<number>((resolve) => {
      const s = createServer().listen(0, "127.0.0.1", () => {
        const p = (s.address() as { port: number }).port;
        s.close(() => resolve(p));
      });
    });
    const api = createClient({ tenant: "staging", baseUrl: `http://127.0.0.1:${port}/api/v1`, token: "t", retries: { max: 0 } });
    const e = await api.ping().then(
      () => undefined,
      (x: unknown) => x,
    );
    await api.close();
    expect(e).toBeInstanceOf(PimctlError);
    const text = (e as PimctlError).format();
    expect(text).toContain(`connection to 127.0.0.1:${port} failed (ECONNREFUSED)`);
    expect(text).toContain(`check the base URL of tenant "staging" in the config (http://127.0.0.1:${port}/api/v1) and that the service is up`);
    expect(text).toContain(`check the network from this machine to 127.0.0.1:${port} (DNS, firewall; set HTTPS_PROXY if it needs a proxy)`);
  });
});
