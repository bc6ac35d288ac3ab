/**
 * The manifest language, described once: one table of fields per kind. Each
 * field says what it holds (a JSON Schema with its description, built with
 * src/base/json-schema.ts), how the planner compares it, whether it exists per
 * language version, whether API v1 can read it back. Each table is checked by
 * the compiler against the manifest's plain TypeScript types
 * (./manifest-types.ts): the same keys, the same required ones, schemas of the
 * same types. From this table come:
 * - the JSON Schema that validates manifests and that editors use (schemas/);
 * - the planner's field comparisons (src/plan/fields.ts);
 * - the versioned text fields the state reader collects (src/state/normalise.ts);
 * - the read-only API fields a manifest may not carry (src/manifest/index.ts);
 * - the field reference in schemas/README.md.
 */
import { optional, required, schema, type JsonSchema, type Properties, type Schema } from "../base/json-schema.js";
import {
  ATTRIBUTE_TYPES,
  CATEGORY_STATUSES,
  type AttributeVersion,
  type BrandAttributeValue,
  type BrandVersion,
  type CategoryVersion,
  type ManifestAsset,
  type ManifestAttribute,
  type ManifestAttributeSet,
  type ManifestBlock,
  type ManifestBrand,
  type ManifestCategory,
  type ManifestDefinitions,
  type ManifestDisplayGroup,
  type ManifestTypeValue,
} from "./manifest-types.js";

/** How the planner compares a field: empty text and null are the same; name sets compare without order. */
export type Compare = "scalar" | "text" | "long_text" | "name_set";

export interface FieldDef {
  schema: JsonSchema;
  /** Compared field by field; absent for nested parts a kind planner handles itself (values, assets, web ids). */
  compare?: Compare;
  /** Also a field of the record's language versions. */
  versioned?: boolean;
  /** API v1 cannot read it back: the ledger remembers what was applied. */
  writeOnly?: boolean;
  /**
   * API v1 reads it but cannot write it (no endpoint): plans show a difference as not possible
   * (op `unsupported`), and its texts are no translation units (src/plan/texts.ts).
   */
  readOnly?: boolean;
  /** The manifest must carry it (its identity). */
  required?: boolean;
  /** How the API's answer is read (src/api/wire.ts): booleans in any of their forms, dates as instants. */
  wire?: "bool" | "date";
}

type Fields = Record<string, FieldDef>;

// ------------------------------------------------------------------ builders

const field = <T, const O extends Omit<FieldDef, "schema">>(s: Schema<T>, o: O): { schema: Schema<T> } & O => ({ schema: s, ...o });
/** The field also exists per language version (its type says so, for VersionOf below). */
const versioned = <F extends FieldDef>(f: F): F & { versioned: true } => ({ ...f, versioned: true });

/** Names are identity: not empty and not only whitespace ("\\S": at least one visible character). */
const VISIBLE = "\\S";
/** ISO 8601: a date, or a date and time with an optional zone. */
const ISO_8601 = "^\\d{4}-(0[1-9]|1[0-2])-(0[1-9]|[12]\\d|3[01])([T ]([01]\\d|2[0-3]):[0-5]\\d(:[0-5]\\d(\\.\\d+)?)?(Z|[+-]([01]\\d|2[0-3]):?[0-5]\\d)?)?$";
/** Identity names: required, never empty or only whitespace. */
const identity = (description: string) => field(schema.string({ pattern: VISIBLE, description }), { compare: "text", required: true });
const text = (description: string) => field(schema.string({ description }), { compare: "text" });
const longText = (description: string) => field(schema.string({ description }), { compare: "long_text" });
const nullableText = (description: string) => field(schema.typed(["string", "null"], { description }), { compare: "text" });
/** Sort orders and lengths: whole numbers, never negative. */
const int = (description: string) => field(schema.integer({ minimum: 0, description }), { compare: "scalar" });
const nullableInt = (description: string) => field(schema.typed(["integer", "null"], { minimum: 0, description }), { compare: "scalar" });
const nullableDate = (description: string) => field(schema.typed(["string", "null"], { pattern: ISO_8601, description }), { compare: "text", wire: "date" });
const bool = (description: string) => field(schema.boolean({ description }), { compare: "scalar", wire: "bool" });
const oneOf = <const T extends readonly string[]>(values: T, description: string) => field(schema.enum(values, { description }), { compare: "scalar" });
const nameList = (description: string) => schema.array(schema.string({ pattern: VISIBLE }), { uniqueItems: true, description });
/** A nested part with its own schema: not compared as one field. */
const part = <T>(s: Schema<T>, o: { writeOnly?: true; readOnly?: true } = {}) => field(s, o);
/** A mapping from names (language versions, channels, attributes) to values. */
const mapOf = <T>(value: Schema<T>, description: string, extra: Record<string, unknown> = {}) => schema.record(value, { description, ...extra });
/** A definition of the manifest schema, by name. */
const ref = <K extends keyof ManifestDefinitions>(name: K): Schema<ManifestDefinitions[K]> => ({ $ref: `#/definitions/${name}` });

