/**
 * What a narrowed plan (--target, --exclude, the config's ignore:) needs read,
 * decided before the tenant is read: the targeted records plus everything
 * their actions can depend on (a brand's attributes and sets, a set's
 * attributes, an attribute's display group, a category's parent chain and
 * sets, and any record whose rename or move frees a targeted name). The plan
 * made from this smaller catalogue, narrowed by the same selectors, equals the
 * full plan narrowed (test/cli/targeted-read.test.ts).
 *
 * Where that cannot be shown cheaply the whole catalogue is read, as before:
 * a target on an attribute, set or display group the manifests do not declare
 * (its delete waits for the sets and categories that stop using it), globs and
 * whole kinds other than brands, blocks and categories.
 */
import type { Catalogue, Kind } from "../model/catalogue.js";
import { addr, parseAddress, printAddress } from "./address.js";
import { parseSelector, type Selector } from "./selectors.js";

export interface ReadScope {
  /** The catalogue the read and the plan are made from. */
  desired: Catalogue;
  /** Brands the targets name that the manifests do not (a delete or an unmanaged record): searched too. */
  alsoBrands: string[];
  /** Search the brands by name without the first page, and list them only when a target needs every brand. */
  searchBrands: boolean;
  /** Kinds the selectors keep whole (so pruning must still list them). */
  wholeKinds: Set<Kind>;
  /**
   * Every target names a record of the manifests (no glob, kind or tenant-only record): its
   * attributes and categories may be read by the ledger's ids (src/state/by-id.ts).
   */
  byLedgerIds: boolean;
}

/** A record of the catalogue with what read scoping needs of it: its address and the addresses it was known by. */
export type ScopedRecord = { kind: Kind; name: string; address: string; previous: string[]; record: unknown };
type Rec = ScopedRecord;

export function scopedRecords(c: Catalogue): Rec[] {
  const out: Rec[] = [];
  for (const r of c.display_groups) out.push({ kind: "display_groups", name: r.name, address: addr.displayGroup(r.name), previous: [], record: r });
  for (const r of c.attributes)
    out.push({ kind: "attributes", name: r.name, address: addr.attribute(r.name), previous: (r.previous_names ?? []).map(addr.attribute), record: r });
  for (const r of c.attribute_sets)
    out.push({
      kind: "attribute_sets",
      name: r.name,
      address: addr.attributeSet(r.name),
      previous: (r.previous_names ?? []).map(addr.attributeSet),
      record: r,
    });
  for (const r of c.blocks) out.push({ kind: "blocks", name: r.slug, address: addr.block(r.slug), previous: previousOf(r).map(addr.block), record: r });
  for (const r of c.brands)
    out.push({ kind: "brands", name: r.name, address: addr.brand(r.name), previous: (r.previous_names ?? []).map(addr.brand), record: r });
  for (const r of c.categories) {
    const previous = [...(r.previous_paths ?? []), ...(r.previous_names ?? []).map((n) => [...r.path.slice(0, -1), n])].map(addr.category);
    out.push({ kind: "categories", name: r.name, address: addr.category(r.path), previous, record: r });
  }
  return out;
}

/** Any `previous_*` list a record may carry (blocks have none today; a future one is honoured). */
function previousOf(r: object): string[] {
  return Object.entries(r).flatMap(([k, v]) => (k.startsWith("previous_") && Array.isArray(v) ? v.filter((x): x is string => typeof x === "string") : []));
}

/** The record address at the root of an exact selector (`attribute["A"].value["V"]` -> `attribute["A"]`). */
function rootOf(s: Selector): string | undefined {
  const a = parseAddress(s.text);
  return a ? printAddress({ segments: [a.segments[0]] }) : undefined;
}

const NARROWABLE_WHOLE: ReadonlySet<Kind> = new Set(["brands", "blocks", "categories"]);

/**
 * The read scope for these selectors, or undefined when the whole catalogue
 * must be read (no selectors, or one this module does not narrow safely).
 */
