/**
 * How `export --merge` writes into a file, over the one manifest editor
 * (src/manifest/edit/editor.ts, which places the text and keeps what YAML
 * shares as it was for every other record): a changed value in place in its
 * own quoting, a flow value again in flow style, anything else (a list, a map,
 * a text that needs a block) as its pair again in block style at its key's
 * column; new keys and list items in the `yaml` library's style, with
 * `${variables}` written back (translate.ts). Every edit touches the map it is
 * in: an anchored entry or map an edit changes has its aliases written out.
 */
import { isCollection, isMap, isScalar, isSeq, stringify, type Node, type Pair, type YAMLMap, type YAMLSeq } from "yaml";
import { indented, YamlEdit } from "../manifest/edit/editor.js";
import { writeVariables, type VariableWriter } from "./translate.js";

export interface VariableText {
  /** `${name}` -> the tenant's value, `$${` -> `${`. */
  resolve(s: string): string;
  /** The other way, for what is written: `${name}` only in variable-bearing fields (src/export/translate.ts). */
  write: VariableWriter;
}

const STRINGIFY = { lineWidth: 0, indent: 2, sortMapEntries: false, aliasDuplicateObjects: false } as const;

/** `v` as YAML text (block style unless `flow`; `padded`: `[ a ]` rather than `[a]`), with variables written back. */
export function renderYaml(v: unknown, text: VariableText, opts: { flow?: boolean; padded?: boolean } = {}): string {
  const flow = opts.flow ? { collectionStyle: "flow" as const, flowCollectionPadding: opts.padded ?? true } : {};
  return stringify(writeVariables(v, text.write), { ...STRINGIFY, ...flow });
}

/** `key: v` on one line, the value in flow style (`previous_names: [Acme]`), with variables written back. */
function flowPair(key: string, v: unknown, text: VariableText, padded = false): string {
  // As renderYaml writes `{ [key]: v }`: the key as text (merge never writes a variable-bearing field in place).
  const keyText = stringify({ [text.write.literal(key)]: 0 }, STRINGIFY)
    .trimEnd()
    .slice(0, -": 0".length);
  return `${keyText}: ${renderYaml(v, text, { flow: true, padded }).trimEnd()}`;
}

export class MergeFile extends YamlEdit {
  constructor(
    name: string,
    text: string,
    readonly variables: VariableText,
    opts: { parse: boolean } = { parse: true },
  ) {
    super(name, text, { resolve: variables.resolve, parse: opts.parse });
  }

  /** The value to write in place of a scalar, or undefined when it needs more (a list, a map, a block). */
  private inPlace(v: unknown, old: Node | null, inFlow: boolean): string | number | boolean | undefined {
    if (typeof v !== "string") return v === null || typeof v === "object" ? undefined : (v as number | boolean);
    // Merge writes no variable-bearing field in place (web ids and asset image_urls are never merged): text.
    const s = this.variables.write.literal(v);
    const block = isScalar(old) && (old.type === "BLOCK_LITERAL" || old.type === "BLOCK_FOLDED");
    return (s.includes("\n") && !inFlow) || block ? undefined : s;
  }

  /** A pair's value becomes `v`: in place for a scalar, in flow style inside flow, else the pair written again. */
  replaceValue(map: YAMLMap, pair: Pair, v: unknown): void {
    const node = pair.value as Node | null;
    const key = pair.key as Node;
    this.touch(map);
    if (node) this.touch(node);
    const value = isScalar(node) && node.range ? this.inPlace(v, node, map.flow === true) : undefined;
    if (value !== undefined) {
      this.setScalar(node as Parameters<YamlEdit["setScalar"]>[0], value, map.flow === true);
    } else if (map.flow || (node && (isMap(node) || isSeq(node)) && node.flow)) {
      if (!node?.range) throw new Error("a flow value without a source range");
      const style = { flow: true, padded: this.padded(isCollection(node) ? node : map) };
      this.splice(node.range[0], node.range[1], renderYaml(v, this.variables, style).trimEnd());
    } else {
      const start = key.range![0];
      const end = this.lineEnd(node?.range ? node.range[1] : key.range![1]);
      this.splice(start, end, indented(renderYaml({ [this.keyOf(pair)]: v }, this.variables), this.column(start), false));
    }
  }

  /** A flow collection written again whole. */
  rewriteFlow(node: YAMLMap | YAMLSeq, v: unknown): void {
    this.touch(node);
    this.splice(node.range![0], node.range![1], renderYaml(v, this.variables, { flow: true, padded: this.padded(node) }).trimEnd());
  }

  /** A new key in a map, where the editor places new pairs (`flow`: its value in flow style in a block map). */
  addKey(map: YAMLMap, key: string, v: unknown, opts: { flow?: boolean } = {}): void {
    if (!map.items.length || !map.range) throw new Error("a map without a source range");
    this.touch(map);
    this.addPairs(map, (style) =>
      style.flow
        ? flowPair(key, v, this.variables, style.padded)
        : opts.flow
          ? `${flowPair(key, v, this.variables)}\n`
          : renderYaml({ [key]: v }, this.variables),
    );
  }

  /** Removes a pair's lines; false when its key starts a list item's line (`- name: x`), which stays. */
  removeField(map: YAMLMap, pair: Pair): boolean {
    if (!this.removePair(pair)) return false;
    this.touch(map);
    return true;
  }

  /** Appends items to a block sequence; false when it is not one (the caller writes the value again). */
  appendItems(seq: YAMLSeq, items: unknown[]): boolean {
    if (!this.appendToList(seq, () => renderYaml(items, this.variables))) return false;
    this.touch(seq);
    return true;
  }
}
