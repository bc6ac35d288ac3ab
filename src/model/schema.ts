/**
 * The manifest language, described once: one table of fields per kind. Each
 * field says what it holds (a TypeBox schema with its description), how the
 * planner compares it, whether it exists per language version, whether API v1
 * can read it back (the schemas are built with ./json-schema.ts, typed with
 * TypeBox's types). From this table come:
 * - the JSON Schema that validates manifests and that editors use (schemas/);
 * - the manifest's TypeScript types (Static<...>; src/model/catalogue.ts);
 * - the planner's field comparisons (src/plan/fields.ts);
 * - the versioned text fields the state reader collects (src/state/normalise.ts);
 * - the read-only API fields a manifest may not carry (src/manifest/index.ts);
 * - the field reference in schemas/README.md.
 */
import type { Static, TOptional, TSchema, TObject } from "@sinclair/typebox";
import { Type } from "./json-schema.js";

/** Attribute types that the API accepts for reference attributes. */
export const ATTRIBUTE_TYPES = ["selectbox", "date", "datetime", "text", "textarea", "multiselect", "json", "markdown"] as const;
export const CATEGORY_STATUSES = ["enabled", "disabled"] as const;

/** How the planner compares a field: empty text and null are the same; name sets compare without order. */
export type Compare = "scalar" | "text" | "long_text" | "name_set";

export interface FieldDef<S extends TSchema = TSchema> {
  schema: S;
  /** Compared field by field; absent for nested parts a kind planner handles itself (values, assets, web ids). */
  compare?: Compare;
  /** Also a field of the record's language versions. */
  versioned?: boolean;
  /** API v1 cannot read it back: the ledger remembers what was applied. */
  writeOnly?: boolean;
  /**
   * API v1 reads it but cannot write it (no endpoint): plans show a difference as not possible
   * (op `unsupported`), and its texts are no translation units (src/translations/texts.ts).
   */
  readOnly?: boolean;
  required?: boolean;
  /** How the API's answer is read (src/api/wire.ts): booleans in any of their forms, dates as instants. */
  wire?: "bool" | "date";
}

type Fields = Record<string, FieldDef>;
type Props<F extends Fields> = { [K in keyof F]: F[K] extends { required: true } ? F[K]["schema"] : TOptional<F[K]["schema"]> };

// ------------------------------------------------------------------ builders

const field = <S extends TSchema, const O extends Omit<FieldDef, "schema">>(schema: S, o: O): { schema: S } & O => ({ schema, ...o });

/** Names are identity: not empty and not only whitespace ("\\S": at least one visible character). */
const VISIBLE = "\\S";
/** ISO 8601: a date, or a date and time with an optional zone. */
const ISO_8601 = "^\\d{4}-(0[1-9]|1[0-2])-(0[1-9]|[12]\\d|3[01])([T ]([01]\\d|2[0-3]):[0-5]\\d(:[0-5]\\d(\\.\\d+)?)?(Z|[+-]([01]\\d|2[0-3]):?[0-5]\\d)?)?$";
/** Identity names: required, never empty or only whitespace. */
const identity = (description: string) => field(Type.String({ pattern: VISIBLE, description }), { compare: "text", required: true });
const text = (description: string, o: { versioned?: true } = {}) => field(Type.String({ description }), { compare: "text", ...o });
const longText = (description: string, o: { versioned?: true } = {}) => field(Type.String({ description }), { compare: "long_text", ...o });
const nullableText = (description: string, o: { versioned?: true } = {}) =>
  field(Type.Unsafe<string | null>({ type: ["string", "null"], description }), { compare: "text", ...o });
/** Sort orders and lengths: whole numbers, never negative. */
const int = (description: string) => field(Type.Integer({ minimum: 0, description }), { compare: "scalar" });
const nullableInt = (description: string) => field(Type.Unsafe<number | null>({ type: ["integer", "null"], minimum: 0, description }), { compare: "scalar" });
const nullableDate = (description: string) =>
  field(Type.Unsafe<string | null>({ type: ["string", "null"], pattern: ISO_8601, description }), { compare: "text", wire: "date" });
