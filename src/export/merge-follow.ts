/**
 * The first step of export --merge: entries follow the records the tenant
 * renamed or moved by hand, where the plan takes them for the same records
 * (the ledger knows their ids: hand-renames.ts). The entry takes the tenant's
 * name and keeps the old one in `previous_names`; a category moved to another
 * parent moves there in the folder too (its text, comments and children with
 * it, re-indented) and keeps its old path in `previous_paths`. So the merge
 * never adds the record a second time, and the next plan does not take the
 * rename back. A category whose new parent the folder does not have stays
 * where it is, said so: the next apply moves it back.
 * Each step works on the texts the one before left, parsed again.
 */
import { isMap, isSeq, type Node, type Pair, type YAMLMap, type YAMLSeq } from "yaml";
import { KIND_NOUN, parsePathKey, pathKey, type Kind } from "../model/catalogue.js";
import type { CategoryFollow } from "./merge-entries.js";
import { isObject } from "./merge-rules.js";
import { recordKey, type HandRename, type MergeState } from "./merge-state.js";
import { MergeFile } from "./merge-file.js";

export interface Followed {
  /** Every file's text once the entries have followed. */
  files: Record<string, string>;
  /** A record's key after the merge, from its key before. */
  keyAfter(key: string): string;
  /** Categories left where they are: their paths in the tenant. */
  follow: CategoryFollow;
}

/** The kinds whose entries can say where they came from (previous_names). */
const RENAMABLE: ReadonlySet<Kind> = new Set(["display_groups", "attributes", "attribute_sets", "brands"]);

export function followHandRenames(s: MergeState, files: Record<string, string>): Followed {
  const renames = s.input.renamedByHand ?? [];
  const named = new Map<string, string>();
  for (const r of renames) if (RENAMABLE.has(r.kind) && s.input.kinds.includes(r.kind)) named.set(recordKey(r.kind, r.from), r.to);
  const texts = named.size ? renameNamed(s, files, named) : { ...files };
  const categories = s.input.kinds.includes("categories") ? renames.filter((r) => r.kind === "categories") : [];
  const moved = new CategoryMoves(s, texts);
  for (const r of [...categories].sort((a, b) => parsePathKey(a.from).length - parsePathKey(b.from).length || (a.from < b.from ? -1 : 1))) moved.follow(r);
  return {
    files: moved.texts,
    keyAfter: (key) => {
      const [kind, ...id] = key.split("\0");
      if (kind === "categories") return recordKey("categories", pathKey(moved.pathAfter(parsePathKey(id[0]!))));
      if (kind === "values") return recordKey("values", named.get(recordKey("attributes", id[0]!)) ?? id[0]!, id[1]!);
      return named.has(key) ? recordKey(kind as Kind, named.get(key)!) : key;
    },
    follow: (folderKey) => moved.left.get(folderKey),
  };
}

/** Named entries take the tenant's name, the old one kept in previous_names. */
function renameNamed(s: MergeState, files: Record<string, string>, named: ReadonlyMap<string, string>): Record<string, string> {
  const out: Record<string, string> = {};
  for (const name of Object.keys(files).sort()) {
    const f = new MergeFile(name, files[name]!, s.text);
    const root = f.doc?.contents;
    for (const kind of RENAMABLE) {
      const seq = isMap(root) ? root.get(kind) : undefined;
      for (const item of isSeq(seq) ? seq.items : []) {
        if (!isMap(item)) continue;
        const old = String((f.js(item) as Record<string, unknown>).name);
        const to = named.get(recordKey(kind, old));
        if (to === undefined) continue;
        setField(f, item, "name", to);
        // A record under the old name again (made since, to be added by this merge): the old name is its, not history.
        const kept = !s.has(kind, old) && addPrevious(f, item, "previous_names", old);
        s.report.renamed.push(
          `${f.at(item.range![0])}: ${KIND_NOUN[kind]} "${old}" is "${to}" in the tenant (renamed there by hand; the plan knows it by its id): ` +
            `the entry follows${kept ? `, "${old}" kept in previous_names` : ""}`,
        );
      }
    }
    out[name] = f.result();
  }
  return out;
}

function setField(f: MergeFile, map: YAMLMap, key: string, value: string): void {
  const pair = f.findPair(map, key);
  if (pair) f.replaceValue(map, pair, value);
  else f.addKey(map, key, value);
}

