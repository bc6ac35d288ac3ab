/**
 * The last step of export --merge, before anything is written: the files it
 * changed are loaded as `plan` loads them, before and after the merge (after:
 * with the whole folder, so what spans files is checked too), and every record
 * they declare is compared by the manifest editor's check
 * (src/manifest/edit/verify.ts), not only the edited ones. A record merge did
 * not mean to change (or a field of an edited record it did not mean to change)
 * that reads differently, a record gone or a record that appears from nowhere,
 * or a folder that no longer loads: the merge is refused, naming each record,
 * and nothing is written. YAML can share text between records in ways the
 * editor does not split (src/manifest/edit/shared.ts splits anchors and
 * aliases): this is what guarantees that only the records the tenant changed
 * change.
 */
import { KINDS, KIND_NOUN, pathKey, type Catalogue, type Kind, type SourceLocation } from "../model/catalogue.js";
import { parseManifestText } from "../manifest/index.js";
import { CatalogueBuilder } from "../manifest/catalogue-builder.js";
import { unmeantChanges } from "../manifest/edit/verify.js";
import { canonicalJson } from "../plan/canonical-json.js";
import { PimctlError } from "../errors.js";
import { recordKey } from "./merge-state.js";
import type { Json } from "./merge-rules.js";

export interface MergeCheck {
  before: Record<string, string>;
  /** Every file after the merge (unchanged ones too). */
  after: Record<string, string>;
  variables: Record<string, string>;
  /** A record's key after the merge (it differs for an entry that followed a rename by hand). */
  keyAfter(key: string): string;
  /** recordKey (after) -> the fields merge changed. */
  changed: ReadonlyMap<string, ReadonlySet<string>>;
  /** recordKey of every entry merge added. */
  added: ReadonlySet<string>;
}

/** What a rename changes besides the fields merge reports: the identity and its history. */
export const RENAME_FIELDS = ["name", "previous_names", "previous_paths"];

/** Throws when the merged folder differs from the folder in anything merge did not mean to change. */
export function checkMerge(c: MergeCheck): void {
  // Only a file merge changed can read differently: the others are neither loaded before nor compared.
  const edited = new Set(Object.keys(c.after).filter((name) => c.after[name] !== c.before[name]));
  if (!edited.size) return;
  const before = load(Object.fromEntries(Object.entries(c.before).filter(([name]) => edited.has(name))), c.variables);
  // A folder that did not load is not the workflow's (it validates first): nothing to compare against.
  if (!before.ok) return;
  // The whole folder after: what spans files (an entry declared twice) is checked too.
  const after = load(c.after, c.variables);
  if (!after.ok) throw refused(after.errors.map((e) => e.format()));
  const records = (r: typeof before.records) => new Map([...r].map(([key, { record }]) => [key, comparable(record)]));
  const found = unmeantChanges(records(before.records), records(after.records), {
    keyAfter: c.keyAfter,
    // The fields merge changed, and a renamed record's identity and history.
    meant: (change, key) =>
      c.changed.get(key.after)?.has(String(change.path[0])) === true || (key.after !== key.before && RENAME_FIELDS.includes(String(change.path[0]))),
  });
  const problems = [
    ...found.gone.map((key) => `${label(key)} would be gone`),
    ...found.changed.map(({ key, changes }) => {
      const fields = [...new Set(changes.map((x) => String(x.path[0])))].sort();
      return `${label(key)} would change (${fields.join(", ")}), which merge did not mean to change`;
    }),
    ...found.appeared
      .filter((key) => edited.has(after.records.get(key)!.file) && !c.added.has(key))
      .map((key) => `${label(key)} would appear, which merge did not add`),
  ];
  if (problems.length) throw refused(problems.sort());
}

/**
 * A record as merge compares it: as its canonical JSON reads (a number JSON cannot hold reads
 * null), and a field that is null the same as one that is absent (an empty field is none).
 */
export function comparable(record: Json): Json {
  return Object.fromEntries(Object.entries(JSON.parse(canonicalJson(record)) as Json).filter(([, v]) => v !== null));
}

function refused(details: string[]): PimctlError {
  return new PimctlError(
    "invalid_value",
    "export --merge refused: the merged folder would not read as the folder with only the tenant's changes; nothing was written",
    {
      details: [
        ...details,
        "YAML shares text between these records (an anchor and its aliases, a merge key <<) in a way merge could not split: " +
          "give each record its own text by hand, then merge again",
      ],
    },
  );
}

export function label(key: string): string {
  const [kind, ...id] = key.split("\0");
  if (kind === "values") return `value "${id[1]}" of attribute "${id[0]}"`;
  return `${KIND_NOUN[kind as Kind]} "${id.join("/")}"`;
}

/** The folder's records by recordKey, as the loader reads them (an attribute's values as records of their own). */
function load(files: Record<string, string>, variables: Record<string, string>) {
  const builder = new CatalogueBuilder({});
  const errors: PimctlError[] = [];
  for (const name of Object.keys(files).sort()) {
    const { data, parsed, errors: fileErrors } = parseManifestText(files[name]!, name, { variables });
    errors.push(...fileErrors);
    if (data && !fileErrors.length) builder.add(data, parsed);
  }
  const catalogue = builder.build();
  errors.push(...builder.errors);
  return { ok: errors.length === 0, errors, records: records(catalogue) };
}

/** recordKey -> the record (no source location) and the file that declares it. */
export function records(c: Catalogue): Map<string, { record: Json; file: string }> {
  const out = new Map<string, { record: Json; file: string }>();
  for (const kind of KINDS) {
    for (const r of c[kind] as Json[]) {
      const { source, path, values, ...rest } = r;
      const file = (source as SourceLocation | undefined)?.file ?? "";
      const id = kind === "categories" ? pathKey(path as string[]) : String(kind === "blocks" ? rest.slug : rest.name);
      out.set(recordKey(kind, id), { record: rest, file });
      if (kind !== "attributes" || !Array.isArray(values)) continue;
      for (const v of values as Json[]) {
        const { source: _v, ...value } = v;
        out.set(recordKey("values", id, String(value.value)), { record: value, file });
      }
    }
  }
  return out;
}
