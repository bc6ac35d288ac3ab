/**
 * Tenant-to-tenant comparison: a catalogue read from one tenant holds that
 * tenant's variable values (its channel names, its CDN). Before comparing it
 * with another tenant, every occurrence of a source variable's value (in keys
 * and values) becomes the target's value for the same variable, so
 * `${shop_channel}` compares as the same channel on both sides.
 */
import type { Catalogue } from "../model/catalogue.js";

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
