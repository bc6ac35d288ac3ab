/**
 * `translations import` under signals, in real processes (issue 32): before this work each manifest
 * was written in place, so a Ctrl-C or a SIGKILL between chunks left a file cut at 512 KiB or empty
 * (which then validated as a file declaring nothing), and several files partly old, partly new,
 * without the lock file. Now every file is its old or its new content, the lock file goes with the
 * manifests, an interrupted run exits non-zero and says what it wrote, and what a SIGKILL leaves is
 * settled by the next run.
 */
import { watch, type FSWatcher } from "node:fs";
import { mkdtemp, mkdir, readFile, readdir, rm, writeFile } from "node:fs/promises";
import { tmpdir } from "node:os";
import path from "node:path";
import { afterEach, beforeAll, describe, expect, it } from "vitest";
import { spawnPimctl } from "../helpers/spawn-cli.js";
import { prng } from "../helpers/random.js";
import { seedNote, seedsOr } from "../helpers/seed.js";

const FILES = 4;
const LOCK = "translations.lock.yaml";

/** `files` manifests of attributes with `perFile` texts (names and values) lacking Spanish, and a CSV translating them all. */
function project(files: number, perFile: number): { manifests: Record<string, string>; csv: string } {
  const manifests: Record<string, string> = {};
  const q = (s: string) => `"${s.replace(/"/g, '""')}"`;
  const rows = ["id,state,source,target,notes"];
  for (let f = 1; f <= files; f++) {
    const lines = ["attributes:"];
    for (let a = 0; a < perFile / 16; a++) {
      const name = `Attribute ${f}-${a}`;
      lines.push(`  - name: ${name}`, "    type: selectbox", "    versions:", "      French:", `        name: Attribut ${f}-${a}`, "    values:");
      rows.push([q(`attribute["${name}"].version["Spanish"].field["name"]`), "new", q(name), q(`Atributo ${f}-${a}`), ""].join(","));
      for (let v = 0; v < 15; v++) {
        const value = `Value ${f}-${a}-${v} of a selectable value`;
        lines.push(`      - value: ${value}`, "        versions:", `          French: Valeur ${f}-${a}-${v} d'une valeur`);
        rows.push([q(`attribute["${name}"].value["${value}"].version["Spanish"]`), "new", q(value), q(`Valor ${f}-${a}-${v}`), ""].join(","));
      }
    }
    manifests[`catalogue/attributes-${f}.yaml`] = `${lines.join("\n")}\n`;
  }
  return { manifests, csv: `${rows.join("\n")}\n` };
}

let dir: string;
let watcher: FSWatcher | undefined;
afterEach(async () => {
  watcher?.close();
  watcher = undefined;
  await rm(dir, { recursive: true, force: true });
});

async function setUp(manifests: Record<string, string>, csv: string): Promise<void> {
  dir = await mkdtemp(path.join(tmpdir(), "pimctl-tr-signals-"));
  await mkdir(path.join(dir, "catalogue"));
  await writeFile(path.join(dir, "pimctl.yaml"), "dir: catalogue\n");
  await writeFile(path.join(dir, "t.csv"), csv);
  for (const [f, t] of Object.entries(manifests)) await writeFile(path.join(dir, f), t);
}

const read = (f: string) => readFile(path.join(dir, f), "utf8").catch(() => undefined);
/** Files pimctl left beside the manifests or the lock file (temporary copies, a commit's journal). */
const strays = async () => [...(await readdir(dir)), ...(await readdir(path.join(dir, "catalogue")))].filter((n) => n.includes(".pimctl-"));

/** Resolves on the first change in the project's folders (a temporary file created, a manifest truncated or replaced). */
function firstChange(): Promise<void> {
  return new Promise((resolve) => {
    const dirs = [dir, path.join(dir, "catalogue")].map((d) => watch(d, () => resolve()));
    watcher = { close: () => dirs.forEach((w) => w.close()) } as FSWatcher;
  });
}