/** The schema of an entry of type T from its table (T is named: the table is checked against it). */
function objectOf<T>(fields: Properties<T>, description?: string): Schema<T> {
  return schema.object<T>(fields, { additionalProperties: false, ...(description ? { description } : {}) });
}

/** The fields a table marks versioned. */
type Marked<F> = { [K in keyof F]: F[K] extends { versioned: true } ? K : never }[keyof F];
/**
 * A table whose versioned marks are exactly the fields of the version type V: each of V's
 * fields is in the table, marked, with a schema of its type; any other field is unmarked.
 */
type VersionedAs<F, V> = { [K in keyof V]-?: { schema: Schema<Required<V>[K]>; versioned: true } } & Record<Exclude<Marked<F>, keyof V>, { versioned?: false }>;

/**
 * The versioned fields of a table, as the object a language version (type V) holds;
 * `inVersion` words a field for a version. Called as versionsOf<BrandVersion>()(BRAND_FIELDS, ...):
 * V is named, the table's type is read from the argument, and the two are checked against each other.
 */
const versionsOf =
  <V>() =>
  <F extends Fields>(fields: F & VersionedAs<F, V>, description: string, inVersion: { [K in keyof V]?: Schema<Required<V>[K]> } = {}) => {
    const words = new Map<string, JsonSchema>(Object.entries(inVersion));
    const properties = Object.fromEntries(
      Object.entries(fields)
        .filter(([, f]) => f.versioned)
        .map(([k, f]) => [k, words.get(k) ?? f.schema]),
    );
    const entry: Schema<V> = { type: "object", additionalProperties: false, properties };
    return mapOf(entry, description, { propertyNames: { minLength: 1 } });
  };

const previousNames = nameList("Earlier names of this record: the plan renames the record instead of deleting it and creating another.");
const webIds = mapOf(
  schema.typed(["string", "integer"]),
  "Channel name -> this record's web id in that channel. Write-only in API v1: remembered in the ledger.",
);
export const ASSET = {
  image_url: field(schema.string({ description: "Address of the image to attach (write-only in API v1)." }), { required: true, writeOnly: true }),
  alttext: text("Alternate text."),
  thumbnail: bool("Whether this is the thumbnail."),
} satisfies Properties<ManifestAsset>;
const assetSchema = objectOf<ManifestAsset>(ASSET);
const assets = schema.array(assetSchema, {
  description: "Images. `image_url` is the asset's identity; API v1 cannot read it back (it returns its own uri), so the ledger remembers it.",
});

// ---------------------------------------------------------------- the tables

export const DISPLAY_GROUP = {
  name: identity("Name (identity)."),
  sort_order: int("Display order."),
  in_navigation: bool("Shown in navigation."),
  previous_names: part(previousNames),
} satisfies Properties<ManifestDisplayGroup>;

