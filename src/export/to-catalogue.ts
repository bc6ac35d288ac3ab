/**
 * A tenant's state as a desired catalogue: what a manifest would say to keep it as it is, in the
 * language people write (names, never ids; versions by name).
 */
import {
  compareText,
  comparePaths,
  pathKey,
  type Asset,
  type Attribute,
  type Brand,
  type Catalogue,
  type Category,
  type OwnedTable,
  type TypeValue,
} from "../model/catalogue.js";
import type { RemoteAsset, RemoteAttribute, RemoteBrand, RemoteCatalogue, RemoteCategory } from "../model/remote.js";
import type { LedgerView } from "../plan/context.js";
import { judgeIdentity } from "../plan/identity.js";

const byName = (a: { name: string }, b: { name: string }) => compareText(a.name, b.name);

/**
 * Version fields that only repeat the master text carry nothing (a tenant may
 * fall back to master where no translation exists): leave them out.
 */
export function ownVersions<T extends object>(versions: Record<string, T> | undefined, master: Record<string, unknown>): Record<string, T> | undefined {
  if (!versions) return undefined;
  const out: Record<string, T> = {};
  for (const [v, fields] of Object.entries(versions)) {
    const own = Object.fromEntries(Object.entries(fields).filter(([k, x]) => x !== master[k] && x !== undefined && x !== null)) as T;
    if (Object.keys(own).length) out[v] = own;
  }
  return Object.keys(out).length ? out : undefined;
}

/** The tenant's state as a desired catalogue: what a manifest would say to keep it as it is. */
export function remoteToCatalogue(remote: RemoteCatalogue, ledger?: LedgerView): Catalogue {
  return {
    managed: [...remote.read],
    versions: Object.keys(remote.version_ids).sort(),
    display_groups: remote.display_groups.map(({ id: _id, ...d }) => d).sort(byName),
    attributes: remote.attributes.map(exportedAttribute).sort(byName),
    attribute_sets: remote.attribute_sets.map(({ id: _id, assignment_ids: _a, ...s }) => ({ ...s, attributes: [...s.attributes].sort() })).sort(byName),
    blocks: remote.blocks.map(({ id: _id, asset_count: _n, ...b }) => b).sort((a, b) => compareText(a.slug, b.slug)),
    brands: remote.brands.map((r) => exportedBrand(r, ledger)).sort(byName),
    categories: remote.categories
      .map((r) => {
        const { id, parent_id: _p, child_count: _c, assets: ra, ...rest } = r;
        return withWriteOnly({ ...rest } as Category, `category:${id}`, ra, trusted(ledger, "categories", id, pathKey(r.path), r));
      })
      .sort((a, b) => comparePaths(a.path, b.path)),
  };
}

/**
 * The ledger's write-only values of a record only while the record under that id is the one pimctl wrote them for,
 * as the plan decides (plan/identity.ts): another record given that id (a restore, a rename and an edit) has none of them.
 */
function trusted(ledger: LedgerView | undefined, table: OwnedTable, id: number, key: string, record: RemoteBrand | RemoteCategory): LedgerView | undefined {
  return ledger && judgeIdentity(ledger, table, id, key, record).is !== "other" ? ledger : undefined;
}

/** An attribute and its values in sort order, each with only the version texts that differ from master. */
function exportedAttribute(r: RemoteAttribute): Attribute {
  const { id: _id, values, ...rest } = r;
  const sorted = [...values].sort((x, y) => (x.sort_order ?? 0) - (y.sort_order ?? 0) || compareText(x.value, y.value));
  const out: Attribute = {
    ...rest,
    values: sorted.map(({ id: _vid, versions, ...v }) => {
      const own = Object.fromEntries(Object.entries(versions ?? {}).filter(([, text]) => text !== v.value));
      return { ...v, ...(Object.keys(own).length ? { versions: own } : {}) } as TypeValue;
    }),
  };
  const versions = ownVersions(rest.versions, rest as unknown as Record<string, unknown>);
  if (versions) out.versions = versions;
  else delete out.versions;
  return out;
}

/** A brand: its attribute values (or assignments without a value), and the sets and write-only values the ledger remembers. */
function exportedBrand(r: RemoteBrand, ledger: LedgerView | undefined): Brand {
  const { id, product_count: _pc, assets: ra, attributes: battrs, ...rest } = r;
  const own = trusted(ledger, "brands", id, r.name, r);
  const out: Brand = withWriteOnly({ ...rest }, `brand:${id}`, ra, own);
  if (battrs) {
    const values: NonNullable<Brand["attributes"]> = {};
    const assigned: string[] = [];
    for (const [name, ba] of Object.entries(battrs)) {
      const master = ba.values[""];
      if (!master) {
        assigned.push(name);
        continue;
      }
      const versions = Object.fromEntries(
        Object.entries(ba.values)
          .filter(([v]) => v !== "")
          .map(([v, rec]) => [v, rec.value]),
      );
      values[name] = { value: master.value, ...(Object.keys(versions).length ? { versions } : {}) };
    }
    if (Object.keys(values).length) out.attributes = values;
    if (assigned.length) out.assigned_attributes = assigned.sort();
  }
  const sets = own?.brand_attribute_sets[String(id)];
  if (sets?.length) out.attribute_sets = [...sets].sort();
  return out;
}

/** An owner's assets, with the image URL pimctl wrote where the ledger remembers it (the tenant answers its own copy). */
function exportedAssets(own: LedgerView | undefined, owner: string, list: RemoteAsset[] | undefined): Asset[] | undefined {
  if (!list?.length) return undefined;
  return list
    .map((a) => ({
      image_url: own?.assets[owner]?.[String(a.id)]?.image_url ?? a.uri,
      ...(a.alttext ? { alttext: a.alttext } : {}),
      ...(a.thumbnail !== undefined ? { thumbnail: a.thumbnail } : {}),
    }))
    .sort((x, y) => compareText(x.image_url, y.image_url));
}

/** Brands and categories: own version text, and the write-only values the ledger remembers. */
function withWriteOnly<T extends Brand | Category>(out: T, owner: string, remoteAssets: RemoteAsset[] | undefined, own: LedgerView | undefined): T {
  const versions = ownVersions(out.versions as Record<string, object> | undefined, out as unknown as Record<string, unknown>);
  if (versions) out.versions = versions as T["versions"];
  else delete out.versions;
  const a = exportedAssets(own, owner, remoteAssets);
  if (a) out.assets = a;
  const w = own?.web_ids[owner];
  if (w && Object.keys(w).length) out.web_ids = w;
  return out;
}
