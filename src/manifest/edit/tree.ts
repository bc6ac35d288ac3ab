/**
 * Values as YAML text the editor writes without the `yaml` library's serialiser: a tree of keys
 * (what is inserted below a map, what an alias stood for), rendered as block lines or as flow
 * text. A tree's leaves are texts or, where a shared or inherited map is copied, the data the
 * loader read there (numbers, booleans, lists as well). Every text goes through scalarText, so
 * it reads back as exactly itself wherever it lands.
 */
import { scalarText } from "../yaml-text.js";

export type Leaf = string | number | boolean | null | readonly unknown[];
export type Tree = Map<string, Tree | Leaf>;

/** Data (as the loader reads it) as a tree: maps become trees, anything else a leaf. */
export function toTree(data: unknown): Tree | Leaf {
  if (data instanceof Map) return data as Tree;
  if (data && typeof data === "object" && !Array.isArray(data)) return new Map(Object.entries(data as Record<string, unknown>).map(([k, v]) => [k, toTree(v)]));
  return data as Leaf;
}

/** Set `value` at `keys` below `tree`, making the maps on the way (a leaf in the way is replaced). */
export function put(tree: Tree, keys: readonly string[], value: Leaf): void {
  let t = tree;
  for (const k of keys.slice(0, -1)) {
    let next = t.get(k);
    if (!(next instanceof Map)) t.set(k, (next = new Map()));
    t = next;
  }
  t.set(keys[keys.length - 1]!, value);
}

/** A number as YAML reads it back (`.inf`, `.nan`: JavaScript's spellings would read as texts). */
function numberText(n: number): string {
  if (Number.isNaN(n)) return ".nan";
  if (!Number.isFinite(n)) return n > 0 ? ".inf" : "-.inf";
  return String(n);
}

/**
 * A value as YAML flow text: valid anywhere a value may stand, in a block or inside a flow
 * collection. `quoted`: every text double-quoted (what an alias stood for, written out).
 */
export function renderFlow(value: unknown, quoted = false): string {
  if (value instanceof Map) {
    const pairs = [...(value as Tree)].map(([k, v]) => `${scalarText(k, { flow: true })}: ${renderFlow(v, quoted)}`);
    return pairs.length ? `{ ${pairs.join(", ")} }` : "{}";
  }
  if (Array.isArray(value)) return `[${value.map((v) => renderFlow(toTree(v), quoted)).join(", ")}]`;
  if (value && typeof value === "object") return renderFlow(toTree(value), quoted);
  if (typeof value === "string") return scalarText(value, quoted ? { flow: true, like: "QUOTE_DOUBLE" } : { flow: true });
  if (typeof value === "number") return numberText(value);
  return value === undefined ? "null" : String(value);
}

/**
 * What an alias stood for, written where it stood so that the records which aliased it keep
 * exactly what they read: flow text (an alias may stand in a block or in a flow collection), its
 * texts double-quoted, so a copy reads as one.
 */
export const copyText = (value: unknown): string => renderFlow(toTree(value), true);

/** Block lines for a tree at an indentation; nested trees as block maps, or as flow maps when `flowValues`. */
export function renderBlock(tree: Tree, indent: string, flowValues: boolean): string[] {
  return [...tree].flatMap(([k, v]) =>
    typeof v === "string"
      ? [`${indent}${scalarText(k)}: ${scalarText(v)}`]
      : v instanceof Map && !flowValues && v.size
        ? [`${indent}${scalarText(k)}:`, ...renderBlock(v, `${indent}  `, false)]
        : [`${indent}${scalarText(k)}: ${renderFlow(v)}`],
  );
}
