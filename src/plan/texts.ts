/**
 * Every text of a catalogue that exists per language version, as one list:
 * what status counts, export writes as units and import writes back. A text
 * is a record (its typed address), a field where the version holds several,
 * the master text and the translations the manifests hold.
 *
 * Display groups and blocks have no language versions in API v1 (no
 * /version/<VERSION_ID> endpoint), so they have no texts here.
 */
import { pathKey, type Catalogue, type SourceLocation } from "../model/catalogue.js";
import { ATTRIBUTE, BRAND, CATEGORY, TYPE_VALUE, versionedFields, versionsWritable } from "../model/schema.js";
import { printAddress, type Segment } from "./address.js";

export const TEXT_KINDS = ["attributes", "type_values", "categories", "brands", "brand_attribute_values"] as const;
export type TextKind = (typeof TEXT_KINDS)[number];

export const TEXT_KIND_TITLES: Record<TextKind, string> = {
  attributes: "attribute names and notes",
  type_values: "type values",
  categories: "categories",
  brands: "brand texts",
  brand_attribute_values: "brand attribute values",
};

/**
 * Whether API v1 can write a kind's texts per language version, as the schema declares it
 * (`readOnly` on brands' and categories' `versions`). A brand attribute value's versions are
 * written with the value (PUT /brands/<ID>/attributes/<ATTRIBUTE_ID>/version/<VERSION_ID>).
 */
const WRITABLE: Record<TextKind, boolean> = {
  attributes: versionsWritable(ATTRIBUTE),
  type_values: versionsWritable(TYPE_VALUE),
  categories: versionsWritable(CATEGORY),
  brands: versionsWritable(BRAND),
  brand_attribute_values: true,
};

/** The record a kind's texts belong to, for messages. */
const RECORD_WORD: Record<TextKind, string> = {
  attributes: "attribute",
  type_values: "type value",
  categories: "category",
  brands: "brand",
  brand_attribute_values: "brand attribute value",
};

/**
 * The one predicate that decides which texts are translation units: only texts API v1 can
 * write are offered to translators (export), imported, counted by status, the config rule and
 * the plan's coverage, and recorded in the lock file. The others are reported apart.
 */
export const isWritable = (t: Pick<TranslatableText, "kind">): boolean => WRITABLE[t.kind];

/** Why a text is not a unit, for export, import and status. */
export const unwritableReason = (t: Pick<TranslatableText, "kind">): string =>
  `API v1 cannot write ${RECORD_WORD[t.kind]} language versions (docs/api-v1-limits.md); set it in the PIM's UI`;

export interface TranslatableText {
  kind: TextKind;
  /** The record's address segments (no version). */
  record: Segment[];
  /** The field, where a language version holds several texts (name, desc, ...). */
  field?: string;
  master: string;
  /** Version name -> the translation (only non-empty ones). */
  translations: Record<string, string>;
  /** The same record under earlier names (previous_names, previous_values, previous_paths): where older records of it may be. */
  previous: Segment[][];
  /** For translators: what this text is. */
  notes: string[];
  /** Where the record is declared, and the keys from it to the text of version V. */
  source?: SourceLocation;
  keys: (version: string) => string[];
}

const seg = (type: Segment["type"], key: string): Segment => ({ type, key });

/** The unit id of a text in a language version: its typed address, e.g. attribute["Colour"].version["French"].field["name"]. */
export function unitId(record: Segment[], field: string | undefined, version: string): string {
  const segments = [...record, seg("version", version), ...(field ? [seg("field", field)] : [])] as [Segment, ...Segment[]];
  return printAddress({ segments });
}

export const textId = (t: TranslatableText, version: string): string => unitId(t.record, t.field, version);

const present = (s: unknown): s is string => typeof s === "string" && s.trim() !== "";

