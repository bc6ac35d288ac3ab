/** Shared pieces of the renderers: kind titles, op markers, value formatting, text diffs. */
import { Chalk, type ChalkInstance } from "chalk";
import { structuredPatch } from "diff";
import { plural } from "../plural.js";
import { KINDS, parsePathKey, type Kind } from "../model/catalogue.js";
import { addressKind, lastKey } from "../plan/address.js";
import type { Action, FieldChange, Json, Op, Plan, PreviousAddress } from "../plan/types.js";
import { ALLOW_DELETE_FLAG } from "../plan/delete-permission.js";
import { escapeControls } from "../base/controls.js";

/** What the HTML review page says about where a plan comes from (the CLI fills it in). */
export interface PageFacts {
  /** When the plan was made (ISO 8601). */
  generatedAt?: string;
  /** The commit the manifests come from (GITHUB_SHA, CI_COMMIT_SHA, git rev-parse HEAD). */
  commit?: string;
  /** Paths with uncommitted changes in the working tree (git status): the plan is not only the commit. */
  uncommitted?: string[];
  /** What was compared: "plan" or "diff from staging to prod". */
  source?: string;
}

export interface RenderOptions {
  /** Colour on (terminal, NO_COLOR unset) or off. Renderers never look at the environment. */
  color: boolean;
  /** One line per action, no field details. */
  compact?: boolean;
  /** Counts per kind and the lines a reviewer must see (destructive, blocked, hints) only: no line per action. */
  summary?: boolean;
  /** List unmanaged records one by one instead of counting them. */
  showUnmanaged?: boolean;
  /** html: facts the plan does not hold (when, which commit), passed in by the CLI. */
  page?: PageFacts;
}

export const KIND_TITLES: Record<Kind, string> = {
  display_groups: "Display groups",
  attributes: "Attributes",
  attribute_sets: "Attribute sets",
  blocks: "Blocks",
  brands: "Brands",
  categories: "Categories",
};

export const MARKERS: Record<Op, string> = {
  create: "+",
  update: "~",
  rename: "~",
  move: "~",
  delete: "-",
  unsupported: "!",
};

export function palette(color: boolean): ChalkInstance {
  return new Chalk({ level: color ? 1 : 0 });
}

export function opColour(c: ChalkInstance, op: Op): (s: string) => string {
  switch (op) {
    case "create":
      return c.green;
    case "delete":
      return c.red;
    case "unsupported":
      return c.magenta;
    default:
      return c.yellow;
  }
}

/** Actions grouped by kind, kinds in documented order, actions in plan order. */
export function groupByKind(actions: readonly Action[]): Array<[Kind, Action[]]> {
  const groups = new Map<Kind, Action[]>();
  for (const a of actions) {
    const g = groups.get(a.kind);
    if (g) g.push(a);
    else groups.set(a.kind, [a]);
  }
  return KINDS.filter((k) => groups.has(k)).map((k) => [k, groups.get(k)!]);
}

/** What renderers print under an action's head: where it was before, then its notes (escaped: they quote names). */
export function actionNotes(a: Action): string[] {
  return [...(a.previous ? [describePrevious(a.previous)] : []), ...(a.notes ?? [])].map((n) => escapeControls(n));
}

function describePrevious(p: PreviousAddress): string {
  const key = lastKey(p.address) ?? p.address;
  if (p.via === "previous_paths") return `moved from "${key}" (previous_paths)`;
  if (p.via === "ledger") return `renamed back from "${key}" (renamed in the tenant; the ledger knows its id)`;
  const name = addressKind(p.address) === "category" && p.via === "previous_names" ? (parsePathKey(key).at(-1) ?? key) : key;
  return `renamed from "${name}" (${p.via})`;
}

/**
 * A field's name as renderers print it: an unsupported action's fields (what API v1 cannot write) say they are
 * not applied, and a long text's diff which side is which, so nothing of it reads as a change that will be made.
 */
export function fieldName(a: Pick<Action, "op">, c: Pick<FieldChange, "field" | "long_text">): string {
  const name = escapeControls(c.field);
  if (a.op !== "unsupported") return name;
  return `${name} (not applied${c.long_text ? ": - in the tenant, + in the manifests" : ""})`;
}

/** A value for people, JSON-quoted, its control characters escaped (src/base/controls.ts). */
export function formatValue(v: Json | undefined): string {
  if (v === undefined) return "(none)";
  if (typeof v === "string") return escapeControls(JSON.stringify(truncate(v, 100)));
  if (Array.isArray(v)) return `[${v.map((x) => formatValue(x)).join(", ")}]`;
  return escapeControls(JSON.stringify(v));
}

export function truncate(s: string, max: number): string {
  return s.length > max ? `${s.slice(0, max - 1)}…` : s;
}

/** Text in a markdown table's cell: a pipe escaped, a line break a space, control characters escaped. */
export const tableCell = (s: string): string => escapeControls(s.replace(/\|/g, "\\|").replace(/\n/g, " "));

export function beforeText(c: FieldChange): string {
  return c.before_unknown ? "(unknown)" : formatValue(c.before);
}

