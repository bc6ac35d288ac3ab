/**
 * One record's changes: its own fields before and after, language versions
 * side by side (one column per version), long text as a word-level diff, and
 * sub-records (type values of an attribute, web ids, assets, ...) as a list
 * with their own changes.
 */
import { diffWords } from "diff";
import { parseAddress, printAddress, type Address } from "../../plan/address.js";
import type { Action, FieldChange, Json } from "../../plan/types.js";
import { actionNotes, shownChanges } from "../common.js";
import { esc } from "./escape.js";
import { opBadge } from "./marks.js";

/** Text at least this long (or marked long_text) is shown as a word diff. */
const LONG_TEXT = 80;

/** Actions grouped by the record they belong to (address without a trailing version), in plan order. */
export function groupBySubRecord(actions: readonly Action[]): Map<string, Action[]> {
  const groups = new Map<string, Action[]>();
  for (const a of actions) {
    const key = subRecordKey(a.address);
    const g = groups.get(key);
    if (g) g.push(a);
    else groups.set(key, [a]);
  }
  return groups;
}

function subRecordKey(address: string): string {
  const parsed = parseAddress(address);
  if (!parsed) return address;
  const segs = parsed.segments;
  if (segs.length > 1 && segs[segs.length - 1]!.type === "version") {
    return printAddress({ segments: segs.slice(0, -1) as Address["segments"] });
  }
  return address;
}

/**
 * Everything under a record's head: its own changes, then its sub-records as a list.
 * `shownByHead` names fields the head already says (a move's parent, a rename's name).
 */
export function recordBody(rootAddress: string, actions: readonly Action[], shownByHead: readonly string[] = []): string {
  const groups = groupBySubRecord(actions);
  const own = (groups.get(rootAddress) ?? []).map((a) => (shownByHead.length ? { ...a, changes: a.changes.filter((c) => !shownByHead.includes(c.field)) } : a));
  const parts: string[] = [];
  // The record's head already says where it was before; sub-records say it in their notes.
  if (own.length) parts.push(changeBlock(own, false));
  const subs = [...groups].filter(([key]) => key !== rootAddress);
  if (subs.length) {
    parts.push(
      `<ul class="subs">${subs
        .map(
          ([key, group]) =>
            `<li class="sub">${opBadge(headOp(key, group))} <span class="sublabel">${esc(subLabel(key))}</span>${changeBlock(group, true)}</li>`,
        )
        .join("")}</ul>`,
    );
  }
  return parts.join("");
}

/** The op that describes a sub-record: its own action's, else the first version action's. */
export function headOp(key: string, group: readonly Action[]): Action["op"] {
  return (group.find((a) => a.address === key) ?? group[0]!).op;
}

/** `value "Navy"`, `web_id "Webshop"`: the sub-record's last segment, readable. */
function subLabel(key: string): string {
  const parsed = parseAddress(key);
  if (!parsed) return key;
  return parsed.segments
    .slice(1)
    .map((s) => `${s.type.replace(/_/g, " ")} “${s.key}”`)
    .join(" › ");
}

