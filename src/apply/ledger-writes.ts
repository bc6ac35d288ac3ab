/** What the applier remembers in the ledger once the tenant confirmed a write (write-only values, ids retired). */
import type { Action } from "../plan/types.js";
import type { Ledger } from "../state/ledger.js";
import type { IdOf } from "./requests.js";

/** Write-only values, remembered only once the tenant confirmed the write. */
export function recordInLedger(ledger: Ledger | undefined, a: Action, createdId: number | undefined, idOf: IdOf): void {
  if (!ledger) return;
  const ownerKind = a.type.startsWith("brand") ? "brand" : "category";
  switch (a.type) {
    case "brand_web_id":
    case "category_web_id": {
      const key = `${ownerKind}:${idOf(a.refs.owner, "owner")}`;
      const channel = a.identity?.channel as string;
      (ledger.web_ids[key] ??= {})[channel] = a.changes.find((c) => c.field === "web_id")!.after as string;
      break;
    }
    case "brand_asset":
    case "category_asset": {
      const key = `${ownerKind}:${idOf(a.refs.owner, "owner")}`;
      if (a.op === "delete") {
        delete ledger.assets[key]?.[String(idOf(a.refs.self, "asset"))];
        break;
      }
      const assetId = a.op === "create" ? createdId : idOf(a.refs.self, "asset");
      const url = (a.changes.find((c) => c.field === "image_url")?.after ?? a.identity?.image_url) as string | undefined;
      if (assetId !== undefined && url) (ledger.assets[key] ??= {})[String(assetId)] = { image_url: url };
      break;
    }
    case "brand_assigned_attribute_set": {
      const key = String(idOf(a.refs.brand, "brand"));
      const set = a.identity?.attribute_set as string;
      const list = (ledger.brand_attribute_sets[key] ??= []);
      if (!list.includes(set)) list.push(set);
      list.sort();
      break;
    }
    case "brand":
    case "category": {
      // A record deleted, or one just created: under a created id the ledger may still hold what was
      // written to the record that had it before (a tenant restored, an id given again), not to this one.
      const id = a.op === "create" ? createdId : a.op === "delete" ? idOf(a.refs.self, a.type) : undefined;
      if (id === undefined) break;
      delete ledger.web_ids[`${a.type}:${id}`];
      delete ledger.assets[`${a.type}:${id}`];
      if (a.type === "brand") delete ledger.brand_attribute_sets[String(id)];
      break;
    }
  }
}
