/** The plan as a pull-request comment: summary table, warning block, one collapsible section per kind. */
import type { Action, Plan } from "../plan/types.js";
import type { Kind } from "../model/catalogue.js";
import { collapseUnknown } from "../plan/write-only.js";
import {
  coverageLines,
  fieldName,
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
  shownChanges,
  summaryLine,
  textDiffLines,
  unmanagedCounts,
  type RenderOptions,
} from "./common.js";
import { escapeControls } from "../base/controls.js";

/** Marks the comment so a pipeline can find and update it instead of adding another. */
export const MARKDOWN_MARKER = "<!-- pimctl-plan -->";

/** GitHub refuses comments over 65,536 characters; stay under it with room for the pipeline's own text. */
export const MARKDOWN_LIMIT = 60_000;

/**
 * The full plan when it fits a comment; else one line per action; else counts
 * per kind with a pointer to the saved plan, so a pipeline can always post it.
 */
export function renderMarkdown(plan: Plan, opts: RenderOptions): string {
  if (opts.summary) return renderMarkdownBody(plan, opts, "counts");
  const full = renderMarkdownBody(plan, opts, "full");
  if (full.length <= MARKDOWN_LIMIT) return full;
  const compact = renderMarkdownBody(plan, { ...opts, compact: true }, "compact");
  if (compact.length <= MARKDOWN_LIMIT) return compact;
  return renderMarkdownBody(plan, opts, "counts");
}

function renderMarkdownBody(plan: Plan, opts: RenderOptions, detail: "full" | "compact" | "counts"): string {
  const out: string[] = [MARKDOWN_MARKER, `### pimctl plan for \`${escapeControls(plan.tenant)}\``, ""];
  const s = plan.summary;
  out.push(
    "| create | update | rename | move | delete | not possible (API v1) | destructive |",
    "|---:|---:|---:|---:|---:|---:|---:|",
    `| ${s.create} | ${s.update} | ${s.rename} | ${s.move} | ${s.delete} | ${s.unsupported} | ${s.destructive} |`,
    "",
  );
  out.push(...alertLines(plan, detail));
  if (detail !== "full" && !opts.summary) {
    out.push(
      detail === "compact"
        ? "_The plan is too long for a comment with every field: one line per action below; the saved plan file has the details._"
        : "_The plan is too long for a comment: counts per kind below; the saved plan file (or `pimctl plan` in the pipeline log) has every action._",
      "",
    );
  }
  for (const [kind, actions] of groupByKind(plan.actions)) {
    if (detail === "counts") {
      const n = new Map<string, number>();
      for (const a of actions) n.set(a.op, (n.get(a.op) ?? 0) + 1);
      out.push(`- **${KIND_TITLES[kind]}**: ${[...n].map(([op, k]) => `${k} ${op}`).join(", ")}`);
      continue;
    }
    out.push(...kindSection(kind, actions, opts));
  }
  if (detail === "counts") out.push("");
  out.push(...unmanagedLines(plan, opts, detail));
  const coverage = coverageLines(plan);
  if (coverage.length) out.push("**Translations**", "", ...coverage.map((l) => `- ${escapeControls(l)}`), "");
  for (const w of plan.warnings) out.push(`> [!NOTE]`, `> ${escapeControls(w)}`, "");
  out.push(`**${summaryLine(plan)}**`);
  return `${out.join("\n")}\n`;
}

/** The alerts above the actions: destructive changes, blocked deletes, possible moves or renames. */
function alertLines(plan: Plan, detail: "full" | "compact" | "counts"): string[] {
  const out: string[] = [];
  const destructive = plan.actions.filter((a) => a.flags.destructive);
  if (destructive.length) {
    out.push("> [!WARNING]", `> **${destructive.length} destructive change${destructive.length === 1 ? "" : "s"}**: data hangs on these records.`);
    for (const a of destructive) out.push(`> - \`${escapeControls(a.address)}\`: ${escapeControls((a.notes ?? []).join("; "))}`);
    out.push("");
  }
  const blocked = blockedLine(plan);
  if (blocked) out.push("> [!CAUTION]", `> **Blocked deletes**: ${blocked}`, "");
  const hints = hintLines(plan);
  if (hints.length) {
    out.push(
      "> [!IMPORTANT]",
      `> **${hints.length} possible move${hints.length === 1 ? "" : "s"} or rename${hints.length === 1 ? "" : "s"}**: these deletes look like the ` +
        `creates beside them.`,
    );
    const shown = detail === "full" ? hints : hints.slice(0, 40);
    for (const h of shown) out.push(`> - ${h}`);
    if (shown.length < hints.length) out.push(`> - ... and ${hints.length - shown.length} more (every hint is in the saved plan's \`hints\`)`);
    out.push("");
  }
  return out;
}

