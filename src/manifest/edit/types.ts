/** What import asks of the manifest editor (texts.ts, and its fast path texts-fast.ts), and what an edit returns. */
import type { TextSplice } from "../yaml-text.js";

export interface TextEdit {
  /** Keys from the entry's map to the text, e.g. ["versions", "Spanish", "name"]. */
  keys: string[];
  value: string;
}

export interface EntryEdits {
  /** Offset of the entry's map in the file (where its first key, or its "{", starts). */
  offset: number;
  /** For messages: where the entry is. */
  where: string;
  edits: TextEdit[];
}

export interface EditedText {
  text: string;
  /** The changes made, at offsets of the original text (what a diff of the file shows). */
  splices: TextSplice[];
}
