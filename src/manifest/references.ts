/**
 * References between manifest records, checked offline: a display group, an
 * attribute or an attribute set that an entry names must be declared in some
 * manifest, or listed as tenant-owned under `external:` in pimctl.yaml.
 * Channels cannot be declared in manifests; web_ids keys are checked only
 * when the config lists `external.channels`. Plan checks the rest against the
 * tenant, so validate and plan agree on what is wrong.
 */
import { PimctlError, closeNames } from "../errors.js";
import { pathKey, type Catalogue, type SourceLocation } from "../model/catalogue.js";

/** Per kind: tenant-owned names, or "*" for every name. */
export type ExternalRecords = Partial<Record<"display_groups" | "attributes" | "attribute_sets" | "channels", "*" | string[]>>;

export function checkReferences(c: Catalogue, external: ExternalRecords = {}): PimctlError[] {
  const errors: PimctlError[] = [];
  const declared = {
    display_groups: new Set(c.display_groups.map((d) => d.name)),
    attributes: new Set(c.attributes.map((a) => a.name)),
    attribute_sets: new Set(c.attribute_sets.map((s) => s.name)),
    channels: new Set<string>(),
  };
  const label = { display_groups: "display group", attributes: "attribute", attribute_sets: "attribute set", channels: "channel" } as const;
  // A category's label (its path key) is built only for an error.
  const check = (kind: keyof typeof declared, name: string, from: string | (() => string), at: SourceLocation | undefined) => {
    const ext = external[kind];
    if (kind === "channels" && ext === undefined) return;
    if (declared[kind].has(name) || ext === "*" || ext?.includes(name)) return;
    const known = [...declared[kind], ...(Array.isArray(ext) ? ext : [])];
    const close = closeNames(name, known);
    errors.push(
      new PimctlError("unknown_reference", `${typeof from === "string" ? from : from()} refers to ${label[kind]} "${name}", which no manifest declares`, {
        ...(at ? { location: at } : {}),
        details: [
          ...(close.length ? [`did you mean: ${close.map((x) => `"${x}"`).join(", ")}?`] : []),
          `declare it, or list it as tenant-owned under external.${kind} in pimctl.yaml`,
        ],
      }),
    );
  };
  for (const a of c.attributes) if (typeof a.display_group === "string") check("display_groups", a.display_group, `attribute "${a.name}"`, a.source);
  for (const s of c.attribute_sets) for (const a of s.attributes ?? []) check("attributes", a, `attribute set "${s.name}"`, s.source);
  for (const b of c.brands) {
    const from = `brand "${b.name}"`;
    for (const a of Object.keys(b.attributes ?? {})) check("attributes", a, from, b.source);
    for (const a of b.assigned_attributes ?? []) check("attributes", a, from, b.source);
    for (const s of b.attribute_sets ?? []) check("attribute_sets", s, from, b.source);
    for (const ch of Object.keys(b.web_ids ?? {})) check("channels", ch, from, b.source);
  }
  for (const cat of c.categories) {
    const from = () => `category "${pathKey(cat.path)}"`;
    for (const s of cat.attribute_sets ?? []) check("attribute_sets", s, from, cat.source);
    for (const ch of Object.keys(cat.web_ids ?? {})) check("channels", ch, from, cat.source);
  }
  return errors;
}
