/**
 * One walk over a YAML document for the editor (editor.ts): every map by where
 * it starts (how an entry the loader located is found), every alias by the
 * node it stands for, with whether it sits in a flow collection (what may be
 * written in its place), and whether every alias resolves. Aliases are
 * resolved as the walk goes (the latest anchor of a name before the alias, as
 * the `yaml` library resolves them), not one document search per alias.
 */
import { isAlias, isCollection, isMap, isScalar, isSeq, visit, type Alias, type Document, type Node, type Pair, type YAMLMap } from "yaml";

export interface AliasUse {
  alias: Alias;
  /** In a flow collection: a plain scalar written there may not hold `,[]{}`. */
  flow: boolean;
}

export interface DocumentIndex {
  mapAt: Map<number, YAMLMap>;
  /** Anchored node -> the aliases that stand for it, in document order. */
  aliasesOf: Map<Node, AliasUse[]>;
  /** Alias -> the node it stands for. */
  targetOf: Map<Alias, Node>;
  /** Whether every alias names an anchor set before it (the yaml library reads such a text, but cannot resolve it). */
  resolves: boolean;
}

export function indexDocument(doc: Document): DocumentIndex {
  const mapAt = new Map<number, YAMLMap>();
  const aliasesOf = new Map<Node, AliasUse[]>();
  const targetOf = new Map<Alias, Node>();
  const anchors = new Map<string, Node>();
  let resolves = true;
  visit(doc, (_key, node, path) => {
    if (isMap(node) && node.range && !mapAt.has(node.range[0])) mapAt.set(node.range[0], node);
    if ((isScalar(node) || isCollection(node)) && node.anchor) anchors.set(node.anchor, node);
    if (isAlias(node)) {
      const target = anchors.get(node.source);
      if (!target) {
        resolves = false;
        return;
      }
      targetOf.set(node, target);
      const flow = path.some((p) => isCollection(p) && p.flow === true);
      const uses = aliasesOf.get(target) ?? aliasesOf.set(target, []).get(target)!;
      uses.push({ alias: node, flow });
    }
  });
  return { mapAt, aliasesOf, targetOf, resolves };
}

/** A merge key's pair (`<<: *base`): the yaml library reads its key as a symbol with merge keys on. */
export const isMergePair = (p: Pair): boolean => isScalar(p.key) && typeof p.key.value === "symbol";

/**
 * What a map's merge keys give it, its own keys aside: each source in order (`<<: [*a, *b]`: the
 * first that gives a key wins), as the loader reads them. Keys as `keyOf` reads a key's text.
 */
export function givenByMergeKeys(doc: Document, map: YAMLMap, keyOf: (key: string) => string): Map<string, unknown> {
  const given = new Map<string, unknown>();
  for (const pair of map.items as Pair[]) {
    if (!isMergePair(pair)) continue;
    const sources = isSeq(pair.value) ? pair.value.items : [pair.value];
    for (const source of sources) {
      const data = (source as Node | null)?.toJS(doc, { maxAliasCount: 100 }) as unknown;
      if (!data || typeof data !== "object" || Array.isArray(data)) continue;
      for (const [k, v] of Object.entries(data)) if (!given.has(keyOf(k))) given.set(keyOf(k), v);
    }
  }
  return given;
}

/** Whether `inner` is `outer` or lies inside it (nodes of one document nest by their source ranges). */
export function within(inner: Node, outer: Node): boolean {
  if (inner === outer) return true;
  const [i, o] = [inner.range, outer.range];
  return !!i && !!o && o[0] <= i[0] && i[1] <= o[1];
}
