/**
 * The category tree as nested lists (ARIA tree): changed nodes and their
 * ancestors open, a node whose only content is unchanged records closed with
 * a count; a move drawn at both places with links between them; a rename with
 * its old name; each changed category's fields under its row.
 */
import { rootAddress } from "../../plan/address.js";
import { count, esc } from "./escape.js";
import { OP_WORD, opBadge } from "./marks.js";
import { recordBody } from "./record.js";
import { nodeOp, sortedChildren, type CategoryTree, type TreeNode } from "./tree-model.js";

export function renderTree(tree: CategoryTree): string {
  const top = sortedChildren(tree.root);
  if (!top.length && !tree.root.rest) return `<p class="empty">No category changes.</p>`;
  const items = top.map((n) => renderNode(n, 1)).join("") + restItem(tree.root);
  return `<ul class="tree" role="tree" aria-label="Category tree">${items}</ul>`;
}

function renderNode(node: TreeNode, level: number): string {
  const op = nodeOp(node);
  const children = sortedChildren(node);
  const hasGroup = children.length > 0 || node.rest > 0;
  // Open when something below changed; closed when the group holds only unchanged records.
  const open = children.length > 0;
  const classes = ["node", op ? `st-${op}` : "ctx", node.movedTo ? "ghost" : "", node.unmanaged ? "unmanaged" : ""].filter(Boolean).join(" ");
  const attrs = [
    `id="${node.id}"`,
    `class="${classes}"`,
    `role="treeitem"`,
    `aria-level="${level}"`,
    hasGroup ? `aria-expanded="${open}"` : "",
    `data-name="${esc(node.name.toLowerCase())}"`,
  ].filter(Boolean);
  const row = [
    hasGroup ? `<span class="tw" aria-hidden="true"></span>` : `<span class="tw leaf" aria-hidden="true"></span>`,
    op ? opBadge(op) : `<span class="op op-none" aria-hidden="true">·</span>`,
    ` <span class="n">${esc(node.name)}</span>`,
    node.previousName !== undefined ? ` <span class="was">renamed from “${esc(node.previousName)}”</span>` : "",
    node.movedFrom ? ` <a class="mv" href="#${node.movedFrom.id}">moved from ${esc(node.movedFrom.path.join(" › "))}</a>` : "",
    node.movedTo ? ` <a class="mv" href="#${node.movedTo.id}">moved to ${esc(node.movedTo.path.join(" › "))}</a>` : "",
    node.own?.flags.destructive ? ` <span class="flag">destructive</span>` : "",
    node.unmanaged ? ` <span class="tag">unmanaged</span>` : "",
    !node.actions.length && !node.movedTo && node.changes ? ` <span class="cnt">${count(node.changes, "change", "changes")} below</span>` : "",
    op ? ` <span class="sr">${OP_WORD[op]}</span>` : "",
  ].join("");
  const body = node.actions.length && node.own?.op !== "delete" ? recordBody(rootAddress(node.actions[0]!.address), node.actions, shownByRow(node)) : "";
  const detail = body ? `<div class="detail">${body}</div>` : deleteNotes(node);
  const group = hasGroup ? `<ul role="group">${children.map((c) => renderNode(c, level + 1)).join("")}${restItem(node)}</ul>` : "";
  return `<li ${attrs.join(" ")}><div class="row">${row}</div>${detail}${group}</li>`;
}

/** Fields the row already says: where a moved category came from, a renamed one's old name. */
function shownByRow(node: TreeNode): string[] {
  return [...(node.movedFrom ? ["parent"] : []), ...(node.previousName !== undefined || node.movedFrom ? ["name"] : [])];
}

function deleteNotes(node: TreeNode): string {
  const notes = node.own?.op === "delete" ? (node.own.notes ?? []) : [];
  return notes.length ? `<div class="detail"><ul class="notes">${notes.map((n) => `<li>${esc(n)}</li>`).join("")}</ul></div>` : "";
}

/** Unchanged records below a node, not drawn: one line with their count. */
function restItem(node: TreeNode): string {
  if (!node.rest) return "";
  const subtrees = node.restSubtrees > 1 ? ` in ${count(node.restSubtrees, "subtree", "subtrees")}` : "";
  return `<li class="rest" role="none">${count(node.rest, "unchanged category", "unchanged categories")}${subtrees}, not shown</li>`;
}
