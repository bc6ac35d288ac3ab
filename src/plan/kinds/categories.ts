/**
 * Categories: identity is the path of names from the root. A category keeps
 * its id through a rename within its parent (previous_names), a move anywhere
 * in the tree (previous_paths), and a rename by hand in the PIM (the ledger
 * remembers the path pimctl applied to its id, and the record still matches:
 * src/plan/identity.ts); undeclared categories are deleted children first when
 * pruning is on, and with prune "owned" only those whose identity checks out.
 */
import { plural } from "../../plural.js";
import { compareText, pathKey, type Category } from "../../model/catalogue.js";
import type { RemoteCategory } from "../../model/remote.js";
import { CATEGORY } from "../../model/schema.js";
import { PimctlError } from "../../errors.js";
import { addr } from "../address.js";
import { sortedEntries } from "../collections.js";
import type { PlanContext } from "../context.js";
import { FIELDS, createChanges, updateChanges } from "../fields.js";
import { leftover, unsupportedVersion, writableView } from "../records.js";
import type { Op, PreviousAddress, Ref } from "../types.js";
import { planAssets, planWebIds } from "../write-only.js";
import type { KindPlanner } from "./kind.js";

/** Why every category delete is destructive (shown per action). */
export const CATEGORY_DELETE_REASON = "products classified here lose this category; the API cannot tell how many";

/** The remote tree, indexed the ways matching needs. */
interface Tree {
  byId: Map<number, RemoteCategory>;
  /** By path key: built on first use (only a previous_paths entry looks a category up by path). */
  byPath: () => Map<string, RemoteCategory>;
  children: Map<number | null, Map<string, RemoteCategory>>;
}

function indexTree(remote: readonly RemoteCategory[]): Tree {
  const children = new Map<number | null, Map<string, RemoteCategory>>();
  for (const c of remote) {
    let m = children.get(c.parent_id);
    if (!m) children.set(c.parent_id, (m = new Map()));
    m.set(c.name, c);
  }
  let byPath: Map<string, RemoteCategory> | undefined;
  return { byId: new Map(remote.map((c) => [c.id, c])), byPath: () => (byPath ??= new Map(remote.map((c) => [pathKey(c.path), c]))), children };
}

export const categories: KindPlanner = {
  kind: "categories",

  plan(ctx: PlanContext): void {
    const remote = ctx.remote.categories;
    const tree = indexTree(remote);
    const claimed = new Set<RemoteCategory>();
    const matchedRemote = new Map<string, RemoteCategory>(); // desired path key -> remote
    const claimedPath = new Map<number, string[]>(); // remote id -> the desired path it takes
    // The ledger's ids by the path pimctl applied: built on first use (a category no name matched).
    let remembered: Map<string, number | null> | undefined;

    const desired = ctx.desired.categories; // pre-order: parents first
    // Only a previous_names or previous_paths entry asks whether a tenant's category is declared: built then.
    let desiredKeys: Set<string> | undefined;
    const free = (c: RemoteCategory | undefined): c is RemoteCategory =>
      c !== undefined && !claimed.has(c) && !(desiredKeys ??= new Set(desired.map((x) => pathKey(x.path)))).has(pathKey(c.path));
    for (const d of desired) {
      const key = pathKey(d.path);
      // The parent's key is this key less its last segment (escaped as pathKey escapes it).
      const parentKey = d.path.length > 1 ? key.slice(0, key.length - pathKey([d.name]).length - 1) : null;
      const parentRemote = parentKey === null ? null : matchedRemote.get(parentKey);
      let r: RemoteCategory | undefined;
      let via: PreviousAddress["via"] | undefined;
      if (parentRemote !== undefined) {
        const siblings = tree.children.get(parentRemote === null ? null : parentRemote.id);
        // 1. Same name under the matched parent (follows renames of ancestors).
        const same = siblings?.get(d.name);
        if (same && !claimed.has(same)) r = same;
        // 2. previous_names within the same parent.
        for (const prev of r ? [] : (d.previous_names ?? [])) {
          const c = siblings?.get(prev);
          if (free(c)) {
            r = c;
            via = "previous_names";
            break;
          }
        }
      }
      // 3. previous_paths anywhere in the tree (a move).
      for (const prev of r ? [] : (d.previous_paths ?? [])) {
        const c = tree.byPath().get(pathKey(prev));
        if (free(c)) {
          r = c;
          via = "previous_paths";
          break;
        }
      }
      // 4. Renamed by hand in the PIM: the id the ledger remembers under this path (or a previous one), still in its place.
      if (!r) {
        remembered ??= idsByKey(ctx.ledger?.names?.categories);
        r = renamedInPlace(ctx, d, parentRemote, tree, remembered, free);
        if (r) via = "ledger";
      }
      if (r) {
        claimed.add(r);
        matchedRemote.set(key, r);
        claimedPath.set(r.id, d.path);
        // With its path: a targeted plan reads it by this id (src/state/by-id.ts).
        ctx.own("categories", r.id, key, d);
      } else ctx.ownership.created("categories", addr.category(d.path), key, d);
      planCategory(ctx, d, key, r, via, parentKey, parentRemote, tree.byId);
    }
    planUndeclared(ctx, remote, tree, claimed, plannedPathOf(tree, claimedPath));
  },
};

