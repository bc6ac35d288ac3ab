/**
 * The text the editor (yaml-edit.ts) writes: keys and values to insert as a
 * tree, rendered as block lines or as a flow map. A tree's leaves are texts
 * (the translations) or, where a shared or inherited map is copied, the data
 * the loader read there (numbers, booleans, lists as well).
 */
import { scalarText } from "../yaml-text.js";

export type Leaf = string | number | boolean | null | readonly unknown[];
export type Tree = Map<string, Tree | Leaf>;

/** Data (as the loader reads it) as a tree: maps become trees, anything else a leaf. */
export function toTree(data: unknown): Tree | Leaf {
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

/** A value as YAML flow text: valid anywhere a value may stand, in a block or inside a flow collection. */
export function renderFlow(value: Tree | Leaf | unknown): string {
  if (value instanceof Map) {
    const pairs = [...(value as Tree)].map(([k, v]) => `${scalarText(k, { flow: true })}: ${renderFlow(v)}`);
    return pairs.length ? `{ ${pairs.join(", ")} }` : "{}";
  }
  if (Array.isArray(value)) return `[${value.map((v) => renderFlow(toTree(v))).join(", ")}]`;
  if (value && typeof value === "object") return renderFlow(toTree(value));
  if (typeof value === "string") return scalarText(value, { flow: true });
  return value === undefined ? "null" : String(value);
}

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
