/**
 * The top of the page: which tenant, when and from which commit; counts per
 * operation and kind; and what a reviewer must see first: destructive actions
 * (and deletes the plan will not apply), then the plan's warnings.
 */
import { KINDS, type Kind } from "../../model/catalogue.js";
import { categoryPath, parseAddress, rootAddress } from "../../plan/address.js";
import { OPS, type Action, type Plan } from "../../plan/types.js";
import { KIND_TITLES, coverageLines, summaryLine, unmanagedCounts, type PageFacts } from "../common.js";
import { esc } from "./escape.js";
import { opBadge } from "./marks.js";

/** Facts the caller knows and the plan does not; the renderer never looks them up itself. */
export function renderHeader(plan: Plan, facts: PageFacts, anchorOf: (address: string) => string | undefined): string {
  const dl = [
    ["tenant", plan.tenant],
    ["what", facts.source ?? "plan"],
    ["made", facts.generatedAt],
    ["commit", facts.commit],
    ["plan format", plan.format_version],
  ]
    .filter((x): x is [string, string] => typeof x[1] === "string" && x[1] !== "")
    .map(
      ([k, v]) =>
        `<div><dt>${esc(k)}</dt><dd${k === "commit" ? ' class="mono"' : ""}>${esc(v)}${k === "commit" ? uncommitted(facts.uncommitted) : ""}</dd></div>`,
    )
    .join("");
  return [
    `<header><h1>pimctl ${esc(facts.source ?? "plan")} for <span class="tenant">${esc(plan.tenant)}</span></h1><dl class="facts">${dl}</dl>`,
    `<p class="summary" id="summary">${esc(summaryLine(plan))}</p>`,
    countsTable(plan.actions),
    attention(plan, anchorOf),
    `</header>`,
  ].join("");
}

/** Beside the commit: the page shows more than that commit when the working tree had changes. */
function uncommitted(paths: readonly string[] | undefined): string {
  if (!paths?.length) return "";
  const n = paths.length;
  const title = paths.slice(0, 20).join("\n") + (n > 20 ? `\n… and ${n - 20} more` : "");
  return ` <span class="dirty" title="${esc(title)}">+ uncommitted changes in ${n} ${n === 1 ? "file" : "files"}</span>`;
}

function countsTable(actions: readonly Action[]): string {
  const counts = new Map<Kind, Map<string, number>>();
  for (const a of actions) {
    const row = counts.get(a.kind) ?? new Map<string, number>();
    row.set(a.op, (row.get(a.op) ?? 0) + 1);
    counts.set(a.kind, row);
  }
  if (!counts.size) return `<p class="nochanges">No changes: the tenant matches the manifests.</p>`;
  const ops = OPS.filter((op) => actions.some((a) => a.op === op));
  const head = `<tr><th>kind</th>${ops.map((op) => `<th>${opBadge(op)} ${esc(op === "unsupported" ? "not possible" : op)}</th>`).join("")}<th>total</th></tr>`;
  const rows = KINDS.filter((k) => counts.has(k))
    .map((k) => {
      const row = counts.get(k)!;
      const total = [...row.values()].reduce((x, y) => x + y, 0);
      return (
        `<tr data-kind="${k}"><th scope="row">${esc(KIND_TITLES[k])}</th>` +
        `${ops.map((op) => `<td data-op="${op}">${row.get(op) ?? ""}</td>`).join("")}<td>${total}</td></tr>`
      );
    })
    .join("");
  const totals = ops.map((op) => `<td data-op="${op}">${actions.filter((a) => a.op === op).length}</td>`).join("");
  return (
    `<table class="counts" aria-label="Actions per kind and operation"><thead>${head}</thead><tbody>${rows}</tbody><tfoot><tr><th ` +
    `scope="row">all</th>${totals}<td>${actions.length}</td></tr></tfoot></table>`
  );
}

