/**
 * The manifest and config JSON Schemas, written once here as data with a
 * description for every field. `npm run schemas` writes them to schemas/ and
 * renders schemas/README.md; a test fails when the committed files differ.
 */
import { ATTRIBUTE_TYPES } from "../model/catalogue.js";

type S = Record<string, unknown>;
const str = (description: string): S => ({ type: "string", description });
const nstr = (description: string): S => ({ type: ["string", "null"], description });
const int = (description: string): S => ({ type: "integer", description });
const bool = (description: string): S => ({ type: "boolean", description });
const names = (description: string): S => ({ type: "array", items: { type: "string", minLength: 1 }, uniqueItems: true, description });
const versionsOf = (fields: S, description: string): S => ({
  type: "object",
  description,
  propertyNames: { minLength: 1 },
  additionalProperties: { type: "object", additionalProperties: false, properties: fields },
});
const previousNames = names("Earlier names of this record: the plan renames the record instead of deleting it and creating another.");
const webIds: S = {
  type: "object",
  description: "Channel name -> this record's web id in that channel. Write-only in API v1: remembered in the ledger.",
  additionalProperties: { type: ["string", "integer"] },
};
const assets: S = {
  type: "array",
  description: "Images. `image_url` is the asset's identity; API v1 cannot read it back (it returns its own uri), so the ledger remembers it.",
  items: {
    type: "object",
    additionalProperties: false,
    required: ["image_url"],
    properties: {
      image_url: str("Address of the image to attach (write-only in API v1)."),
      alttext: str("Alternate text."),
      thumbnail: bool("Whether this is the thumbnail."),
    },
  },
};

const brandText = {
  desc: str("Description (long text: plans show a unified diff)."),
  exclusion_reason: str("Why the brand is excluded."),
  seo_search_keywords: str("Comma-separated search keywords."),
  seo_meta_desc: str("SEO meta description."),
  seo_meta_keywords: str("SEO meta keywords."),
  seo_title: str("SEO page title."),
};
const categoryText = {
  name: str("Name in this version."),
  desc: str("Description."),
  seo_meta_desc: str("SEO meta description."),
  seo_meta_keywords: str("SEO meta keywords."),
  seo_meta_title: str("SEO meta title."),
  search_keywords: str("Comma-separated search keywords."),
};

const category: S = {
  type: "object",
  additionalProperties: false,
  required: ["name"],
  description: "A category; identity is its path of names from the root. Nest children under `children`.",
  properties: {
    name: { type: "string", minLength: 1, description: "Name, unique among its siblings." },
    slug: str("URL slug."),
    ...{ desc: categoryText.desc },
    status: { enum: ["enabled", "disabled"], description: "enabled or disabled." },
    is_visible: bool("Visible in navigation."),
    sort_order: int("Display order among siblings."),
    attribute_sets: names("Attribute sets by name."),
    seo_meta_desc: categoryText.seo_meta_desc,
    seo_meta_keywords: categoryText.seo_meta_keywords,
    seo_meta_title: categoryText.seo_meta_title,
    search_keywords: categoryText.search_keywords,
    assets,
    web_ids: webIds,
    versions: versionsOf(categoryText, "Version name -> fields in that language version. API v1 can read but not write them: plans show differences as not possible."),
    previous_names: names("Earlier names within the same parent: the plan renames instead of deleting and creating."),
    previous_paths: {
      type: "array",
      description: 'Earlier paths ("Parent/Child", or a list of names) anywhere in the tree: the plan moves the category here.',
      items: { oneOf: [{ type: "string", minLength: 1 }, { type: "array", items: { type: "string", minLength: 1 }, minItems: 1 }] },
    },
    children: { type: "array", description: "Child categories.", items: { $ref: "#/definitions/category" } },
  },
};