export const TYPE_VALUE = {
  value: field(schema.string({ pattern: VISIBLE, description: "The value (identity within its attribute)." }), { compare: "text", required: true }),
  slug: nullableText("Slug."),
  sort_order: int("Display order."),
  versions: part(mapOf(schema.string(), "Version name -> the value's text in that version.")),
  previous_values: part(nameList("Earlier values: the plan renames the value instead of deleting it (products keep it).")),
} satisfies Properties<ManifestTypeValue>;
const typeValueSchema = objectOf<ManifestTypeValue>(TYPE_VALUE, "A selectable value of an attribute.");

const ATTRIBUTE_FIELDS = {
  name: field(schema.string({ pattern: VISIBLE, description: "Name, unique in the tenant (identity)." }), { compare: "text", required: true, versioned: true }),
  type: field(schema.enum(ATTRIBUTE_TYPES, { description: `One of ${ATTRIBUTE_TYPES.join(", ")}. Only selectbox and multiselect have values.` }), {
    compare: "scalar",
    required: true,
  }),
  slug: text("Slug (the tenant derives one from the name when left out)."),
  note: versioned(nullableText("Free user information.")),
  length: nullableInt("Maximum length of a value."),
  display_group: nullableText("Display group by name (declared in the manifests or existing in the tenant); null detaches it."),
  sort_order: int("Display order."),
  publish: bool("Whether the attribute is published."),
} satisfies Partial<Properties<ManifestAttribute>>;
export const ATTRIBUTE = {
  ...ATTRIBUTE_FIELDS,
  versions: part(
    versionsOf<AttributeVersion>()(ATTRIBUTE_FIELDS, "Version name (e.g. French) -> the attribute's fields in that language version.", {
      name: schema.string({ description: "Name in this version." }),
      note: schema.typed(["string", "null"], { description: "Note in this version." }),
    }),
  ),
  values: part(schema.array(ref("type_value"), { description: "Selectable values (type values), identity is the value." })),
  previous_names: part(previousNames),
} satisfies Properties<ManifestAttribute>;

export const ATTRIBUTE_SET = {
  name: identity("Name, unique in the tenant (identity)."),
  sort_order: int("Display order."),
  attributes: part(nameList("Attributes assigned to the set, by name. Left out: assignments are not managed.")),
  previous_names: part(previousNames),
} satisfies Properties<ManifestAttributeSet>;

export const BLOCK = {
  name: text("Name (defaults to the slug on create)."),
  slug: field(schema.string({ pattern: VISIBLE, description: "Slug (identity)." }), { compare: "text", required: true }),
  content: longText("Content (long text: plans show a unified diff)."),
} satisfies Properties<ManifestBlock>;

const BRAND_FIELDS = {
  name: identity("Name, unique in the tenant (identity)."),
  desc: versioned(longText("Description (long text: plans show a unified diff).")),
  excluded: bool("Excluded from syndication."),
  exclusion_start_date: nullableDate("Start of the exclusion window: ISO 8601 date or date-time (2025-03-01, 2025-03-01T08:00:00Z)."),
  exclusion_end_date: nullableDate("End of the exclusion window: ISO 8601 date or date-time."),
  exclusion_reason: versioned(text("Why the brand is excluded.")),
  seo_search_keywords: versioned(text("Comma-separated search keywords.")),
  seo_meta_desc: versioned(longText("SEO meta description.")),
  seo_meta_keywords: versioned(text("SEO meta keywords.")),
  seo_title: versioned(text("SEO page title.")),
} satisfies Partial<Properties<ManifestBrand>>;
const brandAttribute = schema.object<BrandAttributeValue>(
  {
    value: required(schema.string({ description: "Master-version value." })),
    versions: optional(mapOf(schema.string(), "Version name -> value.")),
  },
  { additionalProperties: false },
);
export const BRAND = {
  ...BRAND_FIELDS,
  web_ids: part(webIds, { writeOnly: true }),
  assets: part(assets, { writeOnly: true }),
  attributes: part(mapOf(brandAttribute, "Attribute name -> the brand's value (master) and per-version values.")),
  assigned_attributes: part(nameList("Attributes assigned to the brand, by name (API v1 cannot un-assign).")),
  attribute_sets: part(nameList("Attribute sets assigned to the brand, by name (write-only in API v1; API v1 cannot un-assign)."), { writeOnly: true }),
  versions: part(
    versionsOf<BrandVersion>()(
      BRAND_FIELDS,
      "Version name -> text fields in that language version. API v1 can read but not write them: plans show differences as not possible.",
    ),
    { readOnly: true },
  ),
  previous_names: part(previousNames),
} satisfies Properties<ManifestBrand>;

