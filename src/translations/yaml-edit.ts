/**
 * Targeted edits of a manifest file's text: set a string at a path of keys
 * below an entry (an attribute, a value, a category ...), changing only the
 * bytes of that scalar, or inserting the missing keys as new lines (block
 * maps) or new pairs (flow maps). Everything else (comments, order, quoting,
 * layout) stays byte for byte: the yaml library's source ranges say where each
 * node is, and the text is edited, never re-serialised.
 */
import { isMap, isScalar, parseDocument, visit, type Scalar, type YAMLMap } from "yaml";
import { applySplices, scalarText } from "../manifest/yaml-text.js";
import { PimctlError } from "../errors.js";

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

type Tree = Map<string, Tree | string>;
interface Op {
  at: number;
  end: number;
  text: string;
  /** Among inserts at one offset, the outer map's goes first so the inner's text lands before it. */
  order: number;
}

function renderFlow(tree: Tree): string {
  const pair = ([k, v]: [string, Tree | string]) =>
    `${scalarText(k, { flow: true })}: ${typeof v === "string" ? scalarText(v, { flow: true }) : renderFlow(v)}`;
  return `{ ${[...tree].map(pair).join(", ")} }`;
}

function renderBlock(tree: Tree, indent: string, flowValues: boolean): string[] {
  return [...tree].flatMap(([k, v]) =>
    typeof v === "string"
      ? [`${indent}${scalarText(k)}: ${scalarText(v)}`]
      : flowValues
        ? [`${indent}${scalarText(k)}: ${renderFlow(v)}`]
        : [`${indent}${scalarText(k)}:`, ...renderBlock(v, `${indent}  `, false)],
  );
}

function put(tree: Tree, keys: string[], value: string): void {
  let t = tree;
  for (const k of keys.slice(0, -1)) {
    let next = t.get(k);
    if (next === undefined || typeof next === "string") t.set(k, (next = new Map()));
    t = next;
  }
  t.set(keys[keys.length - 1]!, value);
}

/** The file's text with every edit made; errors name the entry and the key that could not be written. */
export function editYaml(text: string, file: string, entries: readonly EntryEdits[]): string {
  const doc = parseDocument(text);
  if (doc.errors.length) throw new PimctlError("yaml_syntax", `${file}: ${doc.errors[0]!.message.split("\n")[0]}`);
  const maps = new Map<number, YAMLMap>();
  visit(doc, {
    Map(_, node) {
      if (node.range && !maps.has(node.range[0])) maps.set(node.range[0], node);
    },
  });
  const eol = text.includes("\r\n") ? "\r\n" : "\n";
  const ops: Op[] = [];
  const inserts = new Map<YAMLMap, Tree>();
  for (const entry of entries) {
    const map = maps.get(entry.offset);
    if (!map) throw new PimctlError("io", `${entry.where}: the entry is not where the manifest loader found it; was the file changed meanwhile?`);
    for (const edit of entry.edits) {
      let node: YAMLMap = map;
      for (let i = 0; i < edit.keys.length; i++) {
        const key = edit.keys[i]!;
        const pair = node.items.find((p) => isScalar(p.key) && String(p.key.value) === key);
        if (!pair) {
          if (!inserts.has(node)) inserts.set(node, new Map());
          put(inserts.get(node)!, edit.keys.slice(i), edit.value);
          break;
        }
        const value = pair.value;
        if (i === edit.keys.length - 1) {
          if (!isScalar(value) || !value.range)
            throw new PimctlError("invalid_value", `${entry.where}: ${edit.keys.join(".")} is not a plain text value (an alias or a list?); write it by hand`);
          const old = text.slice(value.range[0], value.range[1]);
          const tail = old.match(/(\r?\n)+$/)?.[0] ?? "";
          const flow = node.flow === true;
          const block = value.type === "BLOCK_LITERAL" || value.type === "BLOCK_FOLDED";
          ops.push({
            at: value.range[0],
            end: value.range[1],
            text: scalarText(edit.value, { flow, like: block ? "QUOTE_DOUBLE" : value.type }) + tail,
            order: 0,
          });
        } else if (isMap(value)) {
          node = value;
        } else {
          throw new PimctlError("invalid_value", `${entry.where}: ${edit.keys.slice(0, i + 1).join(".")} is not a map (an alias, or empty?); write it by hand`);
        }
      }
    }
  }
  for (const [node, tree] of inserts) {
    const [start, end] = node.range!;
    if (node.flow) {
      const last = node.items[node.items.length - 1];
      const after = last ? ((last.value as { range?: number[] } | null)?.range?.[1] ?? (last.key as Scalar).range![1]) : text.indexOf("{", start) + 1;
      const pairs = renderFlow(tree).slice(2, -2);
      ops.push({ at: after, end: after, text: last ? `, ${pairs}` : pairs, order: start });
    } else {
      const first = node.items[0]!.key as Scalar;
      const column = first.range![0] - (text.lastIndexOf("\n", first.range![0] - 1) + 1);
      const flowValues = node.items.some((p) => isMap(p.value) && p.value.flow);
      const lines = renderBlock(tree, " ".repeat(column), flowValues).join(eol);
      // After the line the last value ends on, not at the map's end: that may lie past comments
      // below it, on the next entry's line (its "- " already written).
      const last = node.items[node.items.length - 1]!;
      const lastEnd = (last.value as { range?: number[] } | null)?.range?.[1] ?? (last.key as Scalar).range![1];
      const nl = text.indexOf("\n", Math.max(lastEnd - 1, 0));
      const at = nl === -1 || nl >= end ? Math.min(end, nl === -1 ? text.length : nl + 1) : nl + 1;
      const ends = at > 0 && text[at - 1] === "\n";
      ops.push({ at, end: at, text: ends ? `${lines}${eol}` : `${eol}${lines}`, order: start });
    }
  }
  // At one offset, an inner map's new lines go before its outer map's: the larger `order` is listed first.
  ops.sort((a, b) => b.order - a.order);
  return applySplices(
    text,
    ops.map((op) => ({ start: op.at, end: op.end, text: op.text })),
  );
}
