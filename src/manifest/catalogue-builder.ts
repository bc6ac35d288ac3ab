/**
 * The second half of loading (index.ts reads and checks each file): merging the
 * valid files' entries into one Catalogue, and the rules that span entries and
 * files: duplicates, values on types without values, language versions,
 * previous names and paths, names that differ only in case; then the sort
 * (categories parents first). Every problem is collected, none thrown.
 */
import {
  KINDS,
  TYPES_WITH_VALUES,
  compareText,
  emptyCatalogue,
  parsePathKey,
  pathKey,
  type Asset,
  type Attribute,
  type Catalogue,
  type Category,
  type Kind,
  type SourceLocation,
  type TypeValue,
} from "../model/catalogue.js";
import { PimctlError, closeNames } from "../errors.js";
import { pointer, type ParsedYaml } from "./yaml.js";
import { edgeWhiteSpace } from "./white-space.js";
import { TREE_KEYS, located, setElsewhere } from "./located.js";

/** Merges valid files into one catalogue and checks the rules that span entries and files. */
export class CatalogueBuilder {
  readonly errors: PimctlError[] = [];
  readonly warnings: PimctlError[] = [];
  private readonly partial = new Map<Kind, string[]>();
  private readonly catalogue = emptyCatalogue();
  private readonly managed = new Set<Kind>();
  private readonly versions = new Set<string>();
  private readonly seen = new Map<string, SourceLocation>();

  /** The version names of LoadOptions (index.ts) the entries are checked against. */
  constructor(private readonly opts: { knownVersions?: string[]; listedVersions?: string[] }) {}

  /** Names of a file that did not validate: checked for duplicates, and known to references. */
  register(data: Record<string, unknown>, parsed: ParsedYaml): void {
    for (const kind of KINDS) {
      const list = data[kind];
      if (!Array.isArray(list)) continue;
      const visit = (raw: unknown, parts: Array<string | number>, parent: string[]): void => {
        if (!raw || typeof raw !== "object") return;
        const r = raw as Record<string, unknown>;
        const key = kind === "blocks" ? r.slug : r.name;
        if (typeof key !== "string") return;
        const p = [...parent, key];
        const id = kind === "categories" ? pathKey(p) : key;
        this.unique(kind, id, `${kind === "categories" ? "category" : kind.replace(/_/g, " ").replace(/s$/, "")} "${id}"`, parsed.atPath(parts), key);
        if (kind !== "categories") this.partial.set(kind, [...(this.partial.get(kind) ?? []), key]);
        else if (Array.isArray(r.children)) r.children.forEach((ch, i) => visit(ch, [...parts, "children", i], p));
      };
      list.forEach((raw, i) => visit(raw, [kind, i], []));
    }
  }

  registered(kind: Kind): string[] {
    return this.partial.get(kind) ?? [];
  }

  /** `label` is called only for a message. */
  private unique(kind: string, key: string, label: string | (() => string), at: SourceLocation, name: string = key): boolean {
    const text = () => (typeof label === "string" ? label : label());
    // Leading or trailing whitespace in a name is usually a typo; an export of a tenant with such names must still load.
    const edge = edgeWhiteSpace(name);
    if (edge)
      this.warnings.push(
        new PimctlError("invalid_value", `${text()}: the name ${JSON.stringify(name)} has leading or trailing whitespace (kept as written)`, {
          location: at,
          details: [`it ${edge}`],
        }),
      );
    const id = `${kind}\0${key}`;
    const first = this.seen.get(id);
    if (first) {
      this.errors.push(new PimctlError("duplicate", `${text()} is declared twice (first at ${first.file}:${first.line}:${first.column})`, { location: at }));
      return false;
    }
    this.seen.set(id, at);
    return true;
  }

