/**
 * Write a set of files as one commit: after any interruption each file is its
 * old content or its new one, never a cut one, and the set is all old or all
 * new (a killed run's set is finished by the next run: commit-journal.ts).
 *
 * 1. Each file is written beside itself under a hidden temporary name, synced
 *    to disk, with the old file's mode; a symlink's target is written, the link kept.
 *    A first signal (the `signal` given aborts) stops here: the temporary files
 *    are removed, nothing is replaced, and the commit throws saying so.
 * 2. A journal naming every rename is written, then every file is renamed into
 *    place and the journal removed. This phase is synchronous: a signal
 *    handler cannot run in the middle of it, so SIGINT, SIGTERM and SIGHUP
 *    land before it (step 1) or after it (every file new). Only SIGKILL or a
 *    power cut can stop it half-way, and the journal finishes that.
 *
 * While it runs, the commit is registered as a holding (src/holdings.ts), so
 * the CLI's first signal asks it to stop instead of ending the process, and a
 * second one removes its temporary files before the process ends.
 */
import { randomBytes } from "node:crypto";
import { closeSync, fsyncSync, openSync, renameSync, unlinkSync, writeSync } from "node:fs";
import { open, realpath, stat } from "node:fs/promises";
import path from "node:path";
import { PimctlError } from "../errors.js";
import { hold, interruptedBy, noteFilesWritten } from "../holdings.js";
import { fileIdentity, settleEarlierCommits, syncFolder, type JournalEntry } from "./commit-journal.js";

export interface FileWrite {
  file: string;
  /** The content, whole or in pieces (written as they come: a large export is never held whole). */
  text: string | Iterable<string>;
}

export interface CommitOptions {
  /** Aborted by the first signal: the commit stops before it replaces anything. */
  signal?: AbortSignal;
  /** Where the journal is written and a killed commit's is looked for (the project's folder); default: the first file's. */
  journalDir?: string;
  /** How a path is shown in messages (relative to the working directory). */
  show?: (file: string) => string;
}

export interface CommitResult {
  /** The files replaced, as given, in the order given. */
  files: string[];
  /** What was done about an earlier run's unfinished commit (one line each). */
  earlier: string[];
}

interface Staged extends JournalEntry {
  mode?: number;
}

const suffix = () => `pimctl-${process.pid}-${randomBytes(6).toString("hex")}`;

/** Where a file really is (a symlink's target is replaced, the link kept), its mode and identity. */
async function stage(file: string): Promise<Staged> {
  const real = await realpath(file).catch(() => file);
  const existing = await stat(real).catch(() => undefined);
  if (existing && !existing.isFile()) throw new PimctlError("io", `${file} is not a regular file (a folder, a pipe or a device); nothing was written`);
  const temp = path.join(path.dirname(real), `.${path.basename(real)}.${suffix()}.tmp`);
  return { target: real, temp, before: fileIdentity(real), ...(existing ? { mode: existing.mode & 0o7777 } : {}) };
}

/** Pieces joined into writes of about 1 MB. */
function* batched(text: string | Iterable<string>): Generator<string> {
  if (typeof text === "string") {
    yield text;
    return;
  }
  let buffer: string[] = [];
  let size = 0;
  for (const piece of text) {
    buffer.push(piece);
    size += piece.length;
    if (size >= 1 << 20) {
      yield buffer.join("");
      buffer = [];
      size = 0;
    }
  }
  if (buffer.length) yield buffer.join("");
}

async function writeTemp(s: Staged, text: string | Iterable<string>, stopped: () => boolean): Promise<void> {
  const handle = await open(s.temp, "wx", s.mode ?? 0o666);
  try {
    for (const chunk of batched(text)) {
      if (stopped()) return;
      await handle.writeFile(chunk, "utf8");
    }
    // The mode asked at creation passes through the umask; the old file's is kept exactly.
    if (s.mode !== undefined) await handle.chmod(s.mode);
    await handle.sync();
  } finally {
    await handle.close();
  }
}

