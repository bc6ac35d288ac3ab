/**
 * The one check made before an edited manifest is written (translations import,
 * export --merge): what was read before and what reads after the edit, as
 * records by identity, every record compared whole, not only the edited ones.
 * The caller says which changes it meant; anything else (a record that reads
 * differently where nobody meant it to, a record gone, one from nowhere) is
 * returned, and the caller refuses the edit, naming each. YAML shares text
 * between records (anchors, aliases, merge keys) in ways an edit might not
 * split: this is what proves that only the intended values changed. Pure.
 */
import { isObject, type DataPath } from "../entries.js";

/** One value that differs, at the deepest path where it does, from a record's root. */
export interface Change {
  path: DataPath;
  before: unknown;
  after: unknown;
}

/** The values that differ, at the deepest path where they do (a key one side lacks reads as absent). */
function differences(before: unknown, after: unknown): Change[] {
  const out: Change[] = [];
  const path: DataPath = [];
  const walk = (x: unknown, y: unknown): void => {
    if (x === y) return;
    if ((isObject(x) || x === undefined) && (isObject(y) || y === undefined)) {
      const xs = x ?? {};
      const ys = y ?? {};
      for (const k of new Set([...Object.keys(xs), ...Object.keys(ys)])) {
        path.push(k);
        walk(xs[k], ys[k]);
        path.pop();
      }
      return;
    }
    if (Array.isArray(x) && Array.isArray(y)) {
      for (let i = 0; i < Math.max(x.length, y.length); i++) {
        path.push(i);
        walk(x[i], y[i]);
        path.pop();
      }
      return;
    }
    out.push({ path: [...path], before: x, after: y });
  };
  walk(before, after);
  return out;
}

export interface Unmeant {
  /** Records that read differently, by their key after, with the changes nobody meant (in record order). */
  changed: Array<{ key: string; before: string; changes: Change[] }>;
  /** Records read before that nothing after stands for. */
  gone: string[];
  /** Records read after that nothing before stands for. */
  appeared: string[];
}

export interface Meant {
  /** A record's key after the edit (it differs for a record the edit renamed); the same key when absent. */
  keyAfter?(key: string): string;
  /** Whether the edit meant this change of the record (keys before and after). */
  meant(change: Change, record: { before: string; after: string }): boolean;
}

/** Every record before compared with the one that stands for it after: what changed that the caller did not mean. */
export function unmeantChanges(before: ReadonlyMap<string, unknown>, after: ReadonlyMap<string, unknown>, m: Meant): Unmeant {
  const out: Unmeant = { changed: [], gone: [], appeared: [] };
  const matched = new Set<string>();
  for (const [key, record] of before) {
    const afterKey = m.keyAfter?.(key) ?? key;
    matched.add(afterKey);
    if (!after.has(afterKey)) {
      out.gone.push(key);
      continue;
    }
    const changes = differences(record, after.get(afterKey)).filter((c) => !m.meant(c, { before: key, after: afterKey }));
    if (changes.length) out.changed.push({ key: afterKey, before: key, changes });
  }
  for (const key of after.keys()) if (!matched.has(key)) out.appeared.push(key);
  return out;
}