  /** `at` is called only for an error: finding a key's line for each of 60,000 version keys cost more than the rest of the check. */
  private version(name: string, at: () => SourceLocation): void {
    const first = !this.versions.has(name);
    this.versions.add(name);
    const listed = this.opts.listedVersions;
    // Once per name, where it is first named: one typo is one error.
    if (first && !this.opts.knownVersions && listed?.length && !listed.includes(name)) {
      const close = closeNames(name, listed);
      if (close.length) {
        this.errors.push(
          new PimctlError("unknown_version", `unknown language version "${name}": the config lists ${listed.map((v) => `"${v}"`).join(", ")}`, {
            location: at(),
            details: [
              `did you mean "${close[0]}"?`,
              "a version the tenant's channels publish needs no entry in versions:, but one this close to a listed name is a typo",
            ],
          }),
        );
      }
    }
    if (this.opts.knownVersions && !this.opts.knownVersions.includes(name)) {
      const close = closeNames(name, this.opts.knownVersions);
      this.errors.push(
        new PimctlError("unknown_version", `unknown language version "${name}"`, {
          location: at(),
          details: [
            close.length
              ? `did you mean "${close[0]}"?`
              : `known versions: ${this.opts.knownVersions.join(", ") || "(none)"}; map it under versions: in pimctl.yaml`,
          ],
        }),
      );
    }
  }

  add(data: Record<string, unknown>, parsed: ParsedYaml): void {
    for (const kind of KINDS) {
      if (!(kind in data)) continue;
      this.managed.add(kind);
      const list = (data[kind] ?? []) as Array<Record<string, unknown>>;
      list.forEach((raw, i) => {
        const parts = [kind, i];
        // Where the entry starts: recorded by the first parse, so every record cites its line cheaply (fast-yaml.ts).
        const at = parsed.atPath(parts);
        switch (kind) {
          case "display_groups":
            if (this.unique(kind, raw.name as string, `display group "${raw.name}"`, at))
              this.catalogue.display_groups.push(located(raw as unknown as Catalogue["display_groups"][number], at));
            break;
          case "attributes":
            this.addAttribute(raw, parsed, parts, at);
            break;
          case "attribute_sets":
            if (this.unique(kind, raw.name as string, `attribute set "${raw.name}"`, at))
              this.catalogue.attribute_sets.push(located(raw as unknown as Catalogue["attribute_sets"][number], at));
            break;
          case "blocks":
            if (this.unique(kind, raw.slug as string, `block "${raw.slug}"`, at))
              this.catalogue.blocks.push(located(raw as unknown as Catalogue["blocks"][number], at));
            break;
          case "brands":
            this.addBrand(raw, parsed, parts, at);
            break;
          case "categories":
            this.addCategory(raw, parsed, parts, [], at);
            break;
        }
      });
    }
  }

  private addAttribute(raw: Record<string, unknown>, parsed: ParsedYaml, parts: Array<string | number>, at: SourceLocation): void {
    if (!this.unique("attributes", raw.name as string, `attribute "${raw.name}"`, at)) return;
    const a = located(raw as unknown as Attribute, at);
    for (const v of Object.keys(a.versions ?? {})) this.version(v, () => parsed.at(`${pointer([...parts, "versions", v])}#key`));
    if (a.values) {
      if (a.values.length && !TYPES_WITH_VALUES.includes(a.type)) {
        const location = parsed.at(`${pointer([...parts, "values"])}#key`);
        const typeAt = setElsewhere("its type", location, parsed.atPath([...parts, "type"]));
        this.errors.push(
          new PimctlError(
            "invalid_value",
            `attribute "${a.name}" has type ${a.type}, which has no selectable values; remove values: or use selectbox or multiselect${typeAt}`,
            { location },
          ),
        );
      }
      const values: TypeValue[] = [];
      const seen = new Map<string, SourceLocation>();
      a.values.forEach((v, j) => {
        const vat = parsed.atPath([...parts, "values", j]);
        const first = seen.get(v.value);
        if (first) {
          this.errors.push(
            new PimctlError("duplicate", `value "${v.value}" of attribute "${a.name}" is declared twice (first at line ${first.line})`, { location: vat }),
          );
          return;
        }
        seen.set(v.value, vat);
        if (v.versions)
          for (const ver of Object.keys(v.versions)) this.version(ver, () => parsed.at(`${pointer([...parts, "values", j, "versions", ver])}#key`));
        values.push(located(v, vat));
      });
      if (values.some((v) => v.previous_values?.length))
        this.checkPrevious(
          "value",
          values.map((v) => ({ name: v.value, previous: v.previous_values ?? [], at: v.source! })),
        );
      a.values = values;
    }
    this.catalogue.attributes.push(a);
  }

