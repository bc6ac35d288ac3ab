/**
 * Texts set at paths of keys below entries (an attribute, a value, a category
 * ...), over the editor (editor.ts): each changes only the bytes of its scalar,
 * or inserts the missing keys as new lines (block maps) or new pairs (flow
 * maps). One parse and one pass over the text per file, whatever the number of
 * texts; plain YAML takes a fast path (texts-fast.ts) that writes the same text.
 *
 * On the way to a text, what YAML shares stays as it was for every other
 * record (the file reads as before except at the texts set):
 * - a text that is an alias (`name: *n`) is written as a text of its own;
 * - an anchored text (`name: &n Farbe`) hands its anchor and old text on to
 *   its first alias (shared.ts);
 * - a map on the way that is an alias (`versions: *v`) is written out as a copy
 *   of what it stood for, with the text in it;
 * - a map on the way that other places alias or merge (`versions: &v`) keeps
 *   them as they were: each of those aliases is written out as a copy of it;
 * - a key the map inherits through `<<` (a version, a versions map) is written
 *   as its own key holding a copy of what it inherited plus the text (an own
 *   key hides the whole inherited value).
 * The entry itself is the boundary: an entry that is anchored and merged
 * elsewhere is not copied, and the caller's check (translations/import-check.ts)
 * then refuses, naming the record.
 */
import { isAlias, isMap, isScalar, type YAMLMap } from "yaml";
import { PimctlError } from "../../errors.js";
import type { ParsedYaml } from "../yaml.js";
import { YamlEdit } from "./editor.js";
import { editPlainYaml } from "./texts-fast.js";
import { put, renderBlock, renderFlow, toTree, type Tree } from "./tree.js";
import type { EditedText, EntryEdits, TextEdit } from "./types.js";

export type { EditedText, EntryEdits } from "./types.js";

/** The texts of one file, collected per node, then handed to the editor at once. */
class TextEdits {
  /** Keys to insert below a map (inserted last, one insert per map). */
  readonly inserts = new Map<YAMLMap, Tree>();

  constructor(readonly edit: YamlEdit) {}

  set(entry: YAMLMap, where: string, { keys, value }: TextEdit): void {
    let node = entry;
    for (let i = 0; i < keys.length; i++) {
      const last = i === keys.length - 1;
      const pair = this.edit.findPair(node, keys[i]!);
      if (!pair) return this.insert(node, keys.slice(i), value);
      const v = pair.value;
      if (last && (isAlias(v) || (isScalar(v) && v.range))) return this.edit.setScalar(v, value, node.flow === true);
      const shown = keys.slice(0, i + 1).join(".");
      if (last) throw new PimctlError("invalid_value", `${where}: ${shown} is not a text (a list or a map?); write it by hand`);
      if (isAlias(v) && isMap(this.edit.index.targetOf.get(v))) return put(this.edit.splitAlias(v) as Tree, keys.slice(i + 1), value);
      if (!isMap(v)) throw new PimctlError("invalid_value", `${where}: ${shown} is not a map (empty, or an alias of a text?); write it by hand`);
      // The entry is the boundary: what shares a map below it is split, what shares the entry is not.
      this.edit.touch(v, entry);
      node = v;
    }
  }

  /** Missing keys below a map; a map it inherits at the first key (through `<<`) starts as a copy of it. */
  private insert(map: YAMLMap, keys: readonly string[], value: string): void {
    const tree = this.inserts.get(map) ?? this.inserts.set(map, new Map()).get(map)!;
    const from = keys.length > 1 ? this.edit.givenByMergeKeys(map).get(keys[0]!) : undefined;
    if (from && typeof from === "object" && !Array.isArray(from) && !tree.has(keys[0]!)) tree.set(keys[0]!, toTree(from));
    put(tree, keys, value);
  }

  finish(): EditedText {
    for (const [map, tree] of this.inserts)
      this.edit.addPairs(map, (style) => (style.flow ? renderFlow(tree).slice(2, -2) : renderBlock(tree, "", style.flowValues).join("\n")));
    return this.edit.finish();
  }
}

/** The file's text with every text set; errors name the entry and the key that could not be written. */
export function editYaml(text: string, file: string, entries: readonly EntryEdits[], parsed?: ParsedYaml): EditedText {
  // A text the loader read with its full parser (anchors, merge keys ...) is edited over the yaml library's document.
  return (parsed && !parsed.fast ? undefined : editPlainYaml(text, entries, parsed?.fast)) ?? editYamlDocument(text, file, entries);
}

/** The reference editor, over the `yaml` library's document of the whole file (any YAML). */
export function editYamlDocument(text: string, file: string, entries: readonly EntryEdits[]): EditedText {
  const edit = new YamlEdit(file, text);
  if (!edit.doc) throw new PimctlError("yaml_syntax", `${file}: ${edit.error}`);
  const texts = new TextEdits(edit);
  for (const entry of entries) {
    const map = edit.mapAt(entry.offset);
    if (!map) throw new PimctlError("io", `${entry.where}: the entry is not where the manifest loader found it; was the file changed meanwhile?`);
    for (const e of entry.edits) texts.set(map, entry.where, e);
  }
  return texts.finish();
}
