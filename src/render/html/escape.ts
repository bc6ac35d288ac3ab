/**
 * Escaping for everything the page says: names are arbitrary text (quotes,
 * `<script>`, `].`, unicode), so every string goes through `esc` on its way
 * into text or an attribute value. The page embeds no data inside <script>.
 */
import { escapeControls } from "../../base/controls.js";

const ENTITIES: Record<string, string> = { "&": "&amp;", "<": "&lt;", ">": "&gt;", '"': "&quot;", "'": "&#39;" };

/** Entities for markup, and control characters shown as escapes: a bidi override reorders a page as it does a terminal. */
export function esc(text: string): string {
  return escapeControls(text, { keepNewlines: true }).replace(/[&<>"']/g, (ch) => ENTITIES[ch]!);
}

/** Singular or plural: "1 category", "3 categories". */
export function count(n: number, one: string, many: string): string {
  return `${n.toLocaleString("en-US")} ${n === 1 ? one : many}`;
}