  private addBrand(raw: Record<string, unknown>, parsed: ParsedYaml, parts: Array<string | number>, at: SourceLocation): void {
    if (!this.unique("brands", raw.name as string, `brand "${raw.name}"`, at)) return;
    const b = located(raw as never as Catalogue["brands"][number], at);
    if (b.web_ids) b.web_ids = Object.fromEntries(Object.entries(b.web_ids).map(([k, v]) => [k, String(v)]));
    for (const v of Object.keys(b.versions ?? {})) this.version(v, () => parsed.at(`${pointer([...parts, "versions", v])}#key`));
    for (const [attr, val] of Object.entries(b.attributes ?? {})) {
      for (const v of Object.keys(val.versions ?? {})) this.version(v, () => parsed.at(`${pointer([...parts, "attributes", attr, "versions", v])}#key`));
    }
    this.checkAssets(b.assets, () => `brand "${b.name}"`, parsed, parts);
    this.catalogue.brands.push(b);
  }

  private checkAssets(assets: Asset[] | undefined, owner: () => string, parsed: ParsedYaml, parts: Array<string | number>): void {
    if (!assets?.length) return;
    const seen = new Set<string>();
    assets.forEach((a, i) => {
      if (seen.has(a.image_url)) {
        this.errors.push(
          new PimctlError("duplicate", `${owner()} lists the asset ${a.image_url} twice`, { location: parsed.at(pointer([...parts, "assets", i])) }),
        );
      }
      seen.add(a.image_url);
    });
  }

  private addCategory(
    raw: Record<string, unknown>,
    parsed: ParsedYaml,
    parts: Array<string | number>,
    parentPath: string[],
    at: SourceLocation,
    parentKey?: string,
  ): void {
    const { children, previous_paths } = raw as {
      children?: Array<Record<string, unknown>>;
      previous_paths?: Array<string | string[]>;
    };
    const name = raw.name as string;
    const p = [...parentPath, name];
    // The key is built from the parent's, not from the whole path again at every level.
    const key = parentKey === undefined ? pathKey(p) : `${parentKey}/${pathKey([name])}`;
    if (!this.unique("categories", key, () => (parentPath.length ? `category "${name}" under "${pathKey(parentPath)}"` : `root category "${name}"`), at, name))
      return;
    const c: Category = located(raw as never as Category, at, p, TREE_KEYS);
    if (previous_paths) c.previous_paths = previous_paths.map((x) => (typeof x === "string" ? parsePathKey(x) : x));
    if (c.web_ids) c.web_ids = Object.fromEntries(Object.entries(c.web_ids).map(([k, v]) => [k, String(v)]));
    if (c.versions) for (const v of Object.keys(c.versions)) this.version(v, () => parsed.at(`${pointer([...parts, "versions", v])}#key`));
    this.checkAssets(c.assets, () => `category "${key}"`, parsed, parts);
    this.catalogue.categories.push(c);
    (children ?? []).forEach((child, i) => {
      const childParts = [...parts, "children", i];
      this.addCategory(child, parsed, childParts, p, parsed.atPath(childParts), key);
    });
  }

  /** previous names must not name a declared record, nor be claimed twice. */
  private checkPrevious(label: string, records: Array<{ name: string; previous: string[]; at: SourceLocation }>): void {
    if (!records.some((r) => r.previous.length)) return;
    const declared = new Set(records.map((r) => r.name));
    const claimed = new Map<string, string>();
    for (const r of records) {
      for (const prev of r.previous) {
        if (declared.has(prev)) {
          this.errors.push(
            new PimctlError(
              "cycle",
              `${label} "${r.name}" lists "${prev}" as a previous name, but "${prev}" is declared too (a rename cannot keep the old record)`,
              { location: r.at },
            ),
          );
        } else if (claimed.has(prev)) {
          this.errors.push(
            new PimctlError("duplicate", `${label}s "${claimed.get(prev)}" and "${r.name}" both claim the previous name "${prev}"`, { location: r.at }),
          );
        } else claimed.set(prev, r.name);
      }
    }
  }

  /**
   * Names that differ only in case are two records to pimctl (names are identity), but
   * usually one typo to a person, and a tenant that compares names without case may refuse one.
   */
  private warnCaseTwins(label: string, records: ReadonlyArray<{ name: string; source?: SourceLocation }>): void {
    if (records.length < 2) return;
    const first = new Map<string, { name: string; source?: SourceLocation }>();
    for (const r of records) {
      const key = r.name.toLowerCase();
      const twin = first.get(key);
      if (!twin) {
        first.set(key, r);
        continue;
      }
      const where = twin.source ? ` (at ${twin.source.file}:${twin.source.line})` : "";
      this.warnings.push(
        new PimctlError("duplicate", `${label} "${r.name}" differs only in case from "${twin.name}"${where}: two records, or one misspelt?`, {
          ...(r.source ? { location: r.source } : {}),
          details: ["names are identity and compared exactly: if they are one record, use one spelling (previous_names: renames the other)"],
        }),
      );
    }
  }