/** Adds an identity to a previous_* list (flow style when the list is new); false when it is there already. */
function addPrevious(f: MergeFile, map: YAMLMap, key: string, value: string | string[]): boolean {
  const pair = f.findPair(map, key);
  const list = pair ? ((f.js(pair.value) as unknown[] | null) ?? []) : [];
  if (list.some((x) => JSON.stringify(x) === JSON.stringify(value))) return false;
  if (pair && isSeq(pair.value) && f.appendItems(pair.value, [value])) return true;
  if (pair) f.replaceValue(map, pair, [...list, value]);
  else f.addKey(map, key, [value], { flow: true });
  return true;
}

/** A category path as previous_paths writes it: "A/B", or a list where a name holds a slash. */
const pathText = (path: string[]): string | string[] => (path.some((n) => n.includes("/") || n.includes("\\")) ? path : path.join("/"));

const samePath = (a: readonly string[], b: readonly string[]) => a.length === b.length && a.every((x, i) => x === b[i]);
const under = (prefix: readonly string[], path: readonly string[]) => prefix.length <= path.length && prefix.every((x, i) => x === path[i]);

/** Where a category's entry is: its file, its map, the list that holds it and the map that holds that list. */
interface Found {
  f: MergeFile;
  item: YAMLMap;
  seq: YAMLSeq;
  /** The parent category's map, or the file's top-level map for a root. */
  owner: YAMLMap;
}

/** Categories that follow moves and renames by hand, one at a time, each on the texts the one before left. */
class CategoryMoves {
  /** Folder path key -> tenant path, for categories left where they are. */
  readonly left = new Map<string, string[]>();
  /** Subtrees that moved, in order: [path before, path after]. */
  private readonly moves: Array<[string[], string[]]> = [];
  private readonly parsed = new Map<string, MergeFile>();

  constructor(
    private readonly s: MergeState,
    readonly texts: Record<string, string>,
  ) {}

  /** A path as it reads after the moves made so far. */
  pathAfter(path: string[]): string[] {
    let p = path;
    for (const [from, to] of this.moves) if (under(from, p)) p = [...to, ...p.slice(from.length)];
    return p;
  }

  follow(r: HandRename): void {
    const from = parsePathKey(r.from);
    const to = parsePathKey(r.to);
    const cur = this.pathAfter(from);
    const found = this.find(cur);
    if (!found || samePath(cur, to)) return;
    const oldName = cur.at(-1)!;
    const newName = to.at(-1)!;
    const at = found.f.at(found.item.range![0]);
    const label = `category "${pathKey(from)}" is "${r.to}" in the tenant`;
    if (samePath(cur.slice(0, -1), to.slice(0, -1))) {
      setField(found.f, found.item, "name", newName);
      const kept = !this.s.has("categories", pathKey([...to.slice(0, -1), oldName])) && addPrevious(found.f, found.item, "previous_names", oldName);
      this.save(found.f);
      this.moves.push([cur, to]);
      this.s.report.renamed.push(
        `${at}: ${label} (renamed there by hand; the plan knows it by its id): the entry follows${kept ? `, "${oldName}" kept in previous_names` : ""}`,
      );
      return;
    }
    const target = to.length > 1 ? this.find(to.slice(0, -1)) : undefined;
    if ((to.length > 1 && !target) || found.seq.flow || (target && !this.canTakeChild(target))) {
      this.left.set(pathKey(cur), to);
      this.s.report.renamed.push(
        `${at}: ${label} (moved there by hand), but the folder has no place for it under "${pathKey(to.slice(0, -1))}": ` +
          "left where it is; the next apply moves it back",
      );
      return;
    }
    // Its text goes elsewhere: aliases across its bounds are written out first (an anchor must come before its aliases).
    found.f.detach(found.item);
    this.save(found.f);
    const here = this.find(cur)!;
    if (oldName !== newName) setField(here.f, here.item, "name", newName);
    const kept = !this.s.has("categories", pathKey(from)) && addPrevious(here.f, here.item, "previous_paths", pathText(from));
    this.save(here.f);
    this.move([...cur.slice(0, -1), newName], to.length > 1 ? to.slice(0, -1) : undefined);
    this.moves.push([cur, to]);
    this.s.report.renamed.push(
      `${at}: ${label} (moved there by hand; the plan knows it by its id): the entry moves there${kept ? `, "${pathKey(from)}" kept in previous_paths` : ""}`,
    );
  }

