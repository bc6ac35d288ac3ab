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
 * sets) stay as the folder has them: the tenant holds no truth to merge.
 * Pure: texts in, texts and a report out.
 */
import { isMap, isSeq, type Node, type Pair, type YAMLMap, type YAMLSeq } from "yaml";
import { comparePaths, KIND_NOUN, pathKey, type Catalogue, type Category, type Kind } from "../model/catalogue.js";
import { canonicalJson } from "../plan/canonical-json.js";
import { clean, nestCategories, ownVersions, tidy } from "./index.js";
import { variableWriter } from "./translate.js";
import { YamlFileEdit, renderYaml, type VariableText } from "./yaml-edit.js";

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
  /** Values that differ but are not written where the entry is (a YAML merge key `<<` gives them): to edit by hand. */
  byHand: string[];
  /** Entries whose rename (previous_names, previous_values, previous_paths) the tenant has not seen yet: left as they are. */
  pendingRenames: string[];
}

/** Fields merge never writes: identity, the folder's own history, and what API v1 cannot read back. */
const SKIP: Record<Kind, readonly string[]> = {
  display_groups: ["name", "previous_names"],
  attributes: ["name", "previous_names", "values"],
  attribute_sets: ["name", "previous_names"],
  blocks: ["slug", "previous_names", "assets"],
  brands: ["name", "previous_names", "web_ids", "assets", "attribute_sets"],
  categories: ["name", "previous_names", "previous_paths", "children", "web_ids", "assets"],
};
const VALUE_SKIP = ["value", "previous_values"];

/** `${name}` and the `$${` escape, as the loader reads them (src/manifest/yaml.ts). */
const VARIABLE = /\$\$\{|\$\{([^}]*)\}/g;

type Json = Record<string, unknown>;
const isObject = (v: unknown): v is Json => v !== null && typeof v === "object" && !Array.isArray(v);