/** Unified diff lines of a long text change (no file headers), each line's control characters escaped. */
export function textDiffLines(c: FieldChange): string[] {
  const before = typeof c.before === "string" ? c.before : "";
  const after = typeof c.after === "string" ? c.after : "";
  const patch = structuredPatch("before", "after", ensureNl(before), ensureNl(after), undefined, undefined, { context: 2 });
  const lines: string[] = [];
  for (const h of patch.hunks) {
    lines.push(`@@ -${h.oldStart},${h.oldLines} +${h.newStart},${h.newLines} @@`);
    for (const l of h.lines) if (!l.startsWith("\\")) lines.push(escapeControls(l));
  }
  return lines;
}

function ensureNl(s: string): string {
  return s.endsWith("\n") || s === "" ? s : `${s}\n`;
}

/** What the plan does to each language version's translations: "German: 14 texts added, 3 now outdated, 2 missing". */
export function coverageLines(plan: Plan): string[] {
  return (plan.translations ?? []).map((t) => {
    const parts = [`${plural(t.added, "text")} added`, ...(t.updated ? [`${t.updated} updated`] : []), `${t.outdated} now outdated`, `${t.missing} missing`];
    return `${t.version}: ${parts.join(", ")}`;
  });
}

export function summaryLine(plan: Plan): string {
  const s = plan.summary;
  const parts: string[] = [];
  const add = (n: number, label: string) => {
    if (n) parts.push(`${n} to ${label}`);
  };
  add(s.create, "create");
  add(s.update, "update");
  add(s.rename, "rename");
  add(s.move, "move");
  add(s.delete, "delete");
  const tail: string[] = [];
  if (s.destructive) tail.push(`${s.destructive} destructive`);
  const blocked = plan.actions.filter((a) => a.flags.blocked).length;
  if (blocked) tail.push(`${blocked} blocked (needs ${ALLOW_DELETE_FLAG})`);
  if (plan.hints?.length) tail.push(`${plan.hints.length} possible ${plan.hints.length === 1 ? "move" : "moves"} without a hint`);
  if (s.unsupported) tail.push(`${s.unsupported} not possible through API v1`);
  if (s.unmanaged) tail.push(`${s.unmanaged} unmanaged`);
  const head = parts.length ? `Plan: ${parts.join(", ")}.` : "No changes. The tenant matches the manifests.";
  return tail.length ? `${head} (${tail.join("; ")})` : head;
}

/** Counts of unmanaged records per kind, for a one-line mention. */
export function unmanagedCounts(plan: Plan): string {
  const counts = new Map<Kind, number>();
  for (const u of plan.unmanaged) counts.set(u.kind, (counts.get(u.kind) ?? 0) + 1);
  return KINDS.filter((k) => counts.has(k))
    .map((k) => `${counts.get(k)} ${KIND_TITLES[k].toLowerCase()}`)
    .join(", ");
}

const IDENTITY_FIELDS = new Set(["name", "value", "slug", "attribute", "attribute_set"]);

/**
 * The fields worth showing: on a create, the name and parent that the address
 * already says are left out, so large plans have no walls of repeated fields.
 */
export function shownChanges(a: Action): FieldChange[] {
  if (a.op !== "create") return a.changes;
  const key = a.address.slice(a.address.lastIndexOf("[") + 1, -1);
  let last: string | undefined;
  try {
    last = (JSON.parse(key) as string).split("/").pop();
  } catch {
    last = undefined;
  }
  return a.changes.filter((c) => !(c.field === "parent" || (IDENTITY_FIELDS.has(c.field) && c.after === last)));
}

/** A create's fields on one line, when they fit. */
export function inlineFields(changes: FieldChange[], max = 100): string | undefined {
  if (changes.some((c) => c.long_text)) return undefined;
  const text = changes.map((c) => `${escapeControls(c.field)}: ${formatValue(c.after)}`).join(", ");
  return text.length <= max ? text : undefined;
}

export function flagLabels(a: Action): string[] {
  const out: string[] = [];
  if (a.flags.destructive) out.push("destructive");
  if (a.flags.write_only) out.push("write-only");
  if (a.flags.blocked) out.push(`blocked: needs plan ${ALLOW_DELETE_FLAG}`);
  return out;
}

/** The deletes a plan holds without permission, for the renderers' callout. */
export function blockedLine(plan: Plan): string | undefined {
  const n = plan.actions.filter((a) => a.flags.blocked).length;
  if (!n) return undefined;
  return (
    `${n === 1 ? "1 delete is" : `${n} deletes are`} blocked: this plan was made without ${ALLOW_DELETE_FLAG}, and apply refuses it as a ` +
    `whole. Make the plan with ${ALLOW_DELETE_FLAG} to permit them, or leave them out (prune off, --exclude).`
  );
}

/** Move hints as lines for people: which delete looks like which create, and the line that keeps the record. */
export function hintLines(plan: Plan): string[] {
  return (plan.hints ?? []).map((h) =>
    escapeControls(`${h.delete} -> ${h.create}: ${h.reason}; to keep the record (and its id), add to ${h.create}: ${h.add}`),
  );
}

/** Rows as aligned columns for a terminal: the first left-aligned, the middle ones (counts) right-aligned, the last as it is. */
export function alignRows(rows: readonly string[][]): string[] {
  const widths = rows[0]!.map((_, i) => Math.max(...rows.map((r) => r[i]!.length)));
  return rows.map((cells) =>
    cells
      .map((cell, i) => (i === 0 ? cell.padEnd(widths[i]!) : i === cells.length - 1 ? cell : cell.padStart(widths[i]!)))
      .join("  ")
      .trimEnd(),
  );
}
