/**
 * A large tenant without a million API writes: what `pimctl apply` of a catalogue writes into an
 * empty emulator tenant, put into its store directly, from the bodies apply sends
 * (src/apply/requests.ts). Attribute sets, categories and brands are made by the store's own
 * rules (the functions its routes call); attributes, type values, their language versions and
 * set assignments, nine writes in ten, are built here as those rules build them, with their
 * changelog entries: the rules scan every attribute (every assignment, twice; the attribute's
 * values, sorted) per create and read the clock per write, which made ten times the taxonomy take
 * 15 s instead of a few. The ledger apply would save (ids pimctl owns, names it applied) is
 * written with the state module's functions. test/scale/seed-fidelity.test.ts holds the result
 * equal to a real apply: records, changelog and ledger.
 */
import type { TenantStore } from "../emulator/store.js";
import type { AttributeRec, TypeValueRec } from "../emulator/record-shapes.js";
import { now, slugify } from "../emulator/store-core.js";
import { PimctlError } from "../errors.js";
import { pathKey, type Catalogue, type OwnedTable } from "../model/catalogue.js";
import { fingerprintOf } from "../plan/identity.js";
import type { AppliedIdentity } from "../plan/ownership.js";
import { FIELDS, type FieldSpec } from "../plan/fields.js";
import { readLedger, saveLedger } from "../state/backends/index.js";
import { recordNames, recordOwned } from "../state/ledger.js";
import { entryPrints, recordApplied } from "../state/applied.js";
import { openProjectState } from "../workflows/state.js";
import { loadProject, type ProjectOptions } from "../workflows/project.js";
import { versionMap } from "../config/index.js";
import { pickTenant } from "../tenant.js";
import { createAttributeSet } from "../emulator/kinds/attribute-sets.js";
import { createBrand } from "../emulator/kinds/brands.js";
import { createCategory } from "../emulator/kinds/categories.js";

/** What apply would record in the ledger for the records it created. */
export interface Seeded {
  owned: Partial<Record<OwnedTable, number[]>>;
  /** Table -> id -> the identity apply records (src/plan/identity.ts): its key and the fingerprint of what it wrote. */
  names: Partial<Record<OwnedTable, Record<string, AppliedIdentity>>>;
}

const fieldsOf = (specs: readonly FieldSpec[], ...translated: string[]) => specs.map((f) => f.field).filter((f) => !translated.includes(f));
const ATTRIBUTE_FIELDS = fieldsOf(FIELDS.attribute, "display_group");
const ATTRIBUTE_VERSION_FIELDS = fieldsOf(FIELDS.attribute_version);
const TYPE_VALUE_FIELDS = fieldsOf(FIELDS.type_value);
const ATTRIBUTE_SET_FIELDS = fieldsOf(FIELDS.attribute_set);
const CATEGORY_FIELDS = fieldsOf(FIELDS.category, "attribute_sets");
const BRAND_FIELDS = fieldsOf(FIELDS.brand);

function pick(record: object, fields: readonly string[]): Record<string, unknown> {
  const r = record as Record<string, unknown>;
  const out: Record<string, unknown> = {};
  for (const f of fields) if (r[f] !== undefined) out[f] = r[f];
  return out;
}

/** What this seeder does not write: better refused than a tenant that differs from an apply without saying so. */
function refuseUnsupported(c: Catalogue): void {
  const found: string[] = [];
  if (c.display_groups.length) found.push("display_groups");
  if (c.blocks.length) found.push("blocks");
  if (c.attributes.some((a) => a.display_group !== undefined)) found.push("attributes' display_group");
  for (const f of ["web_ids", "assets", "attributes", "assigned_attributes", "attribute_sets", "versions"] as const)
    if (c.brands.some((b) => b[f] !== undefined)) found.push(`brands' ${f}`);
  for (const f of ["web_ids", "assets"] as const) if (c.categories.some((x) => x[f] !== undefined)) found.push(`categories' ${f}`);
  if (found.length)
    throw new PimctlError("usage", `seedTenant does not write ${found.join(", ")}; apply such a catalogue with pimctl apply instead`, {
      details: ["it writes attributes (versions, values), attribute sets (assignments), categories and brands' own fields"],
    });
}

/**
 * Puts into `store` (an empty tenant: default channels only) what apply of `catalogue` would
 * write. `versionIds`: version name -> id, as pimctl.yaml's `versions:` (the tenant's channels
 * give the rest). Category language versions are not written: API v1 cannot write them, and
 * apply does not either.
 */
