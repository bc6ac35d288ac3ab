/**
 * Escaping for everything the page says: names are arbitrary text (quotes,
 * `<script>`, `].`, unicode), so every string goes through `esc` on its way
 * into text or an attribute value. The page embeds no data inside <script>.
 */
const ENTITIES: Record<string, string> = { "&": "&amp;", "<": "&lt;", ">": "&gt;", '"': "&quot;", "'": "&#39;" };

export function esc(text: string): string {
  return text.replace(/[&<>"']/g, (ch) => ENTITIES[ch]!);
}

/** Singular or plural: "1 category", "3 categories". */
export function count(n: number, one: string, many: string): string {
  return `${n.toLocaleString("en-US")} ${n === 1 ? one : many}`;
}