/** Path key -> id from the ledger's names (a path held by two ids is ambiguous: null). */
function idsByKey(names: Readonly<Record<string, string>> | undefined): Map<string, number | null> {
  const out = new Map<string, number | null>();
  for (const [id, key] of Object.entries(names ?? {})) out.set(key, out.has(key) ? null : Number(id));
  return out;
}

/**
 * The tenant's category the ledger remembers under the entry's path, or under a path the manifests
 * renamed or moved it from before that was applied (previous_names, previous_paths), renamed there
 * by hand: still under the parent it had (the matched parent for its path and previous names, the
 * previous path's parent for a move), and its identity checks out.
 */
function renamedInPlace(
  ctx: PlanContext,
  d: Category,
  parentRemote: RemoteCategory | null | undefined,
  tree: Tree,
  remembered: Map<string, number | null>,
  free: (c: RemoteCategory | undefined) => c is RemoteCategory,
): RemoteCategory | undefined {
  const parent = d.path.slice(0, -1);
  const inPlace = [d.name, ...(d.previous_names ?? [])].map((n) => ({ path: [...parent, n], parent: parentRemote }));
  const moved = (d.previous_paths ?? []).map((path) => ({ path, parent: undefined }));
  for (const was of parentRemote === undefined ? moved : [...inPlace, ...moved]) {
    const c = tree.byId.get(remembered.get(pathKey(was.path)) ?? -1);
    if (!free(c)) continue;
    const placed = was.parent !== undefined ? c.parent_id === (was.parent?.id ?? null) : pathKey(c.path.slice(0, -1)) === pathKey(was.path.slice(0, -1));
    if (placed && renamedByHand(ctx, c, [...was.path.slice(0, -1), c.name])) return c;
  }
  return undefined;
}

/** The record's fields as its fingerprint reads them: attribute sets by today's names. */
function categoryView(ctx: PlanContext, c: RemoteCategory): RemoteCategory {
  return c.attribute_sets ? { ...c, attribute_sets: c.attribute_sets.map((s) => ctx.current("attribute_sets", s)) } : c;
}

/**
 * Whether the tenant's category, at `planned` once its parent's renames are done, is the one the
 * ledger remembers under its id, renamed (and not at a path the ledger remembers for another).
 */
function renamedByHand(ctx: PlanContext, c: RemoteCategory, planned: string[]): boolean {
  const key = pathKey(planned);
  return !ctx.ownership.heldByAnother("categories", c.id, key) && ctx.ownership.judge("categories", c.id, key, categoryView(ctx, c)).is === "renamed";
}

/** The path a tenant category has once this plan's renames and moves of its ancestors are done (its own name kept). */
function plannedPathOf(tree: Tree, claimedPath: ReadonlyMap<number, string[]>): (c: RemoteCategory) => string[] {
  const memo = new Map<number, string[]>();
  const of = (c: RemoteCategory, depth: number): string[] => {
    const known = claimedPath.get(c.id) ?? memo.get(c.id);
    if (known) return known;
    const parent = c.parent_id === null ? undefined : tree.byId.get(c.parent_id);
    // A cycle in the tenant's data ends the walk (the read already cut it: categories.ts pathOf).
    const path = [...(parent && depth < 1000 ? of(parent, depth + 1) : []), c.name];
    memo.set(c.id, path);
    return path;
  };
  return (c) => {
    const parent = c.parent_id === null ? undefined : tree.byId.get(c.parent_id);
    return [...(parent ? of(parent, 0) : []), c.name];
  };
}