export function seedTenant(store: TenantStore, catalogue: Catalogue, versionIds: Record<string, number> = {}): Seeded {
  refuseUnsupported(catalogue);
  // Into a tenant that holds records, apply would plan updates and renames: not what is written here.
  if (store.attributes.size || store.attributeSets.size || store.categories.size || store.brands.size)
    throw new PimctlError("usage", `seedTenant writes into an empty tenant; "${store.hash}" already holds records`);
  const sd = seeding(store, versionIds);
  const attributeIds = seedAttributes(sd, catalogue.attributes);
  const setIds = seedAttributeSets(sd, catalogue.attribute_sets, attributeIds);
  seedCategoriesAndBrands(sd, catalogue, setIds);
  store.onChange();
  return { owned: sd.owned, names: sd.names };
}

/** What seedTenant writes with: the store, one time, version ids, and the ownership and identities apply would record. */
interface Seeding {
  store: TenantStore;
  t: string;
  versionId: (name: string) => number;
  owned: Record<"attributes" | "type_values" | "attribute_sets" | "categories" | "brands", number[]>;
  names: Record<"attributes" | "type_values" | "attribute_sets" | "categories" | "brands", Record<string, AppliedIdentity>>;
  identity: (table: OwnedTable, key: string, declared?: object) => AppliedIdentity;
  log: (entity_type: "attribute" | "attribute_set", entity_id: number) => void;
}

function seeding(store: TenantStore, versionIds: Record<string, number>): Seeding {
  const versions = new Map<string, number>();
  for (const ch of store.channels.values()) if (ch.version_id) versions.set(ch.version_name, ch.version_id);
  for (const [name, id] of Object.entries(versionIds)) versions.set(name, id);
  const versionId = (name: string): number => {
    const id = versions.get(name);
    if (id === undefined)
      throw new PimctlError("unknown_version", `no channel of tenant "${store.hash}" publishes version "${name}", and no id was given for it`);
    return id;
  };
  const owned = { attributes: [] as number[], type_values: [] as number[], attribute_sets: [] as number[], categories: [] as number[], brands: [] as number[] };
  const names = {
    attributes: {} as Record<string, AppliedIdentity>,
    type_values: {} as Record<string, AppliedIdentity>,
    attribute_sets: {} as Record<string, AppliedIdentity>,
    categories: {} as Record<string, AppliedIdentity>,
    brands: {} as Record<string, AppliedIdentity>,
  };
  const identity = (table: OwnedTable, key: string, declared?: object): AppliedIdentity => {
    const fingerprint = declared ? fingerprintOf(table, declared) : undefined;
    return fingerprint === undefined ? { key } : { key, fingerprint };
  };

  // One time for the records written here: a clock read per write was a third of the seeding time.
  const t = now();
  const log = (entity_type: "attribute" | "attribute_set", entity_id: number) =>
    store.changelogs.push({ id: store.changelogs.length + 1, updated_at: t, entity_id, entity_type, change_type: "full" });
  return { store, t, versionId, owned, names, identity, log };
}

/** Attributes, their versions and type values (with theirs), as apply's POSTs and PUTs store them; returns name -> id. */
function seedAttributes(sd: Seeding, attributes: Catalogue["attributes"]): Map<string, number> {
  const { store, t, owned, names, identity, log, versionId } = sd;
  const attributeIds = new Map<string, number>();
  for (const a of attributes) {
    // apply's POST: sort_order and publish always (defaults when the manifest leaves them out).
    const attr = attributeRecord(store, { sort_order: 0, publish: false, ...pick(a, ATTRIBUTE_FIELDS) } as never, t);
    log("attribute", attr.id);
    attributeIds.set(a.name, attr.id);
    owned.attributes.push(attr.id);
    names.attributes[attr.id] = identity("attributes", a.name, a);
    for (const [name, fields] of Object.entries(a.versions ?? {})) {
      const body = pick(fields, ATTRIBUTE_VERSION_FIELDS);
      if (!Object.keys(body).length) continue;
      attr.versions[versionId(name)] = body; // PUT /attributes/ID/version/V, as setAttributeVersion stores it
      log("attribute", attr.id);
    }
    for (const v of a.values ?? []) {
      const tv = typeValueRecord(store, attr.id, pick(v, TYPE_VALUE_FIELDS) as { value: string }, t);
      log("attribute", attr.id);
      owned.type_values.push(tv.id);
      names.type_values[tv.id] = identity("type_values", v.value);
      for (const [name, value] of Object.entries(v.versions ?? {})) {
        tv.versions[versionId(name)] = { id: store.id("typeValueVersions"), value }; // as setTypeValueVersion stores it
        log("attribute", attr.id);
      }
    }
  }
  return attributeIds;
}