const bool = (description: string) => field(Type.Boolean({ description }), { compare: "scalar", wire: "bool" });
const oneOf = <const T extends readonly string[]>(values: T, description: string) =>
  field(Type.Unsafe<T[number]>({ enum: [...values], description }), { compare: "scalar" });
const nameList = (description: string) => Type.Array(Type.String({ pattern: VISIBLE }), { uniqueItems: true, description });
/** A nested part with its own schema: not compared as one field. */
const part = <S extends TSchema>(schema: S, o: { writeOnly?: true; readOnly?: true } = {}) => field(schema, o);
/** A mapping from names (language versions, channels, attributes) to values. */
const mapOf = <S extends TSchema>(value: S, description: string, extra: Record<string, unknown> = {}) =>
  Type.Unsafe<Record<string, Static<S>>>({ type: "object", description, ...extra, additionalProperties: value });

function objectOf<F extends Fields>(fields: F, description?: string): TObject<Props<F>> {
  const props = Object.fromEntries(Object.entries(fields).map(([k, f]) => [k, f.required ? f.schema : Type.Optional(f.schema)]));
  return Type.Object(props as Props<F>, { additionalProperties: false, ...(description ? { description } : {}) });
}

/** The versioned fields of a table, as the object a language version holds (`inVersion` words a field for a version). */
function versionsOf<F extends Fields>(fields: F, description: string, inVersion: Partial<Record<keyof F, TSchema>> = {}) {
  const versioned = Object.fromEntries(
    Object.entries(fields)
      .filter(([, f]) => f.versioned)
      .map(([k, f]) => [k, Type.Optional(inVersion[k as keyof F] ?? f.schema)]),
  );
  const entry = Type.Object(versioned as { [K in keyof F]: TOptional<F[K]["schema"]> }, { additionalProperties: false });
  return mapOf(entry, description, { propertyNames: { minLength: 1 } });
}

const previousNames = nameList("Earlier names of this record: the plan renames the record instead of deleting it and creating another.");
const webIds = mapOf(
  Type.Unsafe<string | number>({ type: ["string", "integer"] }),
  "Channel name -> this record's web id in that channel. Write-only in API v1: remembered in the ledger.",
);
export const ASSET = {
  image_url: field(Type.String({ description: "Address of the image to attach (write-only in API v1)." }), { required: true, writeOnly: true }),
  alttext: text("Alternate text."),
  thumbnail: bool("Whether this is the thumbnail."),
};
const assetSchema = objectOf(ASSET);
const assets = Type.Array(assetSchema, {
  description: "Images. `image_url` is the asset's identity; API v1 cannot read it back (it returns its own uri), so the ledger remembers it.",
});

// ---------------------------------------------------------------- the tables

export const DISPLAY_GROUP = {
  name: identity("Name (identity)."),
  sort_order: int("Display order."),
  in_navigation: bool("Shown in navigation."),
  previous_names: part(previousNames),
};

export const TYPE_VALUE = {
  value: field(Type.String({ pattern: VISIBLE, description: "The value (identity within its attribute)." }), { compare: "text", required: true }),
  slug: nullableText("Slug."),
  sort_order: int("Display order."),
  versions: part(mapOf(Type.String(), "Version name -> the value's text in that version.")),
  previous_values: part(nameList("Earlier values: the plan renames the value instead of deleting it (products keep it).")),
};
const typeValueSchema = objectOf(TYPE_VALUE, "A selectable value of an attribute.");

