/** JSON with object keys sorted and undefined members left out: the same data gives the same bytes. */
export function canonicalJson(value: unknown, omitKey?: (key: string) => boolean): string {
  if (value === undefined) return "null";
  if (value === null || typeof value !== "object") return JSON.stringify(value);
  if (Array.isArray(value)) return `[${value.map((v) => canonicalJson(v, omitKey)).join(",")}]`;
  const record = value as Record<string, unknown>;
  const keys = Object.keys(record)
    .filter((k) => record[k] !== undefined && !omitKey?.(k))
    .sort();
  return `{${keys.map((k) => `${JSON.stringify(k)}:${canonicalJson(record[k], omitKey)}`).join(",")}}`;
}