const CATEGORY_FIELDS = {
  name: field(schema.string({ pattern: VISIBLE, description: "Name, unique among its siblings." }), { compare: "text", required: true, versioned: true }),
  slug: text("URL slug."),
  desc: versioned(longText("Description.")),
  status: oneOf(CATEGORY_STATUSES, "enabled or disabled."),
  is_visible: bool("Visible in navigation."),
  sort_order: int("Display order among siblings."),
  attribute_sets: field(nameList("Attribute sets by name."), { compare: "name_set" }),
  seo_meta_desc: versioned(longText("SEO meta description.")),
  seo_meta_keywords: versioned(text("SEO meta keywords.")),
  seo_meta_title: versioned(text("SEO meta title.")),
  search_keywords: versioned(text("Comma-separated search keywords.")),
} satisfies Partial<Properties<ManifestCategory>>;
export const CATEGORY = {
  ...CATEGORY_FIELDS,
  assets: part(assets, { writeOnly: true }),
  web_ids: part(webIds, { writeOnly: true }),
  versions: part(
    versionsOf<CategoryVersion>()(
      CATEGORY_FIELDS,
      "Version name -> fields in that language version. API v1 can read but not write them: plans show differences as not possible.",
      {
        name: schema.string({ description: "Name in this version." }),
      },
    ),
    { readOnly: true },
  ),
  previous_names: part(nameList("Earlier names within the same parent: the plan renames instead of deleting and creating.")),
  previous_paths: part(
    schema.array(schema.oneOf(schema.string({ minLength: 1 }), schema.array(schema.string({ minLength: 1 }), { minItems: 1 })), {
      description: 'Earlier paths ("Parent/Child", or a list of names) anywhere in the tree: the plan moves the category here.',
    }),
  ),
  children: part(schema.array(ref("category"), { description: "Child categories." })),
} satisfies Properties<ManifestCategory>;

const COMMON_READ_ONLY = {
  id: "ids are per tenant; manifests name records instead",
  created_at: "set by the tenant",
  updated_at: "set by the tenant",
};
/**
 * Fields the API returns but clients do not write, per manifest entry (kinds,
 * and the nested `values` and `assets`), with what to write instead: a
 * manifest that carries one gets this hint rather than "unknown field".
 */
export const READ_ONLY_API_FIELDS: Record<string, Record<string, string>> = {
  display_groups: COMMON_READ_ONLY,
  attributes: {
    ...COMMON_READ_ONLY,
    display_group_id: "write display_group: <name>",
    display_group_name: "write display_group: <name>",
    typeValuesArray: "write values: [{ value: ... }]",
    version_id: "write versions: { <version name>: {...} }",
  },
  values: {
    ...COMMON_READ_ONLY,
    attribute_id: "values are nested under their attribute",
    master_attribute_type_value_id: "write versions: { <version name>: <text> }",
    version_id: "write versions: { <version name>: <text> }",
  },
  attribute_sets: COMMON_READ_ONLY,
  blocks: COMMON_READ_ONLY,
  brands: { ...COMMON_READ_ONLY, product_count: "set by the tenant from its products" },
  categories: {
    ...COMMON_READ_ONLY,
    parent_id: "nest the category under its parent's children:",
    parent_name: "nest the category under its parent's children:",
    fqn: "the path comes from nesting",
    is_smart: "set by the tenant",
    category_attributes: "set by the tenant",
    channels: "write web_ids: { <channel name>: <web id> }",
    assets_thumbnail: "mark an asset thumbnail: true",
    image_alttext: "set alttext on an asset",
    attributes: "a category's attributes come from its attribute_sets",
  },
  assets: {
    ...COMMON_READ_ONLY,
    uri: "write image_url (the tenant returns its own uri)",
    brand_id: "assets are nested under their owner",
    category_id: "assets are nested under their owner",
  },
};