/** Every translatable text of the catalogue, in a stable order (kind, then address, then field). */
export function translatableTexts(c: Catalogue): TranslatableText[] {
  const out: TranslatableText[] = [];
  const fieldTexts = (
    kind: TextKind,
    record: Segment[],
    previous: Segment[][],
    fields: string[],
    master: Record<string, unknown>,
    versions: Record<string, Record<string, unknown> | undefined> | undefined,
    notes: string[],
    source: SourceLocation | undefined,
  ) => {
    for (const field of fields) {
      const text = master[field];
      if (!present(text)) continue;
      const translations: Record<string, string> = {};
      for (const [v, fields] of Object.entries(versions ?? {})) if (present(fields?.[field])) translations[v] = fields![field] as string;
      out.push({
        kind,
        record,
        field,
        master: text,
        translations,
        previous,
        notes: [...notes, `field: ${field}`],
        ...(source ? { source } : {}),
        keys: (v) => ["versions", v, field],
      });
    }
  };

  const attributeFields = versionedFields(ATTRIBUTE);
  const lengths = new Map<string, number>();
  for (const a of c.attributes) {
    if (typeof a.length === "number") lengths.set(a.name, a.length);
    const names = [a.name, ...(a.previous_names ?? [])];
    const record = [seg("attribute", a.name)];
    fieldTexts(
      "attributes",
      record,
      names.slice(1).map((n) => [seg("attribute", n)]),
      attributeFields,
      a,
      a.versions,
      [`attribute (${a.type})`],
      a.source,
    );
    const limit = typeof a.length === "number" ? [`at most ${a.length} characters (the attribute's length)`] : [];
    for (const v of a.values ?? []) {
      const previous: Segment[][] = [];
      for (const an of names)
        for (const vn of [v.value, ...(v.previous_values ?? [])]) if (an !== a.name || vn !== v.value) previous.push([seg("attribute", an), seg("value", vn)]);
      const translations = Object.fromEntries(Object.entries(v.versions ?? {}).filter(([, t]) => present(t)));
      out.push({
        kind: "type_values",
        record: [seg("attribute", a.name), seg("value", v.value)],
        master: v.value,
        translations,
        previous,
        notes: [`a selectable value of the attribute "${a.name}"`, ...limit],
        ...(v.source ? { source: v.source } : {}),
        keys: (ver) => ["versions", ver],
      });
    }
  }

  const categoryFields = versionedFields(CATEGORY);
  // Only renamed categories are looked up for their descendants (most catalogues have none).
  const previousNames = new Map(c.categories.filter((cat) => cat.previous_names?.length).map((cat) => [pathKey(cat.path), cat.previous_names!]));
  for (const cat of c.categories) {
    const previous: string[][] = [...(cat.previous_paths ?? [])];
    // The category, or one ancestor at a time, under an earlier name.
    for (let i = 0; previousNames.size && i < cat.path.length; i++) {
      for (const old of previousNames.get(pathKey(cat.path.slice(0, i + 1))) ?? []) previous.push([...cat.path.slice(0, i), old, ...cat.path.slice(i + 1)]);
    }
    const notes = [`category ${cat.path.join(" > ")}`];
    fieldTexts(
      "categories",
      [seg("category", pathKey(cat.path))],
      previous.map((p) => [seg("category", pathKey(p))]),
      categoryFields,
      cat,
      cat.versions,
      notes,
      cat.source,
    );
  }

  const brandFields = versionedFields(BRAND);
  for (const b of c.brands) {
    const olds = (b.previous_names ?? []).map((n) => [seg("brand", n)]);
    fieldTexts("brands", [seg("brand", b.name)], olds, brandFields, b, b.versions, [`brand "${b.name}"`], b.source);
    for (const [attr, val] of Object.entries(b.attributes ?? {})) {
      if (!present(val.value)) continue;
      const translations = Object.fromEntries(Object.entries(val.versions ?? {}).filter(([, t]) => present(t)));
      const limit = lengths.has(attr) ? [`at most ${lengths.get(attr)} characters (the attribute's length)`] : [];
      out.push({
        kind: "brand_attribute_values",
        record: [seg("brand", b.name), seg("attribute", attr)],
        master: val.value,
        translations,
        previous: olds.map(([o]) => [o!, seg("attribute", attr)]),
        notes: [`the value of the attribute "${attr}" for the brand "${b.name}"`, ...limit],
        ...(b.source ? { source: b.source } : {}),
        keys: (ver) => ["attributes", attr, "versions", ver],
      });
    }
  }
  return out;
}