/** Notes, then a table of fields; one column per language version when there are versions. */
function changeBlock(group: readonly Action[], sayPrevious: boolean): string {
  const notes = group.flatMap((a) => (sayPrevious ? actionNotes(a) : (a.notes ?? [])));
  const columns = group.map((a) => ({ label: versionOf(a.address) ?? "master", action: a }));
  const fields = [...new Set(group.flatMap((a) => shownChanges(a).map((c) => c.field)))];
  const noteHtml = notes.length ? `<ul class="notes">${notes.map((n) => `<li>${esc(n)}</li>`).join("")}</ul>` : "";
  if (!fields.length || group.every((a) => a.op === "delete")) return noteHtml;
  if (columns.length === 1 && columns[0]!.label === "master") {
    const a = columns[0]!.action;
    if (a.op === "create") {
      const rows = shownChanges(a)
        .map((c) => `<tr><th scope="row">${esc(c.field)}</th><td class="after">${valueHtml(c.after)}</td></tr>`)
        .join("");
      return `${noteHtml}<table class="fields"><thead><tr><th>field</th><th>value</th></tr></thead><tbody>${rows}</tbody></table>`;
    }
    const cells = (c: FieldChange) => (a.op === "unsupported" ? `<td colspan="2">${unappliedInline(c)}</td>` : pairCells(c));
    const rows = a.changes.map((c) => `<tr><th scope="row">${esc(c.field)}</th>${cells(c)}</tr>`).join("");
    return `${noteHtml}<table class="fields"><thead><tr><th>field</th><th>before</th><th>after</th></tr></thead><tbody>${rows}</tbody></table>`;
  }
  const head = `<tr><th>field</th>${columns.map((c) => `<th>${esc(c.label)} ${opBadge(c.action.op)}</th>`).join("")}</tr>`;
  const rows = fields
    .map((f) => {
      const cells = columns.map(({ action }) => {
        const c = shownChanges(action).find((x) => x.field === f);
        return `<td>${c ? (action.op === "unsupported" ? unappliedInline(c) : changeInline(c)) : ""}</td>`;
      });
      return `<tr><th scope="row">${esc(f)}</th>${cells.join("")}</tr>`;
    })
    .join("");
  return `${noteHtml}<table class="fields versions"><thead>${head}</thead><tbody>${rows}</tbody></table>`;
}

function versionOf(address: string): string | undefined {
  const segs = parseAddress(address)?.segments;
  const last = segs?.[segs.length - 1];
  return segs && segs.length > 1 && last?.type === "version" ? last.key : undefined;
}

function isLong(c: FieldChange): boolean {
  const long = (v: Json | undefined) => typeof v === "string" && (v.length >= LONG_TEXT || v.includes("\n"));
  return Boolean(c.long_text) || long(c.before) || long(c.after);
}

/** Before and after as two cells, or one wide cell with a word diff for long text. */
function pairCells(c: FieldChange): string {
  if (isLong(c) && !c.before_unknown && c.before !== undefined && c.after !== undefined) {
    return `<td colspan="2" class="wdiff">${wordDiff(c)}</td>`;
  }
  return `<td class="before">${beforeHtml(c)}</td><td class="after">${valueHtml(c.after)}</td>`;
}

/** One cell: a word diff, or before → after. */
function changeInline(c: FieldChange): string {
  if (isLong(c) && !c.before_unknown && c.before !== undefined && c.after !== undefined) return `<div class="wdiff">${wordDiff(c)}</div>`;
  return `<span class="before">${beforeHtml(c)}</span> <span class="arrow" aria-label="becomes">→</span> <span class="after">${valueHtml(c.after)}</span>`;
}

/**
 * What API v1 cannot write (an unsupported action's field): the tenant's value and the manifests', each
 * labelled, with no arrow, word diff or colours of a change: it is shown, never applied.
 */
function unappliedInline(c: FieldChange): string {
  return (
    `<div class="unapplied"><span class="side">in the tenant</span> ${beforeHtml(c)} ` +
    `<span class="side">in the manifests, not applied</span> ${valueHtml(c.after)}</div>`
  );
}

function beforeHtml(c: FieldChange): string {
  return c.before_unknown ? `<span class="none">(unknown: not readable through API v1)</span>` : valueHtml(c.before);
}

export function valueHtml(v: Json | undefined): string {
  if (v === undefined) return `<span class="none">(none)</span>`;
  if (v === "") return `<span class="none">(empty)</span>`;
  if (typeof v === "string") return `<span class="val">${esc(v)}</span>`;
  return `<code>${esc(JSON.stringify(v))}</code>`;
}

/** Word-level diff: removed words struck through, added words underlined (both also marked for print). */
function wordDiff(c: FieldChange): string {
  const text = (v: Json | undefined) => (typeof v === "string" ? v : v === undefined ? "" : JSON.stringify(v));
  return diffWords(text(c.before), text(c.after))
    .map((part) => (part.added ? `<ins>${esc(part.value)}</ins>` : part.removed ? `<del>${esc(part.value)}</del>` : esc(part.value)))
    .join("");
}
