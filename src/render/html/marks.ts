/**
 * How the page marks an operation: a symbol and a word for readers without
 * colour (and for print), a class that CSS colours.
 */
import type { Op } from "../../plan/types.js";

export const OP_SYMBOL: Record<Op, string> = {
  create: "+",
  update: "~",
  rename: "✎",
  move: "→",
  delete: "−",
  unsupported: "!",
};

export const OP_WORD: Record<Op, string> = {
  create: "created",
  update: "updated",
  rename: "renamed",
  move: "moved",
  delete: "deleted",
  unsupported: "not possible (API v1)",
};

/** The badge in front of a record: symbol, colour class, and a title for screen readers and hover. */
export function opBadge(op: Op): string {
  return `<span class="op op-${op}" title="${OP_WORD[op]}" aria-label="${OP_WORD[op]}">${OP_SYMBOL[op]}</span>`;
}