// ------------------------------------------------------ the manifest schema

/** Each definition's schema, of its manifest type: a `ref` to it stands for that type. */
const definitions: { [K in keyof ManifestDefinitions]: Schema<ManifestDefinitions[K]> } = {
  display_group: objectOf<ManifestDisplayGroup>(DISPLAY_GROUP, "A display group. API v1 cannot delete display groups."),
  attribute: objectOf<ManifestAttribute>(ATTRIBUTE, "An attribute."),
  type_value: typeValueSchema,
  attribute_set: objectOf<ManifestAttributeSet>(ATTRIBUTE_SET, "An attribute set."),
  block: objectOf<ManifestBlock>(BLOCK, "A content block. API v1 cannot delete blocks or write block assets."),
  brand: objectOf<ManifestBrand>(BRAND, "A brand."),
  category: objectOf<ManifestCategory>(CATEGORY, "A category; identity is its path of names from the root. Nest children under `children`."),
};

const list = (definition: keyof ManifestDefinitions, description: string) => schema.array(ref(definition), { description });

/** The JSON Schema of a manifest file (written to schemas/manifest.schema.json). */
export const manifestSchema = {
  $schema: "http://json-schema.org/draft-07/schema#",
  $id: "https://pimctl.dev/schemas/manifest.schema.json",
  title: "pimctl manifest",
  description:
    "A pimctl manifest file. Any file may hold any of the top-level kinds; entries of a kind from several files merge. A field left out is not " +
    "managed (the tenant's value stays).",
  type: "object",
  additionalProperties: false,
  patternProperties: {
    "^x-": { description: "Extension fields, ignored: a place for YAML anchors (x-defaults: &defaults) that entries merge with <<: *defaults." },
  },
  properties: {
    display_groups: list("display_group", "Display groups (UI grouping of attributes), by name."),
    attributes: list("attribute", "Attributes with their selectable values, by name."),
    attribute_sets: list("attribute_set", "Attribute sets, by name."),
    blocks: list("block", "Content blocks, by slug."),
    brands: list("brand", "Brands, by name."),
    categories: list("category", "Category trees (roots here, children nested)."),
  },
  definitions,
};

/** The fields of a table the planner compares one by one, in table order. */
export function comparedFields(table: Fields, o: { versioned?: boolean } = {}): Array<{ field: string; kind: Compare }> {
  return Object.entries(table)
    .filter(([, f]) => f.compare !== undefined && (!o.versioned || f.versioned))
    .flatMap(([k, f]) => (f.compare ? [{ field: k, kind: f.compare }] : []));
}

/** Whether API v1 can write a record's language versions (brands and categories: read-only, `readOnly` on their `versions`). */
export function versionsWritable(table: Fields): boolean {
  return table.versions?.readOnly !== true;
}

/** The fields a language version of a record carries. */
export function versionedFields(table: Fields): string[] {
  return Object.entries(table)
    .filter(([, f]) => f.versioned)
    .map(([k]) => k);
}

/** Manifest fields whose API read shape varies (booleans, dates), by field name: the client's wire table starts from these. */
export function wireTypesOfManifestFields(): Record<string, "bool" | "date"> {
  const out: Record<string, "bool" | "date"> = {};
  const tables: Fields[] = [DISPLAY_GROUP, ATTRIBUTE, TYPE_VALUE, ATTRIBUTE_SET, BLOCK, BRAND, CATEGORY, ASSET];
  for (const table of tables) {
    for (const [name, f] of Object.entries(table)) if (f.wire) out[name] = f.wire;
  }
  return out;
}
