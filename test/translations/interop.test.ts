/**
 * The translators' own tools round-trip (recipe: interop-tools.ts). Offline, the tools'
 * vendored outputs (test/fixtures/translations/interop/outputs, README.md there) import
 * with every unit found and written; live, where translate-toolkit and GNU gettext are
 * installed, the same flows run on today's exports, and pocount counts what pimctl counts.
 * A missing tool skips only the live check, unless PIMCTL_REQUIRE_TRANSLATE_TOOLKIT=1 (set
 * by .ci/run): then it fails. PIMCTL_WRITE_INTEROP_FIXTURES=1 (scripts/interop-fixtures.mjs)
 * writes the live outputs into the fixtures.
 */
import { cp, mkdtemp, readFile, rm } from "node:fs/promises";
import { tmpdir } from "node:os";
import path from "node:path";
import { afterAll, describe, expect, it } from "vitest";
import { loadManifests } from "../../src/manifest/index.js";
import { textId, translatableTexts } from "../../src/plan/texts.js";
import { translationsImport } from "../../src/workflows/translations.js";
import { FIXTURES, FLOWS, FRENCH, installed, MISSING, OUTDATED, pocount, PROJECT, vendor, type Flow } from "./interop-tools.js";
import { cliIn } from "../helpers/offline.js";

const REQUIRED = process.env.PIMCTL_REQUIRE_TRANSLATE_TOOLKIT === "1";
const WRITE = process.env.PIMCTL_WRITE_INTEROP_FIXTURES === "1";
const SKIP = "translate-toolkit and GNU gettext are not installed: apt-get install translate-toolkit gettext to run them";

const dirs: string[] = [];
afterAll(async () => Promise.all(dirs.map((d) => rm(d, { recursive: true, force: true }))));

async function project(): Promise<string> {
  const dir = await mkdtemp(path.join(tmpdir(), "pimctl-interop-"));
  dirs.push(dir);
  await cp(PROJECT, dir, { recursive: true });
  return dir;
}

const cli = (dir: string, ...args: string[]) => cliIn(dir, args);

/** pimctl's French exports, as every flow starts from them. */
async function exportAll(dir: string): Promise<void> {
  for (const [format, out, extra] of [
    ["po", "fr.po", []],
    ["xliff", "fr.xlf", []],
    ["xliff", "fr-missing.xlf", ["--missing"]],
  ] as const)
    expect((await cli(dir, "translations", "export", "--language", "French", "--format", format, "--out", out, ...extra)).code).toBe(0);
}

/**
 * Imports the flow's output: every unit found, the expected ones written, none stale or left for
 * review, and the manifests then hold the translator's French; or, for a flow that must be
 * refused, exit 1 with its message and the manifests unchanged.
 */
async function importsEveryUnit(dir: string, flow: Flow): Promise<void> {
  if (flow.refused) {
    const before = await readFile(path.join(dir, "catalogue", "attributes.yaml"), "utf8");
    const r = await cli(dir, "translations", "import", flow.output);
    expect(r.code).toBe(1);
    expect(r.stderr).toContain(flow.refused);
    expect(await readFile(path.join(dir, "catalogue", "attributes.yaml"), "utf8")).toBe(before);
    return;
  }
  const r = await translationsImport({ cwd: dir, env: {}, file: flow.output });
  expect({ written: r.written, stale: r.stale, not_reviewed: r.not_reviewed }).toEqual({ written: flow.written, stale: [], not_reviewed: [] });
  const { catalogue } = await loadManifests(path.join(dir, "catalogue"), { cwd: dir });
  const texts = new Map(translatableTexts(catalogue).map((t) => [textId(t, "French"), t]));
  for (const id of flow.written) expect(texts.get(id)?.translations.French, id).toBe(FRENCH[texts.get(id)!.master]);
  const status = await cli(dir, "translations", "status", "--language", "French", "--format", "json");
  const french = (JSON.parse(status.stdout) as { versions: Array<{ missing: number; outdated: number }> }).versions[0]!;
  expect({ missing: french.missing, outdated: french.outdated }).toEqual({
    missing: MISSING.filter((id) => !flow.written.includes(id)).length,
    outdated: flow.written.includes(OUTDATED) ? 0 : 1,
  });
}

describe("the tools' vendored outputs import with every unit found (no tool needed)", () => {
  it.each(FLOWS)("$name", async (flow) => {
    const dir = await project();
    await cp(path.join(FIXTURES, "outputs", flow.output), path.join(dir, flow.output));
    await importsEveryUnit(dir, flow);
  });

  it("the vendored exports are what pimctl exports today (else regenerate: scripts/interop-fixtures.mjs)", async () => {
    const dir = await project();
    await exportAll(dir);
    const dated = (t: string) => t.replace(/^"PO-Revision-Date: .*\\n"$/m, "");
    for (const f of ["fr.po", "fr.xlf", "fr-missing.xlf"])
      expect(dated(await readFile(path.join(dir, f), "utf8")), f).toBe(dated(await readFile(path.join(FIXTURES, "exports", f), "utf8")));
  });
});

const LIVE = [...new Set(FLOWS.flatMap((f) => f.tools)), "pocount"];
const missingTools = LIVE.filter((t) => !installed(t));
const live = missingTools.length === 0 || REQUIRED;

describe(`the tools live on today's exports${live ? "" : ` [skipped: ${SKIP}]`}`, () => {
  it.skipIf(!live).each(FLOWS)("$name", async (flow) => {
    expect(missingTools, SKIP).toEqual([]);
    const dir = await project();
    await exportAll(dir);
    flow.run(dir);
    if (WRITE) vendor(dir, flow);
    await importsEveryUnit(dir, flow);
  });

  it.skipIf(!live)("pocount counts pimctl's XLIFF 1.2 and PO as pimctl does: 3 translated, 1 fuzzy (outdated), 7 untranslated", async () => {
    expect(missingTools, SKIP).toEqual([]);
    const dir = await project();
    await exportAll(dir);
    const counts = { translated: 3, fuzzy: 1, untranslated: MISSING.length };
    expect(pocount(dir, "fr.xlf")).toEqual(counts);
    expect(pocount(dir, "fr.po")).toEqual(counts);
  });
});
