/**
 * What a killed file commit leaves behind, and how the next one settles it.
 *
 * A commit (atomic-files.ts) writes every file beside itself under a temporary
 * name, then a journal naming each temporary file and the file it replaces,
 * then renames them all, then removes the journal. Killed (SIGKILL, a power
 * cut) before the journal exists, it leaves the old files and temporary files
 * that nothing reads: they are removed. Killed after, some files may be new
 * and others old: the journal says which temporary files are still to be
 * renamed, and the next run renames them (rolls the commit forward), unless a
 * file it would replace changed since (then it removes them and says so).
 *
 * Names: `.NAME.pimctl-PID-RAND.tmp` beside the file, `.pimctl-commit-PID-RAND.json` in
 * the commit's journal folder; both hidden, so the manifest loader never reads them.
 * A process still running (its pid alive on this machine) is never touched.
 */
import { closeSync, fsyncSync, openSync, readdirSync, readFileSync, renameSync, statSync, unlinkSync } from "node:fs";
import path from "node:path";

export const TEMP_NAME = /^\.(.+)\.pimctl-(\d+)-[0-9a-f]+\.tmp$/;
export const JOURNAL_NAME = /^\.pimctl-commit-(\d+)-[0-9a-f]+\.json$/;

export interface JournalEntry {
  target: string;
  temp: string;
  /** The replaced file's identity when the commit began (device, inode, size, mtime), or null where there was none. */
  before: string | null;
}

/** What identifies a file's content cheaply: a file renamed over, or written since, changes it. */
export function fileIdentity(file: string): string | null {
  try {
    const s = statSync(file, { bigint: true });
    return `${s.dev}:${s.ino}:${s.size}:${s.mtimeNs}`;
  } catch (e) {
    if ((e as NodeJS.ErrnoException).code === "ENOENT") return null;
    throw e;
  }
}

function alive(pid: number): boolean {
  if (pid === process.pid) return true;
  try {
    process.kill(pid, 0);
    return true;
  } catch (e) {
    return (e as NodeJS.ErrnoException).code === "EPERM";
  }
}

/** fsync a folder, so the renames in it survive a power cut; platforms that cannot (Windows) are let be. */
export function syncFolder(dir: string): void {
  let fd: number | undefined;
  try {
    fd = openSync(dir, "r");
    fsyncSync(fd);
  } catch {
    // Not supported here: the renames are still atomic, only their durability waits for the OS.
  } finally {
    if (fd !== undefined) closeSync(fd);
  }
}

const removeQuietly = (file: string): void => {
  try {
    unlinkSync(file);
  } catch {
    // Already gone.
  }
};

const exists = (file: string): boolean => fileIdentity(file) !== null;

/** Finish (or, where a file changed since, give up) the commit a journal records; lines say which. */
function settleJournal(journal: string, pid: string, show: (file: string) => string): string[] {
  let entries: JournalEntry[];
  try {
    entries = (JSON.parse(readFileSync(journal, "utf8")) as { files: JournalEntry[] }).files;
    if (!Array.isArray(entries)) throw new Error("no files");
  } catch {
    // Cut while it was written: no rename had begun. Its temporary files go with the stray ones.
    removeQuietly(journal);
    return [];
  }
  const pending = entries.filter((e) => exists(e.temp));
  const changed = pending.filter((e) => fileIdentity(e.target) !== e.before);
  // Not renamed, and its new content gone (removed by hand, or by a sweep that did not see this journal).
  const lost = entries.filter((e) => !exists(e.temp) && e.before !== null && fileIdentity(e.target) === e.before);
  if (changed.length) {
    for (const e of pending) removeQuietly(e.temp);
    removeQuietly(journal);
    return [
      `an earlier run (pid ${pid}) was stopped while it replaced ${entries.map((e) => show(e.target)).join(", ")}; ` +
        `${changed.map((e) => show(e.target)).join(", ")} changed since, so its unfinished part was dropped: check those files`,
    ];
  }
  for (const e of pending) renameSync(e.temp, e.target);
  for (const dir of new Set(pending.map((e) => path.dirname(e.target)))) syncFolder(dir);
  removeQuietly(journal);
  const done = entries.length - pending.length - lost.length;
  return [
    ...(pending.length
      ? [
          `finished what an earlier run (pid ${pid}) was stopped in the middle of: ${pending.map((e) => show(e.target)).join(", ")} replaced` +
            `${done ? ` (${done} of its files were already)` : ""}`,
        ]
      : []),
    ...(lost.length
      ? [
          `an earlier run (pid ${pid}) was stopped before it replaced ${lost.map((e) => show(e.target)).join(", ")}, and what it meant to ` +
            `write there is gone: ${lost.length === 1 ? "that file is" : "those files are"} still the old content; run the command again`,
        ]
      : []),
  ];
}

/**
 * Settle what killed commits left in these folders: journals are rolled forward (or dropped, see
 * above), then temporary files of processes no longer running are removed. Returns a line per
 * thing done, for the person.
 */
export function settleEarlierCommits(journalDir: string, tempDirs: readonly string[], show: (file: string) => string): string[] {
  const lines: string[] = [];
  for (const name of listing(journalDir)) {
    const m = JOURNAL_NAME.exec(name);
    if (m && !alive(Number(m[1]))) lines.push(...settleJournal(path.join(journalDir, name), m[1]!, show));
  }
  for (const dir of new Set([journalDir, ...tempDirs])) {
    for (const name of listing(dir)) {
      const m = TEMP_NAME.exec(name);
      if (!m || alive(Number(m[2]))) continue;
      removeQuietly(path.join(dir, name));
      lines.push(`removed ${show(path.join(dir, name))}, the unfinished copy of ${m[1]} an earlier run (pid ${m[2]}) left when it was stopped`);
    }
  }
  return lines;
}

function listing(dir: string): string[] {
  try {
    return readdirSync(dir).sort();
  } catch {
    return [];
  }
}
