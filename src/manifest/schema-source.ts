/**
 * The config JSON Schema, written here as data with a description for every
 * field; the manifest schema comes from the field tables in
 * src/model/schema.ts. `npm run schemas` writes both to schemas/ and renders
 * schemas/README.md; a test fails when the committed files differ.
 */
import { PRUNE_KINDS } from "../model/catalogue.js";

export { manifestSchema } from "../model/schema.js";

type S = Record<string, unknown>;
const str = (description: string): S => ({ type: "string", description });
const bool = (description: string): S => ({ type: "boolean", description });

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
    overlays: str(
      "A folder, relative to this file, of per-tenant overlay folders: <folder>/<tenant>/ holds manifest files of the same kinds that patch, add " +
        'to or remove from the shared catalogue for that tenant only (README "Fleets"). A tenant\'s own overlay: wins. Default: no overlays.',
    ),
    rollout: {
      type: "array",
      minItems: 1,
      items: { type: "array", minItems: 1, items: { type: "string", minLength: 1 }, description: "One wave: tenant names and globs (*, ?, [...])." },
      description:
        "The waves apply goes in across several tenants, e.g. [[staging-*], [prod-eu], [prod-*]]: each tenant is in the first wave that matches " +
        "it; selected tenants no wave names go last. Default: one wave of all.",
    },
    versions: {
      type: "object",
      description: "Language version name -> version id, for versions the channels do not publish (a tenant's own versions win).",
      additionalProperties: { type: "integer", minimum: 1 },
    },
    prune: {
      type: "object",
      additionalProperties: false,
      description:
        'Per kind: delete records the manifests do not declare (default false: they are listed as unmanaged); "owned": only those pimctl created ' +
        "or adopted (the state remembers which), never records someone made by hand. Deletes still need plan --allow-delete.",
      properties: Object.fromEntries(
        PRUNE_KINDS.map((k) => [k, { oneOf: [{ type: "boolean" }, { const: "owned" }], description: `Prune ${k.replace("_", " ")}: true, false or "owned".` }]),
      ),
    },
    ledger_dir: str("Where the ledger of write-only values and its lock live with the local state backend, relative to this file (default .pimctl)."),
    state: {
      type: "object",
      additionalProperties: false,
      description: "Where the ledger (write-only values pimctl applied) and the apply lock live. See docs/state.md.",
      properties: {
        backend: {
          enum: ["local", "git"],
          description:
            "local (default): files in ledger_dir on this machine. git: refs/pimctl/state/<tenant> and refs/pimctl/lock/<tenant> on a Git remote, " +
            "shared by every pipeline runner.",
        },
        remote: str("git backend: the remote of the repository that holds this file (default origin)."),
      },
    },
    ignore: {
      type: "array",
      uniqueItems: true,
      items: { type: "string", minLength: 1 },
      description:
        'Records this repository never plans, as kinds, addresses or globs (category["Seasonal/**"], brand["Partner *"]): left out of every plan, ' +
        "never deleted, counted in the plan's warnings.",
    },
    protect: {
      type: "array",
      uniqueItems: true,
      items: { type: "string", minLength: 1 },
      description:
        "Records never deleted, renamed or moved, whatever the prune setting (kinds, addresses or globs): a plan that would is refused, naming " +
        "the rule. A rule follows a record the manifests moved or renamed (previous_paths, previous_names); a rule that matches nothing is a warning.",
    },
    max_deletes: {
      oneOf: [
        { type: "integer", minimum: 0 },
        { type: "string", pattern: "^\\d+(\\.\\d+)?\\s*%$" },
      ],
      description:
        'The most deletes one plan may hold: a number, or "N%" of a kind\'s records in the tenant. Above it the plan is refused (exit 3), so a ' +
        "manifest file removed by mistake cannot empty the tenant.",
    },
    external: {
      type: "object",
      additionalProperties: false,
      description:
        "Records the tenant owns that manifests may refer to without declaring them (validate checks every other reference offline). Per kind: a " +
        'list of names, or "*" for all. Channels are never declared in manifests: list them here to have validate check web_ids keys.',
      properties: Object.fromEntries(
        ["display_groups", "attributes", "attribute_sets", "channels"].map((k) => [
          k,
          {
            oneOf: [{ const: "*" }, { type: "array", items: { type: "string", minLength: 1 }, uniqueItems: true }],
            description: `Tenant-owned ${k.replace("_", " ")}: names, or "*".`,
          },
        ]),
      ),
    },
    translations: {
      type: "object",
      additionalProperties: false,
      description: "A rule `pimctl validate` enforces so a pipeline refuses a change that leaves a language version behind (docs/translations.md).",
      properties: {
        required: {
          type: "array",
          uniqueItems: true,
          items: { type: "string", minLength: 1 },
          description: "Language versions (by name) that must be translated.",
        },
        fail_under: {
          type: "number",
          minimum: 0,
          maximum: 100,
          description: "The least share of texts, in percent, each required version must have translated (not missing, not outdated); default 100.",
        },
      },
    },
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
        token_file: str("File holding the token, relative to this file."),
        versions: { type: "object", description: "This tenant's version name -> id mapping.", additionalProperties: { type: "integer", minimum: 1 } },
        variables: {
          type: "object",
          description: "Values for ${name} in manifests, for this tenant.",
          additionalProperties: { type: ["string", "number", "boolean"] },
        },
        parallelism: { type: "integer", minimum: 1, maximum: 64, description: "Concurrent requests (default 8)." },
        allow_insecure_http: bool("Allow plain http:// to a non-loopback address (the token travels unencrypted)."),
        overlay: str(
          "This tenant's overlay folder, relative to this file (wins over overlays:/<tenant>): manifest files that patch, add to or remove from the " +
            "shared catalogue for this tenant.",
        ),
        production: bool("A production tenant: pimctl doctor never writes to it (--write-probes and --remove-leftovers are refused)."),
      },
    },
  },
};
