/**
 * The fast path of setting texts (texts.ts is the reference): for a file in the
 * plain YAML the loader's fast parser reads (src/manifest/fast-yaml.ts: block
 * maps and lists, one-line scalars, flat flow maps; no anchors, aliases,
 * merge keys, block scalars or CR line ends), the same edits at the same
 * offsets, found from that parser's positions instead of the `yaml`
 * library's document (which reads about 1.5 MB/s: 8 files of 1.4 MB took
 * most of a 64,000-translation import). Anything it does not handle exactly
 * (a null value, a value that is no text) returns undefined and the
 * reference editor takes the file. A differential test holds both to the
 * same text (test/manifest/edit/texts-fast.test.ts).
 */
import { parseFastYaml, type FastResult } from "../fast-yaml.js";
import { quoteEnd, stripComment, trimSpacesEnd } from "../fast-yaml-scalars.js";
import { scalarText } from "../yaml-text.js";
import { entriesOf, isObject, readAt, type DataPath } from "../entries.js";
import { applyEdits, type EditSplice } from "./splices.js";
import { put, renderBlock, renderFlow, type Tree } from "./tree.js";
import type { EditedText, EntryEdits } from "./types.js";

type Op = EditSplice;

/** Not handled here: the reference editor takes the file. */
class Declined extends Error {}
const decline = (): never => {
  throw new Declined();
};

class FastEdits {
  readonly replaced: Array<{ path: DataPath; value: string }> = [];
  readonly inserts = new Map<string, { path: DataPath; tree: Tree }>();

  constructor(
    private readonly text: string,
    private readonly fast: FastResult,
  ) {}

  add(entry: DataPath, keys: readonly string[], value: string): void {
    let node = readAt(this.fast.data, entry);
    let path = entry;
    for (let i = 0; i < keys.length; i++) {
      if (!isObject(node)) return decline();
      const key = keys[i]!;
      if (!Object.hasOwn(node, key)) {
        const id = JSON.stringify(path);
        const insert = this.inserts.get(id) ?? this.inserts.set(id, { path, tree: new Map() }).get(id)!;
        put(insert.tree, keys.slice(i), value);
        return;
      }
      const v = node[key];
      path = [...path, key];
      if (i === keys.length - 1) {
        if (v === null || typeof v === "object") return decline();
        this.replaced.push({ path, value });
        return;
      }
      node = v;
    }
  }

  private at(path: DataPath, key = false): number {
    return this.fast.offsetOf(path, key) ?? decline();
  }

  private isFlow(path: DataPath): boolean {
    return this.text[this.at(path)] === "{";
  }

  /** Where the scalar starting at `start` ends: its closing quote, or before a comment, spaces, or (in a flow map) `,` or `}`. */
  private scalarEnd(start: number, flow: boolean): number {
    const c = this.text[start];
    if (c === '"' || c === "'") return quoteEnd(this.text, start);
    const eol = this.text.indexOf("\n", start);
    let rest = this.text.slice(start, eol === -1 ? this.text.length : eol);
    if (flow) rest = rest.slice(0, rest.search(/[,}]|$/));
    return start + (flow ? trimSpacesEnd(rest) : stripComment(rest)).length;
  }

  ops(eol: string): Op[] {
    const ops: Op[] = [];
    for (const { path, value } of this.replaced) {
      const start = this.at(path);
      const flow = this.isFlow(path.slice(0, -1));
      const c = this.text[start];
      const like = c === '"' ? "QUOTE_DOUBLE" : c === "'" ? "QUOTE_SINGLE" : "PLAIN";
      ops.push({ start, end: this.scalarEnd(start, flow), text: scalarText(value, { flow, like }), order: 0 });
    }
    for (const { path, tree } of this.inserts.values()) ops.push(this.isFlow(path) ? this.flowInsert(path, tree) : this.blockInsert(path, tree, eol));
    return ops;
  }

  private flowInsert(path: DataPath, tree: Tree): Op {
    const start = this.at(path);
    const keys = Object.keys(readAt(this.fast.data, path) as object);
    const pairs = renderFlow(tree).slice(2, -2);
    if (!keys.length) return { start: start + 1, end: start + 1, text: pairs, order: start };
    const at = this.scalarEnd(this.at([...path, keys[keys.length - 1]!]), true);
    return { start: at, end: at, text: `, ${pairs}`, order: start };
  }

  /** Whether the value at `path` is a block map or list (it spans the lines below its key). */
  private isBlockCollection(path: DataPath, value: unknown): boolean {
    return (isObject(value) || Array.isArray(value)) && !"{[".includes(this.text[this.at(path)]!);
  }

  /**
   * New lines as the editor places them (editor.ts addPairs): after the line of the map's last key
   * whose value is not a block map or list, else after the last content line of its last value
   * (comments below it stay below).
   */
  private blockInsert(path: DataPath, tree: Tree, eol: string): Op {
    const map = readAt(this.fast.data, path) as Record<string, unknown>;
    const keys = Object.keys(map);
    const start = this.at(path);
    const column = start - (this.text.lastIndexOf("\n", start - 1) + 1);
    const flowValues = keys.some((k) => isObject(map[k]) && this.isFlow([...path, k]));
    const lines = renderBlock(tree, " ".repeat(column), flowValues).join(eol);
    const flat = keys.filter((k) => !this.isBlockCollection([...path, k], map[k])).at(-1);
    if (flat !== undefined) {
      // A value that is no block collection is on its key's line (the fast parser reads no multi-line scalar).
      const end = this.text.indexOf("\n", this.at([...path, flat], true));
      if (end === -1) return decline();
      return { start: end + 1, end: end + 1, text: `${lines}${eol}`, order: start };
    }
    let end = this.text.indexOf("\n", this.at([...path, keys[keys.length - 1]!], true));
    for (let next = end + 1; end !== -1 && next < this.text.length;) {
      const nl = this.text.indexOf("\n", next);
      const line = this.text.slice(next, nl === -1 ? this.text.length : nl);
      // Indentation is spaces only (the fast parser takes no tab); any other white space is content.
      let indent = 0;
      while (line.charCodeAt(indent) === 32) indent++;
      const content = line.slice(indent);
      if (content !== "" && !content.startsWith("#")) {
        // A deeper line, or a list item at the map's column (a list under its last key), is still the last value.
        if (indent < column || (indent === column && !content.startsWith("- ") && content !== "-")) break;
        end = nl;
      }
      if (nl === -1) break;
      next = nl + 1;
    }
    if (end === -1) return decline();
    return { start: end + 1, end: end + 1, text: `${lines}${eol}`, order: start };
  }
}

/**
 * The edited text, or undefined when the file is not for the fast path. `parsed`: the fast parser's
 * result for this text when the caller has one (the loader's reading of it, variables and all: the
 * editor needs its structure and offsets only).
 */
export function editPlainYaml(text: string, entries: readonly EntryEdits[], parsed?: FastResult): EditedText | undefined {
  if (text.includes("\r") || !text.endsWith("\n")) return undefined;
  const fast = parsed ?? parseFastYaml(text, (v) => v);
  if (!fast) return undefined;
  try {
    const byOffset = new Map(entriesOf(fast.data).map((e) => [fast.offsetOf(e.path), e.path]));
    const edits = new FastEdits(text, fast);
    for (const entry of entries) {
      const path = byOffset.get(entry.offset) ?? decline();
      for (const edit of entry.edits) edits.add(path, edit.keys, edit.value);
    }
    return applyEdits(text, edits.ops("\n"));
  } catch (e) {
    if (e instanceof Declined) return undefined;
    throw e;
  }
}