  build(): Catalogue {
    const c = this.catalogue;
    const byName = (a: { name: string }, b: { name: string }) => compareText(a.name, b.name);
    const prev = (list: Array<{ name: string; previous_names?: string[]; source?: SourceLocation }>) =>
      list.map((r) => ({ name: r.name, previous: r.previous_names ?? [], at: r.source! }));
    this.checkPrevious("display group", prev(c.display_groups));
    this.checkPrevious("attribute", prev(c.attributes));
    this.checkPrevious("attribute set", prev(c.attribute_sets));
    this.checkPrevious("brand", prev(c.brands));
    // Categories: previous names are per parent; previous paths are tree-wide.
    const byParent = new Map<string, Category[]>();
    for (const cat of c.categories) {
      const key = pathKey(cat.path.slice(0, -1));
      const list = byParent.get(key);
      if (list) list.push(cat);
      else byParent.set(key, [cat]);
    }
    for (const siblings of byParent.values()) this.checkPrevious("category", prev(siblings));
    this.warnCaseTwins("display group", c.display_groups);
    this.warnCaseTwins("attribute", c.attributes);
    this.warnCaseTwins("attribute set", c.attribute_sets);
    this.warnCaseTwins("brand", c.brands);
    this.warnCaseTwins(
      "block",
      c.blocks.map((b) => ({ name: b.slug, ...(b.source ? { source: b.source } : {}) })),
    );
    for (const siblings of byParent.values()) this.warnCaseTwins("category", siblings);
    for (const a of c.attributes)
      if (a.values?.length)
        this.warnCaseTwins(
          `value of attribute "${a.name}"`,
          a.values.map((v) => ({ name: v.value, ...(v.source ? { source: v.source } : {}) })),
        );
    const declaredPaths = new Set(c.categories.map((x) => pathKey(x.path)));
    // An old path names one tenant record: two categories cannot both have moved from it.
    const claimedPaths = new Map<string, string>();
    for (const cat of c.categories) {
      for (const p of cat.previous_paths ?? []) {
        const key = pathKey(p);
        const other = claimedPaths.get(key);
        if (other !== undefined && other !== pathKey(cat.path)) {
          this.errors.push(
            new PimctlError("duplicate", `categories "${other}" and "${pathKey(cat.path)}" both claim the previous path "${key}"`, { location: cat.source! }),
          );
        } else claimedPaths.set(key, pathKey(cat.path));
        if (declaredPaths.has(key)) {
          this.errors.push(
            new PimctlError("cycle", `category "${pathKey(cat.path)}" lists "${key}" in previous_paths, but "${key}" is declared too`, {
              location: cat.source!,
            }),
          );
        }
        if (key.startsWith(`${pathKey(cat.path)}/`)) {
          this.errors.push(
            new PimctlError("cycle", `category "${pathKey(cat.path)}" cannot have moved from its own subtree ("${key}")`, { location: cat.source! }),
          );
        }
      }
    }
    c.display_groups.sort(byName);
    c.attributes.sort(byName);
    c.attribute_sets.sort(byName);
    c.blocks.sort((a, b) => compareText(a.slug, b.slug));
    c.brands.sort(byName);
    c.categories = preOrder(c.categories);
    c.managed = KINDS.filter((k) => this.managed.has(k));
    c.versions = [...this.versions].sort();
    return c;
  }
}

/** Parents before children, siblings by name. */
function preOrder(categories: Category[]): Category[] {
  const children = new Map<string, Category[]>();
  for (const c of categories) {
    const key = pathKey(c.path.slice(0, -1));
    const list = children.get(key);
    if (list) list.push(c);
    else children.set(key, [c]);
  }
  const out: Category[] = [];
  const visit = (parentKey: string) => {
    const list = (children.get(parentKey) ?? []).sort((a, b) => compareText(a.name, b.name));
    for (const c of list) {
      out.push(c);
      visit(pathKey(c.path));
    }
  };
  visit(pathKey([]));
  return out;
}
