/**
 * One walk over a manifest's YAML document for the editor (yaml-edit.ts):
 * every map by where it starts (how an entry the loader located is found),
 * and every alias by the node it stands for, with whether it sits in a flow
 * collection (what may be written in its place). Aliases are resolved as the
 * walk goes (the latest anchor of a name before the alias), not one
 * document search per alias.
 */
import { isAlias, isCollection, isMap, isScalar, visit, type Alias, type Document, type Node, type Pair, type YAMLMap } from "yaml";

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
}

export function indexDocument(doc: Document): DocumentIndex {
  const mapAt = new Map<number, YAMLMap>();
  const aliasesOf = new Map<Node, AliasUse[]>();
  const targetOf = new Map<Alias, Node>();
  const anchors = new Map<string, Node>();
  visit(doc, (_key, node, path) => {
    if (isMap(node) && node.range && !mapAt.has(node.range[0])) mapAt.set(node.range[0], node);
    if ((isScalar(node) || isCollection(node)) && node.anchor) anchors.set(node.anchor, node);
    if (isAlias(node)) {
      const target = anchors.get(node.source);
      if (!target) return;
      targetOf.set(node, target);
      const flow = path.some((p) => isCollection(p) && p.flow === true);
      const uses = aliasesOf.get(target) ?? aliasesOf.set(target, []).get(target)!;
      uses.push({ alias: node, flow });
    }
  });
  return { mapAt, aliasesOf, targetOf };
}

/** A merge key's pair (`<<: *base`): the yaml library reads its key as a symbol with merge keys on. */
export const isMergePair = (p: Pair): boolean => isScalar(p.key) && typeof p.key.value === "symbol";

/** The map's own pair for `key` (not one it inherits through `<<`). */
export function ownPair(map: YAMLMap, key: string): Pair | undefined {
  return map.items.find((p) => isScalar(p.key) && typeof p.key.value !== "symbol" && String(p.key.value) === key) as Pair | undefined;
}

/** What `map` inherits under `key` through its merge keys, as data; undefined when it inherits nothing there. */
export function inherited(doc: Document, map: YAMLMap, key: string): unknown {
  if (!map.items.some((p) => isMergePair(p as Pair))) return undefined;
  const data = map.toJS(doc, { maxAliasCount: 100 }) as Record<string, unknown> | null;
  return data && Object.hasOwn(data, key) ? data[key] : undefined;
}