const ATTRIBUTE_FIELDS = {
  name: field(Type.String({ pattern: VISIBLE, description: "Name, unique in the tenant (identity)." }), { compare: "text", required: true, versioned: true }),
  type: field(
    Type.Unsafe<(typeof ATTRIBUTE_TYPES)[number]>({
      enum: [...ATTRIBUTE_TYPES],
      description: `One of ${ATTRIBUTE_TYPES.join(", ")}. Only selectbox and multiselect have values.`,
    }),
    {
      compare: "scalar",
      required: true,
    },
  ),
  slug: text("Slug (the tenant derives one from the name when left out)."),
  note: nullableText("Free user information.", { versioned: true }),
  length: nullableInt("Maximum length of a value."),
  display_group: nullableText("Display group by name (declared in the manifests or existing in the tenant); null detaches it."),
  sort_order: int("Display order."),
  publish: bool("Whether the attribute is published."),
};
export const ATTRIBUTE = {
  ...ATTRIBUTE_FIELDS,
  versions: part(
    versionsOf(ATTRIBUTE_FIELDS, "Version name (e.g. French) -> the attribute's fields in that language version.", {
      name: Type.String({ description: "Name in this version." }),
      note: Type.Unsafe<string | null>({ type: ["string", "null"], description: "Note in this version." }),
    }),
  ),
  values: part(
    Type.Array(Type.Unsafe<Static<typeof typeValueSchema>>({ $ref: "#/definitions/type_value" }), {
      description: "Selectable values (type values), identity is the value.",
    }),
  ),
  previous_names: part(previousNames),
};

export const ATTRIBUTE_SET = {
  name: identity("Name, unique in the tenant (identity)."),
  sort_order: int("Display order."),
  attributes: part(nameList("Attributes assigned to the set, by name. Left out: assignments are not managed.")),
  previous_names: part(previousNames),
};

export const BLOCK = {
  name: text("Name (defaults to the slug on create)."),
  slug: field(Type.String({ pattern: VISIBLE, description: "Slug (identity)." }), { compare: "text", required: true }),
  content: longText("Content (long text: plans show a unified diff)."),
};

const BRAND_FIELDS = {
  name: identity("Name, unique in the tenant (identity)."),
  desc: longText("Description (long text: plans show a unified diff).", { versioned: true }),
  excluded: bool("Excluded from syndication."),
  exclusion_start_date: nullableDate("Start of the exclusion window: ISO 8601 date or date-time (2025-03-01, 2025-03-01T08:00:00Z)."),
  exclusion_end_date: nullableDate("End of the exclusion window: ISO 8601 date or date-time."),
  exclusion_reason: text("Why the brand is excluded.", { versioned: true }),
  seo_search_keywords: text("Comma-separated search keywords.", { versioned: true }),
  seo_meta_desc: longText("SEO meta description.", { versioned: true }),
  seo_meta_keywords: text("SEO meta keywords.", { versioned: true }),
  seo_title: text("SEO page title.", { versioned: true }),
};
const brandAttribute = Type.Object(
  {
    value: Type.String({ description: "Master-version value." }),
    versions: Type.Optional(mapOf(Type.String(), "Version name -> value.")),
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
    versionsOf(
      BRAND_FIELDS,
      "Version name -> text fields in that language version. API v1 can read but not write them: plans show differences as not possible.",
    ),
    { readOnly: true },
  ),
  previous_names: part(previousNames),
};