/** Deletes: children before parents (reverse pre-order of the remote tree). */
function planUndeclared(
  ctx: PlanContext,
  remote: readonly RemoteCategory[],
  tree: Tree,
  claimed: Set<RemoteCategory>,
  planned: (c: RemoteCategory) => string[],
): void {
  // Categories whose parent vanished during the read are not in `remote` (their place is
  // unknown): nothing in their subtrees is planned, and the plan says so.
  for (const o of ctx.remote.orphan_categories ?? []) {
    ctx.warnings.push(`categories: "${o.name}" (id ${o.id}) and its subtree are left alone this run: ${o.reason}; plan again to see it in place`);
  }
  // A category list that kept changing while read may lack categories that exist: no deletes on doubt.
  const doubt = ctx.remote.read_doubts?.categories;
  if (doubt && ctx.prune("categories") && remote.some((c) => !claimed.has(c))) {
    ctx.warnings.push(`categories: no deletes planned, the category tree could not be read consistently (${doubt}); plan again when the tenant is quiet`);
    return;
  }
  const undeclared = remote.filter((c) => !claimed.has(c)).sort((a, b) => b.path.length - a.path.length || compareText(pathKey(a.path), pathKey(b.path)));
  // Undeclared categories that stay (not prunable, or not pimctl's to prune): their ancestors stay too.
  const staying = new Set<number>();
  for (const r of undeclared) {
    const address = addr.category(r.path);
    const children = [...(tree.children.get(r.id)?.values() ?? [])];
    const identity = { key: pathKey(planned(r)), record: categoryView(ctx, r) };
    if (children.some((c) => staying.has(c.id)) || !ctx.mayDelete("categories", r.id, identity)) {
      staying.add(r.id);
      ctx.noteUnmanaged("categories", address, r.id);
      continue;
    }
    const depends = children.filter((c) => !claimed.has(c)).map((c) => addr.category(c.path));
    // Children that stay must move out first.
    for (const kept of children.filter((c) => claimed.has(c))) {
      const a = [...ctx.actions.values()].find((x) => x.type === "category" && x.refs.self && "id" in x.refs.self && x.refs.self.id === kept.id);
      if (a) depends.push(a.address);
      else
        ctx.errors.push(new PimctlError("plan_refused", `category "${pathKey(kept.path)}" is declared, but its parent "${pathKey(r.path)}" would be deleted`));
    }
    // Always destructive: API v1 cannot count a category's products, so assume it has some.
    const notes = [CATEGORY_DELETE_REASON, ...(r.child_count > 0 ? [`has ${plural(r.child_count, "child category", "child categories")}`] : [])];
    leftover(ctx, {
      table: "categories",
      key: identity.key,
      view: identity.record,
      kind: "categories",
      type: "category",
      address,
      remote: r,
      change: { field: "name", before: r.name },
      notes,
      depends_on: depends,
    });
  }
}

