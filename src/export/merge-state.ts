/**
 * What one `export --merge` run holds while it walks the folder: its input and
 * report, the tenant's entries by identity, what it has seen, and which fields
 * of which records it changed (merge-verify.ts checks that nothing else did).
 */
import { pathKey, type Catalogue, type Kind } from "../model/catalogue.js";
import { clean } from "./files.js";
import type { MergeNotes } from "./merge-map.js";
import type { Json } from "./merge-rules.js";
import type { VariableText, MergeFile } from "./merge-file.js";
import type { YAMLMap } from "yaml";

/**
 * A record the tenant has under another name or path than the folder's entry, where the plan takes
 * it for the same record (renamed or moved by hand in the PIM: the ledger knows its id; hand-renames.ts).
 */
export interface HandRename {
  kind: Kind;
  /** The entry's identity in the folder: a name (slug), or a category's path key. */
  from: string;
  /** The record's identity in the tenant. */
  to: string;
}

export interface MergeInput {
  /** Every manifest file of the folder: name (relative to the folder, as reported) -> text. */
  files: Record<string, string>;
  /** The tenant, as export sees it (remoteToCatalogue). */
  exported: Catalogue;
  /** The kinds to merge (the others are left alone). */
  kinds: readonly Kind[];
  /** The tenant's config variables: a value equal to one is written as `${name}`. */
  variables: Record<string, string>;
  /** The first lines of a new `<kind>.yaml`. */
  header(kind: Kind): string;
  /** Records renamed or moved by hand that the plan would take back (hand-renames.ts): their entries follow. */
  renamedByHand?: readonly HandRename[];
  /**
   * The files are a tenant's overlay (issue 35): its entries patch the base's, so the merge does not
   * load them as whole records to check itself (the caller checks the composed catalogues:
   * overlay-verify.ts), entries with `$remove` are passed over, and a kind's new file is `newFile(kind)`.
   */
  overlay?: { newFile(kind: Kind): string };
}

export interface MergeResult {
  /** Files whose text changed or that are new: name -> text. */
  files: Record<string, string>;
  /** `file:line: what`, one per changed value. */
  updated: string[];
  /** `file: what`, one per added entry. */
  added: string[];
  /** Entries the folder declares that the tenant does not have (kept). */
  onlyInFolder: string[];
  /** Values that differ but cannot be written where the entry is: to edit by hand. */
  byHand: string[];
  /** Entries whose rename (previous_names, previous_values, previous_paths) the tenant has not seen yet: left as they are. */
  pendingRenames: string[];
  /** Entries that followed a record renamed or moved by hand in the tenant (or were left for the plan to take back). */
  renamed: string[];
}

/** A record's key in merge's bookkeeping: its kind and identity (a value's under its attribute). */
export const recordKey = (kind: Kind | "values", ...id: string[]): string => [kind, ...id].join("\0");

export class MergeState {
  readonly report: MergeResult = { files: {}, updated: [], added: [], onlyInFolder: [], byHand: [], pendingRenames: [], renamed: [] };
  /** Kind -> identity -> the tenant's entry, as export writes it. */
  readonly wanted = new Map<Kind, Map<string, Json>>();
  /** Tenant records an entry of the folder stands for (recordKey): not new. */
  readonly seen = new Set<string>();
  /** Previous names the folder's entries list (recordKey) -> the entry that lists it. */
  readonly claimed = new Map<string, string>();
  /** Category tenant path key -> where its entry is: new children go under it. */
  readonly categoryMaps = new Map<string, { f: MergeFile; map: YAMLMap }>();
  /** recordKey (as the merged folder has it) -> the fields merge changed. */
  readonly changed = new Map<string, Set<string>>();
  /** recordKey of every entry merge added. */
  readonly added = new Set<string>();

  /** The folder's files being edited (after the entries that follow renames by hand have followed). */
  readonly files: MergeFile[] = [];

  constructor(
    readonly input: MergeInput,
    readonly text: VariableText,
  ) {
    for (const kind of input.kinds) {
      const byKey = new Map<string, Json>();
      if (kind === "categories") for (const c of input.exported.categories) byKey.set(pathKey(c.path), clean(c));
      else for (const e of input.exported[kind] as object[]) byKey.set(entryName(kind, e as Json), clean(e));
      this.wanted.set(kind, byKey);
    }
  }

  /** Whether the tenant has a record of this kind and identity. */
  has(kind: Kind, key: string): boolean {
    return this.wanted.get(kind)?.has(key) ?? false;
  }

  /** Where the merge of one record reports. */
  notes(key: string): MergeNotes {
    return {
      updated: this.report.updated,
      byHand: this.report.byHand,
      changed: (field) => {
        let fields = this.changed.get(key);
        if (!fields) this.changed.set(key, (fields = new Set()));
        fields.add(field);
      },
    };
  }
}

export function entryName(kind: Kind, e: Json): string {
  return String(kind === "blocks" ? e.slug : e.name);
}
