/** Small collection helpers the kind planners share; sorted so plans are deterministic. */
import { compareText } from "../model/catalogue.js";

export function push<K, V>(map: Map<K, V[]>, key: K, value: V): void {
  const list = map.get(key);
  if (list) list.push(value);
  else map.set(key, [value]);
}

export function sortedEntries<V>(record: Record<string, V> | undefined): Array<[string, V]> {
  return record ? Object.entries(record).sort(([a], [b]) => compareText(a, b)) : [];
}

export function sortedRecord<V>(record: Record<string, V>): Record<string, V> {
  return Object.fromEntries(sortedEntries(record));
}
