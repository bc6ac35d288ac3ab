/**
 * A targeted plan (--target) loads what it touches: the targeted entries and,
 * pass by pass, the entries their records depend on (the rules of
 * src/plan/read-scope.ts `dependencies`), until nothing more is needed. An
 * entry whose name, language versions or renames the line scan cannot read
 * for certain is loaded too (src/manifest/entry-scan.ts), but what it depends
 * on only when the targets need it: the catalogue loaded may refer to records
 * it does not hold outside the read scope (apply verifies within that scope).
 * References are checked within the read scope, as a full load checks them.
 *
 * It gives the read scope a full load gives (test/manifest/targeted-load.test.ts),
 * and declines (undefined: the caller loads everything) where read-scope.ts
 * would read the whole catalogue, or the selectors need every name of a kind:
 * globs, whole kinds as targets, glob excludes, selectors that do not parse.
 */
import type { Catalogue, Category, Kind } from "../model/catalogue.js";
import { parsePathKey } from "../model/catalogue.js";
import { ROOT_KIND, parseAddress, type RootType } from "../plan/address.js";
import { dependencies, readScope, scopedRecords } from "../plan/read-scope.js";
import { parseSelector } from "../plan/selectors.js";
import { ManifestEntries } from "../manifest/partial.js";
import type { LoadOptions } from "../manifest/index.js";
import type { ScannedEntry } from "../manifest/entry-scan.js";
import { closeNames, type PimctlError } from "../errors.js";
import { referenceProblems } from "../manifest/references.js";
import { atMembers } from "../manifest/reference-places.js";

export interface Selectors {
  targets: readonly string[];
  excludes: readonly string[];
  /** The config's scope.ignore rules (read-scope.ts treats them as excludes). */
  ignore: readonly string[];
}

/** What a targeted load read, for the "Read tenant" line. */
export interface LoadedCount {
  entries: number;
  of: number;
  targets: number;
}

/** The entry an address's record is in: its kind and top-level name (a category's root). */
function entryOf(address: string): { kind: Kind; name: string } | undefined {
  const root = parseAddress(address)?.segments[0];
  if (!root) return undefined;
  const kind = ROOT_KIND[root.type as RootType];
  return { kind, name: kind === "categories" ? parsePathKey(root.key)[0]! : root.key };
}

/** The entries the selectors name, or undefined when they need every entry. */
function namedEntries(s: Selectors): Array<{ kind: Kind; name: string }> | undefined {
  if (!s.targets.length) return undefined;
  const out: Array<{ kind: Kind; name: string }> = [];
  for (const [texts, isTarget] of [
    [s.targets, true],
    [s.excludes, false],
  ] as const) {
    for (const text of texts) {
      let kind: Kind | undefined;
      try {
        kind = parseSelector(text).kind;
      } catch {
        return undefined;
      }
      // An excluded kind needs no record; a targeted one needs them all.
      if (text === kind && !isTarget) continue;
      const entry = text.includes("*") ? undefined : entryOf(text);
      if (!entry) return undefined;
      out.push(entry);
    }
  }
  return out;
}

export async function loadTargeted(
  dir: string,
  opts: LoadOptions,
  selectors: Selectors,
): Promise<{ desired: Catalogue; loaded: LoadedCount; empty: string[] } | { errors: PimctlError[] } | undefined> {
  const named = namedEntries(selectors);
  if (!named) return undefined;
  const entries = await ManifestEntries.open(dir, opts);
  if (!entries) return undefined;
  const wanted = new Map<Kind, Set<string>>();
  const want = (e: { kind: Kind; name: string }): boolean => {
    const names = wanted.get(e.kind) ?? wanted.set(e.kind, new Set()).get(e.kind)!;
    return names.size !== names.add(e.name).size;
  };
  named.forEach(want);
  for (let pass = 0; ; pass++) {
    const chosen = new Set<ScannedEntry>();
    for (const e of entries.unloaded()) if (e.name === undefined || e.versions === undefined || e.previous || wanted.get(e.kind)?.has(e.name)) chosen.add(e);
    entries.load(chosen);
    const result = entries.result();
    if (result.errors.length) return { errors: result.errors };
    // Where a full load would be read whole, so is this one.
    const scope = readScope(result.catalogue, selectors);
    if (!scope) return undefined;
    let more = pass === 0 && wantLookalikes(named, result.catalogue, entries, want);
    for (const r of scopedRecords(scope.desired))
      for (const d of dependencies(r)) {
        const e = entryOf(d);
        if (e && want(e)) more = true;
      }
    if (more) continue;
    // References are checked among the records the plan is made of, once all they may name is loaded.
    const problems = referenceProblems(scope.desired, opts.external);
    if (problems.length) return { errors: await atMembers(problems, opts) };
    return { desired: result.catalogue, loaded: { entries: result.loaded, of: result.total, targets: selectors.targets.length }, empty: result.empty };
  }
}

/**
 * A target or exclude the manifests do not declare (a record only the tenant has, or a typo): the entries
 * named like it are loaded too, so that "matches nothing ... did you mean" offers what a full load would.
 */
function wantLookalikes(
  named: ReadonlyArray<{ kind: Kind; name: string }>,
  loaded: Catalogue,
  entries: ManifestEntries,
  want: (e: { kind: Kind; name: string }) => boolean,
): boolean {
  const declared = new Set(scopedRecords(loaded).map((r) => `${r.kind}\0${r.kind === "categories" ? (r.record as Category).path[0] : r.name}`));
  const missing = named.filter((n) => !declared.has(`${n.kind}\0${n.name}`));
  let more = false;
  for (const m of missing) {
    const names = [...entries.unloaded()].filter((e) => e.kind === m.kind && e.name !== undefined).map((e) => e.name!);
    for (const name of closeNames(m.name, names, 10)) if (want({ kind: m.kind, name })) more = true;
  }
  return more;
}
