/** schemas/*.json and schemas/README.md, generated from schema-source.ts (npm run schemas). */
import { configSchema, manifestSchema } from "./schema-source.js";

type S = Record<string, unknown>;

function typeOf(s: S, root: S): string {
  if (s.$ref) return `[${String(s.$ref).split("/").pop()}](#${String(s.$ref).split("/").pop()})`;
  if (s.enum) return (s.enum as string[]).map((e) => `\`${e}\``).join(" \\| ");
  if (s.oneOf) return (s.oneOf as S[]).map((x) => typeOf(x, root)).join(" or ");
  const t = Array.isArray(s.type) ? (s.type as string[]).join(" \\| ") : String(s.type ?? "any");
  if (s.type === "array" && s.items) return `list of ${typeOf(s.items as S, root)}`;
  if (s.type === "object" && s.additionalProperties && typeof s.additionalProperties === "object") {
    const v = s.additionalProperties as S;
    return `map of name → ${v.properties ? "{" + Object.keys(v.properties as S).join(", ") + "}" : typeOf(v, root)}`;
  }
  return t;
}

function table(title: string, s: S, root: S, anchor?: string): string[] {
  const props = (s.properties ?? {}) as Record<string, S>;
  const required = new Set((s.required as string[] | undefined) ?? []);
  const out = [`### ${title}${anchor ? ` <a id="${anchor}"></a>` : ""}`, "", String(s.description ?? ""), "", "| field | type | required | meaning |", "|---|---|---|---|"];
  for (const [k, v] of Object.entries(props)) {
    out.push(`| \`${k}\` | ${typeOf(v, root)} | ${required.has(k) ? "yes" : ""} | ${String(v.description ?? "").replace(/\|/g, "\\|")} |`);
  }
  out.push("");
  return out;
}

export function renderSchemaDocs(): string {
  const defs = manifestSchema.definitions as Record<string, S>;
  const cdefs = configSchema.definitions as Record<string, S>;
  return [
    "# Manifest and config reference",
    "",
    "Generated from `src/manifest/schema-source.ts` by `npm run schemas`; the same source writes",
    "`manifest.schema.json` and `config.schema.json` beside this file (a test keeps them in step).",
    "Editors validate and complete manifests with a first line",
    "`# yaml-language-server: $schema=<path>/schemas/manifest.schema.json`.",
    "",
    "A field left out is not managed: the tenant's value stays. Read-only API fields (`id`, `created_at`,",
    "`product_count`, `parent_id`, `display_group_id`, ...) are refused with a message naming what to write instead.",
    "`${name}` in any string (keys included) is replaced by the tenant's variable; `$${` writes a literal `${`.",
    "",
    "## Manifest files",
    "",
    ...table("Top level", manifestSchema, manifestSchema),
    ...Object.entries(defs).flatMap(([k, v]) => table(k, v, manifestSchema, k)),
    "## pimctl.yaml",
    "",
    ...table("Top level", configSchema, configSchema),
    ...Object.entries(cdefs).flatMap(([k, v]) => table(k, v, configSchema, k)),
  ].join("\n");
}

export function schemaFiles(): Record<string, string> {
  return {
    "manifest.schema.json": `${JSON.stringify(manifestSchema, null, 2)}\n`,
    "config.schema.json": `${JSON.stringify(configSchema, null, 2)}\n`,
    "README.md": `${renderSchemaDocs()}\n`,
  };
}
