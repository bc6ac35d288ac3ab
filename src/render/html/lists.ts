/**
 * Every kind but categories as a list of records: one entry per top-level
 * record (an attribute, a brand, ...) holding its own changes and its
 * sub-records' (type values, versions, web ids, assets).
 */
import { KINDS, type Kind } from "../../model/catalogue.js";
import { parseAddress, rootAddress } from "../../plan/address.js";
import type { Action, Op } from "../../plan/types.js";
import { KIND_TITLES } from "../common.js";
import { count, esc } from "./escape.js";
import { OP_WORD, opBadge } from "./marks.js";
import { recordBody } from "./record.js";

export interface RecordEntry {
  kind: Kind;
  address: string;
  name: string;
  actions: Action[];
  id: string;
}

/** Records of the non-category kinds, grouped by kind in documented order; ids r1, r2, ... */
export function collectRecords(actions: readonly Action[]): Map<Kind, RecordEntry[]> {
  const byRoot = new Map<string, RecordEntry>();
  for (const a of actions) {
    if (a.kind === "categories") continue;
    const root = rootAddress(a.address);
    let entry = byRoot.get(root);
    if (!entry) {
      const name = parseAddress(root)?.segments[0].key ?? root;
      byRoot.set(root, (entry = { kind: a.kind, address: root, name, actions: [], id: "" }));
    }
    entry.actions.push(a);
  }
  const out = new Map<Kind, RecordEntry[]>();
  let n = 0;
  for (const kind of KINDS) {
    const entries = [...byRoot.values()].filter((e) => e.kind === kind);
    for (const e of entries) e.id = `r${++n}`;
    if (entries.length) out.set(kind, entries);
  }
  return out;
}

/** The op a record's head shows: its own action's, else "update" (only sub-records change). */
export function recordOp(e: RecordEntry): Op {
  const own = e.actions.find((a) => a.address === e.address);
  if (own) return own.op;
  return e.actions.every((a) => a.op === "unsupported") ? "unsupported" : "update";
}

export function renderLists(records: Map<Kind, RecordEntry[]>): string {
  return [...records]
    .map(([kind, entries]) => {
      const items = entries.map(renderEntry).join("");
      return (
        `<section class="kind" id="kind-${kind}"><h2>${esc(KIND_TITLES[kind])} <span ` +
        `class="cnt">${count(entries.length, "record", "records")}</span></h2><ul class="recs">${items}</ul></section>`
      );
    })
    .join("");
}

function renderEntry(e: RecordEntry): string {
  const op = recordOp(e);
  const own = e.actions.find((a) => a.address === e.address);
  const was = own?.previous
    ? ` <span class="was">renamed from “${esc(parseAddress(own.previous.address)?.segments.at(-1)?.key ?? own.previous.address)}”</span>`
    : "";
  const flag = e.actions.some((a) => a.flags.destructive) ? ` <span class="flag">destructive</span>` : "";
  return (
    `<li class="rec st-${op}" id="${e.id}" data-name="${esc(e.name.toLowerCase())}" tabindex="-1"><div class="row">${opBadge(op)} <span ` +
    `class="n">${esc(e.name)}</span>${was}${flag} <span class="sr">${OP_WORD[op]}</span></div><div ` +
    `class="detail">${recordBody(e.address, e.actions)}</div></li>`
  );
}
