/**
 * Variables between tenants. What differs per tenant goes through `${variables}`, and only
 * variable-bearing fields hold one: a channel name as a key of `web_ids`, and an asset's
 * `image_url` (the whole value, or a URL variable at its start: `${cdn}/brands/acme.png`).
 * Any other text that equals a variable's value (a desc "Webshop", a category named
 * "Webshop") is text: `diff` between tenants, `export` and `export --merge` leave it as it
 * is, as `plan` does, so the three agree on which values are a variable.
 *
 * Tenant-to-tenant comparison translates a catalogue read from one tenant into another's
 * values at those fields (`translateVariables`); export writes them back as `${name}`
 * (`variableWriter`, `writeVariables`).
 */
import type { Catalogue } from "../model/catalogue.js";
import { templateText } from "../manifest/yaml-text.js";

const NO_NAMES: ReadonlySet<string> = new Set();

/** Where in an entry (a manifest entry, or any part of one) a string is variable-bearing. */
export type VariablePlace = "key" | "value";

/**
 * Whether a string at this place is variable-bearing: a key of a `web_ids` map (a channel name),
 * or the value of `image_url` in an item of an `assets` list. `parents` are the keys (and list
 * indexes) above it, innermost last.
 */
export function isVariableBearing(parents: ReadonlyArray<string | number>, place: VariablePlace, key?: string): boolean {
  const last = parents[parents.length - 1];
  if (place === "key") return last === "web_ids";
  return key === "image_url" && typeof last === "number" && parents[parents.length - 2] === "assets";
}

/** The variable a value stands for: the whole value, or a URL variable and the rest of the URL after it. */
function variableOf(s: string, byValue: ReadonlyMap<string, string>, urls: ReadonlyArray<[string, string]>): { name: string; rest: string } | undefined {
  const name = byValue.get(s);
  if (name !== undefined) return { name, rest: "" };
  const url = urls.find(([value]) => s.startsWith(value) && /^[/?#]/.test(s.slice(value.length)));
  return url ? { name: url[1], rest: s.slice(url[0].length) } : undefined;
}

/** Value -> variable name (the first name in sorted order when two share a value, so output is stable), and the URL ones longest first. */
function byValueOf(variables: Record<string, string>): { byValue: Map<string, string>; urls: Array<[string, string]> } {
  const byValue = new Map<string, string>();
  for (const [name, value] of Object.entries(variables).sort(([a], [b]) => (a < b ? -1 : 1))) if (value.length && !byValue.has(value)) byValue.set(value, name);
  const urls = [...byValue.entries()].filter(([value]) => /^[a-z][a-z0-9+.-]*:\/\/\S+$/i.test(value)).sort((a, b) => b[0].length - a[0].length);
  return { byValue, urls };
}

/** Walk a value, rewriting strings: `variable` where they are variable-bearing, `literal` everywhere else. */
function rewrite(value: unknown, w: VariableWriter, parents: Array<string | number> = [], key?: string): unknown {
  if (typeof value === "string") return isVariableBearing(parents, "value", key) ? w.variable(value) : w.literal(value);
  if (Array.isArray(value)) return value.map((x, i) => rewrite(x, w, [...parents, ...(key !== undefined ? [key] : []), i]));
  if (value !== null && typeof value === "object") {
    const here = key !== undefined ? [...parents, key] : parents;
    return Object.fromEntries(Object.entries(value).map(([k, x]) => [isVariableBearing(here, "key") ? w.variable(k) : w.literal(k), rewrite(x, w, here, k)]));
  }
  return value;
}

/**
 * Tenant-to-tenant comparison: at variable-bearing fields, a value of a source variable (the
 * whole value, or a URL variable at its start) becomes the target's value for the same variable,
 * so `${shop_channel}` compares as the same channel on both sides. Nothing else is touched.
 */
export function translateVariables(catalogue: Catalogue, from: Record<string, string>, to: Record<string, string>): Catalogue {
  const { byValue, urls } = byValueOf(Object.fromEntries(Object.entries(from).filter(([name, value]) => to[name] !== undefined && to[name] !== value)));
  if (!byValue.size) return catalogue;
  const swap = (s: string): string => {
    const v = variableOf(s, byValue, urls);
    return v ? `${to[v.name]!}${v.rest}` : s;
  };
  const same = (s: string) => s;
  return {
    ...catalogue,
    brands: catalogue.brands.map((b) => rewrite(b, { variable: swap, literal: same }) as typeof b),
    categories: catalogue.categories.map((c) => rewrite(c, { variable: swap, literal: same }) as typeof c),
  };
}

/** How export writes a string: at a variable-bearing field (`variable`), and anywhere else (`literal`). */
export interface VariableWriter {
  variable(s: string): string;
  literal(s: string): string;
}

/**
 * The other way, for export: at a variable-bearing field, a value equal to one of the tenant's
 * variables is written as `${name}`, and so is a URL variable at the start of a longer URL
 * (`${cdn}/brands/acme.png`). A literal `${` is written `$${` everywhere. The exported manifests
 * then load back to the same values and plan against another tenant with its own values.
 */
export function variableWriter(variables: Record<string, string>): VariableWriter {
  const { byValue, urls } = byValueOf(variables);
  // No reference is kept: every literal ${ is written $${ (the loader reads it back as ${).
  const literal = (s: string) => templateText(s, NO_NAMES);
  return {
    literal,
    variable: (s) => {
      const v = variableOf(s, byValue, urls);
      return v ? `\${${v.name}}${literal(v.rest)}` : literal(s);
    },
  };
}

/** `variableWriter` over a whole value (an entry, or a part of one at `parents`), keys included. */
export function writeVariables(value: unknown, write: VariableWriter, parents: Array<string | number> = [], key?: string): unknown {
  return rewrite(value, write, parents, key);
}