export const manifestSchema: S = {
  $schema: "http://json-schema.org/draft-07/schema#",
  $id: "https://pimctl.dev/schemas/manifest.schema.json",
  title: "pimctl manifest",
  description:
    "A pimctl manifest file. Any file may hold any of the top-level kinds; entries of a kind from several files merge. A field left out is not managed (the tenant's value stays).",
  type: "object",
  additionalProperties: false,
  properties: {
    display_groups: { type: "array", description: "Display groups (UI grouping of attributes), by name.", items: { $ref: "#/definitions/display_group" } },
    attributes: { type: "array", description: "Attributes with their selectable values, by name.", items: { $ref: "#/definitions/attribute" } },
    attribute_sets: { type: "array", description: "Attribute sets, by name.", items: { $ref: "#/definitions/attribute_set" } },
    blocks: { type: "array", description: "Content blocks, by slug.", items: { $ref: "#/definitions/block" } },
    brands: { type: "array", description: "Brands, by name.", items: { $ref: "#/definitions/brand" } },
    categories: { type: "array", description: "Category trees (roots here, children nested).", items: { $ref: "#/definitions/category" } },
  },
  definitions: {
    display_group: {
      type: "object",
      additionalProperties: false,
      required: ["name"],
      description: "A display group. API v1 cannot delete display groups.",
      properties: {
        name: { type: "string", minLength: 1, description: "Name (identity)." },
        sort_order: int("Display order."),
        in_navigation: bool("Shown in navigation."),
        previous_names: previousNames,
      },
    },
    attribute: {
      type: "object",
      additionalProperties: false,
      required: ["name", "type"],
      description: "An attribute.",
      properties: {
        name: { type: "string", minLength: 1, description: "Name, unique in the tenant (identity)." },
        type: { enum: [...ATTRIBUTE_TYPES], description: `One of ${ATTRIBUTE_TYPES.join(", ")}. Only selectbox and multiselect have values.` },
        slug: str("Slug (the tenant derives one from the name when left out)."),
        note: nstr("Free user information."),
        length: { type: ["integer", "null"], description: "Maximum length of a value." },
        display_group: nstr("Display group by name (declared in the manifests or existing in the tenant); null detaches it."),
        sort_order: int("Display order."),
        publish: bool("Whether the attribute is published."),
        versions: versionsOf({ name: str("Name in this version."), note: nstr("Note in this version.") }, "Version name (e.g. French) -> the attribute's fields in that language version."),
        values: { type: "array", description: "Selectable values (type values), identity is the value.", items: { $ref: "#/definitions/type_value" } },
        previous_names: previousNames,
      },
    },
    type_value: {
      type: "object",
      additionalProperties: false,
      required: ["value"],
      description: "A selectable value of an attribute.",
      properties: {
        value: { type: "string", minLength: 1, description: "The value (identity within its attribute)." },
        slug: nstr("Slug."),
        sort_order: int("Display order."),
        versions: { type: "object", description: "Version name -> the value's text in that version.", additionalProperties: { type: "string" } },
        previous_values: names("Earlier values: the plan renames the value instead of deleting it (products keep it)."),
      },
    },
    attribute_set: {
      type: "object",
      additionalProperties: false,
      required: ["name"],
      description: "An attribute set.",
      properties: {
        name: { type: "string", minLength: 1, description: "Name, unique in the tenant (identity)." },
        sort_order: int("Display order."),
        attributes: names("Attributes assigned to the set, by name. Left out: assignments are not managed."),
        previous_names: previousNames,
      },
    },
    block: {
      type: "object",
      additionalProperties: false,
      required: ["slug"],
      description: "A content block. API v1 cannot delete blocks or write block assets.",
      properties: {
        slug: { type: "string", minLength: 1, description: "Slug (identity)." },
        name: str("Name (defaults to the slug on create)."),
        content: str("Content (long text: plans show a unified diff)."),
      },
    },
    brand: {
      type: "object",
      additionalProperties: false,
      required: ["name"],
      description: "A brand.",
      properties: {
        name: { type: "string", minLength: 1, description: "Name, unique in the tenant (identity)." },
        ...{ desc: brandText.desc },
        excluded: bool("Excluded from syndication."),
        exclusion_start_date: nstr("Start of the exclusion window (datetime)."),
        exclusion_end_date: nstr("End of the exclusion window (datetime)."),
        exclusion_reason: brandText.exclusion_reason,
        seo_search_keywords: brandText.seo_search_keywords,
        seo_meta_desc: brandText.seo_meta_desc,
        seo_meta_keywords: brandText.seo_meta_keywords,
        seo_title: brandText.seo_title,
        web_ids: webIds,
        assets,
        attributes: {
          type: "object",
          description: "Attribute name -> the brand's value (master) and per-version values.",
          additionalProperties: {
            type: "object",
            additionalProperties: false,
            required: ["value"],
            properties: { value: str("Master-version value."), versions: { type: "object", description: "Version name -> value.", additionalProperties: { type: "string" } } },
          },
        },
        assigned_attributes: names("Attributes assigned to the brand, by name (API v1 cannot un-assign)."),
        attribute_sets: names("Attribute sets assigned to the brand, by name (write-only in API v1; API v1 cannot un-assign)."),
        versions: versionsOf(brandText, "Version name -> text fields in that language version. API v1 can read but not write them: plans show differences as not possible."),
        previous_names: previousNames,
      },
    },
    category,
  },
};

