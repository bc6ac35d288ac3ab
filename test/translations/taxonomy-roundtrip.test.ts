/**
 * The round trip on real data: a project from the vendored Shopify taxonomy
 * (two root categories, "Luggage & Bags" and "Religious & Ceremonial", with
 * the attributes their trees use and every value; English master, French and
 * German versions of attributes, values and categories), applied to the
 * emulator. Spanish is exported (everything missing), filled from the
 * taxonomy's own Spanish names as a translator would, imported, validated,
 * planned (only Spanish versions are written; category names are no units:
 * API v1 cannot write category versions), applied, and planned again
 * (no changes). Then ten attribute names change in the master: status names
 * exactly their translations as outdated in every version, and a file
 * exported before the change writes none of them.
 */
import { readFile, writeFile, mkdtemp, rm } from "node:fs/promises";
import { tmpdir } from "node:os";
import path from "node:path";
import { XMLValidator } from "fast-xml-parser";
import gettext from "gettext-parser";
import { afterAll, describe, expect, it } from "vitest";
import { writeTaxonomyProject } from "../../src/bench/taxonomy.js";
import { loadManifests } from "../../src/manifest/index.js";
import type { Plan } from "../../src/plan/types.js";
import { isWritable, textId, translatableTexts } from "../../src/plan/texts.js";
import { testProject, type TestProject } from "../helpers/project.js";
import { HAS_MSGFMT, msgfmtCheck } from "./msgfmt.js";

const ROOTS = ["Luggage & Bags", "Religious & Ceremonial"];
const projects: TestProject[] = [];
afterAll(async () => Promise.all(projects.map((p) => p.close())));

/** The taxonomy's Spanish names by unit id: the translator's dictionary (units only: category names are no units, API v1 cannot write them). */
async function spanishDictionary(): Promise<Map<string, string>> {
  const dir = await mkdtemp(path.join(tmpdir(), "pimctl-es-"));
  try {
    await writeTaxonomyProject(dir, { brands: 0, tenants: {}, tokenEnv: () => "", roots: ROOTS, languages: ["es"], categoryVersions: true });
    const { catalogue } = await loadManifests(path.join(dir, "catalogue"), { cwd: dir });
    return new Map(
      translatableTexts(catalogue)
        .filter(isWritable)
        .map((t) => [textId(t, "Spanish"), t.translations.Spanish!]),
    );
  } finally {
    await rm(dir, { recursive: true, force: true });
  }
}

async function taxonomyProject(): Promise<TestProject> {
  const p = await testProject();
  projects.push(p);
  await writeTaxonomyProject(p.dir, {
    brands: 0,
    tenants: { demo: p.emulator.tenantUrl("demo") },
    tokenEnv: () => "PIMCTL_DEMO_TOKEN",
    roots: ROOTS,
    categoryVersions: true,
    versionIds: { Spanish: 4 },
  });
  const applied = await p.cli(["apply", "--auto-approve"]);
  expect(applied.code, applied.stderr).toBe(0);
  const reviewed = await p.cli(["translations", "mark-reviewed", "--all"]);
  expect(reviewed.code, reviewed.stderr).toBe(0);
  return p;
}

const po = (gettext as unknown as typeof import("gettext-parser")).po;

/** Fill a PO file the way Poedit would: msgstr per entry, compiled again. */
function fillPo(text: string, dictionary: Map<string, string>): { text: string; units: number } {
  const data = po.parse(text);
  let units = 0;
  for (const [ctx, entries] of Object.entries(data.translations)) {
    for (const e of Object.values(entries)) {
      if (!ctx) continue;
      expect(e.msgstr[0], `${ctx} should be missing`).toBe("");
      e.msgstr = [dictionary.get(ctx)!];
      units++;
    }
  }
  return { text: po.compile(data).toString("utf8"), units };
}

const unescapeXml = (s: string) =>
  s
    .replace(/&quot;/g, '"')
    .replace(/&lt;/g, "<")
    .replace(/&gt;/g, ">")
    .replace(/&amp;/g, "&");
