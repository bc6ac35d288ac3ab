import { describe, expect, it } from "vitest";
import { buildPlan } from "../../src/plan/planner.js";
import { renderPlan, wantColor } from "../../src/render/index.js";
import { desired, ledger, prune, remote } from "../fixtures/plan/every-action.js";

const { plan } = buildPlan({ tenant: "demo", desired, remote, ledger, prune });

describe("renderers on a plan with every kind of action", () => {
  it("text", async () => {
    await expect(renderPlan(plan, "text", { color: false })).toMatchFileSnapshot("../fixtures/render/every-action.txt");
  });
  it("text, compact", async () => {
    await expect(renderPlan(plan, "text", { color: false, compact: true })).toMatchFileSnapshot("../fixtures/render/every-action.compact.txt");
  });
  it("text in colour marks ops with ANSI colours", () => {
    const out = renderPlan(plan, "text", { color: true });
    expect(out).toContain('\u001b[32m+\u001b[39m attribute["Material"]');
    expect(out).toContain('\u001b[31m-\u001b[39m brand["Oldco"]');
  });
  it("shows what API v1 cannot write as not applied: outside the diff block in markdown, never green in text", () => {
    const md = renderPlan(plan, "markdown", { color: false });
    const brands = md.slice(md.indexOf("<b>Brands</b>"), md.indexOf("</details>", md.indexOf("<b>Brands</b>")));
    const diffBlock = brands.slice(brands.indexOf("```diff"), brands.indexOf("```", brands.indexOf("```diff") + 3));
    expect(diffBlock).not.toContain('brand["Acme"].version["French"]');
    // In a diff block a line starting with + is green: no line of the unsupported action starts with a marker.
    const after = brands.slice(brands.indexOf("_Not possible through API v1, not applied"));
    expect(after).toContain('```text\n! brand["Acme"].version["French"]  (unsupported)\n');
    expect(after).toContain("\n        +Outils depuis 1950\n");
    const coloured = renderPlan(plan, "text", { color: true });
    const lines = coloured.split("\n");
    const at = lines.findIndex((l) => l.includes('brand["Acme"].version["French"]'));
    const own = lines.slice(
      at + 1,
      lines.findIndex((l, i) => i > at && /^ {2}\S/.test(l.replace(/\u001b\[[0-9;]*m/g, ""))),
    );
    expect(own.join("\n")).toContain("Outils depuis 1950");
    expect(own.join("\n")).not.toContain("\u001b[32m");
    expect(own.join("\n")).not.toContain("\u001b[31m");
  });
  it("markdown", async () => {
    await expect(renderPlan(plan, "markdown", { color: false })).toMatchFileSnapshot("../fixtures/render/every-action.md");
  });
  it("json", async () => {
    await expect(renderPlan(plan, "json", { color: false })).toMatchFileSnapshot("../fixtures/render/every-action.json");
  });
});

describe("colour policy", () => {
  it("honours NO_COLOR, --no-color, non-TTY and FORCE_COLOR", () => {
    expect(wantColor({ isTTY: true, env: {} })).toBe(true);
    expect(wantColor({ isTTY: true, env: { NO_COLOR: "1" } })).toBe(false);
    expect(wantColor({ isTTY: true, env: {}, noColor: true })).toBe(false);
    expect(wantColor({ isTTY: false, env: {} })).toBe(false);
    expect(wantColor({ isTTY: false, env: { FORCE_COLOR: "1" } })).toBe(true);
  });
});

describe("markdown for very large plans", () => {
  it("stays under a pull-request comment's limit: compact, then counts per kind", async () => {
    const { MARKDOWN_LIMIT } = await import("../../src/render/markdown.js");
    const big = structuredClone(plan);
    const template = big.actions.find((a) => a.address === 'brand["Zenith"]')!;
    big.actions = Array.from({ length: 900 }, (_, i) => ({ ...template, address: `brand["Brand with a rather long name ${i}"]` }));
    const md = renderPlan(big, "markdown", { color: false });
    expect(md.length).toBeLessThanOrEqual(MARKDOWN_LIMIT);
    expect(md).toContain("one line per action below");
    big.actions = Array.from({ length: 20000 }, (_, i) => ({ ...template, address: `brand["Brand with a rather long name ${i}"]` }));
    const counts = renderPlan(big, "markdown", { color: false });
    expect(counts.length).toBeLessThanOrEqual(MARKDOWN_LIMIT);
    expect(counts).toContain("- **Brands**: 20000 create");
  });
});
