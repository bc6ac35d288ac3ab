/**
 * How the editor's splices become the edited text (editor.ts and its fast path
 * texts-fast.ts make them, this orders and applies them): every splice at
 * offsets of the original text, none overlapping. Lines inserted at one offset
 * go deeper first: a new key of the last entry of a list and a new item of
 * that list both go where the entry ends, and the entry's key must come before
 * the item that closes the entry; a nested map's new keys before its parent's.
 */
import { applySplices, type TextSplice } from "../yaml-text.js";
import type { EditedText } from "./types.js";

export interface EditSplice extends TextSplice {
  /**
   * For an insert (start = end): where the collection it inserts into starts. Among inserts at
   * one offset the inner collection's (the larger) goes first; -1 for text after everything there.
   */
  order: number;
}

/** The splices in the order they are made, line ends written as the file writes them. */
function ordered(splices: readonly EditSplice[], eol: string): TextSplice[] {
  const isInsert = (s: EditSplice) => s.start === s.end;
  return splices
    .map((s, i) => ({ s, i }))
    .sort((a, b) => a.s.start - b.s.start || (isInsert(a.s) && isInsert(b.s) ? b.s.order - a.s.order : 0) || a.i - b.i)
    .map(({ s }) => ({ start: s.start, end: s.end, text: eol === "\r\n" ? s.text.replace(/\r?\n/g, "\r\n") : s.text }));
}

/** The text with every splice made; the splices as made (what a diff of the file shows). */
export function applyEdits(text: string, splices: readonly EditSplice[]): EditedText {
  const made = ordered(splices, text.includes("\r\n") ? "\r\n" : "\n");
  return { text: applySplices(text, made), splices: made };
}