const escapeXml = (s: string) => s.replace(/&/g, "&amp;").replace(/</g, "&lt;").replace(/>/g, "&gt;");

/** Fill an XLIFF 2.0 file as a CAT tool would: a <target> after each <source>, the segment marked translated. */
function fillXliff2(text: string, dictionary: Map<string, string>): { text: string; units: number } {
  let units = 0;
  const filled = text.replace(/<unit id="[^"]+" name="([^"]+)">([\s\S]*?)<\/unit>/g, (_m, name: string, body: string) => {
    const id = unescapeXml(name);
    expect(body).not.toContain("<target");
    units++;
    const inner = body
      .replace('state="initial"', 'state="translated"')
      .replace("</source>", `</source>\n        <target xml:space="preserve">${escapeXml(dictionary.get(id)!)}</target>`);
    return `<unit id="${_m.match(/id="([^"]+)"/)![1]}" name="${name}">${inner}</unit>`;
  });
  return { text: filled, units };
}

function editPo(text: string, ids: string[]): string {
  const data = po.parse(text);
  for (const id of ids) for (const e of Object.values(data.translations[id]!)) e.msgstr = [`${e.msgstr[0]} (nuevo)`];
  return po.compile(data).toString("utf8");
}

function editXliff2(text: string, ids: string[]): string {
  let out = text;
  for (const id of ids) {
    const at = out.indexOf(`name="${id.replace(/"/g, "&quot;")}"`);
    expect(at).toBeGreaterThan(0);
    const end = out.indexOf("</target>", at);
    out = `${out.slice(0, end)} (nuevo)${out.slice(end)}`;
  }
  return out;
}

describe.each([
  { format: "po", file: "es.po", fill: fillPo },
  { format: "xliff2", file: "es.xlf", fill: fillXliff2 },
])("the Shopify taxonomy, Spanish through $format", ({ format, file, fill }) => {
  it("export (all missing) -> fill -> import -> validate -> plan writes only Spanish -> apply -> no changes; then ten renamed masters", async () => {
    const p = await taxonomyProject();
    const dictionary = await spanishDictionary();
    const exported = await p.cli(["translations", "export", "--language", "Spanish", "--format", format, "--out", file]);
    expect(exported.code, exported.stderr).toBe(0);
    const blank = await readFile(path.join(p.dir, file), "utf8");
    const { text, units } = fill(blank, dictionary);
    expect(units).toBe(dictionary.size);
    expect(units).toBeGreaterThan(400);
    await writeFile(path.join(p.dir, file), text);
    // msgfmt's absence is covered (skipped, or failed on CI) by formats.test.ts.
    if (format === "po" && HAS_MSGFMT) for (const t of [blank, text]) msgfmtCheck(t);
    else for (const t of [blank, text]) expect(XMLValidator.validate(t)).toBe(true);

    const imported = await p.cli(["translations", "import", file]);
    expect(imported.code, imported.stderr).toBe(0);
    expect(imported.stderr).toContain(`Wrote ${units} translations`);
    const validated = await p.cli(["validate"]);
    expect(validated.code, validated.stderr).toBe(0);

    const planned = await p.cli(["plan", "--format", "json"]);
    expect(planned.code, planned.stderr).toBe(0);
    const plan = JSON.parse(planned.stdout) as Plan;
    const writes = plan.actions.filter((a) => a.op !== "unsupported");
    expect(writes.length).toBeGreaterThan(400);
    expect(writes.filter((a) => !a.address.includes('.version["Spanish"]'))).toEqual([]);
    // Category versions are not writable in API v1: shown, never applied.
    expect(plan.actions.filter((a) => a.op === "unsupported").every((a) => a.type === "category_version")).toBe(true);
    expect(plan.translations?.find((t) => t.version === "Spanish")).toMatchObject({ added: writes.length, outdated: 0, missing: 0 });

    const applied = await p.cli(["apply", "--auto-approve"]);
    expect(applied.code, applied.stderr).toBe(0);
    const again = await p.cli(["plan", "--detailed-exitcode"]);
    expect(again.code, again.stdout + again.stderr).toBe(0);

    // A file exported now, before the masters change, with every Spanish target edited.
    const before = await p.cli(["translations", "export", "--language", "Spanish", "--format", format, "--out", `old-${file}`]);
    expect(before.code, before.stderr).toBe(0);

    // Ten attribute names change in the master (renames, with previous_names).
    const attributesFile = path.join(p.dir, "catalogue", "attributes.yaml");
    let yaml = await readFile(attributesFile, "utf8");
    const renamed = [...yaml.matchAll(/^ {2}- name: ([A-Za-z][A-Za-z ]*[a-z])$/gm)].map((m) => m[1]!).slice(0, 10);
    expect(renamed).toHaveLength(10);
    for (const name of renamed) yaml = yaml.replace(`  - name: ${name}\n`, `  - name: ${name} (2025)\n    previous_names: [${name}]\n`);
    await writeFile(attributesFile, yaml);
    const setsFile = path.join(p.dir, "catalogue", "attribute_sets.yaml");
    let sets = await readFile(setsFile, "utf8");
    for (const name of renamed) sets = sets.replace(`      - ${name}\n`, `      - ${name} (2025)\n`);
    await writeFile(setsFile, sets);

    const status = await p.cli(["translations", "status", "--format", "json"]);
    expect(status.code, status.stderr).toBe(0);
    const report = JSON.parse(status.stdout) as { versions: Array<{ version: string; outdated_ids: string[]; missing: number }> };
    expect(report.versions.map((v) => v.version)).toEqual(["French", "German", "Spanish"]);
    for (const v of report.versions) {
      expect(v.outdated_ids).toEqual(
        renamed.map((n) => `attribute[${JSON.stringify(`${n} (2025)`)}].version[${JSON.stringify(v.version)}].field["name"]`).sort(),
      );
      expect(v.missing).toBe(0);
    }
    const replanned = JSON.parse((await p.cli(["plan", "--format", "json"])).stdout) as Plan;
    for (const version of ["French", "German", "Spanish"])
      expect(replanned.translations?.find((t) => t.version === version)).toMatchObject({ outdated: 10, added: 0, missing: 0 });

    // The config rule: Spanish must be fully translated; ten outdated texts fail validate (exit 3).
    await writeFile(
      path.join(p.dir, "pimctl.yaml"),
      `${await readFile(path.join(p.dir, "pimctl.yaml"), "utf8")}translations:\n  required: [Spanish]\n  fail_under: 100\n`,
    );
    const ruled = await p.cli(["validate"]);
    expect(ruled.code).toBe(3);
    expect(ruled.stderr).toContain("Spanish: 98% of 502 texts translated");
    expect(ruled.stderr).toContain("10 outdated");

    // The old file's targets of the renamed attributes are edited: were they written, the manifests would change.
    const oldIds = renamed.map((n) => `attribute[${JSON.stringify(n)}].version["Spanish"].field["name"]`);
    const old = await readFile(path.join(p.dir, `old-${file}`), "utf8");
    await writeFile(path.join(p.dir, `old-${file}`), format === "po" ? editPo(old, oldIds) : editXliff2(old, oldIds));
    const manifestsBefore = await readFile(attributesFile, "utf8");
    const stale = await p.cli(["translations", "import", `old-${file}`]);
    // Units not written are work not done: exit 4.
    expect(stale.code, stale.stderr).toBe(4);
    for (const name of renamed)
      expect(stale.stderr).toContain(
        `stale, not written: attribute[${JSON.stringify(name)}].version["Spanish"].field["name"]: the record is now attribute[${JSON.stringify(`${name} (2025)`)}]`,
      );
    expect(stale.stderr).toContain("Wrote 0 translations");
    expect(await readFile(attributesFile, "utf8")).toBe(manifestsBefore);
  }, 120_000);
});
