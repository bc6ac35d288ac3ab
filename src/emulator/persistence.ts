/**
 * `--data FILE`: the whole state, saved atomically (temp file + rename) 50 ms after a
 * change and on stop, one save at a time, a collection chunk at a time so requests get
 * through in between. See README.md beside this file.
 */
import { open, rename, type FileHandle } from "node:fs/promises";
import type { TenantData } from "./record-shapes.js";

/** Records written between two yields to other requests. */
const SAVE_CHUNK = 2000;

export interface SaveCounters {
  written: number;
  most_at_once: number;
  failed: number;
}

export interface Saver {
  /** A change happened: save soon (no-op without a data file). */
  schedule(): void;
  /** On stop: cancel the timer, let the running save finish, write once more if anything changed since. */
  flush(): Promise<void>;
}

/** A tenant as a save writes it: its name, its token and its records. */
type SavedTenant = [hash: string, tenant: { token: string; store: { toData(): TenantData } }];

/** `tenants()`: each tenant, read when a save starts; `counters()`: the stats to count into. */
export function createSaver(dataFile: string | undefined, tenants: () => Iterable<SavedTenant>, counters: () => SaveCounters): Saver {
  let saveTimer: NodeJS.Timeout | undefined;
  /** The save running now, if any; `dirty`: something changed since it started. */
  let saving: Promise<void> | undefined;
  let dirty = false;

  /**
   * Saves run one at a time: a change during a save marks the state dirty and one
   * more save follows it, however many changes came in between (a timer per change
   * used to queue a full save every 50 ms behind the running one).
   */
  function schedule(): void {
    if (!dataFile) return;
    dirty = true;
    if (saveTimer || saving) return;
    saveTimer = setTimeout(() => {
      saveTimer = undefined;
      // Nobody awaits a timed save: a failure (disk full, directory gone) left unhandled would end
      // the process, taking every tenant down. It is counted, the state stays dirty, and the next
      // change or close() tries again (close() reports it).
      startSaving().catch(() => undefined);
    }, 50);
  }

  function startSaving(): Promise<void> {
    saving ??= (async () => {
      try {
        while (dirty) {
          dirty = false;
          try {
            await persistNow();
          } catch (e) {
            counters().failed++;
            dirty = true; // what did not reach the file still has to
            throw e;
          }
        }
      } finally {
        saving = undefined;
      }
    })();
    return saving;
  }

  /** One save, counted: written, and how many ever ran at once (one, by design). */
  let savesRunning = 0;
  async function persistNow(): Promise<void> {
    if (!dataFile) return;
    counters().most_at_once = Math.max(counters().most_at_once, ++savesRunning);
    try {
      await writeState(dataFile, tenants());
      counters().written++;
    } finally {
      savesRunning--;
    }
  }

  return {
    schedule,
    async flush() {
      if (saveTimer) {
        clearTimeout(saveTimer);
        saveTimer = undefined;
      }
      // The running save (if any) finishes, and at most one more writes what changed since.
      await saving;
      if (dirty) await startSaving();
    },
  };
}

/** The whole state as one JSON document, written a collection chunk at a time (yielding between), then renamed into place. */
async function writeState(file: string, tenants: Iterable<SavedTenant>): Promise<void> {
  const tmp = `${file}.${process.pid}.tmp`;
  const out = await open(tmp, "w");
  try {
    let first = true;
    await out.write('{"tenants":{');
    for (const [hash, t] of tenants) {
      await out.write(`${first ? "" : ","}${JSON.stringify(hash)}:{"token":${JSON.stringify(t.token)},"data":{`);
      first = false;
      await writeTenantData(out, t.store.toData());
      await out.write("}}");
    }
    await out.write("}}");
  } finally {
    await out.close();
  }
  await rename(tmp, file); // atomic: readers see the old or the new file, never half of one
}

/** One tenant's collections (the inside of its `data` object), each list SAVE_CHUNK records at a time. */
async function writeTenantData(out: FileHandle, data: TenantData): Promise<void> {
  let firstKey = true;
  for (const [key, value] of Object.entries(data) as Array<[string, unknown]>) {
    if (value === undefined) continue;
    await out.write(`${firstKey ? "" : ","}${JSON.stringify(key)}:`);
    firstKey = false;
    if (!Array.isArray(value)) {
      await out.write(JSON.stringify(value));
      continue;
    }
    await out.write("[");
    for (let i = 0; i < value.length; i += SAVE_CHUNK) {
      const chunk = value.slice(i, i + SAVE_CHUNK).map((r) => JSON.stringify(r));
      await out.write(`${i ? "," : ""}${chunk.join(",")}`);
      await new Promise((r) => setImmediate(r));
    }
    await out.write("]");
  }
}