/** Attribute sets and their assignments; returns name -> id. */
function seedAttributeSets(sd: Seeding, sets: Catalogue["attribute_sets"], attributeIds: Map<string, number>): Map<string, number> {
  const { store, t, owned, names, identity, log } = sd;
  const setIds = new Map<string, number>();
  for (const s of sets) {
    const set = createAttributeSet(store, { sort_order: 0, ...pick(s, ATTRIBUTE_SET_FIELDS) } as never);
    setIds.set(s.name, set.id);
    owned.attribute_sets.push(set.id);
    names.attribute_sets[set.id] = identity("attribute_sets", s.name, s);
    (s.attributes ?? []).forEach((name, i) => {
      // POST /attribute_sets/ID/attributes, as the store's assign stores it (each lands last).
      const id = store.id("assignments");
      store.assignments.set(id, {
        id,
        attribute_id: idOf(attributeIds, name, "attribute"),
        attribute_set_id: set.id,
        sort_order: i,
        created_at: t,
        updated_at: t,
      });
      log("attribute_set", set.id);
    });
  }
  return setIds;
}

/** Categories (parents first, as the catalogue lists them) and brands' own fields. */
function seedCategoriesAndBrands(sd: Seeding, catalogue: Catalogue, setIds: Map<string, number>): void {
  const { store, owned, names, identity } = sd;
  const categoryIds = new Map<string, number>();
  for (const c of catalogue.categories) {
    const parent = c.path.length > 1 ? idOf(categoryIds, pathKey(c.path.slice(0, -1)), "parent category") : 0;
    const body = { ...pick(c, CATEGORY_FIELDS), parent_id: parent };
    if (c.attribute_sets !== undefined) Object.assign(body, { attribute_sets: c.attribute_sets.map((n) => idOf(setIds, n, "attribute set")) });
    const cat = createCategory(store, body as never);
    categoryIds.set(pathKey(c.path), cat.id);
    owned.categories.push(cat.id);
    names.categories[cat.id] = identity("categories", pathKey(c.path), c);
  }

  for (const b of catalogue.brands) {
    const brand = createBrand(store, pick(b, BRAND_FIELDS) as never);
    owned.brands.push(brand.id);
    names.brands[brand.id] = identity("brands", b.name, b);
  }
}

/** The store's createAttribute, less its uniqueness scan of every attribute (the catalogue's names are unique already). */
function attributeRecord(
  store: TenantStore,
  body: Pick<AttributeRec, "name" | "type" | "sort_order" | "publish"> & Partial<AttributeRec>,
  t: string,
): AttributeRec {
  const a: AttributeRec = {
    id: store.id("attributes"),
    name: body.name,
    type: body.type,
    slug: body.slug ?? slugify(body.name),
    note: body.note ?? null,
    length: body.length ?? null,
    display_group_id: null,
    sort_order: body.sort_order,
    publish: body.publish,
    versions: {},
    created_at: t,
    updated_at: t,
  };
  store.attributes.set(a.id, a);
  return a;
}

/** The store's createTypeValue, less its uniqueness check (a sort of the attribute's values per create). */
function typeValueRecord(store: TenantStore, attributeId: number, body: { value: string; slug?: string | null; sort_order?: number }, t: string): TypeValueRec {
  const tv: TypeValueRec = {
    id: store.id("typeValues"),
    attribute_id: attributeId,
    value: body.value,
    slug: body.slug === undefined ? slugify(body.value) : body.slug,
    sort_order: body.sort_order ?? 0,
    versions: {},
    created_at: t,
    updated_at: t,
  };
  store.typeValues.set(tv.id, tv);
  store.indexTypeValue(tv);
  return tv;
}

function idOf(ids: ReadonlyMap<string, number>, name: string, what: string): number {
  const id = ids.get(name);
  if (id === undefined) throw new PimctlError("unknown_reference", `seedTenant writes only the catalogue's own records: ${what} "${name}" is not in it`);
  return id;
}

/**
 * The project's manifests, loaded as `pimctl plan` loads them, seeded into `store` (the tenant
 * the project's config names), and the ledger saved where the config keeps it.
 */
export async function seedProject(store: TenantStore, project: ProjectOptions): Promise<{ seeded: Seeded; catalogue: Catalogue }> {
  const { config, desired } = await loadProject(project);
  const seeded = seedTenant(store, desired, versionMap(config, pickTenant(config, project.tenant).tenant));
  await writeSeededLedger(project, seeded, desired);
  return { seeded, catalogue: desired };
}

/** Saves into the project's state backend the ledger entries apply would have saved for the seeded records. */
export async function writeSeededLedger(project: ProjectOptions, seeded: Seeded, desired: Catalogue): Promise<void> {
  const { backend, tenant, baseUrl } = await openProjectState(project);
  const state = await readLedger(backend, tenant, baseUrl);
  recordOwned(state.ledger, seeded.owned);
  recordNames(state.ledger, seeded.names);
  recordApplied(state.ledger, entryPrints(desired, [seeded.names]));
  await saveLedger(backend, state);
}
