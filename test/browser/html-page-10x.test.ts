/// <reference lib="dom" />
/**
 * The HTML review page at issue 27's scale: a plan of about 1,000 changes on
 * the taxonomy ten times over (105,950 categories), made by the real planner
 * and rendered by the real renderer, must be under 5 MB and usable in Chromium
 * in under 2 s. Chromium is found and driven as in html-page.test.ts.
 */
import { mkdtemp, writeFile } from "node:fs/promises";
import { tmpdir } from "node:os";
import path from "node:path";
import { pathToFileURL } from "node:url";
import { chromium, type Browser, type Page } from "playwright-core";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { renderPlan } from "../../src/render/index.js";
import { browserRequired, findBrowser, HOW_TO_GET_ONE } from "./find-browser.js";
import { taxonomyPlan, type TaxonomyPlan } from "./taxonomy-plan.js";

const found = findBrowser();
if (!found) {
  if (browserRequired) throw new Error(`PIMCTL_REQUIRE_BROWSER=1 and ${HOW_TO_GET_ONE}`);
  console.log(`skipped: the 10× HTML page's browser test: ${HOW_TO_GET_ONE}`);
}

let browser: Browser;
let page: Page;
let url: string;
let tax: TaxonomyPlan;
let bytes = 0;

beforeAll(async () => {
  let t0 = performance.now();
  tax = taxonomyPlan({ copies: 10, moves: 600, renames: 300, creates: 20, pruneAtLeast: 20, newParent: "Seasonal picks" });
  const planMs = performance.now() - t0;
  t0 = performance.now();
  const html = renderPlan(tax.plan, "html", { color: false, page: { generatedAt: "2026-11-26T00:00:00Z", commit: "4f1c2e9", source: "plan" } });
  const renderMs = performance.now() - t0;
  bytes = Buffer.byteLength(html);
  console.log(
    `10× taxonomy: ${tax.remote.length} categories; plan of ${tax.plan.actions.length} actions (${tax.moved.length} moves, ${tax.renamed.length} ` +
      `renames, ${tax.created.length} creates, ${tax.pruned.length} deletes) built in ${planMs.toFixed(0)} ms; page ${(bytes / 1e6).toFixed(2)} MB ` +
      `rendered in ${renderMs.toFixed(0)} ms`,
  );
  const dir = await mkdtemp(path.join(tmpdir(), "pimctl-html-10x-"));
  const file = path.join(dir, "plan.html");
  await writeFile(file, html);
  url = pathToFileURL(file).href;
  if (!found) return;
  browser = await chromium.launch({ executablePath: found.executablePath, headless: true, args: ["--disable-gpu"] });
  page = await browser.newPage({ viewport: { width: 1280, height: 900 } });
}, 60_000);

afterAll(async () => {
  await browser?.close();
});

describe("the HTML page of a 1,000-change plan on a 100,000-category tree", () => {
  it("is under 5 MB (with or without a browser)", () => {
    expect(tax.remote.length).toBeGreaterThan(100_000);
    expect(tax.plan.actions.length).toBeGreaterThanOrEqual(900);
    expect(bytes).toBeLessThan(5_000_000);
  });
});

describe.skipIf(!found)("the same page in Chromium", () => {
  it("is usable in Chromium in under 2 s", async () => {
    // A warm-up load first (the browser's own start, caches); then one measured load.
    await page.goto(url, { waitUntil: "load" });
    await page.goto(url, { waitUntil: "load" });
    await page.waitForSelector("html[data-ready]", { state: "attached" });
    // The page's own clock: navigation start to the script's ready mark, set after the first frame is drawn with the
    // handlers attached. Wall time seen from here would add the DevTools round trips and whatever else the shared
    // 2-core machine runs; this is the work the page itself makes the browser do.
    const readyMs = Number(await page.$eval("html", (h) => h.getAttribute("data-ready")));
    // What is shown: every change in the tree (a move at both places), the first row on screen.
    const drawn = await page.evaluate(() => ({
      elements: document.getElementsByTagName("*").length,
      moved: document.querySelectorAll("li.node.st-move:not(.ghost)").length,
      ghosts: document.querySelectorAll("li.node.ghost").length,
      renamed: document.querySelectorAll("li.node.st-rename").length,
      created: document.querySelectorAll("li.node.st-create").length,
      deleted: document.querySelectorAll("li.node.st-delete").length,
      firstRowShown: (document.querySelector("li.node > .row") as HTMLElement).getBoundingClientRect().height > 0,
    }));
    expect(drawn).toMatchObject({ moved: tax.moved.length, ghosts: tax.moved.length, renamed: tax.renamed.length, firstRowShown: true });
    // The created leaves and the new parent the moves go under; the pruned subtree, each of its categories.
    expect(drawn.created).toBe(tax.created.length + 1);
    expect(drawn.deleted).toBe(tax.pruned.length);
    // And the filter answers: type a query, time until the page shows its result (80 ms of it is the typing pause).
    const filterMs = await page.evaluate(async () => {
      const q = document.getElementById("q") as HTMLInputElement;
      const t0 = performance.now();
      q.value = "(renamed)";
      q.dispatchEvent(new Event("input"));
      while (q.getAttribute("data-filtered") !== "(renamed)") await new Promise((r) => setTimeout(r, 5));
      return performance.now() - t0;
    });
    const matches = await page.$eval("#matches", (s) => s.textContent);
    console.log(
      `10× page: ${drawn.elements} elements, usable ${readyMs} ms after navigation start; the filter answered in ${filterMs.toFixed(0)} ms (${matches})`,
    );
    expect(matches).toBe(`${tax.renamed.length} matches`);
    expect(readyMs).toBeLessThan(2000);
  }, 30_000);
});
