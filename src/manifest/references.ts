/**
 * References between manifest records, checked offline: a display group, an
 * attribute or an attribute set that an entry names must be declared in some
 * manifest, or listed as tenant-owned under `external:` in pimctl.yaml.
 * Channels cannot be declared in manifests; web_ids keys are checked only
 * when the config lists `external.channels`. Plan checks the rest against the
 * tenant, so validate and plan agree on what is wrong.
 */
import { PimctlError, closeNames } from "../errors.js";
import { pathKey, type Catalogue, type Kind, type SourceLocation } from "../model/catalogue.js";

/** Per kind: tenant-owned names, or "*" for every name. */
export type ExternalRecords = Partial<Record<"display_groups" | "attributes" | "attribute_sets" | "channels", "*" | string[]>>;

/**
 * Where in its entry a reference is written: the entry (its `source`, of a kind) and the path from
 * the entry to the member (`["attributes", 3]`; `key`: the map key, as in `attributes: { Fit: ... }`).
 * The catalogue keeps one place per entry, not per member: reference-places.ts finds the member's
 * line when there is an error to report.
 */
export interface MemberPlace {
  kind: Kind;
  entry: SourceLocation;
  path: Array<string | number>;
  key?: boolean;
}

export interface ReferenceProblem {
  error: PimctlError;
  member?: MemberPlace;
}

/** Each reference no manifest declares and `external:` does not list, with the place of the member that names it. */
export function referenceProblems(c: Catalogue, external: ExternalRecords = {}): ReferenceProblem[] {
  const problems: ReferenceProblem[] = [];
  const declared = {
    display_groups: new Set(c.display_groups.map((d) => d.name)),
    attributes: new Set(c.attributes.map((a) => a.name)),
    attribute_sets: new Set(c.attribute_sets.map((s) => s.name)),
    channels: new Set<string>(),
  };
  const label = { display_groups: "display group", attributes: "attribute", attribute_sets: "attribute set", channels: "channel" } as const;
  // A category's label (its path key) is built only for an error.
  const check = (
    kind: keyof typeof declared,
    name: string,
    from: string | (() => string),
    at: SourceLocation | undefined,
    member: Omit<MemberPlace, "entry">,
  ) => {
    const ext = external[kind];
    if (kind === "channels" && ext === undefined) return;
    if (declared[kind].has(name) || ext === "*" || ext?.includes(name)) return;
    const known = [...declared[kind], ...(Array.isArray(ext) ? ext : [])];
    const close = closeNames(name, known);
    const error = new PimctlError(
      "unknown_reference",
      `${typeof from === "string" ? from : from()} refers to ${label[kind]} "${name}", which no manifest declares`,
      {
        ...(at ? { location: at } : {}),
        details: [
          ...(close.length ? [`did you mean: ${close.map((x) => `"${x}"`).join(", ")}?`] : []),
          `declare it, or list it as tenant-owned under external.${kind} in pimctl.yaml`,
        ],
      },
    );
    problems.push({ error, ...(at ? { member: { ...member, entry: at } } : {}) });
  };
  const listed = (kind: Kind, field: string) => (i: number) => ({ kind, path: [field, i] });
  const keyed = (kind: Kind, field: string) => (name: string) => ({ kind, path: [field, name], key: true });
  for (const a of c.attributes)
    if (typeof a.display_group === "string")
      check("display_groups", a.display_group, `attribute "${a.name}"`, a.source, { kind: "attributes", path: ["display_group"] });
  for (const s of c.attribute_sets)
    (s.attributes ?? []).forEach((a, i) => check("attributes", a, `attribute set "${s.name}"`, s.source, listed("attribute_sets", "attributes")(i)));
  for (const b of c.brands) {
    const from = `brand "${b.name}"`;
    for (const a of Object.keys(b.attributes ?? {})) check("attributes", a, from, b.source, keyed("brands", "attributes")(a));
    (b.assigned_attributes ?? []).forEach((a, i) => check("attributes", a, from, b.source, listed("brands", "assigned_attributes")(i)));
    (b.attribute_sets ?? []).forEach((s, i) => check("attribute_sets", s, from, b.source, listed("brands", "attribute_sets")(i)));
    for (const ch of Object.keys(b.web_ids ?? {})) check("channels", ch, from, b.source, keyed("brands", "web_ids")(ch));
  }
  for (const cat of c.categories) {
    const from = () => `category "${pathKey(cat.path)}"`;
    (cat.attribute_sets ?? []).forEach((s, i) => check("attribute_sets", s, from, cat.source, listed("categories", "attribute_sets")(i)));
    for (const ch of Object.keys(cat.web_ids ?? {})) check("channels", ch, from, cat.source, keyed("categories", "web_ids")(ch));
  }
  return problems;
}
