/**
 * Addresses: the human-readable, stable identity of every plan action, e.g.
 * attribute["Colour"].value["Red"].version["French"] or category["Apparel/Shirts"].
 *
 * An address is a typed value (a list of segments, each a record type and a
 * key) with one printer and one parser that round-trip any name: keys are
 * printed as JSON strings, so quotes, "].", slashes and unicode stay
 * unambiguous. Plans carry the printed form; code that needs the parts parses
 * it here instead of slicing strings.
 */
import { parsePathKey, pathKey, type Kind } from "../model/catalogue.js";

/** Record types an address segment can name, root types first. */
export const SEGMENT_TYPES = [
  "display_group",
  "attribute",
  "attribute_set",
  "block",
  "brand",
  "category",
  "version",
  "value",
  "asset",
  "web_id",
  "assigned_attribute",
  // One text of a language version that holds several (a category's name, desc, ...): translation units.
  "field",
] as const;
export type SegmentType = (typeof SEGMENT_TYPES)[number];
export type RootType = "display_group" | "attribute" | "attribute_set" | "block" | "brand" | "category";
export const ROOT_TYPES: readonly RootType[] = ["display_group", "attribute", "attribute_set", "block", "brand", "category"];
/** A root record type (`brand`) -> the manifest kind its records are declared under (`brands`). */
export const ROOT_KIND: Readonly<Record<RootType, Kind>> = {
  display_group: "display_groups",
  attribute: "attributes",
  attribute_set: "attribute_sets",
  block: "blocks",
  brand: "brands",
  category: "categories",
};

export interface Segment {
  type: SegmentType;
  /** The name, value, slug, version name, channel or image_url; a category path as its path key. */
  key: string;
}

export interface Address {
  segments: [Segment, ...Segment[]];
}

export function printAddress(a: Address): string {
  return a.segments.map((s) => `${s.type}[${JSON.stringify(s.key)}]`).join(".");
}

/** Parse a printed address; undefined when the text is not one (user input goes through here). */
export function parseAddress(text: string): Address | undefined {
  const segments: Segment[] = [];
  let i = 0;
  while (i < text.length) {
    if (segments.length) {
      if (text[i] !== ".") return undefined;
      i++;
    }
    const open = text.indexOf("[", i);
    if (open === -1) return undefined;
    const type = text.slice(i, open);
    if (!(SEGMENT_TYPES as readonly string[]).includes(type)) return undefined;
    const end = endOfJsonString(text, open + 1);
    if (end === -1 || text[end] !== "]") return undefined;
    let key: unknown;
    try {
      key = JSON.parse(text.slice(open + 1, end));
    } catch {
      return undefined;
    }
    if (typeof key !== "string") return undefined;
    segments.push({ type: type as SegmentType, key });
    i = end + 1;
  }
  if (!segments.length || !(ROOT_TYPES as readonly string[]).includes(segments[0]!.type)) return undefined;
  return { segments: segments as Address["segments"] };
}

/** Index just past the JSON string starting at `start` (which must be a quote), or -1. */
function endOfJsonString(text: string, start: number): number {
  if (text[start] !== '"') return -1;
  for (let i = start + 1; i < text.length; i++) {
    const ch = text[i];
    if (ch === "\\") i++;
    else if (ch === '"') return i + 1;
  }
  return -1;
}

const seg = (type: SegmentType, key: string): Segment => ({ type, key });
const print = (...segments: [Segment, ...Segment[]]): string => printAddress({ segments });

/** Builders for every address a plan uses, printed. */
export const addr = {
  displayGroup: (name: string) => print(seg("display_group", name)),
  attribute: (name: string) => print(seg("attribute", name)),
  attributeVersion: (name: string, version: string) => print(seg("attribute", name), seg("version", version)),
  typeValue: (attribute: string, value: string) => print(seg("attribute", attribute), seg("value", value)),
  typeValueVersion: (attribute: string, value: string, version: string) => print(seg("attribute", attribute), seg("value", value), seg("version", version)),
  attributeSet: (name: string) => print(seg("attribute_set", name)),
  setAttribute: (set: string, attribute: string) => print(seg("attribute_set", set), seg("attribute", attribute)),
  block: (slug: string) => print(seg("block", slug)),
  brand: (name: string) => print(seg("brand", name)),
  brandVersion: (name: string, version: string) => print(seg("brand", name), seg("version", version)),
  brandAsset: (name: string, imageUrl: string) => print(seg("brand", name), seg("asset", imageUrl)),
  brandWebId: (name: string, channel: string) => print(seg("brand", name), seg("web_id", channel)),
  brandAttributeValue: (name: string, attribute: string, version: string | null) =>
    version === null ? print(seg("brand", name), seg("attribute", attribute)) : print(seg("brand", name), seg("attribute", attribute), seg("version", version)),
  brandAssignedAttribute: (name: string, attribute: string) => print(seg("brand", name), seg("assigned_attribute", attribute)),
  brandAttributeSet: (name: string, set: string) => print(seg("brand", name), seg("attribute_set", set)),
  category: (path: readonly string[]) => print(seg("category", pathKey(path))),
  categoryVersion: (path: readonly string[], version: string) => print(seg("category", pathKey(path)), seg("version", version)),
  categoryAsset: (path: readonly string[], imageUrl: string) => print(seg("category", pathKey(path)), seg("asset", imageUrl)),
  categoryWebId: (path: readonly string[], channel: string) => print(seg("category", pathKey(path)), seg("web_id", channel)),
};

/** The same address with its last segment's key replaced: where a renamed record was. */
export function withLastKey(address: string, key: string): string {
  const parsed = parseAddress(address);
  if (!parsed) return address;
  const segments = parsed.segments.map((s, i) => (i === parsed.segments.length - 1 ? { ...s, key } : s)) as Address["segments"];
  return printAddress({ segments });
}

/** The key of an address's last segment (a name, value, or category path key). */
export function lastKey(address: string): string | undefined {
  const parsed = parseAddress(address);
  return parsed?.segments[parsed.segments.length - 1]!.key;
}

/** The top-level record an address belongs to: brand["Acme"].asset["x"] -> brand["Acme"]. */
export function rootAddress(address: string): string {
  const parsed = parseAddress(address);
  return parsed ? printAddress({ segments: [parsed.segments[0]] }) : address;
}

/** The root record type of an address (`attribute`, `brand`, ...). */
export function addressKind(address: string): RootType | undefined {
  return parseAddress(address)?.segments[0].type as RootType | undefined;
}

/** A category address's path of names. */
export function categoryPath(address: Address): string[] | undefined {
  const root = address.segments[0];
  return root.type === "category" ? parsePathKey(root.key) : undefined;
}

/** Whether `address` is `prefix` or a sub-record of it (compared segment by segment). */
export function isUnder(address: Address, prefix: Address): boolean {
  if (prefix.segments.length > address.segments.length) return false;
  return prefix.segments.every((s, i) => s.type === address.segments[i]!.type && s.key === address.segments[i]!.key);
}
