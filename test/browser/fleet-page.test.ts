/// <reference lib="dom" />
/**
 * The fleet review page in a real browser (issue 35): the tenant switcher shows one tenant's
 * review at a time, the table's links and the address (#tenant-2) choose it, and each tenant's
 * category tree folds as on the single-tenant page. Skipped as html-page.test.ts is without a browser.
 */
import { mkdtemp, writeFile } from "node:fs/promises";
import { tmpdir } from "node:os";
import path from "node:path";
import { pathToFileURL } from "node:url";
import { chromium, type Browser, type Page } from "playwright-core";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { buildPlan } from "../../src/plan/planner.js";
import { FLEET_FORMAT_VERSION } from "../../src/plan/fleet.js";
import { renderFleet } from "../../src/render/fleet/index.js";
import { desired, ledger, prune, remote } from "../fixtures/plan/every-action.js";
import { browserRequired, findBrowser, HOW_TO_GET_ONE } from "./find-browser.js";

const found = findBrowser();
if (!found) {
  if (browserRequired) throw new Error(`PIMCTL_REQUIRE_BROWSER=1 and ${HOW_TO_GET_ONE}`);
  console.log(`skipped: the fleet page's browser test: ${HOW_TO_GET_ONE}`);
}

let browser: Browser;
let page: Page;
let url: string;
const errors: string[] = [];

beforeAll(async () => {
  if (!found) return;
  const plan = (tenant: string) => ({ ...buildPlan({ tenant, desired, remote, ledger, prune }).plan, tenant });
  const html = renderFleet(
    {
      format_version: FLEET_FORMAT_VERSION,
      kind: "fleet",
      tenants: [
        { tenant: "prod-eu", plan: plan("prod-eu"), exit: 2 },
        { tenant: "prod-us", error: { code: "api_unauthorized", message: "GET /channels (401): the token was refused", details: [] }, exit: 1 },
        { tenant: "staging", plan: plan("staging"), exit: 2 },
      ],
      waves: [["prod-eu", "prod-us", "staging"]],
    },
    "html",
    { color: false, page: { generatedAt: "2026-11-27T20:00:00Z", source: "plan" } },
  );
  const file = path.join(await mkdtemp(path.join(tmpdir(), "pimctl-fleet-html-")), "fleet.html");
  await writeFile(file, html);
  url = pathToFileURL(file).href;
  browser = await chromium.launch({ executablePath: found.executablePath, headless: true, args: ["--disable-gpu"] });
  page = await browser.newPage({ viewport: { width: 1280, height: 900 } });
  page.on("pageerror", (e) => errors.push(String(e)));
}, 60_000);

afterAll(async () => {
  await browser?.close();
});

const shown = () => page.$$eval("section.tenant", (s) => s.filter((x) => !(x as HTMLElement).hidden).map((x) => x.id));

describe.skipIf(!found)("the fleet review page in Chromium", () => {
  it("shows the first tenant, then the one a button names", async () => {
    await page.goto(url, { waitUntil: "load" });
    expect(await shown()).toEqual(["tenant-1"]);
    await page.click('button[data-show="tenant-3"]');
    expect(await shown()).toEqual(["tenant-3"]);
    expect(await page.getAttribute('button[data-show="tenant-3"]', "aria-pressed")).toBe("true");
    expect(await page.isVisible("#tenant-3-kind-categories")).toBe(true);
    expect(errors).toEqual([]);
  });

  it("follows the table's links and the address to a tenant, a failed one with its error", async () => {
    await page.click('table.fleet a[href="#tenant-2"]');
    // A link to a fragment switches on hashchange, which the browser fires after the click returns.
    await expect.poll(shown).toEqual(["tenant-2"]);
    expect(await page.textContent("#tenant-2")).toContain("the token was refused");
    await page.goto(`${url}#tenant-3-c1`, { waitUntil: "load" });
    await expect.poll(shown).toEqual(["tenant-3"]);
  });

  it("folds a tenant's category tree as the single page does", async () => {
    await page.goto(`${url}#tenant-1`, { waitUntil: "load" });
    const node = "#tenant-1-kind-categories li.node[aria-expanded]";
    const before = await page.getAttribute(node, "aria-expanded");
    await page.click(`${node} > .row .tw`);
    expect(await page.getAttribute(node, "aria-expanded")).not.toBe(before);
    expect(errors).toEqual([]);
  });
});
