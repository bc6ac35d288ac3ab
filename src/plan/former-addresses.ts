/**
 * The addresses a record had before the manifests renamed or moved it, or
 * renamed or moved one of its parents (previous_names, previous_paths,
 * previous_values): `protect:` rules written for the old address keep finding
 * the record after the move is applied, as long as the manifests say where it
 * came from. Pure: the manifests only, no tenant.
 */
import { parsePathKey, pathKey, type Catalogue } from "../model/catalogue.js";
import { parseAddress, printAddress, type Segment } from "./address.js";

/** Enough for any real chain of moves; a bound, so aliases that point at each other end. */
const MAX_ALIASES = 256;

/** address -> the addresses the same record had before (never itself); [] when none. */
export function formerAddresses(desired: Catalogue): (address: string) => string[] {
  // Root records renamed with previous_names: "<type>\u0000<name>" -> earlier names.
  const renamed = new Map<string, string[]>();
  const add = (type: string, name: string, previous: readonly string[] | undefined) => {
    if (previous?.length) renamed.set(`${type}\u0000${name}`, [...previous]);
  };
  for (const r of desired.display_groups) add("display_group", r.name, (r as { previous_names?: string[] }).previous_names);
  for (const r of desired.attributes) add("attribute", r.name, r.previous_names);
  for (const r of desired.attribute_sets) add("attribute_set", r.name, r.previous_names);
  for (const r of desired.brands) add("brand", r.name, r.previous_names);
  // Type values renamed with previous_values, under their attribute's current name.
  const values = new Map<string, string[]>();
  for (const a of desired.attributes)
    for (const v of a.values ?? []) if (v.previous_values?.length) values.set(`${a.name}\u0000${v.value}`, [...v.previous_values]);
  // Categories: path key -> the paths it had (previous_paths, and previous_names within its parent).
  const moved = new Map<string, string[][]>();
  for (const c of desired.categories) {
    const previous = [...(c.previous_paths ?? []), ...(c.previous_names ?? []).map((n) => [...c.path.slice(0, -1), n])];
    if (previous.length) moved.set(pathKey(c.path), previous);
  }
  if (!renamed.size && !values.size && !moved.size) return () => [];

  /** Every earlier path of a category path: any prefix that moved, recursively (a parent moved, then the record). */
  const categoryPaths = (path: string[]): string[][] => {
    const seen = new Set([pathKey(path)]);
    const queue = [path];
    const out: string[][] = [];
    while (queue.length && out.length < MAX_ALIASES) {
      const p = queue.shift()!;
      for (let k = 1; k <= p.length; k++) {
        for (const before of moved.get(pathKey(p.slice(0, k))) ?? []) {
          const next = [...before, ...p.slice(k)];
          const key = pathKey(next);
          if (seen.has(key)) continue;
          seen.add(key);
          out.push(next);
          queue.push(next);
        }
      }
    }
    return out;
  };

  return (address: string): string[] => {
    const parsed = parseAddress(address);
    if (!parsed) return [];
    const [root, ...rest] = parsed.segments;
    const roots: Segment[] =
      root.type === "category"
        ? [root, ...categoryPaths(parsePathKey(root.key)).map((p) => ({ type: "category" as const, key: pathKey(p) }))]
        : [root, ...(renamed.get(`${root.type}\u0000${root.key}`) ?? []).map((key) => ({ type: root.type, key }))];
    const firstRest = rest[0];
    const heads: Segment[][] =
      root.type === "attribute" && firstRest?.type === "value"
        ? [[firstRest], ...(values.get(`${root.key}\u0000${firstRest.key}`) ?? []).map((key) => [{ type: "value" as const, key }])]
        : [firstRest ? [firstRest] : []];
    const tail = rest.slice(1);
    const out: string[] = [];
    for (const r of roots) for (const h of heads) out.push(printAddress({ segments: [r, ...h, ...tail] }));
    return out.filter((a) => a !== address);
  };
}
