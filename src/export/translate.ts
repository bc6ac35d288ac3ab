/**
 * Tenant-to-tenant comparison: a catalogue read from one tenant holds that
 * tenant's variable values (its channel names, its CDN). Before comparing it
 * with another tenant, every occurrence of a source variable's value (in keys
 * and values) becomes the target's value for the same variable, so
 * `${shop_channel}` compares as the same channel on both sides.
 */
import type { Catalogue } from "../model/catalogue.js";
import { templateText } from "../manifest/yaml-text.js";

const NO_NAMES: ReadonlySet<string> = new Set();

export function translateVariables(catalogue: Catalogue, from: Record<string, string>, to: Record<string, string>): Catalogue {
  const pairs = Object.entries(from)
    .filter(([name, value]) => to[name] !== undefined && to[name] !== value && value.length > 0)
    .map(([name, value]) => [value, to[name]!] as const)
    .sort((a, b) => b[0].length - a[0].length); // "Webshop EU" before "Webshop"
  if (!pairs.length) return catalogue;
  const map = new Map(pairs);
  const pattern = new RegExp(pairs.map(([v]) => v.replace(/[.*+?^${}()|[\]\\]/g, "\\$&")).join("|"), "g");
  const swap = (s: string): string => s.replace(pattern, (m) => map.get(m) ?? m);
  const walk = (v: unknown, key?: string): unknown => {
    if (key === "source") return v;
    if (typeof v === "string") return swap(v);
    if (Array.isArray(v)) return v.map((x) => walk(x));
    if (v && typeof v === "object") return Object.fromEntries(Object.entries(v).map(([k, x]) => [swap(k), walk(x, k)]));
    return v;
  };
  return walk(catalogue) as Catalogue;
}

/**
 * The other way, for export: a string (value or key) equal to one of the
 * tenant's variables is written as `${name}`, and so is a URL variable at the
 * start of a longer URL (`${cdn}/brands/acme.png`); a literal `${` is written
 * `$${`. The exported manifests then load back to the same values and plan
 * against another tenant with its own values. No other substrings: a short
 * value ("EU") must not turn up inside every description that contains it.
 */
export function variableWriter(variables: Record<string, string>): (s: string) => string {
  const byValue = new Map<string, string>();
  // Two variables with one value: the first name in sorted order, so exports are stable.
  for (const [name, value] of Object.entries(variables).sort(([a], [b]) => (a < b ? -1 : 1))) if (value.length && !byValue.has(value)) byValue.set(value, name);
  const urls = [...byValue.entries()].filter(([value]) => /^[a-z][a-z0-9+.-]*:\/\/\S+$/i.test(value)).sort((a, b) => b[0].length - a[0].length);
  // No reference is kept: every literal ${ is written $${ (the loader reads it back as ${).
  const escape = (s: string) => templateText(s, NO_NAMES);
  return (s) => {
    const name = byValue.get(s);
    if (name !== undefined) return `\${${name}}`;
    const url = urls.find(([value]) => s.startsWith(value) && /^[/?#]/.test(s.slice(value.length)));
    if (url) return `\${${url[1]}}${escape(s.slice(url[0].length))}`;
    return escape(s);
  };
}

/** `variableWriter` over a whole value, keys included. */
export function writeVariables(value: unknown, write: (s: string) => string): unknown {
  if (typeof value === "string") return write(value);
  if (Array.isArray(value)) return value.map((x) => writeVariables(x, write));
  if (value !== null && typeof value === "object") return Object.fromEntries(Object.entries(value).map(([k, x]) => [write(k), writeVariables(x, write)]));
  return value;
}