export function readScope(
  desired: Catalogue,
  opts: { targets?: readonly string[]; excludes?: readonly string[]; ignore?: readonly string[] },
): ReadScope | undefined {
  if (!opts.targets?.length && !opts.excludes?.length && !opts.ignore?.length) return undefined;
  let targets: Selector[];
  let excludes: Selector[];
  try {
    targets = (opts.targets ?? []).map(parseSelector);
    excludes = [...(opts.excludes ?? []), ...(opts.ignore ?? [])].map(parseSelector);
  } catch {
    // A bad selector: the full read, after which narrowing reports every problem at once.
    return undefined;
  }
  const all = scopedRecords(desired);
  const byAddress = new Map(all.map((r) => [r.address, r]));
  const wholeKinds = new Set<Kind>();
  const alsoBrands: string[] = [];
  let searchBrands = true;
  let byLedgerIds = targets.length > 0;
  let keep: Set<Rec>;
  // Excluded brands and blocks need not be read: nothing depends on them, unless a rename ties
  // them to another record (a create waits for the rename that frees its name).
  const freedNames = new Set(all.flatMap((r) => r.previous));
  const dropExcluded = (): void => {
    for (const r of [...keep]) {
      if (r.kind !== "brands" && r.kind !== "blocks") continue;
      if (!excludes.some((e) => e.matches(r.address) || e.text === r.kind)) continue;
      if (r.previous.length || freedNames.has(r.address)) continue;
      keep.delete(r);
    }
  };
  if (!targets.length) keep = new Set(all);
  else {
    keep = new Set();
    for (const t of targets) {
      const kind = t.kind!;
      if (t.text === kind || t.text.includes("*")) {
        if (!NARROWABLE_WHOLE.has(kind)) return undefined;
        byLedgerIds = false;
        if (t.text === kind) wholeKinds.add(kind);
        // A glob may match records only the tenant has: that kind is read as without targets.
        if (kind === "brands") searchBrands = false;
        if (t.text.includes("*") && kind !== "categories") wholeKinds.add(kind);
        for (const r of all) if (r.kind === kind && (t.text === kind || t.matches(r.address))) keep.add(r);
        continue;
      }
      const root = rootOf(t);
      // Not an address (brand[Zenith], unquoted): the full read, after which narrowing reports it with did-you-mean.
      if (root === undefined) return undefined;
      const r = byAddress.get(root);
      // A record only the tenant has is found by listing, not by the ledger's ids.
      if (!r) byLedgerIds = false;
      if (r) keep.add(r);
      else {
        // A record renamed or moved away from this address, or for a category from under it (a child moved out of a
        // category the tenant alone has), claims the tenant's record there: without it, that record would read as
        // undeclared (a delete the full plan does not make: it moves the child out before the parent's delete).
        const under = kind === "categories" ? `${root.slice(0, -2)}/` : undefined;
        for (const o of all) if (o.kind === kind && o.previous.some((p) => p === root || (under && p.startsWith(under)))) keep.add(o);
        if (kind === "brands") alsoBrands.push(JSON.parse(root.slice("brand[".length, -1)) as string);
        else if (kind !== "categories" && kind !== "blocks") return undefined;
      }
    }
    // Dropped before the closure too: what only an excluded brand needs (its attributes and sets) need not be read.
    dropExcluded();
    closeOver(keep, all);
  }
  dropExcluded();
  const excludedKinds = new Set(excludes.filter((e) => e.text === e.kind && (e.kind === "brands" || e.kind === "blocks")).map((e) => e.kind!));
  const kept = new Set([...keep].map((r) => r.record));
  const keptKinds = new Set([...keep].map((r) => r.kind));
  for (const t of targets) keptKinds.add(t.kind!);
  const managed = desired.managed.filter((k) => !excludedKinds.has(k) && (!targets.length || keptKinds.has(k)));
  const only = <T>(list: T[]): T[] => list.filter((x) => kept.has(x));
  const narrowed: Catalogue = {
    managed,
    versions: desired.versions,
    display_groups: only(desired.display_groups),
    attributes: only(desired.attributes),
    attribute_sets: only(desired.attribute_sets),
    blocks: only(desired.blocks),
    brands: only(desired.brands),
    categories: only(desired.categories),
  };
  return { desired: narrowed, alsoBrands, searchBrands: searchBrands && targets.length > 0, wholeKinds, byLedgerIds };
}

/**
 * The addresses of the records this record's actions can depend on: a brand's attributes and
 * sets, a set's attributes, an attribute's display group, a category's parent chain and sets.
 * (A record whose rename or move frees this one's name is found the other way: closeOver.)
 * The one list of these rules: the targeted load (src/workflows/targeted-load.ts) follows them too.
 */
export function dependencies(r: Rec): string[] {
  switch (r.kind) {
    case "attributes": {
      const group = (r.record as Catalogue["attributes"][number]).display_group;
      return group == null ? [] : [addr.displayGroup(group)];
    }
    case "attribute_sets":
      return ((r.record as Catalogue["attribute_sets"][number]).attributes ?? []).map(addr.attribute);
    case "brands": {
      const b = r.record as Catalogue["brands"][number];
      return [
        ...Object.keys(b.attributes ?? {}).map(addr.attribute),
        ...(b.assigned_attributes ?? []).map(addr.attribute),
        ...(b.attribute_sets ?? []).map(addr.attributeSet),
      ];
    }
    case "categories": {
      const c = r.record as Catalogue["categories"][number];
      const parents = [];
      for (let i = c.path.length - 1; i > 0; i--) parents.push(addr.category(c.path.slice(0, i)));
      return [...(c.attribute_sets ?? []).map(addr.attributeSet), ...parents];
    }
    default:
      return [];
  }
}

/** Add what the kept records' actions can depend on, until nothing more is added. */
function closeOver(keep: Set<Rec>, all: Rec[]): void {
  const byAddress = new Map(all.map((r) => [r.address, r]));
  const add = (r: Rec | undefined) => {
    if (r && !keep.has(r)) {
      keep.add(r);
      queue.push(r);
    }
  };
  const queue = [...keep];
  while (queue.length) {
    const r = queue.pop()!;
    // A record whose rename or move frees this one's name: this one's create waits for it.
    for (const o of all) if (o.kind === r.kind && o.previous.includes(r.address)) add(o);
    for (const d of dependencies(r)) add(byAddress.get(d));
  }
}