const removeAll = (staged: readonly Staged[]): void => {
  for (const s of staged) {
    try {
      unlinkSync(s.temp);
    } catch {
      // Not created yet, or already gone.
    }
  }
};

/** Step 2, synchronous from the first line to the last (see the file's comment). */
function renameAll(staged: readonly Staged[], journalDir: string): void {
  const journal = path.join(journalDir, `.pimctl-commit-${suffix().slice("pimctl-".length)}.json`);
  const fd = openSync(journal, "wx");
  try {
    writeSync(fd, JSON.stringify({ files: staged.map(({ target, temp, before }) => ({ target, temp, before })) }));
    fsyncSync(fd);
  } finally {
    closeSync(fd);
  }
  for (const [i, s] of staged.entries()) {
    try {
      renameSync(s.temp, s.target);
    } catch (e) {
      // Not undone (the old content is gone where a rename was made): the journal stays, and the next commit here finishes it.
      const done = staged.slice(0, i).map((x) => x.target);
      throw new PimctlError(
        "io",
        `cannot replace ${s.target} (${(e as NodeJS.ErrnoException).code ?? (e as Error).message}): ` +
          `${done.length ? `${done.join(", ")} ${done.length === 1 ? "was" : "were"} replaced, ` : ""}` +
          `${staged
            .slice(i)
            .map((x) => x.target)
            .join(", ")} not yet; the next pimctl run that writes here finishes it (${journal} says how)`,
      );
    }
  }
  for (const dir of new Set(staged.map((s) => path.dirname(s.target)))) syncFolder(dir);
  unlinkSync(journal);
}

/** Write every file, or none of them (see the file's comment). */
export async function commitFiles(writes: readonly FileWrite[], opts: CommitOptions = {}): Promise<CommitResult> {
  const show = opts.show ?? ((f: string) => f);
  const journalDir = opts.journalDir ?? path.dirname(writes[0]?.file ?? ".");
  const staged: Staged[] = [];
  let cancelled = false;
  const names = writes.map((w) => show(w.file));
  const released = opts.signal
    ? hold({
        what: `the ${names.length === 1 ? "file" : `${names.length} files`} being written`,
        onSignal: "stopping before any file is replaced",
        release: async () => {
          cancelled = true;
          removeAll(staged);
          return [`Nothing was written: ${names.join(", ")} ${names.length === 1 ? "is" : "are"} as before.`];
        },
      })
    : () => undefined;
  const stopped = () => cancelled || opts.signal?.aborted === true;
  let renaming = false;
  try {
    for (const w of writes) staged.push(await stage(w.file));
    const earlier = settleEarlierCommits(
      journalDir,
      staged.map((s) => path.dirname(s.target)),
      show,
    );
    for (const [i, w] of writes.entries()) {
      if (stopped()) break;
      await writeTemp(staged[i]!, w.text, stopped);
    }
    if (stopped()) {
      removeAll(staged);
      throw new PimctlError(
        "interrupted",
        `interrupted (${interruptedBy(opts.signal) ?? "a second signal"}) before any file was replaced: nothing was written (${names.join(", ")} as before)`,
      );
    }
    renaming = true;
    renameAll(staged, journalDir);
    noteFilesWritten(names);
    return { files: writes.map((w) => w.file), earlier };
  } catch (e) {
    // Once renames began, the temporary files left are what the journal finishes with.
    if (!renaming) removeAll(staged);
    throw e instanceof PimctlError ? e : new PimctlError("io", `cannot write ${names.join(", ")}: ${(e as Error).message}; nothing was written`);
  } finally {
    released();
  }
}

/** Finish or clear what a killed commit left in `journalDir` before a run reads the files it wrote. */
export function settleInterruptedCommits(journalDir: string, show: (file: string) => string = (f) => f): string[] {
  return settleEarlierCommits(journalDir, [], show);
}
