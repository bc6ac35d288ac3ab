/**
 * The tenant snapshot a changelog refresh starts from: the API's own answers
 * (before normalising, so the state reader turns them into the catalogue
 * exactly as it would after a full read) and the feed cursor they are good
 * for. One file per base URL in the state backend's cache directory; it is a
 * cache: a missing, unreadable or foreign file only means a full read.
 */
import { createHash } from "node:crypto";
import { mkdir, readFile } from "node:fs/promises";
import { commitFiles } from "../../files/atomic-files.js";
import path from "node:path";
import type { ApiAttribute, ApiAttributeSet, ApiAttributeSetAttribute, ApiBrand, ApiBrandAttribute, ApiCategory } from "../../api/types.js";
import type { FeedCursor } from "./feed.js";

export const SNAPSHOT_FORMAT = 1;

export interface Snapshot {
  format: typeof SNAPSHOT_FORMAT;
  base_url: string;
  /** When the feed was last read for it (ISO). */
  taken_at: string;
  cursor: FeedCursor;
  /** Whole brand lists by version id ("0" is master): present only when read whole. */
  brand_lists: Record<string, ApiBrand[]>;
  /** Single brand reads, by "id:version". */
  brands: Record<string, ApiBrand>;
  brand_attributes: Record<string, ApiBrandAttribute[]>;
  /** The whole category list, by withAttributes ("0" or "1"). */
  category_lists: Record<string, ApiCategory[]>;
  /** Single category reads, by "id:version:withAttributes". */
  categories: Record<string, ApiCategory>;
  /** The whole attribute set list, when read. */
  attribute_sets?: ApiAttributeSet[];
  set_attributes: Record<string, ApiAttributeSetAttribute[]>;
  /** Single attribute reads (note, length), by "id:version". */
  attributes: Record<string, ApiAttribute>;
}

export function emptySnapshot(baseUrl: string, cursor: FeedCursor, takenAt: string): Snapshot {
  return {
    format: SNAPSHOT_FORMAT,
    base_url: baseUrl,
    taken_at: takenAt,
    cursor,
    brand_lists: {},
    brands: {},
    brand_attributes: {},
    category_lists: {},
    categories: {},
    set_attributes: {},
    attributes: {},
  };
}

/** The snapshot's file: named by a hash of the base URL, so a path never leaks into a name. */
export function snapshotFile(cacheDir: string, baseUrl: string): string {
  return path.join(cacheDir, `snapshot-${createHash("sha256").update(baseUrl).digest("hex").slice(0, 24)}.json`);
}

/** Why a tenant's first changelog refresh reads in full. */
export const NO_SNAPSHOT = "no snapshot of this tenant yet";

/** The stored snapshot, or why there is none to use. */
export async function loadSnapshot(file: string, baseUrl: string): Promise<{ snapshot: Snapshot } | { reason: string }> {
  let text: string;
  try {
    text = await readFile(file, "utf8");
  } catch {
    return { reason: NO_SNAPSHOT };
  }
  try {
    const s = JSON.parse(text) as Partial<Snapshot>;
    if (s.format !== SNAPSHOT_FORMAT) return { reason: `the snapshot has format ${String(s.format)}, not ${SNAPSHOT_FORMAT}` };
    if (s.base_url !== baseUrl) return { reason: `the snapshot is of ${String(s.base_url)}, not ${baseUrl}` };
    if (!s.cursor || !Number.isInteger(s.cursor.id) || typeof s.cursor.updated_at !== "string" || !Array.isArray(s.cursor.seen))
      return { reason: "the snapshot has no feed cursor" };
    return { snapshot: s as Snapshot };
  } catch (e) {
    return { reason: `the snapshot cannot be read (${(e as Error).message})` };
  }
}

/** Written whole or not at all (temp file + rename): a killed run leaves the previous snapshot. */
export async function saveSnapshot(file: string, snapshot: Snapshot): Promise<void> {
  await mkdir(path.dirname(file), { recursive: true });
  await commitFiles([{ file, text: JSON.stringify(snapshot) }]);
}
