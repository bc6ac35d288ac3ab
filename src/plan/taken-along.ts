/**
 * What a delete takes along in the tenant, by address: an attribute's type values, a brand's or a
 * category's assets. The protect rules (scope.ts) are checked against these too: a protected
 * record must not go with its parent, as a type value does when its attribute's previous_names
 * entry is removed before the tenant has the new name (the attribute is then deleted and created
 * again). An asset's address holds the image_url it was written from, which API v1 does not read
 * back: the ledger remembers it, by the owner's id. Pure.
 */
import type { RemoteCatalogue } from "../model/remote.js";
import { addr } from "./address.js";
import type { LedgerView } from "./context.js";
import type { Action } from "./types.js";

/** The addresses of the records deleting `a` removes with it (none for other kinds, or a record not read). */
export function takenAlong(a: Action, remote: RemoteCatalogue, ledger: LedgerView | undefined): string[] {
  const self = a.refs.self;
  if (a.op !== "delete" || !self || !("id" in self)) return [];
  const id = self.id;
  const urls = (owner: "brand" | "category") => Object.values(ledger?.assets[`${owner}:${id}`] ?? {}).map((x) => x.image_url);
  if (a.type === "attribute") {
    const attribute = remote.attributes.find((x) => x.id === id);
    return attribute ? attribute.values.map((v) => addr.typeValue(attribute.name, v.value)) : [];
  }
  if (a.type === "brand") {
    const brand = remote.brands.find((x) => x.id === id);
    return brand ? urls("brand").map((u) => addr.brandAsset(brand.name, u)) : [];
  }
  if (a.type === "category") {
    const category = remote.categories.find((x) => x.id === id);
    return category ? urls("category").map((u) => addr.categoryAsset(category.path, u)) : [];
  }
  return [];
}
