/**
 * The HTML page at the scale: a plan changing 1,000 records of the
 * real taxonomy (10,595 categories) must stay under 5 MB, because only the
 * nodes on the way to a change are drawn.
 */
import { parseHTML } from "linkedom";
import { describe, expect, it } from "vitest";
import { renderPlan } from "../../src/render/index.js";
import { taxonomyPlan } from "../browser/taxonomy-plan.js";

describe("html page on the whole taxonomy", () => {
  it("a plan changing 1,000 records of a 10,000-record tree stays under 5 MB and draws only what it must", () => {
    const { plan, remote, moved, renamed } = taxonomyPlan({ moves: 700, renames: 300, newParent: "Seasonal picks" });
    expect(remote.length).toBeGreaterThan(10_000);
    expect(moved.length + renamed.length).toBe(1000);
    const t0 = performance.now();
    const html = renderPlan(plan, "html", { color: false, page: { generatedAt: "2026-11-24T00:00:00Z" } });
    const ms = performance.now() - t0;
    const bytes = Buffer.byteLength(html);
    console.log(
      `html page for ${moved.length} moves + ${renamed.length} renames of ${remote.length} categories: ${(bytes / 1e6).toFixed(2)} MB, rendered in ${ms.toFixed(0)} ms`,
    );
    expect(bytes).toBeLessThan(5_000_000);
    const { document } = parseHTML(html);
    // Each move at two places, each rename once, the new parent, and their ancestors: far fewer than the tree.
    const nodes = document.querySelectorAll("li.node").length;
    expect(nodes).toBeGreaterThanOrEqual(2 * moved.length + renamed.length + 1);
    expect(nodes).toBeLessThan(remote.length / 2);
    expect(document.querySelectorAll("li.node.st-move:not(.ghost)").length).toBe(moved.length);
    expect(document.querySelectorAll("li.node.ghost").length).toBe(moved.length);
    expect(document.querySelectorAll("li.node.st-rename").length).toBe(renamed.length);
  });
});