const CATEGORY_FIELDS = {
  name: field(Type.String({ pattern: VISIBLE, description: "Name, unique among its siblings." }), { compare: "text", required: true, versioned: true }),
  slug: text("URL slug."),
  desc: longText("Description.", { versioned: true }),
  status: oneOf(CATEGORY_STATUSES, "enabled or disabled."),
  is_visible: bool("Visible in navigation."),
  sort_order: int("Display order among siblings."),
  attribute_sets: field(nameList("Attribute sets by name."), { compare: "name_set" }),
  seo_meta_desc: longText("SEO meta description.", { versioned: true }),
  seo_meta_keywords: text("SEO meta keywords.", { versioned: true }),
  seo_meta_title: text("SEO meta title.", { versioned: true }),
  search_keywords: text("Comma-separated search keywords.", { versioned: true }),
};
export const CATEGORY = {
  ...CATEGORY_FIELDS,
  assets: part(assets, { writeOnly: true }),
  web_ids: part(webIds, { writeOnly: true }),
  versions: part(
    versionsOf(
      CATEGORY_FIELDS,
      "Version name -> fields in that language version. API v1 can read but not write them: plans show differences as not possible.",
      {
        name: Type.String({ description: "Name in this version." }),
      },
    ),
    { readOnly: true },
  ),
  previous_names: part(nameList("Earlier names within the same parent: the plan renames instead of deleting and creating.")),
  previous_paths: part(
    Type.Array(
      Type.Unsafe<string | string[]>({
        oneOf: [
          { type: "string", minLength: 1 },
          { type: "array", items: { type: "string", minLength: 1 }, minItems: 1 },
        ],
      }),
      {
        description: 'Earlier paths ("Parent/Child", or a list of names) anywhere in the tree: the plan moves the category here.',
      },
    ),
  ),
  // Recursive: typed as unknown here, as ManifestCategory[] below.
  children: part(Type.Array(Type.Unsafe<unknown>({ $ref: "#/definitions/category" }), { description: "Child categories." })),
};

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

/** Fields of a language version of an attribute, brand, or category. */
export type VersionFields<F extends Fields> = { [K in keyof F as F[K] extends { versioned: true } ? K : never]?: Static<F[K]["schema"]> };

// ------------------------------------------------------ schemas and their types

export const schemas = {
  display_group: objectOf(DISPLAY_GROUP, "A display group. API v1 cannot delete display groups."),
  attribute: objectOf(ATTRIBUTE, "An attribute."),
  type_value: typeValueSchema,
  attribute_set: objectOf(ATTRIBUTE_SET, "An attribute set."),
  block: objectOf(BLOCK, "A content block. API v1 cannot delete blocks or write block assets."),
  brand: objectOf(BRAND, "A brand."),
  category: objectOf(CATEGORY, "A category; identity is its path of names from the root. Nest children under `children`."),
  asset: assetSchema,
};

/** The written (manifest) shapes; src/model/catalogue.ts derives the normalised ones. */
export type ManifestDisplayGroup = Static<typeof schemas.display_group>;
export type ManifestTypeValue = Static<typeof schemas.type_value>;
export type ManifestAttribute = Static<typeof schemas.attribute>;
export type ManifestAttributeSet = Static<typeof schemas.attribute_set>;
export type ManifestBlock = Static<typeof schemas.block>;
export type ManifestBrand = Static<typeof schemas.brand>;
export type ManifestAsset = Static<typeof schemas.asset>;
export type ManifestCategory = Omit<Static<typeof schemas.category>, "children"> & { children?: ManifestCategory[] };

const list = (definition: keyof typeof schemas, description: string) => Type.Array(Type.Unsafe({ $ref: `#/definitions/${definition}` }), { description });

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
  definitions: {
    display_group: schemas.display_group,
    attribute: schemas.attribute,
    type_value: schemas.type_value,
    attribute_set: schemas.attribute_set,
    block: schemas.block,
    brand: schemas.brand,
    category: schemas.category,
  },
};

/** The fields of a table the planner compares one by one, in table order. */
export function comparedFields(table: Fields, o: { versioned?: boolean } = {}): Array<{ field: string; kind: Compare }> {
  return Object.entries(table)
    .filter(([, f]) => f.compare !== undefined && (!o.versioned || f.versioned))
    .map(([k, f]) => ({ field: k, kind: f.compare! }));
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
  for (const table of [DISPLAY_GROUP, ATTRIBUTE, TYPE_VALUE, ATTRIBUTE_SET, BLOCK, BRAND, CATEGORY, ASSET] as Fields[]) {
    for (const [name, f] of Object.entries(table)) if (f.wire) out[name] = f.wire;
  }
  return out;
}