  /** A category that takes a moved child: a block map whose children are a block list, or that has none yet. */
  private canTakeChild(target: Found): boolean {
    const pair = target.f.findPair(target.item, "children");
    return !target.item.flow && (!pair || (isSeq(pair.value) && !pair.value.flow && pair.value.items.length > 0));
  }

  /** The entry at `path` goes, whole, under the entry at `parent` (a root of its own file when undefined). */
  private move(path: string[], parent: string[] | undefined): void {
    const src = this.find(path)!;
    const dst = parent ? this.find(parent)! : undefined;
    const start = src.f.lineStart(src.item.range![0]);
    const lines = src.f.text.slice(start, src.f.lineEnd(src.item.range![1]));
    const column = src.f.column(src.seq.range![0]);
    cut(src);
    const into = dst ? dst.f : src.f;
    if (dst) insertChild(into, dst.item, lines, column);
    else {
      const roots = (src.f.doc!.contents as YAMLMap).get("categories") as YAMLSeq;
      into.insertLines(into.lineEnd(roots.range![1]), reindent(lines, column, into.column(roots.range![0])));
    }
    this.save(src.f);
    if (into !== src.f) this.save(into);
  }

  private find(path: string[]): Found | undefined {
    for (const name of Object.keys(this.texts).sort()) {
      let f = this.parsed.get(name);
      if (!f) this.parsed.set(name, (f = new MergeFile(name, this.texts[name]!, this.s.text)));
      const root = f.doc?.contents;
      const seq = isMap(root) ? root.get("categories") : undefined;
      if (!isMap(root) || !isSeq(seq)) continue;
      const hit = walk(f, seq, root, path);
      if (hit) return hit;
    }
    return undefined;
  }

  /** The edits of `f` made: its text is the new one, parsed again when next looked at. */
  private save(f: MergeFile): void {
    this.texts[f.name] = f.result();
    this.parsed.delete(f.name);
  }
}

function walk(f: MergeFile, seq: YAMLSeq, owner: YAMLMap, path: string[]): Found | undefined {
  for (const item of seq.items) {
    if (!isMap(item)) continue;
    const raw = f.js(item);
    if (!isObject(raw) || String(raw.name) !== path[0]) continue;
    if (path.length === 1) return { f, item, seq, owner };
    const children = item.get("children");
    return isSeq(children) ? walk(f, children, item, path.slice(1)) : undefined;
  }
  return undefined;
}

/** The entry's lines out of its list (the list's key too when it was the only one: `children: []` where that key cannot go). */
function cut(src: Found): void {
  const { f, item, seq, owner } = src;
  const pair = owner.items.find((p) => (p as Pair).value === seq) as Pair | undefined;
  if (seq.items.length > 1 || !pair) f.splice(f.lineStart(item.range![0]), f.lineEnd(item.range![1]), "");
  else if (!(f.findPair(owner, "name") && f.removeField(owner, pair))) f.replaceValue(owner, pair, []);
}

/** `lines` (a list item at `column`) as the last of `parent`'s children (canTakeChild said it can). */
function insertChild(f: MergeFile, parent: YAMLMap, lines: string, column: number): void {
  const pair = f.findPair(parent, "children");
  if (pair && isSeq(pair.value)) {
    f.insertLines(f.lineEnd(pair.value.range![1]), reindent(lines, column, f.column(pair.value.range![0])));
    return;
  }
  const keyColumn = f.column((parent.items[0]!.key as Node).range![0]);
  f.insertLines(f.lineEnd(parent.range![1]), `${" ".repeat(keyColumn)}children:\n${reindent(lines, column, keyColumn + 2)}`);
}

/** Lines moved from one column to another (blank lines stay blank). */
function reindent(lines: string, from: number, to: number): string {
  if (from === to) return lines;
  return lines
    .split("\n")
    .map((l) => (l.trim() === "" ? l : to > from ? " ".repeat(to - from) + l : l.slice(Math.min(from - to, l.length - l.trimStart().length))))
    .join("\n");
}
