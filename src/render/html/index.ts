/**
 * The plan as one self-contained HTML page for review (a CI artifact): inline
 * CSS and JS, no network, no fonts. Pure: the same plan and facts give the
 * same bytes; what the plan does not know (when, which commit) comes in as
 * options from the caller.
 */
import { OPS, type Plan } from "../../plan/types.js";
import type { RenderOptions } from "../common.js";
import { esc } from "./escape.js";
import { renderHeader } from "./header.js";
import type { PageFacts } from "../common.js";
import { collectRecords, renderLists } from "./lists.js";
import { OP_SYMBOL, OP_WORD } from "./marks.js";
import { PAGE_SCRIPT } from "./page-script.js";
import { PAGE_STYLE } from "./page-style.js";
import { buildCategoryTree } from "./tree-model.js";
import { renderTree } from "./tree.js";

export type { PageFacts } from "../common.js";

export function renderHtml(plan: Plan, opts: RenderOptions): string {
  const facts: PageFacts = opts.page ?? {};
  const { header, main } = planSections(plan, facts);
  return pageDocument(`pimctl ${facts.source ?? "plan"}: ${plan.tenant}`, header + findBar(), main);
}

/** A plan's header (who, when, counts, what to look at first) and its tree and lists, with the anchors between them. */
export function planSections(plan: Plan, facts: PageFacts): { header: string; main: string } {
  const tree = buildCategoryTree(plan);
  const records = collectRecords(plan.actions);
  const anchors = new Map<string, string>();
  for (const [address, node] of tree.byAddress) anchors.set(address, node.id);
  for (const entries of records.values()) for (const e of entries) anchors.set(e.address, e.id);
  const hasCategories = tree.root.children.size > 0 || tree.root.rest > 0;
  return {
    header: renderHeader(plan, facts, (address) => anchors.get(address)),
    main: [hasCategories ? `<section class="kind" id="kind-categories"><h2>Categories</h2>${renderTree(tree)}</section>` : "", renderLists(records)].join(""),
  };
}

/** The find bar: the filter (press /), expand and collapse, the legend of marks. */
export function findBar(): string {
  const legend = OPS.map((op) => `<span><span class="op op-${op}">${OP_SYMBOL[op]}</span> ${OP_WORD[op]}</span>`).join("");
  return [
    `<nav class="bar" aria-label="Find"><input id="q" type="search" placeholder="Filter by name (press /)" aria-label="Filter the tree and lists ` +
      `by name" autocomplete="off">`,
    `<span id="matches" role="status"></span><button id="expand" type="button">Expand all</button><button id="collapse" type="button">Collapse all</button>`,
    `<span class="legend" aria-label="Legend">${legend}</span></nav>`,
  ].join("");
}

/** The self-contained page around a body: inline style and script, a policy that lets nothing load. */
export function pageDocument(title: string, top: string, main: string, extra: { style?: string; script?: string } = {}): string {
  return [
    `<!doctype html>\n<html lang="en"><head><meta charset="utf-8">`,
    `<meta name="viewport" content="width=device-width, initial-scale=1">`,
    `<meta http-equiv="Content-Security-Policy" content="default-src 'none'; style-src 'unsafe-inline'; script-src 'unsafe-inline'; img-src data:">`,
    `<title>${esc(title)}</title><style>${PAGE_STYLE}${extra.style ?? ""}</style></head><body>`,
    top,
    `<main>`,
    main,
    `</main><script>${PAGE_SCRIPT}${extra.script ?? ""}</script></body></html>\n`,
  ].join("");
}
