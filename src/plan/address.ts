/**
 * Addresses: the human-readable, stable identity of every plan action, e.g.
 * attribute["Colour"].value["Red"].version["French"] or category["Apparel/Shirts"].
 * Keys are JSON strings so any name (quotes, slashes, unicode) stays unambiguous.
 */
import { pathKey } from "../model/catalogue.js";

const q = (key: string): string => JSON.stringify(key);

export const addr = {
  displayGroup: (name: string) => `display_group[${q(name)}]`,
  attribute: (name: string) => `attribute[${q(name)}]`,
  attributeVersion: (name: string, version: string) => `attribute[${q(name)}].version[${q(version)}]`,
  typeValue: (attribute: string, value: string) => `attribute[${q(attribute)}].value[${q(value)}]`,
  typeValueVersion: (attribute: string, value: string, version: string) =>
    `attribute[${q(attribute)}].value[${q(value)}].version[${q(version)}]`,
  attributeSet: (name: string) => `attribute_set[${q(name)}]`,
  setAttribute: (set: string, attribute: string) => `attribute_set[${q(set)}].attribute[${q(attribute)}]`,
  block: (slug: string) => `block[${q(slug)}]`,
  brand: (name: string) => `brand[${q(name)}]`,
  brandVersion: (name: string, version: string) => `brand[${q(name)}].version[${q(version)}]`,
  brandAsset: (name: string, imageUrl: string) => `brand[${q(name)}].asset[${q(imageUrl)}]`,
  brandWebId: (name: string, channel: string) => `brand[${q(name)}].web_id[${q(channel)}]`,
  brandAttributeValue: (name: string, attribute: string, version: string | null) =>
    `brand[${q(name)}].attribute[${q(attribute)}]` + (version === null ? "" : `.version[${q(version)}]`),
  brandAssignedAttribute: (name: string, attribute: string) => `brand[${q(name)}].assigned_attribute[${q(attribute)}]`,
  brandAttributeSet: (name: string, set: string) => `brand[${q(name)}].attribute_set[${q(set)}]`,
  category: (path: readonly string[]) => `category[${q(pathKey(path))}]`,
  categoryVersion: (path: readonly string[], version: string) => `category[${q(pathKey(path))}].version[${q(version)}]`,
  categoryAsset: (path: readonly string[], imageUrl: string) => `category[${q(pathKey(path))}].asset[${q(imageUrl)}]`,
  categoryWebId: (path: readonly string[], channel: string) => `category[${q(pathKey(path))}].web_id[${q(channel)}]`,
};

/** The top-level record an address belongs to: brand["Acme"].asset["x"] -> brand["Acme"]. */
export function rootAddress(address: string): string {
  const end = address.indexOf("].");
  return end === -1 ? address : address.slice(0, end + 1);
}

/** The resource prefix of an address (`attribute`, `brand`, ...). */
export function addressKind(address: string): string {
  const i = address.indexOf("[");
  return i === -1 ? address : address.slice(0, i);
}
