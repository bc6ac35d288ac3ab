/**
 * The combined review of 50 tenants (issue 35): the markdown comment stays under GitHub's 65,536
 * characters by folding, then cutting whole sections with a line that points at the HTML page and
 * the JSON; the HTML page holds every tenant's review and category tree behind a tenant switcher.
 */
import { readFileSync } from "node:fs";
import path from "node:path";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { testProject, type TestProject } from "../helpers/project.js";

const TENANTS = Array.from({ length: 50 }, (_, i) => `shop-${String(i + 1).padStart(2, "0")}`);

/** 60 brands whose text names the tenant (a change of its own in every tenant), one display group the same everywhere, a category tree. */
const BRANDS = Array.from({ length: 60 }, (_, i) => `  - name: Brand ${i + 1}\n    desc: Brand ${i + 1} as sold by \${shop}`).join("\n");

let p: TestProject;
beforeAll(async () => {
  p = await testProject({
    tenants: TENANTS,
    tenantLines: (n) => [`    variables: { shop: ${n} }`],
    files: {
      "catalogue/groups.yaml": "display_groups:\n  - name: Shared\n    sort_order: 1\n",
      "catalogue/brands.yaml": `brands:\n${BRANDS}\n`,
      "catalogue/categories.yaml": "categories:\n  - name: Tools\n    desc: Tools of ${shop}\n    children:\n      - name: Hammers\n",
    },
  });
}, 60_000);
afterAll(() => p.close());

describe("the combined review of 50 tenants", () => {
  it("keeps the markdown under GitHub's comment limit: folded, then cut with a pointer to the HTML page and the JSON", async () => {
    const r = await p.cli(["plan", "--tenant", "shop-*", "--format", "markdown", "--out", "fleet.json"]);
    expect(r.code).toBe(0);
    const md = r.stdout;
    expect(md.length).toBeLessThan(65_536);
    // Every tenant is in the table, and the change they share is shown once for all of them.
    for (const n of TENANTS) expect(md).toContain(`| \`${n}\` | 63 | 0 | 0 | 0 | 0 | 0 |  |`);
    expect(md).toContain("#### Changes in all 50 tenants");
    expect(md.match(/display_group\["Shared"\]/g)).toHaveLength(1);
    expect(md).toMatch(
      /_The review is cut here: the parts of \d+ more tenants did not fit a comment \(GitHub takes 65,536 characters\)\. Every tenant's plan is in the HTML/,
    );
    expect(md).toContain("one line per action below");
    expect(md.trimEnd().endsWith("**Fleet of 50 tenants: 50 with changes.**")).toBe(true);
    // Cut between sections: every fold and code block that opens closes.
    expect(md.match(/<details>/g)?.length).toBe(md.match(/<\/details>/g)?.length);
    expect((md.match(/^```/gm)?.length ?? 0) % 2).toBe(0);
    // The same review from the saved file.
    expect((await p.cli(["show", "fleet.json", "--format", "markdown"])).stdout).toBe(md);
  }, 120_000);

  it("writes an HTML page with every tenant's review and category tree behind a tenant switcher, ids apart", async () => {
    const r = await p.cli(["show", "fleet.json", "--format", "html"]);
    expect(r.code).toBe(0);
    const html = r.stdout;
    expect(html.match(/<button type="button" data-show="tenant-\d+">/g)).toHaveLength(50);
    expect(html.match(/<section class="tenant" id="tenant-\d+">/g)).toHaveLength(50);
    // Each tenant's category tree, as the single-tenant page draws it, with its own anchors.
    for (const i of [1, 25, 50]) {
      expect(html).toContain(`<section class="kind" id="tenant-${i}-kind-categories"><h2>Categories</h2>`);
      expect(html).toContain(`id="tenant-${i}-c1"`);
    }
    expect(html).toContain("Tools of shop-50");
    const ids = [...html.matchAll(/ id="([^"]+)"/g)].map((m) => m[1]!);
    expect(new Set(ids).size).toBe(ids.length);
    for (const [, target] of html.matchAll(/ href="#([^"]+)"/g)) expect(ids, target).toContain(target);
    expect(html).toContain("<h2>Changes in all 50 tenants</h2>");
  }, 60_000);

  it("stays under the limit with 200 tenants whose token was revoked: those that failed alike fold into one row and one caution", async () => {
    // GitLab's parallel:matrix maximum, every tenant refusing the shared token (bug 4 of the review: 67,787 characters).
    const config = readFileSync(path.join(p.dir, "pimctl.yaml"), "utf8");
    const revoked = Array.from({ length: 200 }, (_, i) => `prod-${String(i + 1).padStart(3, "0")}`);
    const url = p.emulator.tenantUrl(TENANTS[0]!);
    await p.write(
      "pimctl.yaml",
      `${config.trimEnd()}\n${revoked.map((n) => `  ${n}:\n    base_url: ${url}\n    token_env: PIMCTL_REVOKED\n    variables: { shop: ${n} }`).join("\n")}\n`,
    );
    try {
      const r = await p.cli(["plan", "--tenant", "prod-*", "--format", "markdown"], { env: { PIMCTL_REVOKED: "old-token" } });
      expect(r.code).toBe(1);
      expect(r.stdout.length).toBeLessThan(65_536);
      expect(r.stdout).toMatch(/^\| 200 tenants: `prod-001`, .* and 190 more \|.*\| api_unauthorized \(as prod-001\): /m);
      expect(r.stdout).toContain("**200 tenants could not be planned** (`api_unauthorized`)");
      expect(r.stdout.trimEnd().endsWith("**Fleet of 200 tenants: 200 could not be planned.**")).toBe(true);
    } finally {
      await p.write("pimctl.yaml", config);
    }
  }, 120_000);
});
