/**
 * Ledger keys ("brand:12", "category:7") <-> plan addresses (brand["Acme"],
 * category["Apparel/Shirts"]), for `pimctl state show` and `state rm`. The
 * ledger is keyed by id so renames keep their entries; people think in names.
 * Resolving costs one bulk listing per kind, and only for kinds asked about.
 */
import { addr } from "../plan/address.js";
import { parsePathKey } from "../model/catalogue.js";
import type { PimApi } from "../api/types.js";
import { PimctlError } from "../errors.js";

export type RecordKind = "brand" | "category";

export interface RecordNames {
  brands: Map<number, string>;
  categories: Map<number, string[]>;
}

export async function recordNames(api: PimApi, kinds: ReadonlySet<RecordKind>): Promise<RecordNames> {
  const brands = new Map<number, string>();
  const categories = new Map<number, string[]>();
  if (kinds.has("brand")) for (const b of await api.listBrands()) brands.set(b.id, b.name);
  if (kinds.has("category")) {
    const all = await api.listCategories();
    const byId = new Map(all.map((c) => [c.id, c]));
    const pathOf = (id: number, seen = new Set<number>()): string[] => {
      const c = byId.get(id);
      if (!c || seen.has(id)) return [];
      seen.add(id);
      return [...(c.parent_id ? pathOf(c.parent_id, seen) : []), c.name];
    };
    for (const c of all) categories.set(c.id, pathOf(c.id));
  }
  return { brands, categories };
}

/** The address of a ledger record, or undefined when the tenant no longer has it. */
export function addressOf(names: RecordNames, kind: RecordKind, id: number): string | undefined {
  if (kind === "brand") {
    const n = names.brands.get(id);
    return n === undefined ? undefined : addr.brand(n);
  }
  const p = names.categories.get(id);
  return p === undefined ? undefined : addr.category(p);
}

/** What `state rm` was given: a ledger key (no tenant needed) or an address (resolved by name). */
export type RecordRef = { kind: RecordKind; id: number } | { kind: RecordKind; name: string } | { kind: "category"; path: string[] };

export function parseRecordRef(text: string): RecordRef {
  const key = /^(brand|category):(\d+)$/.exec(text);
  if (key) return { kind: key[1] as RecordKind, id: Number(key[2]) };
  const a = /^(brand|category)\[("(?:[^"\\]|\\.)*")\]/.exec(text);
  if (a) {
    const name = JSON.parse(a[2]!) as string;
    return a[1] === "brand" ? { kind: "brand", name } : { kind: "category", path: parsePathKey(name) };
  }
  throw new PimctlError(
    "usage",
    `"${text}" is not a ledger record: give an address like brand["Acme"] or category["Apparel/Shirts"], or a ledger key like brand:12 (see pimctl state show)`,
  );
}

export function resolveRef(ref: RecordRef, names: RecordNames): { kind: RecordKind; id: number } | undefined {
  if ("id" in ref) return ref;
  if ("name" in ref) {
    for (const [id, n] of names.brands) if (n === ref.name) return { kind: "brand", id };
    return undefined;
  }
  const want = JSON.stringify(ref.path);
  for (const [id, p] of names.categories) if (JSON.stringify(p) === want) return { kind: "category", id };
  return undefined;
}