/** The unmanaged records, counted (and listed with showUnmanaged). */
function unmanagedLines(plan: Plan, opts: RenderOptions, detail: "full" | "compact" | "counts"): string[] {
  const out: string[] = [];
  if (plan.unmanaged.length) {
    out.push(`_Unmanaged, left alone (pruning off): ${unmanagedCounts(plan)}._`, "");
    if (opts.showUnmanaged && detail !== "counts") {
      const shown = plan.unmanaged.slice(0, 200);
      out.push("<details><summary>Unmanaged records</summary>", "", ...shown.map((u) => `- \`${escapeControls(u.address)}\``));
      if (shown.length < plan.unmanaged.length) out.push(`- ... and ${plan.unmanaged.length - shown.length} more`);
      out.push("", "</details>", "");
    }
  }
  return out;
}

/** One kind's actions, folded in a <details> block: what applies in a diff block, what API v1 cannot do apart. */
export function kindSection(kind: Kind, actions: readonly Action[], opts: RenderOptions, title = `<b>${KIND_TITLES[kind]}</b>`): string[] {
  const out = [`<details><summary>${title} (${actions.length})</summary>`, ""];
  const { listed, collapsed } = collapseUnknown(actions);
  const applied = listed.filter((a) => a.op !== "unsupported");
  if (applied.length || collapsed.length) {
    out.push("```diff");
    for (const a of applied) out.push(...actionLines(a, opts));
    for (const u of collapsed) out.push(`~ ${escapeControls(u.label)} unknown (write-only: written once, then remembered)`);
    out.push("```", "");
  }
  // What API v1 cannot write is never applied: outside the diff block, where + and - would paint it as a change.
  const notPossible = listed.filter((a) => a.op === "unsupported");
  if (notPossible.length) {
    out.push("_Not possible through API v1, not applied (set these in the PIM's UI):_", "", "```text");
    for (const a of notPossible) out.push(...actionLines(a, opts));
    out.push("```", "");
  }
  out.push("</details>", "");
  return out;
}

/**
 * Lines inside a ```diff block: the marker in column 0 gives GitHub's red/green. An unsupported action's
 * lines go in a plain block and keep column 0 free of markers: nothing of it looks applied.
 */
function actionLines(a: Action, opts: RenderOptions): string[] {
  const marker = a.op === "create" ? "+" : a.op === "delete" ? "-" : a.op === "unsupported" ? "!" : MARKERS[a.op];
  const tags = [a.op === "update" || a.op === "create" ? "" : a.op, ...flagLabels(a)].filter(Boolean);
  const head = `${marker} ${escapeControls(a.address)}${tags.length ? `  (${tags.join(", ")})` : ""}`;
  if (opts.compact) return [head];
  const changes = shownChanges(a);
  const inline = a.op === "create" && !actionNotes(a).length ? inlineFields(changes) : undefined;
  if (inline !== undefined) return [inline ? `${head}  ${inline}` : head];
  const lines = [head];
  for (const n of actionNotes(a)) lines.push(`#     ${n}`);
  if (a.op === "delete") return lines;
  for (const c of changes) {
    if (c.long_text && a.op !== "create") {
      lines.push(`      ${fieldName(a, c)}:`);
      const marked = (l: string) => a.op !== "unsupported" && (l.startsWith("+") || l.startsWith("-"));
      for (const l of textDiffLines(c)) lines.push(marked(l) ? `${l[0]}       ${l.slice(1)}` : `        ${l}`);
    } else if (a.op === "create" || (c.before === undefined && !c.before_unknown)) {
      lines.push(`      ${fieldName(a, c)}: ${formatValue(c.after)}`);
    } else {
      lines.push(`      ${fieldName(a, c)}: ${beforeText(c)} -> ${formatValue(c.after)}`);
    }
  }
  return lines;
}
