/**
 * The records of a manifest file's data (as the loader reads it), each with its path in the data
 * and how people name it: attribute["Colour"], attribute["Colour"].value["Red"], category["A/B"].
 * The import finds an entry the loader located by the position of its path.
 */
import { pathKey } from "../model/catalogue.js";

export type DataPath = Array<string | number>;

export interface DataEntry {
  path: DataPath;
  label: string;
}

export const isObject = (v: unknown): v is Record<string, unknown> => typeof v === "object" && v !== null && !Array.isArray(v);
const list = (v: unknown): unknown[] => (Array.isArray(v) ? v : []);
const name = (v: unknown, key: string): string => (isObject(v) ? String(v[key]) : "?");

/** Every record of a file's data with its path and how people name it (attribute["Colour"]). */
export function entriesOf(data: unknown): DataEntry[] {
  const out: DataEntry[] = [];
  if (!isObject(data)) return out;
  const named = (kind: string, type: string, key: string) =>
    list(data[kind]).forEach((e, i) => out.push({ path: [kind, i], label: `${type}[${JSON.stringify(name(e, key))}]` }));
  named("display_groups", "display_group", "name");
  named("attribute_sets", "attribute_set", "name");
  named("blocks", "block", "slug");
  named("brands", "brand", "name");
  list(data.attributes).forEach((a, i) => {
    const attribute = `attribute[${JSON.stringify(name(a, "name"))}]`;
    out.push({ path: ["attributes", i], label: attribute });
    if (isObject(a))
      list(a.values).forEach((v, j) => out.push({ path: ["attributes", i, "values", j], label: `${attribute}.value[${JSON.stringify(name(v, "value"))}]` }));
  });
  const categories = (nodes: unknown, path: DataPath, names: string[]) =>
    list(nodes).forEach((c, i) => {
      const here = [...names, name(c, "name")];
      out.push({ path: [...path, i], label: `category[${JSON.stringify(pathKey(here))}]` });
      if (isObject(c)) categories(c.children, [...path, i, "children"], here);
    });
  categories(data.categories, ["categories"], []);
  return out;
}

/** The value at a path of the data; undefined where there is none. */
export function readAt(data: unknown, path: DataPath): unknown {
  let v = data;
  for (const p of path) v = isObject(v) || Array.isArray(v) ? (v as Record<string | number, unknown>)[p] : undefined;
  return v;
}
