/**
 * The combined review as one self-contained page: the table of tenants, the changes shared by
 * several tenants once, and a tenant switcher that shows one tenant's whole review at a time, as
 * the single-tenant page draws it (its header, category tree and lists: src/render/html/).
 */
import type { FleetPlan, FleetTenant } from "../../plan/fleet.js";
import type { Action } from "../../plan/types.js";
import { groupByKind, palette, type PageFacts, type RenderOptions } from "../common.js";
import { esc } from "../html/escape.js";
import { findBar, pageDocument, planSections } from "../html/index.js";
import { kindLines } from "../text.js";
import { COLUMN_TITLES, COUNT_COLUMNS, fleetSummaryLine, rowCells } from "./common.js";
import { foldFleet, tenantsLabel } from "./fold.js";

const STYLE = `
nav.tenants{display:flex;flex-wrap:wrap;gap:6px;padding:8px 20px;border-bottom:1px solid var(--line)}
nav.tenants button[aria-pressed=true]{font-weight:700;outline:2px solid var(--move)}nav.tenants button.failed{color:var(--delete)}
table.fleet td{text-align:right}table.fleet td.err{text-align:left;color:var(--delete)}
section.shared pre{background:#f6f8fa;padding:6px 10px;overflow:auto;font-size:12px}
section.tenant{border-top:2px solid var(--line);margin-top:12px}
`;

/** Shows the tenant a button (or the address's #fragment) names, hides the others; without script every tenant shows, one after another. */
const SCRIPT = `
(function () {
  var doc = document;
  var buttons = Array.prototype.slice.call(doc.querySelectorAll("nav.tenants button"));
  var sections = Array.prototype.slice.call(doc.querySelectorAll("section.tenant"));
  function show(id) {
    sections.forEach(function (s) { s.hidden = s.id !== id; });
    buttons.forEach(function (b) { b.setAttribute("aria-pressed", String(b.getAttribute("data-show") === id)); });
  }
  buttons.forEach(function (b) {
    var id = b.getAttribute("data-show");
    b.addEventListener("click", function () { show(id); history.replaceState(null, "", "#" + id); });
  });
  // An address #tenant-3 (or an anchor inside it, #tenant-3-c12) shows that tenant: the table's links, a shared link.
  function fromHash(fallback) {
    var wanted = location.hash.slice(1).split("-").slice(0, 2).join("-");
    if (sections.some(function (s) { return s.id === wanted; })) show(wanted);
    else if (fallback) show(sections.length ? sections[0].id : "");
  }
  window.addEventListener("hashchange", function () { fromHash(false); });
  fromHash(true);
})();
`;

export function renderFleetHtml(fleet: FleetPlan, opts: RenderOptions): string {
  const facts: PageFacts = opts.page ?? {};
  const fold = foldFleet(fleet);
  const ids = new Map(fleet.tenants.map((t, i) => [t.tenant, `tenant-${i + 1}`]));
  const top = [
    `<header><h1>pimctl ${esc(facts.source ?? "plan")} for ${fleet.tenants.length} tenants</h1>`,
    factList(facts),
    `<p class="summary">${esc(fleetSummaryLine(fleet))}</p>${table(fleet, ids)}</header>`,
    findBar(),
    `<nav class="tenants" aria-label="Tenants">${fleet.tenants.map((t) => switchButton(t, ids.get(t.tenant)!)).join("")}</nav>`,
  ].join("");
  const shared = fold.shared.map((g) => sharedSection(`Changes ${tenantsLabel(g.tenants, fold.planned, fold.total)}`, g.actions)).join("");
  const tenants = fleet.tenants.map((t) => tenantSection(t, ids.get(t.tenant)!, facts)).join("");
  return pageDocument(`pimctl ${facts.source ?? "plan"}: ${fleet.tenants.length} tenants`, top, shared + tenants, { style: STYLE, script: SCRIPT });
}

/** When and from which commit, as each tenant's header says too. */
function factList(facts: PageFacts): string {
  const items = [
    ["made", facts.generatedAt, ""],
    ["commit", facts.commit, ' class="mono"'],
  ].filter((x): x is [string, string, string] => typeof x[1] === "string" && x[1] !== "");
  return items.length ? `<dl class="facts">${items.map(([k, v, cls]) => `<div><dt>${k}</dt><dd${cls}>${esc(v)}</dd></div>`).join("")}</dl>` : "";
}

function switchButton(t: FleetTenant, id: string): string {
  return `<button type="button" data-show="${id}"${t.plan ? "" : ' class="failed"'}>${esc(t.tenant)}</button>`;
}

function table(fleet: FleetPlan, ids: ReadonlyMap<string, string>): string {
  const head = `<tr><th>tenant</th>${COUNT_COLUMNS.map((k) => `<th>${esc(COLUMN_TITLES[k])}</th>`).join("")}<th>error</th></tr>`;
  const rows = fleet.tenants.map((t) => {
    const { counts, error } = rowCells(t);
    const name = `<th scope="row"><a href="#${ids.get(t.tenant)!}">${esc(t.tenant)}</a></th>`;
    return `<tr>${name}${counts.map((n) => `<td>${n}</td>`).join("")}<td class="err">${esc(error)}</td></tr>`;
  });
  return `<table class="fleet" aria-label="Tenants"><thead>${head}</thead><tbody>${rows.join("")}</tbody></table>`;
}

/** Shared changes as the terminal shows them (no colour), once for all the tenants named. */
function sharedSection(title: string, actions: readonly Action[]): string {
  const c = palette(false);
  const lines = groupByKind(actions).flatMap(([kind, list]) => kindLines(kind, list, { color: false }, c));
  return `<section class="shared"><h2>${esc(title)}</h2><pre>${esc(lines.join("\n").trimEnd())}</pre></section>`;
}

/** One tenant's review as its own page draws it, its ids prefixed so that the tenants' anchors stay apart. */
function tenantSection(t: FleetTenant, id: string, facts: PageFacts): string {
  if (!t.plan) {
    const e = t.error!;
    const details = e.details.length ? `<ul>${e.details.map((d) => `<li>${esc(d)}</li>`).join("")}</ul>` : "";
    return (
      `<section class="tenant" id="${id}"><header><h1>${esc(t.tenant)}: could not be planned</h1>` +
      `<section class="attention destructive"><h2>${esc(e.code)}</h2><p>${esc(e.message)}</p>${details}</section></header></section>`
    );
  }
  const { header, main } = planSections(t.plan, { ...facts, source: facts.source ?? "plan" });
  return `<section class="tenant" id="${id}">${prefixIds(header + main, `${id}-`)}</section>`;
}

/**
 * Every id and in-page link of a tenant's part, prefixed. Safe on the renderer's own output: every
 * text it draws goes through esc(), which writes a quote as &quot;, so ` id="` and ` href="#` occur
 * only in the markup itself.
 */
export function prefixIds(html: string, prefix: string): string {
  return html.replace(/ id="([^"]+)"/g, ` id="${prefix}$1"`).replace(/ href="#([^"]+)"/g, ` href="#${prefix}$1"`);
}
