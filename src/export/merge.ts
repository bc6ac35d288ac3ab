/**
 * `export --merge`: bring a folder of manifests up to date with a tenant
 * without rewriting it. Each changed value is edited in the file, at the
 * place where its entry lives, as a splice of the file's text at the node's
 * source range (the yaml library's parse keeps every node's range), so
 * comments, `${variables}`, `previous_*`, order, quoting and file layout of
 * everything else stay byte for byte. New entries go to the file where their
 * kind already lives (or `<kind>.yaml`); nothing is removed but fields the
 * tenant no longer has: entries only the folder has are reported, kept.
 * Values API v1 cannot read back (web_ids, asset image_url, a brand's attribute
 * sets) stay as the folder has them: the tenant holds no truth to merge; texts it
 * cannot write (brand and category language versions) are kept, only added to.
 *
 * Only the records the tenant changed change: entries follow records renamed
 * or moved by hand first (merge-follow.ts), an edit inside something YAML
 * shares is split from the records that share it (src/manifest/edit/shared.ts, and a merge
 * key's fields are written on the entry: merge-map.ts), and the result is
 * loaded and compared record by record before it is returned (merge-verify.ts).
 * Pure: texts in, texts and a report out.
 */
import { variableWriter } from "./translate.js";
import { MergeFile, type VariableText } from "./merge-file.js";
import { MergeState, type MergeInput, type MergeResult } from "./merge-state.js";
import { followHandRenames } from "./merge-follow.js";
import { mergeEntries } from "./merge-entries.js";
import { addNewEntries } from "./merge-new.js";
import { checkMerge } from "./merge-verify.js";

export type { HandRename, MergeInput, MergeResult } from "./merge-state.js";

/** `${name}` and the `$${` escape, as the loader reads them (src/manifest/yaml.ts). */
const VARIABLE = /\$\$\{|\$\{([^}]*)\}/g;

export function mergeExport(input: MergeInput): MergeResult {
  return mergeTracked(input).report;
}

/** What a merge changed, for a caller that checks more than its own files (overlay-verify.ts). */
export interface TrackedMerge {
  report: MergeResult;
  /** recordKey (after) -> the fields the merge changed. */
  changed: ReadonlyMap<string, ReadonlySet<string>>;
  /** recordKey of every entry the merge added. */
  added: ReadonlySet<string>;
  /** A record's key after the merge (it differs for an entry that followed a rename by hand). */
  keyAfter(key: string): string;
}

/** mergeExport, with what it changed. */
export function mergeTracked(input: MergeInput): TrackedMerge {
  const { variables } = input;
  const text: VariableText = {
    resolve: (s) =>
      s.replace(VARIABLE, (m, name: string | undefined) => (m === "$${" ? "${" : name !== undefined && Object.hasOwn(variables, name) ? variables[name]! : m)),
    write: variableWriter(variables),
  };
  const s = new MergeState(input, text);
  const followed = followHandRenames(s, input.files);
  for (const name of Object.keys(followed.files).sort()) s.files.push(new MergeFile(name, followed.files[name]!, text));
  mergeEntries(s, followed.follow);
  const created = addNewEntries(s);

  const after: Record<string, string> = {};
  for (const f of [...s.files, ...created.values()]) after[f.name] = f.result();
  // An overlay's entries are patches, not records: the caller checks the composed catalogues instead.
  if (!input.overlay) checkMerge({ before: input.files, after, variables, keyAfter: followed.keyAfter, changed: s.changed, added: s.added });
  for (const [name, t] of Object.entries(after)) if (t !== input.files[name]) s.report.files[name] = t;
  return { report: s.report, changed: s.changed, added: s.added, keyAfter: followed.keyAfter };
}