function planCategory(
  ctx: PlanContext,
  d: Category,
  key: string,
  r: RemoteCategory | undefined,
  via: PreviousAddress["via"] | undefined,
  parentKey: string | null,
  parentRemote: RemoteCategory | null | undefined,
  byId: Map<number, RemoteCategory>,
): void {
  const source = d.source ? { source: d.source } : {};
  const refs: Record<string, Ref> = {};
  if (parentKey !== null) {
    const p = ctx.refs.categories.get(parentKey);
    if (p) refs.parent = p;
  }
  for (const s of d.attribute_sets ?? []) {
    const ref = ctx.ref("attribute_sets", s, d.source);
    if (ref) refs[`attribute_set:${s}`] = ref;
  }
  // Addresses are printed only where an action or a reference needs one: a no-op plan at scale prints none.
  if (!r) {
    const address = addr.category(d.path);
    ctx.refs.categories.set(key, { address });
    ctx.add(
      {
        address,
        kind: "categories",
        type: "category",
        op: "create",
        changes: [{ field: "parent", after: parentKey }, ...createChanges(d, FIELDS.category)],
        refs,
        identity: { parent: parentKey },
        ...source,
      },
      null,
    );
  } else {
    ctx.refs.categories.set(key, { id: r.id });
    const changes = updateChanges(d, { ...r, attribute_sets: r.attribute_sets?.map((s) => ctx.current("attribute_sets", s)) }, FIELDS.category);
    const newParentId = parentRemote === undefined ? undefined : parentRemote === null ? null : parentRemote.id;
    const moved = newParentId === undefined || newParentId !== r.parent_id;
    if (moved) {
      // Moving under one of its own descendants would make a cycle: refuse now, not halfway through apply.
      if (newParentId !== undefined && newParentId !== null && isDescendant(byId, newParentId, r.id)) {
        ctx.errors.push(
          new PimctlError(
            "cycle",
            `category "${key}" cannot move into its own subtree ("${pathKey(r.path)}" is an ancestor of its new parent)`,
            d.source ? { location: d.source } : {},
          ),
        );
      }
      changes.unshift({ field: "parent", before: r.path.length > 1 ? pathKey(r.path.slice(0, -1)) : null, after: parentKey });
    }
    if (changes.length) {
      const op: Op = moved ? "move" : via ? "rename" : "update";
      ctx.add(
        {
          address: addr.category(d.path),
          kind: "categories",
          type: "category",
          op,
          changes,
          refs: { ...refs, self: { id: r.id } },
          ...(via ? { previous: { address: addr.category(r.path), via } } : {}),
          ...(moved ? { identity: { parent: parentKey } } : {}),
          ...source,
        },
        // The record as read, less its child count: a read by id (plan --target) does not know it,
        // and a child created elsewhere is no drift of this record (a delete's fingerprint keeps it);
        // less what API v1 cannot write (its versions: no plan writes them, records.ts writableView).
        writableView({ ...r, child_count: undefined }, CATEGORY),
      );
    }
  }
  const catRef = ctx.refs.categories.get(key)!;
  for (const [version, fields] of sortedEntries(d.versions)) {
    const have = r?.versions?.[version] ?? {};
    const changes = r ? updateChanges(fields, have, FIELDS.category_version) : createChanges(fields, FIELDS.category_version);
    if (changes.length) {
      unsupportedVersion(ctx, {
        kind: "categories",
        type: "category_version",
        address: addr.categoryVersion(d.path, version),
        changes,
        owner: catRef,
        version,
        ...source,
        before: have,
      });
    }
  }
  planCategoryWriteOnly(ctx, d, key, r, via, catRef);
}

/** A category's web ids and assets (write-only), under the ledger's entries of its id while it is the record they were written for. */
function planCategoryWriteOnly(
  ctx: PlanContext,
  d: Category,
  key: string,
  r: RemoteCategory | undefined,
  via: PreviousAddress["via"] | undefined,
  catRef: Ref,
): void {
  // Most categories declare neither: the owner key and labels are not built for them (100,000 a plan at scale).
  if (d.web_ids === undefined && d.assets === undefined) return;
  const source = d.source ? { source: d.source } : {};
  const ownerKey = r ? `category:${r.id}` : undefined;
  // Its write-only entries are its own only while it is the record the ledger remembers under its id.
  if (r) ctx.checkIdentity("categories", ownerKey!, r.id, pathKey(via === "previous_paths" ? r.path : [...d.path.slice(0, -1), r.name]), categoryView(ctx, r));
  planWebIds(ctx, {
    kind: "categories",
    type: "category_web_id",
    want: d.web_ids,
    ownerKey,
    ownerRef: catRef,
    address: (ch) => addr.categoryWebId(d.path, ch),
    ownerLabel: `category "${key}"`,
    ...source,
  });
  planAssets(ctx, {
    kind: "categories",
    type: "category_asset",
    want: d.assets,
    remote: r?.assets,
    ownerKey,
    ownerRef: catRef,
    address: (u) => addr.categoryAsset(d.path, u),
    ...source,
  });
}

function isDescendant(byId: Map<number, RemoteCategory>, candidate: number, ancestor: number): boolean {
  let cur: RemoteCategory | undefined = byId.get(candidate);
  const seen = new Set<number>();
  while (cur && !seen.has(cur.id)) {
    if (cur.id === ancestor) return true;
    seen.add(cur.id);
    cur = cur.parent_id === null ? undefined : byId.get(cur.parent_id);
  }
  return false;
}