export function mergeExport(input: MergeInput): MergeResult {
  const { variables } = input;
  const report: MergeResult = { files: {}, updated: [], added: [], onlyInFolder: [], byHand: [], pendingRenames: [] };

  const text: VariableText = {
    resolve: (s) =>
      s.replace(VARIABLE, (m, name: string | undefined) => (m === "$${" ? "${" : name !== undefined && Object.hasOwn(variables, name) ? variables[name]! : m)),
    write: variableWriter(variables),
  };
  const files = Object.keys(input.files)
    .sort()
    .map((name) => new YamlFileEdit(name, input.files[name]!, text));

  // ------------------------------------------------------------ comparison

  /** Equal as the plan sees it: empty values absent, lists of names in any order. */
  const norm = (v: unknown): unknown => {
    if (Array.isArray(v)) {
      const items = v.map(norm);
      return items.every((x) => typeof x !== "object") ? [...items].sort((a, b) => (String(a) < String(b) ? -1 : String(a) > String(b) ? 1 : 0)) : items;
    }
    if (isObject(v))
      return Object.fromEntries(
        Object.keys(v)
          .sort()
          .map((k) => [k, norm(v[k])]),
      );
    return v;
  };
  const same = (a: unknown, b: unknown) => canonicalJson(norm(a) as never) === canonicalJson(norm(b) as never);

  /**
   * A folder entry as export would write it: no empty fields, no version text that repeats the
   * master. Fields merge never writes are left out first (a category's children, an attribute's
   * values are merged entry by entry: tidying them here too would cost a walk per level).
   */
  const asExported = (kind: Kind | "values", entry: Json): Json => {
    const skip = kind === "values" ? VALUE_SKIP : SKIP[kind];
    const out = Object.fromEntries(Object.entries(entry).filter(([k]) => !skip.includes(k) || k === "name" || k === "value"));
    if ((kind === "attributes" || kind === "brands" || kind === "categories") && isObject(out.versions)) {
      const own = ownVersions(out.versions as Record<string, object>, out);
      if (own) out.versions = own;
      else delete out.versions;
    }
    if (kind === "values" && isObject(out.versions)) {
      const own = Object.fromEntries(Object.entries(out.versions).filter(([, t]) => t !== out.value));
      if (Object.keys(own).length) out.versions = own;
      else delete out.versions;
    }
    return Object.fromEntries(
      Object.entries(out)
        .map(([k, x]) => [k, tidy(x)])
        .filter(([, x]) => x !== undefined),
    );
  };

  /**
   * Merge one map's fields: change what differs, remove what the tenant no longer has, and add
   * what is new inside a field the entry declares. An entry's own fields it does not declare
   * are not its to manage (the plan leaves them alone too): tenant defaults stay out of the file.
   */
  const mergeMap = (f: YamlFileEdit, map: YAMLMap, current: Json, desired: Json, skip: readonly string[], label: string, entry: boolean): void => {
    const declared = map.items.map((p) => f.keyOf(p as Pair));
    const keys = [...new Set([...declared, ...(entry ? [] : Object.keys(desired))])];
    // A field from a merge key is shared with other entries: changing it here is a person's decision.
    for (const key of Object.keys(current)) {
      if (!declared.includes(key) && !skip.includes(key) && !same(current[key], desired[key])) {
        report.byHand.push(`${f.at(map.range![0])}: ${label}: ${key} differs in the tenant, but comes from a merge key (<<): edit it by hand`);
      }
    }
    const differs = keys.filter((key) => !skip.includes(key) && !same(current[key], desired[key]));
    // A flow map (`{ a: 1, b: 2 }`) that gains or loses a key is written again whole, in flow style.
    if (map.flow && differs.some((key) => desired[key] === undefined || !f.findPair(map, key))) {
      const raw = f.js(map) as Json;
      const whole: Json = {};
      for (const key of keys) {
        const value = skip.includes(key) ? raw[key] : desired[key];
        if (value !== undefined) whole[key] = value;
      }
      f.rewriteFlow(map, whole);
      for (const key of differs) report.updated.push(`${f.at(map.range![0])}: ${label}: ${key}`);
      return;
    }
    for (const key of differs) {
      const cur = current[key];
      const want = desired[key];
      const pair = f.findPair(map, key);
      const where = pair ? f.at((pair.key as Node).range![0]) : f.at(map.range![0]);
      if (want === undefined) {
        if (!pair) continue;
        if (f.removePair(pair)) report.updated.push(`${where}: ${label}: ${key} removed (the tenant has none)`);
        else report.byHand.push(`${where}: ${label}: ${key} is gone in the tenant, but it starts the entry's line: remove it by hand`);
      } else if (!pair) {
        f.addKey(map, key, want);
        report.updated.push(`${where}: ${label}: ${key} added`);
      } else if (isMap(pair.value) && !pair.value.flow && isObject(cur) && isObject(want)) {
        mergeMap(f, pair.value, cur, want, [], `${label}.${key}`, false);
      } else if (Array.isArray(cur) && Array.isArray(want) && want.every((x) => typeof x !== "object") && cur.every((x) => typeof x !== "object")) {
        // A list of names keeps the folder's order: the names still there, then the new ones.
        const kept = cur.filter((x) => want.includes(x));
        f.replaceValue(map, pair, [...kept, ...want.filter((x) => !kept.includes(x))]);
        report.updated.push(`${where}: ${label}: ${key}`);
      } else {
        f.replaceValue(map, pair, want);
        report.updated.push(`${where}: ${label}: ${key}`);
      }
    }
  };

  // ------------------------------------------------------------ entries

  const wanted = new Map<Kind, Map<string, Json>>();
  for (const kind of input.kinds) {
    const byKey = new Map<string, Json>();
    if (kind === "categories") for (const c of input.exported.categories) byKey.set(pathKey(c.path), clean(c));
    else
      for (const e of input.exported[kind] as object[]) {
        const entry = clean(e);
        byKey.set(String(kind === "blocks" ? entry.slug : entry.name), entry);
      }
    wanted.set(kind, byKey);
  }
  const seen = new Set<string>();
  const categoryMaps = new Map<string, { f: YamlFileEdit; map: YAMLMap }>();
  /**
   * An entry the tenant does not have under its name may still have it under a previous one: a
   * rename the next apply makes. The old record is then neither new nor to be merged into the
   * entry (which says what it becomes): it is marked seen, and reported. False when no previous name matches.
   */
  const pendingRename = (
    seenKey: (old: string) => string,
    olds: string[],
    have: (old: string) => boolean,
    where: string,
    label: string,
    fieldsMerged = false,
  ): boolean => {
    const old = olds.find(have);
    if (old === undefined) return false;
    seen.add(seenKey(old));
    const left = fieldsMerged ? "the name is left as the folder has it, its other fields merged" : "left as the folder has it";
    report.pendingRenames.push(`${where}: ${label} is "${old}" in the tenant (a rename the next apply makes; ${left})`);
    return true;
  };
  /** Previous names the folder's entries list, by kind: entry that lists it. */
  const claimed = new Map<string, string>();
  const names = (v: unknown): string[] => (Array.isArray(v) ? v.map((x) => (Array.isArray(x) ? pathKey(x.map(String)) : String(x))) : []);

  const mergeValues = (f: YamlFileEdit, item: YAMLMap, attribute: string, desired: Json): void => {
    const want = (desired.values as Json[] | undefined) ?? [];
    const pair = f.findPair(item, "values");
    const seq = pair && isSeq(pair.value) ? pair.value : undefined;
    const have = new Set<string>();
    for (const v of seq?.items ?? []) {
      if (!isMap(v)) continue;
      const current = f.js(v) as Json;
      const id = String(current.value);
      have.add(id);
      const d = want.find((x) => x.value === id);
      const label = `value "${id}" of attribute "${attribute}"`;
      if (!d) {
        const renamed = pendingRename(
          (old) => (have.add(old), old),
          names(current.previous_values),
          (old) => want.some((x) => x.value === old),
          f.at(v.range![0]),
          label,
        );
        if (!renamed) report.onlyInFolder.push(`${f.at(v.range![0])}: ${label}`);
      } else mergeMap(f, v, asExported("values", current), d, VALUE_SKIP, `attribute "${attribute}" value "${id}"`, true);
    }
    // Identity first, as people write a value (export's field order puts slug first).
    const added = want.filter((x) => !have.has(String(x.value))).map(({ value, ...rest }) => ({ value, ...rest }));
    if (!added.length) return;
    for (const v of added) report.added.push(`${f.name}: value "${String(v.value)}" of attribute "${attribute}"`);
    if (seq && f.appendItems(seq, added)) return;
    if (pair) f.replaceValue(item, pair, [...((f.js(pair.value) as Json[] | null) ?? []), ...added]);
    else f.addKey(item, "values", added);
  };

  const visitCategories = (f: YamlFileEdit, seq: YAMLSeq, parent: string[]): void => {
    for (const item of seq.items) {
      if (!isMap(item)) continue;
      const name = text.resolve(String(item.get("name")));
      const p = [...parent, name];
      const key = pathKey(p);
      seen.add(`categories\0${key}`);
      categoryMaps.set(key, { f, map: item });
      const desired = wanted.get("categories")!.get(key);
      if (!desired) {
        const current = f.js(item) as Json;
        const olds = [...names(current.previous_names).map((n) => pathKey([...parent, n])), ...names(current.previous_paths)];
        const tenant = wanted.get("categories")!;
        const renamed = pendingRename(
          (old) => {
            // The old record's subtree moves with it: none of it is new.
            for (const k of tenant.keys()) if (k.startsWith(`${old}/`)) seen.add(`categories\0${k}`);
            return `categories\0${old}`;
          },
          olds,
          (old) => tenant.has(old),
          f.at(item.range![0]),
          `category "${key}"`,
        );
        if (!renamed) report.onlyInFolder.push(`${f.at(item.range![0])}: category "${key}"`);
      } else mergeMap(f, item, asExported("categories", f.js(item) as Json), desired, SKIP.categories, `category "${key}"`, true);
      const children = item.get("children");
      if (isSeq(children)) visitCategories(f, children, p);
    }
  };

  for (const f of files) {
    if (!f.doc || !isMap(f.doc.contents)) continue;
    for (const kind of input.kinds) {
      const seq = f.doc.contents.get(kind);
      if (!isSeq(seq)) continue;
      if (kind === "categories") {
        visitCategories(f, seq, []);
        continue;
      }
      for (const item of seq.items) {
        if (!isMap(item)) continue;
        const current = f.js(item) as Json;
        const id = String(kind === "blocks" ? current.slug : current.name);
        const label = `${KIND_NOUN[kind]} "${id}"`;
        seen.add(`${kind}\0${id}`);
        // A name the folder renames away from is never added back: the loader would refuse the folder.
        for (const old of names(current.previous_names)) claimed.set(`${kind}\0${old}`, `${f.at(item.range![0])}: ${label}`);
        const desired = wanted.get(kind)!.get(id);
        if (!desired) {
          const olds = names(current.previous_names);
          const renamed = pendingRename(
            (old) => `${kind}\0${old}`,
            olds,
            (old) => wanted.get(kind)!.has(old),
            f.at(item.range![0]),
            label,
            true,
          );
          if (!renamed) {
            report.onlyInFolder.push(`${f.at(item.range![0])}: ${label}`);
            continue;
          }
          // The rename is the folder's; every other field is merged from the record it renames,
          // so a change made in the tenant meanwhile is not reverted by the next apply unseen.
          const before = wanted.get(kind)!.get(olds.find((o) => wanted.get(kind)!.has(o))!)!;
          mergeMap(f, item, asExported(kind, current), before, SKIP[kind], label, true);
          if (kind === "attributes") mergeValues(f, item, id, before);
          continue;
        }
        mergeMap(f, item, asExported(kind, current), desired, SKIP[kind], label, true);
        if (kind === "attributes") mergeValues(f, item, id, desired);
      }
    }
  }

  // ------------------------------------------------------------ new entries

  const created = new Map<string, YamlFileEdit>();
  /** Where a kind's new entries go: the first file that declares the kind, else `<kind>.yaml`. */
  const appendToKind = (kind: Kind, items: unknown[]): void => {
    for (const f of files) {
      const seq = f.doc && isMap(f.doc.contents) ? f.doc.contents.get(kind) : undefined;
      if (isSeq(seq) && f.appendItems(seq, items)) {
        for (const e of items) report.added.push(`${f.name}: ${KIND_NOUN[kind]} "${entryName(kind, e as Json)}"`);
        return;
      }
    }
    const name = `${kind}.yaml`;
    const existing = files.find((f) => f.name === name);
    const body = renderYaml({ [kind]: items }, text);
    if (existing) existing.insertLines(existing.text.length, `\n${body}`);
    else created.set(name, new YamlFileEdit(name, `${input.header(kind)}${body}`, text, { parse: false }));
    for (const e of items) report.added.push(`${name}: ${KIND_NOUN[kind]} "${entryName(kind, e as Json)}"`);
  };

  for (const kind of input.kinds) {
    if (kind === "categories") continue;
    const fresh = [...wanted.get(kind)!.entries()]
      .filter(([id]) => {
        const by = claimed.get(`${kind}\0${id}`);
        if (by && !seen.has(`${kind}\0${id}`))
          report.pendingRenames.push(
            `${by} lists "${id}" as a previous name, and the tenant has both: "${id}" is not added (the plan deletes or keeps it as your prune policy says)`,
          );
        return !seen.has(`${kind}\0${id}`) && !by;
      })
      .map(([, e]) => e);
    if (fresh.length) appendToKind(kind, fresh);
  }
  if (input.kinds.includes("categories")) {
    const fresh = input.exported.categories.filter((c) => !seen.has(`categories\0${pathKey(c.path)}`)).sort((a, b) => comparePaths(a.path, b.path));
    const freshKeys = new Set(fresh.map((c) => pathKey(c.path)));
    // Each new subtree goes whole under its parent in the folder (or at the root).
    const roots = fresh.filter((c) => !freshKeys.has(pathKey(c.path.slice(0, -1))));
    const rootItems: unknown[] = [];
    for (const root of roots) {
      const rootKey = pathKey(root.path);
      const subtree: Category[] = fresh.filter((c) => c.path.length >= root.path.length && pathKey(c.path.slice(0, root.path.length)) === rootKey);
      const item = nestCategories(subtree)[0]!;
      const parent = root.path.length > 1 ? categoryMaps.get(pathKey(root.path.slice(0, -1))) : undefined;
      if (!parent) {
        rootItems.push(item);
        continue;
      }
      const { f, map } = parent;
      report.added.push(`${f.name}: category "${rootKey}"`);
      const pair = f.findPair(map, "children");
      if (pair && isSeq(pair.value) && f.appendItems(pair.value, [item])) continue;
      if (pair) f.replaceValue(map, pair, [...((f.js(pair.value) as unknown[] | null) ?? []), item]);
      else f.addKey(map, "children", [item]);
    }
    if (rootItems.length) appendToKind("categories", rootItems);
  }

  for (const f of [...files, ...created.values()]) {
    const text = f.result();
    if (text !== input.files[f.name]) report.files[f.name] = text;
  }
  // In file order, then in the order of each file: where a person reads them.
  return report;
}

function entryName(kind: Kind, e: Json): string {
  return String(kind === "blocks" ? e.slug : e.name);
}
