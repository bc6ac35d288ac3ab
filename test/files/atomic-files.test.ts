/**
 * The file commit every manifest and lock writer uses (src/files/atomic-files.ts): all files or none,
 * a first signal before the renames writes nothing, the old mode and a symlink are kept, and what a
 * killed commit leaves (temporary files, a journal half carried out) is settled by the next one.
 */
import { spawnSync } from "node:child_process";
import { chmod, lstat, mkdtemp, readFile, readdir, readlink, rm, stat, symlink, writeFile, mkdir, rename } from "node:fs/promises";
import { tmpdir } from "node:os";
import path from "node:path";
import { afterEach, beforeEach, describe, expect, it } from "vitest";
import { commitFiles, settleInterruptedCommits } from "../../src/files/atomic-files.js";
import { fileIdentity } from "../../src/files/commit-journal.js";
import { Interrupted } from "../../src/holdings.js";

let dir: string;
beforeEach(async () => {
  dir = await mkdtemp(path.join(tmpdir(), "pimctl-commit-"));
});
afterEach(() => rm(dir, { recursive: true, force: true }));

const at = (f: string) => path.join(dir, f);
const read = (f: string) => readFile(at(f), "utf8");
const hidden = async () => (await readdir(dir, { recursive: true })).filter((n) => path.basename(String(n)).startsWith("."));
/** The pid of a process that has ended: what a killed run's file names carry. */
const deadPid = () => spawnSync(process.execPath, ["-e", ""]).pid!;

describe("commitFiles", () => {
  it("writes every file, keeps each one's mode and a symlink's link, and leaves nothing beside them", async () => {
    await mkdir(at("sub"));
    await writeFile(at("a.yaml"), "old a\n");
    await chmod(at("a.yaml"), 0o640);
    await writeFile(at("sub/real.yaml"), "old b\n");
    await symlink("sub/real.yaml", at("link.yaml"));
    const r = await commitFiles(
      [
        { file: at("a.yaml"), text: "new a\n" },
        { file: at("link.yaml"), text: ["new ", "b\n"] },
        { file: at("c.yaml"), text: "new c\n" },
      ],
      { journalDir: dir },
    );
    expect(r.files).toEqual([at("a.yaml"), at("link.yaml"), at("c.yaml")]);
    expect([await read("a.yaml"), await read("sub/real.yaml"), await read("c.yaml")]).toEqual(["new a\n", "new b\n", "new c\n"]);
    expect((await stat(at("a.yaml"))).mode & 0o777).toBe(0o640);
    expect((await lstat(at("link.yaml"))).isSymbolicLink()).toBe(true);
    expect(await readlink(at("link.yaml"))).toBe("sub/real.yaml");
    expect(await hidden()).toEqual([]);
  });

  it("a first signal while the files are written replaces none of them and says so", async () => {
    await writeFile(at("a.yaml"), "old a\n");
    await writeFile(at("b.yaml"), "old b\n");
    const stop = new AbortController();
    function* slow(): Generator<string> {
      yield "x".repeat(2 << 20);
      stop.abort(new Interrupted("SIGINT"));
      yield "y".repeat(2 << 20);
    }
    const commit = commitFiles(
      [
        { file: at("a.yaml"), text: "new a\n" },
        { file: at("b.yaml"), text: slow() },
      ],
      { journalDir: dir, signal: stop.signal, show: (f) => path.basename(f) },
    );
    await expect(commit).rejects.toThrow("interrupted (SIGINT) before any file was replaced: nothing was written (a.yaml, b.yaml as before)");
    expect([await read("a.yaml"), await read("b.yaml")]).toEqual(["old a\n", "old b\n"]);
    expect(await hidden()).toEqual([]);
  });

  it("refuses a target that is not a file, writing nothing", async () => {
    await writeFile(at("a.yaml"), "old a\n");
    await mkdir(at("b.yaml"));
    await expect(
      commitFiles(
        [
          { file: at("a.yaml"), text: "new a\n" },
          { file: at("b.yaml"), text: "new b\n" },
        ],
        { journalDir: dir },
      ),
    ).rejects.toThrow("is not a regular file");
    expect(await read("a.yaml")).toBe("old a\n");
    expect(await hidden()).toEqual([]);
  });
});

