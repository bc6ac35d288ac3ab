/** The plan for people at a terminal: grouped by kind, changed fields only, long text as unified diffs. */
import type { ChalkInstance } from "chalk";
import type { Kind } from "../model/catalogue.js";
import { OPS, type Action, type Plan } from "../plan/types.js";
import { collapseUnknown } from "../plan/write-only.js";
import {
  KIND_TITLES,
  actionNotes,
  MARKERS,
  beforeText,
  blockedLine,
  flagLabels,
  hintLines,
  formatValue,
  groupByKind,
  inlineFields,
  opColour,
  shownChanges,
  palette,
  summaryLine,
  coverageLines,
  fieldName,
  textDiffLines,
  unmanagedCounts,
  type RenderOptions,
} from "./common.js";
import { escapeControls } from "../base/controls.js";

export function renderText(plan: Plan, opts: RenderOptions): string {
  const c = palette(opts.color);
  const out: string[] = [];
  out.push(c.bold(`Plan for tenant "${escapeControls(plan.tenant)}"`), "");

  for (const [kind, actions] of groupByKind(plan.actions)) out.push(...kindLines(kind, actions, opts, c));
  if (opts.summary && plan.actions.length) out.push("");

  const destructive = plan.actions.filter((a) => a.flags.destructive);
  if (destructive.length) {
    out.push(c.red.bold(`Destructive changes (${destructive.length}): data hangs on these records`));
    for (const a of destructive) out.push(c.red(`  - ${escapeControls(a.address)}: ${escapeControls((a.notes ?? []).join("; "))}`));
    out.push("");
  }
  const blocked = blockedLine(plan);
  if (blocked) out.push(c.red.bold(`Blocked deletes: ${blocked}`), "");
  const hints = hintLines(plan);
  if (hints.length) {
    out.push(c.yellow.bold(`Possible moves or renames (${hints.length}): these deletes look like the creates beside them`));
    for (const h of hints) out.push(c.yellow(`  ? ${h}`));
    out.push("");
  }
  if (plan.unmanaged.length) {
    if (opts.showUnmanaged) {
      out.push(c.bold("Unmanaged (in the tenant, not in the manifests; pruning is off)"));
      for (const u of plan.unmanaged) out.push(c.dim(`  ? ${escapeControls(u.address)}`));
    } else {
      out.push(c.dim(`Unmanaged, left alone (pruning off): ${unmanagedCounts(plan)}. List them with --show-unmanaged.`));
    }
    out.push("");
  }
  const coverage = coverageLines(plan);
  if (coverage.length) out.push(c.bold("Translations"), ...coverage.map((l) => `  ${escapeControls(l)}`), "");
  for (const w of plan.warnings) out.push(c.yellow(`Warning: ${escapeControls(w)}`));
  if (plan.warnings.length) out.push("");
  out.push(c.bold(summaryLine(plan)));
  return `${out.join("\n")}\n`;
}

/** One kind's title with its counts, then (unless --summary) its actions and a blank line. */
export function kindLines(kind: Kind, actions: readonly Action[], opts: RenderOptions, c: ChalkInstance, indent = ""): string[] {
  const out = [indent + c.bold(`${KIND_TITLES[kind]}`) + c.dim(` (${countOps(actions)})`)];
  if (opts.summary) return out;
  const { listed, collapsed } = collapseUnknown(actions);
  for (const a of listed) out.push(...renderAction(a, opts, c).map((l) => indent + l));
  for (const u of collapsed)
    out.push(
      `${indent}  ${c.yellow("~")} ${escapeControls(u.label)} unknown${c.dim("  (write-only: written once, then remembered; --format json lists each)")}`,
    );
  out.push("");
  return out;
}

function countOps(actions: readonly Action[]): string {
  const n = new Map<string, number>();
  for (const a of actions) n.set(a.op, (n.get(a.op) ?? 0) + 1);
  return OPS.filter((op) => n.has(op))
    .map((op) => `${n.get(op)} ${op}`)
    .join(", ");
}

function renderAction(a: Action, opts: RenderOptions, c: ReturnType<typeof palette>): string[] {
  const colour = opColour(c, a.op);
  const flags = flagLabels(a);
  const tags = [a.op === "update" || a.op === "create" ? "" : a.op, ...flags].filter(Boolean);
  const head = `  ${colour(MARKERS[a.op])} ${escapeControls(a.address)}${tags.length ? c.dim(`  (${tags.join(", ")})`) : ""}`;
  if (opts.compact) return [head];
  const changes = shownChanges(a);
  const inline = a.op === "create" && !actionNotes(a).length ? inlineFields(changes) : undefined;
  if (inline !== undefined) return [inline ? `${head}  ${c.dim(inline)}` : head];
  const lines = [head];
  for (const note of actionNotes(a)) lines.push(c.dim(`      # ${note}`));
  if (a.op === "delete") return lines;
  const width = Math.max(...changes.map((ch) => fieldName(a, ch).length), 0);
  for (const ch of changes) {
    const label = `${fieldName(a, ch)}:`.padEnd(width + 2);
    if (ch.long_text && (typeof ch.before === "string" || a.op !== "create")) {
      lines.push(`      ${label}`.trimEnd());
      // What API v1 cannot write is never applied: no green and red of a change, only the two texts.
      const neutral = a.op === "unsupported";
      for (const l of textDiffLines(ch)) {
        const paint = neutral ? c.dim : l.startsWith("+") ? c.green : l.startsWith("-") ? c.red : l.startsWith("@@") ? c.cyan : c.dim;
        lines.push(`        ${paint(l)}`);
      }
    } else if (a.op === "create" || (ch.before === undefined && !ch.before_unknown)) {
      lines.push(`      ${label}${formatValue(ch.after)}`);
    } else {
      lines.push(`      ${label}${beforeText(ch)} ${c.dim("→")} ${formatValue(ch.after)}`);
    }
  }
  return lines;
}