describe("translations import under signals", () => {
  const { manifests, csv } = project(FILES, 800);
  const before: Record<string, string | undefined> = { ...manifests, [LOCK]: undefined };
  let after: Record<string, string | undefined>;
  /** How long an uninterrupted import takes here: a random moment is drawn within it, whatever the machine's speed. */
  let runMs = 1500;

  beforeAll(async () => {
    // What an uninterrupted import writes: every file's new content.
    await setUp(manifests, csv);
    const started = Date.now();
    const run = spawnPimctl(dir, ["translations", "import", "t.csv"], process.env);
    expect((await run.exit).code, run.stderr()).toBe(0);
    runMs = Date.now() - started;
    after = Object.fromEntries(await Promise.all(Object.keys(before).map(async (f) => [f, await read(f)] as const)));
    expect(after[LOCK]).toBeDefined();
    await rm(dir, { recursive: true, force: true });
  });

  it("ten seeds of SIGINT, SIGTERM, SIGINT twice and SIGKILL at random moments: each file old or new, the lock file with them, exit and output true", async () => {
    const kinds = ["SIGINT", "SIGTERM", "SIGINT twice", "SIGKILL"] as const;
    for (const seed of seedsOr([1, 2, 3, 4, 5, 6, 7, 8, 9, 10])) {
      const rnd = prng(seed);
      const kind = kinds[seed % kinds.length]!;
      // Half the seeds strike at a random moment of the run, half a few milliseconds after its first write began.
      const onWrite = seed % 2 === 0;
      const delay = Math.floor(rnd() * (onWrite ? 15 : 0.9 * runMs));
      const at = `${seedNote(seed)} (${kind} ${delay} ms ${onWrite ? "after the first write began" : "after the start"})`;
      await setUp(manifests, csv);
      const writing = firstChange();
      const run = spawnPimctl(dir, ["translations", "import", "t.csv"], process.env);
      if (onWrite) await Promise.race([writing, run.exit]);
      await new Promise((r) => setTimeout(r, delay));
      run.child.kill(kind === "SIGINT twice" ? "SIGINT" : kind);
      if (kind === "SIGINT twice") setTimeout(() => run.child.kill("SIGINT"), 1 + Math.floor(rnd() * 10));
      const end = await run.exit;
      const output = run.stderr() + run.stdout();
      const state = Object.fromEntries(await Promise.all(Object.keys(before).map(async (f) => [f, await read(f)] as const)));
      for (const f of Object.keys(before)) expect([before[f], after[f]], `${at}: ${f} is neither its old nor its new content\n${output}`).toContain(state[f]);
      if (kind === "SIGKILL" && end.signal === null) {
        // The run ended before the signal came (a quicker run than the one measured): it wrote everything.
        expect(end.code, `${at}\n${output}`).toBe(0);
        expect(output, at).toContain(`Wrote ${FILES * 800} translations`);
      } else if (kind === "SIGKILL") {
        expect(end.signal, at).toBe("SIGKILL");
        // The next run settles what the killed one left: it finishes its commit, or removes its temporary files.
        const next = spawnPimctl(dir, ["translations", "import", "t.csv", "--dry-run"], process.env);
        expect((await next.exit).code, `${at}\n${next.stderr()}`).toBe(0);
        for (const f of Object.keys(before)) state[f] = await read(f);
      } else if (end.code === 0) {
        expect(output, at).toContain(`Wrote ${FILES * 800} translations`);
      } else {
        // Interrupted: it says that it wrote everything or nothing. Ended by the signal itself (no exit
        // code), it came before pimctl's handlers were installed (nothing written, nothing said) or
        // after the run had ended and Node was tearing down (everything written and said).
        const wroteAll = Object.keys(before).every((f) => state[f] === after[f]);
        const said = wroteAll ? /Wrote \d+ translations|Written before it, each file whole/ : /nothing was written|written nothing|Nothing was written/;
        if (end.code === null) expect(wroteAll ? output : "nothing was written", `${at}\n${output}`).toMatch(said);
        else {
          expect(end.code, `${at}\n${output}`).toBe(1);
          expect(output, at).toMatch(/Interrupted/);
          expect(output, `${at}\n${output}`).toMatch(said);
        }
      }
      const allOld = Object.keys(before).every((f) => state[f] === before[f]);
      const allNew = Object.keys(before).every((f) => state[f] === after[f]);
      expect(allOld || allNew, `${at}: the manifests and the lock file are a mix of old and new\n${output}`).toBe(true);
      expect(await strays(), at).toEqual([]);
      watcher?.close();
      await rm(dir, { recursive: true, force: true });
    }
  }, 120_000);

  it("a SIGKILL the moment a manifest changes leaves it whole: never 0 bytes, and validate counts what it declared", async () => {
    // A large file (2 MB, as a whole catalogue's attributes), a few translations: the write is what takes time.
    const big = project(1, 12_000);
    const file = "catalogue/attributes-1.yaml";
    await setUp(big.manifests, big.csv.split("\n").slice(0, 200).join("\n"));
    const changed = new Promise<void>((resolve) => {
      const w = watch(path.join(dir, "catalogue"), (_event, name) => {
        if (name === "attributes-1.yaml") resolve();
      });
      watcher = w;
    });
    const run = spawnPimctl(dir, ["translations", "import", "t.csv"], process.env);
    await Promise.race([changed, run.exit]);
    run.child.kill("SIGKILL");
    await run.exit;
    const text = await read(file);
    // Old, or new: either way whole (a cut file fails to load, or declares fewer attributes).
    expect(text?.length).toBeGreaterThanOrEqual(big.manifests[file]!.length);
    const validate = spawnPimctl(dir, ["validate"], process.env);
    expect((await validate.exit).code).toBe(0);
    expect(validate.stderr() + validate.stdout()).toContain("750 attributes");
  }, 60_000);
});