describe("what a killed commit leaves", () => {
  /** A commit of a.yaml and b.yaml by a process that was killed after it renamed `renamed` of them. */
  async function killedCommit(renamed: number): Promise<{ journal: string; pid: number }> {
    const pid = deadPid();
    const files = [];
    for (const name of ["a.yaml", "b.yaml"]) {
      await writeFile(at(name), `old ${name}\n`);
      const temp = at(`.${name}.pimctl-${pid}-abc123.tmp`);
      await writeFile(temp, `new ${name}\n`);
      files.push({ target: at(name), temp, before: fileIdentity(at(name)) });
    }
    const journal = at(`.pimctl-commit-${pid}-abc123.json`);
    await writeFile(journal, JSON.stringify({ files }));
    for (const f of files.slice(0, renamed)) await rename(f.temp, f.target);
    return { journal, pid };
  }

  it("a commit killed half-way through its renames is finished by the next run", async () => {
    const { pid } = await killedCommit(1);
    const lines = settleInterruptedCommits(dir, (f) => path.basename(f));
    expect(lines).toEqual([`finished what an earlier run (pid ${pid}) was stopped in the middle of: b.yaml replaced (1 of its files were already)`]);
    expect([await read("a.yaml"), await read("b.yaml")]).toEqual(["new a.yaml\n", "new b.yaml\n"]);
    expect(await hidden()).toEqual([]);
  });

  it("is dropped, naming the files, when a file it would replace changed since", async () => {
    const { pid } = await killedCommit(1);
    await writeFile(at("b.yaml"), "edited by hand\n");
    const lines = settleInterruptedCommits(dir, (f) => path.basename(f));
    expect(lines).toEqual([
      `an earlier run (pid ${pid}) was stopped while it replaced a.yaml, b.yaml; b.yaml changed since, so its unfinished part was dropped: check those files`,
    ]);
    expect([await read("a.yaml"), await read("b.yaml")]).toEqual(["new a.yaml\n", "edited by hand\n"]);
    expect(await hidden()).toEqual([]);
  });

  it("names a file whose new content went missing before the next run could finish the commit", async () => {
    const { pid } = await killedCommit(1);
    await rm(at(`.b.yaml.pimctl-${pid}-abc123.tmp`));
    const lines = settleInterruptedCommits(dir, (f) => path.basename(f));
    expect(lines).toEqual([
      `an earlier run (pid ${pid}) was stopped before it replaced b.yaml, and what it meant to write there is gone: that file is still the old content; run the command again`,
    ]);
    expect([await read("a.yaml"), await read("b.yaml")]).toEqual(["new a.yaml\n", "old b.yaml\n"]);
    expect(await hidden()).toEqual([]);
  });

  it("temporary files of a commit killed before its renames are removed by the next commit in that folder, which says so", async () => {
    const pid = deadPid();
    await mkdir(at("catalogue"));
    await writeFile(at("catalogue/a.yaml"), "old\n");
    await writeFile(at(`catalogue/.a.yaml.pimctl-${pid}-abc123.tmp`), "half");
    // A running process's temporary file is its own business.
    await writeFile(at(`catalogue/.a.yaml.pimctl-${process.ppid}-abc123.tmp`), "in progress");
    const r = await commitFiles([{ file: at("catalogue/a.yaml"), text: "new\n" }], { journalDir: dir, show: (f) => path.relative(dir, f) });
    expect(r.earlier).toEqual([
      `removed catalogue/.a.yaml.pimctl-${pid}-abc123.tmp, the unfinished copy of a.yaml an earlier run (pid ${pid}) left when it was stopped`,
    ]);
    expect(await read("catalogue/a.yaml")).toBe("new\n");
    expect(await hidden()).toEqual([`catalogue/.a.yaml.pimctl-${process.ppid}-abc123.tmp`]);
  });
});