function attention(plan: Plan, anchorOf: (address: string) => string | undefined): string {
  const parts: string[] = [];
  const below = deletedBelow(plan.actions);
  const link = (address: string) => {
    const anchor = anchorOf(rootAddress(address));
    return anchor ? `<a href="#${anchor}">${esc(address)}</a>` : esc(address);
  };
  const item = (a: Action) => {
    const n = below.get(a.address);
    const notes = [...(a.notes ?? []), ...(n ? [`with ${n} deleted ${n === 1 ? "category" : "categories"} below`] : [])].map(esc).join("; ");
    return `<li>${opBadge(a.op)}${a.flags.blocked ? ' <span class="tag blocked">blocked</span>' : ""} ${link(a.address)}${notes ? `: ${notes}` : ""}</li>`;
  };
  // A pruned subtree is one entry (its top), not one per category in it.
  const shown = plan.actions.filter((a) => !insideDeletedSubtree(a, below));
  // First what apply will refuse: deletes the plan was made without permission for.
  const blocked = shown.filter((a) => a.flags.blocked);
  const blockedTotal = plan.actions.filter((a) => a.flags.blocked).length;
  if (blocked.length) {
    parts.push(
      `<section class="attention blocked" id="blocked"><h2><span class="mark" aria-hidden="true">✕</span> ${blockedTotal} blocked ` +
        `${blockedTotal === 1 ? "delete" : "deletes"}: apply refuses this plan</h2><p>The plan was made without <code>--allow-delete</code>. Make ` +
        `it again with <code>pimctl plan --allow-delete</code> to apply them, or leave them out (prune off for the kind, ` +
        `<code>--exclude</code>).</p>${capped(blocked, item)}</section>`,
    );
  }
  const destructive = shown.filter((a) => a.flags.destructive);
  const total = plan.actions.filter((a) => a.flags.destructive).length;
  if (destructive.length) {
    parts.push(
      `<section class="attention destructive" id="destructive"><h2>⚠ ${total} destructive ${total === 1 ? "change" : "changes"}: data hangs on ` +
        `these records</h2>${capped(destructive, item)}</section>`,
    );
  }
  const deletes = shown.filter((a) => a.op === "delete" && !a.flags.destructive && !a.flags.blocked);
  if (deletes.length) {
    const permission = plan.deletes_allowed === true ? " (permitted: the plan was made with --allow-delete)" : "";
    parts.push(
      `<section class="attention deletes" id="deletes"><h2>${deletes.length} ` +
        `${deletes.length === 1 ? "delete" : "deletes"}${permission}</h2>${capped(deletes, item)}</section>`,
    );
  }
  // A delete plus a create that look like one record moved or renamed, with the line that keeps its id.
  const hints = plan.hints ?? [];
  if (hints.length) {
    const li = (h: NonNullable<Plan["hints"]>[number]) =>
      `<li>${link(h.delete)} → ${link(h.create)}: ${esc(h.reason)}. Add to the created record: <code>${esc(h.add)}</code></li>`;
    parts.push(
      `<section class="attention hints" id="hints"><h2>${hints.length} ${hints.length === 1 ? "delete looks" : "deletes look"} like a move or ` +
        `rename</h2><p>Without a hint the record is deleted and a new one created (its id, and what hangs on it, is ` +
        `lost).</p><ul>${hints.slice(0, LIST_CAP).map(li).join("")}` +
        `${hints.length > LIST_CAP ? `<li class="more">and ${hints.length - LIST_CAP} more</li>` : ""}</ul></section>`,
    );
  }
  const coverage = coverageLines(plan);
  if (coverage.length)
    parts.push(`<section class="translations" id="translations"><h2>Translations</h2><ul>${coverage.map((l) => `<li>${esc(l)}</li>`).join("")}</ul></section>`);
  if (plan.warnings.length)
    parts.push(`<section class="attention warnings"><h2>Warnings</h2><ul>${plan.warnings.map((w) => `<li>${esc(w)}</li>`).join("")}</ul></section>`);
  if (plan.unmanaged.length) parts.push(`<p class="unmanaged-line">Unmanaged, left alone (pruning off): ${esc(unmanagedCounts(plan))}.</p>`);
  return parts.join("");
}

/** Long lists stop after LIST_CAP entries: the rest are in the tree and lists below. */
const LIST_CAP = 50;

function capped(actions: readonly Action[], item: (a: Action) => string): string {
  const more = actions.length - LIST_CAP;
  return (
    `<ul>${actions.slice(0, LIST_CAP).map(item).join("")}` +
    `${more > 0 ? `<li class="more">and ${more} more, marked in the tree and lists below</li>` : ""}</ul>`
  );
}

/** Category paths of category deletes (the category itself, not a sub-record). */
function deletedCategoryPath(a: Action): string[] | undefined {
  if (a.kind !== "categories" || a.op !== "delete") return undefined;
  const parsed = parseAddress(a.address);
  return parsed && parsed.segments.length === 1 ? categoryPath(parsed) : undefined;
}

/**
 * For each deleted category at the top of a deleted subtree: how many deleted
 * categories are below it. Categories inside such a subtree map to -1.
 */
function deletedBelow(actions: readonly Action[]): Map<string, number> {
  const deleted = new Map<string, string>(); // JSON path -> address
  for (const a of actions) {
    const path = deletedCategoryPath(a);
    if (path) deleted.set(JSON.stringify(path), a.address);
  }
  const out = new Map<string, number>();
  for (const [key, address] of deleted) {
    const path = JSON.parse(key) as string[];
    let top: string | undefined;
    for (let d = path.length - 1; d >= 1; d--) {
      const ancestor = deleted.get(JSON.stringify(path.slice(0, d)));
      if (ancestor) top = ancestor;
    }
    if (top) {
      out.set(address, -1);
      out.set(top, Math.max(0, out.get(top) ?? 0) + 1);
    } else if (!out.has(address)) out.set(address, 0);
  }
  return out;
}

function insideDeletedSubtree(a: Action, below: Map<string, number>): boolean {
  return below.get(a.address) === -1;
}