export const configSchema: S = {
  $schema: "http://json-schema.org/draft-07/schema#",
  $id: "https://pimctl.dev/schemas/config.schema.json",
  title: "pimctl configuration (pimctl.yaml)",
  description: "Tenants, language version mapping, pruning. Tokens never go here: name an environment variable or a file.",
  type: "object",
  additionalProperties: false,
  properties: {
    dir: str("Manifest directory, relative to this file (default: the directory of this file). --dir overrides it."),
    url_template: str('Base URL template for tenants given by hash and region, e.g. "https://{hash}.{region}.pim.example.com/api/v1".'),
    tenants: {
      type: "object",
      description: "Tenant name -> how to reach it.",
      propertyNames: { pattern: "^[A-Za-z0-9_.-]+$" },
      additionalProperties: { $ref: "#/definitions/tenant" },
    },
    versions: { type: "object", description: "Language version name -> version id, for versions the channels do not publish (a tenant's own versions win).", additionalProperties: { type: "integer", minimum: 1 } },
    prune: {
      type: "object",
      additionalProperties: false,
      description: "Per kind: delete records the manifests do not declare (default false: they are listed as unmanaged). Deletes still need apply --allow-delete.",
      properties: Object.fromEntries(
        ["display_groups", "attributes", "type_values", "attribute_sets", "blocks", "brands", "categories", "assets"].map((k) => [k, bool(`Prune ${k.replace("_", " ")}.`)]),
      ),
    },
    ledger_dir: str("Where the ledger of write-only values and its lock live, relative to this file (default .pimctl)."),
  },
  definitions: {
    tenant: {
      type: "object",
      additionalProperties: false,
      description: "One tenant. Give base_url, or hash (and region) with a url_template; and token_env or token_file.",
      properties: {
        base_url: str("The tenant's address, ending in /api/v1."),
        hash: str("Tenant identifier, used with url_template."),
        region: str("Data-centre region, used with url_template."),
        url_template: str("Overrides the top-level url_template for this tenant."),
        token_env: str("Environment variable holding the token."),
        token_file: str("File holding the token (relative to the working directory)."),
        versions: { type: "object", description: "This tenant's version name -> id mapping.", additionalProperties: { type: "integer", minimum: 1 } },
        variables: { type: "object", description: "Values for ${name} in manifests, for this tenant.", additionalProperties: { type: ["string", "number", "boolean"] } },
        parallelism: { type: "integer", minimum: 1, maximum: 64, description: "Concurrent requests (default 8)." },
        allow_insecure_http: bool("Allow plain http:// to a non-loopback address (the token travels unencrypted)."),
      },
    },
  },
};
