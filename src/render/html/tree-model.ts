/**
 * The category tree the page draws, built from the plan alone: the paths of
 * category actions (and where moved records were), their ancestors, and the
 * plan's unmanaged categories. Only nodes on the way to a change are drawn;
 * unchanged records below a drawn node are summarised by a count, so a plan
 * touching 1,000 records of a 10,000-record tree stays small.
 */
import { categoryPath, parseAddress, printAddress } from "../../plan/address.js";
import type { Action, Op, Plan } from "../../plan/types.js";

export interface TreeNode {
  path: string[];
  name: string;
  children: Map<string, TreeNode>;
  /** Actions on this category and its sub-records (versions, web ids, assets). */
  actions: Action[];
  /** The category's own action (address = the category itself), when there is one. */
  own?: Action;
  /** Renamed: the name it has in the tenant today. */
  previousName?: string;
  /** Moved here: the node drawn at the old place. */
  movedFrom?: TreeNode;
  /** A place a record moves away from: the node at its new place. */
  movedTo?: TreeNode;
  /** The tenant has it and the manifests do not declare it (drawn only as an ancestor of a change). */
  unmanaged?: boolean;
  /** Unmanaged categories below this node that are not drawn, and how many subtrees they form. */
  rest: number;
  restSubtrees: number;
  /** Changed records in this subtree, this node included. */
  changes: number;
  /** Anchor id in the page, assigned in drawing order. */
  id: string;
}

export interface CategoryTree {
  /** The invisible root; its children are the top-level categories drawn. */
  root: TreeNode;
  /** Category address (as the plan prints it) -> the node, for links from the summary. */
  byAddress: Map<string, TreeNode>;
  nodes: number;
}

function newNode(path: string[]): TreeNode {
  return { path, name: path[path.length - 1] ?? "", children: new Map(), actions: [], rest: 0, restSubtrees: 0, changes: 0, id: "" };
}

function pathOf(address: string): string[] | undefined {
  const parsed = parseAddress(address);
  return parsed ? categoryPath(parsed) : undefined;
}

export function buildCategoryTree(plan: Plan): CategoryTree {
  const root = newNode([]);
  const byAddress = new Map<string, TreeNode>();
  const find = (path: readonly string[]): TreeNode | undefined => {
    let node: TreeNode | undefined = root;
    for (const name of path) node = node?.children.get(name);
    return node;
  };
  const ensure = (path: readonly string[]): TreeNode => {
    let node = root;
    path.forEach((name, i) => {
      let child = node.children.get(name);
      if (!child) node.children.set(name, (child = newNode(path.slice(0, i + 1))));
      node = child;
    });
    return node;
  };

  for (const a of plan.actions) {
    if (a.kind !== "categories") continue;
    const parsed = parseAddress(a.address);
    const path = parsed && categoryPath(parsed);
    if (!parsed || !path) continue;
    const node = ensure(path);
    node.actions.push(a);
    // Links from the call-outs land on the category, whichever of its sub-records changes.
    byAddress.set(printAddress({ segments: [parsed.segments[0]] }), node);
    if (parsed.segments.length !== 1) continue;
    node.own = a;
    const before = a.previous && pathOf(a.previous.address);
    if (!before) continue;
    if (a.previous!.via === "previous_paths") {
      const ghost = ensure(before);
      ghost.movedTo = node;
      node.movedFrom = ghost;
    } else {
      node.previousName = before[before.length - 1];
    }
  }

  for (const u of plan.unmanaged) {
    if (u.kind !== "categories") continue;
    const path = pathOf(u.address);
    if (!path) continue;
    const drawn = find(path);
    if (drawn) {
      drawn.unmanaged = true;
      continue;
    }
    // The deepest drawn ancestor holds the count (the invisible root for whole unchanged trees).
    for (let depth = path.length - 1; depth >= 0; depth--) {
      const ancestor = find(path.slice(0, depth));
      if (!ancestor) continue;
      ancestor.rest++;
      if (depth === path.length - 1) ancestor.restSubtrees++;
      break;
    }
  }

  let nodes = 0;
  const visit = (node: TreeNode): number => {
    const changed = node.actions.length > 0 || node.movedTo ? 1 : 0;
    let below = 0;
    for (const child of sortedChildren(node)) {
      child.id = `c${++nodes}`;
      below += visit(child);
    }
    node.changes = changed + below;
    return node.changes;
  };
  visit(root);
  return { root, byAddress, nodes };
}

/** Children in a fixed order (code-point order of names), so the page is the same bytes every time. */
export function sortedChildren(node: TreeNode): TreeNode[] {
  return [...node.children.values()].sort((a, b) => (a.name < b.name ? -1 : a.name > b.name ? 1 : 0));
}

/** What the node's badge says: its own op, else what happens to its sub-records, else nothing (context). */
export function nodeOp(node: TreeNode): Op | undefined {
  if (node.own) return node.own.op;
  if (node.movedTo) return "move";
  if (!node.actions.length) return undefined;
  return node.actions.every((a) => a.op === "unsupported") ? "unsupported" : "update";
}
