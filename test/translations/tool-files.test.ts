/**
 * What translators' tools and spreadsheets do to exchange files, case by case (the tools'
 * real outputs are in interop.test.ts): ids carried in `#:` references, resname and context
 * groups; namespace prefixes; a unit in a file twice; a file with no unit; review marks;
 * XML character references that name no XML character; CSV saved by Excel with `;`.
 */
import { mkdtemp, mkdir, readFile, rm, writeFile } from "node:fs/promises";
import { tmpdir } from "node:os";
import path from "node:path";
import { afterEach, describe, expect, it } from "vitest";
import { memoryIo } from "../../src/cli/io.js";
import { run } from "../../src/cli/run.js";
import { PimctlErrors } from "../../src/errors.js";
import { readUnits, writeUnits, type Unit } from "../../src/translations/formats/index.js";
import { cliIn } from "../helpers/offline.js";

const RED = 'attribute["Colour"].value["Red"].version["French"]';
const NAME = 'attribute["Colour"].version["French"].field["name"]';
const xml = (s: string) => s.replace(/&/g, "&amp;").replace(/"/g, "&quot;").replace(/</g, "&lt;");
const po = (s: string) => s.replace(/\\/g, "\\\\").replace(/"/g, '\\"');
/** What readUnits throws, as one string of every message. */
function refusal(text: string, name: string): string {
  try {
    readUnits(text, name);
  } catch (e) {
    return e instanceof PimctlErrors ? e.errors.map((x) => x.message).join("\n") : (e as Error).message;
  }
  return "(read without an error)";
}
const read = (text: string, name: string) => readUnits(text, name).map(({ id, source, target, needsReview }) => ({ id, source, target, needsReview }));
const xliff12 = (units: string, root = `<xliff version="1.2" xmlns="urn:oasis:names:tc:xliff:document:1.2">`) =>
  `<?xml version="1.0" encoding="UTF-8"?>\n${root}<file original="x" source-language="en" target-language="fr" datatype="plaintext"><body>\n${units}\n</body></file></xliff>\n`;

describe("pimctl's files say what translators' tools read", () => {
  const units: Unit[] = [
    { id: NAME, source: "Colour", target: "Couleur", state: "translated", notes: ["attribute (selectbox)"] },
    { id: RED, source: "Red", target: "Rouge", state: "needs-review", notes: [] },
    { id: 'attribute["Colour"].value["Blue"].version["French"]', source: "Blue", target: "", state: "new", notes: [] },
  ];
  const file = { version: "French", sourceLanguage: "en", targetLanguage: "fr", units };

  it("XLIFF 1.2: translated units approved, every unit's id also its resname, notes from the developer (which xliff2po keeps)", () => {
    const text = writeUnits("xliff", file);
    expect(text).toContain(`<trans-unit id="${xml(NAME)}" resname="${xml(NAME)}" approved="yes" xml:space="preserve">`);
    expect(text).toContain(`<trans-unit id="${xml(RED)}" resname="${xml(RED)}" xml:space="preserve">`);
    expect(text).toContain(`<note from="developer">attribute (selectbox)</note>`);
    expect(text.match(/approved=/g)).toHaveLength(1);
  });

  it("XLIFF 2.0: a translated segment is final; an outdated one initial with pimctl's subState", () => {
    const text = writeUnits("xliff2", file);
    expect(text).toContain(`<segment state="final">`);
    expect(text).toContain(`<segment state="initial" subState="pimctl:needs-review">`);
    expect(read(text, "fr.xlf").map((u) => u.needsReview)).toEqual([false, true, false]);
  });

  it("PO: the id is the msgctxt and a #: reference in translate-toolkit's encoding", () => {
    const text = writeUnits("po", file);
    expect(text).toContain(`#: attribute[%22Colour%22].version[%22French%22].field[%22name%22]\n`);
    expect(read(text, "fr.po").map((u) => u.id)).toEqual(units.map((u) => u.id));
  });
});

describe("ids where the tools keep them", () => {
  it("a PO entry without msgctxt (xliff2po's) is found by its #: reference; one with several references is one unit each", () => {
    const text =
      `msgid ""\nmsgstr ""\n"Content-Type: text/plain; charset=UTF-8\\n"\n\n` +
      `#: attribute[%22Colour%22].version[%22French%22].field[%22name%22]\nmsgid "Colour"\nmsgstr "Couleur"\n\n` +
      `#: attribute[%22Colour%22].value[%22Red%22].version[%22French%22]\n#: attribute[%22Finish+colour%22].value[%22Red%22].version[%22French%22]\nmsgid "Red"\nmsgstr "Rouge"\n`;
    expect(read(text, "fr.po")).toEqual([
      { id: NAME, source: "Colour", target: "Couleur", needsReview: false },
      { id: RED, source: "Red", target: "Rouge", needsReview: false },
      { id: 'attribute["Finish colour"].value["Red"].version["French"]', source: "Red", target: "Rouge", needsReview: false },
    ]);
  });

  it("an XLIFF 1.1 trans-unit numbered by po2xliff is found by its po-reference context group (split at the first colon), the gettext header skipped", () => {
    const size = 'attribute["Size: EU"].version["French"].field["name"]';
    const text = xliff12(
      `<trans-unit id="1" restype="x-gettext-domain-header" approved="no"><source>Content-Type: text/plain</source></trans-unit>` +
        `<trans-unit id="2" approved="yes"><source>Size: EU</source><target state="translated">Taille</target>` +
        `<context-group name="po-reference" purpose="location"><context context-type="sourcefile">${xml('attribute["Size')}</context>` +
        `<context context-type="linenumber">${xml(' EU"].version["French"].field["name"]')}</context></context-group></trans-unit>` +
        `<trans-unit id="3" resname="${xml(RED)}"><source>Red</source><target>Rouge</target></trans-unit>`,
      `<xliff version="1.1" xmlns="urn:oasis:names:tc:xliff:document:1.1">`,
    );
    expect(read(text, "fr.xlf")).toEqual([
      { id: size, source: "Size: EU", target: "Taille", needsReview: false },
      { id: RED, source: "Red", target: "Rouge", needsReview: false },
    ]);
  });

  it("a unit with no pimctl id anywhere is an error naming it", () => {
    expect(refusal(xliff12(`<trans-unit id="26"><source>Red</source><target>Rouge</target></trans-unit>`), "fr.xlf")).toContain(
      'fr.xlf: unit "26" carries no pimctl unit id',
    );
    expect(refusal(`#: src/a.c:12\nmsgid "Red"\nmsgstr "Rouge"\n`, "fr.po")).toContain('fr.po: the entry "Red" carries no pimctl unit id');
  });

  it("namespace-prefixed XLIFF elements are read by their XLIFF names; another namespace's element in a target is refused, never dropped", () => {
    const text = xliff12(
      `<x:trans-unit xmlns:x="urn:oasis:names:tc:xliff:document:1.1" id="${xml(RED)}"><x:source>Red</x:source><target>Rouge</target></x:trans-unit>` +
        `<trans-unit id="${xml(NAME)}"><source>Colour</source><target>Couleur</target><o:note xmlns:o="urn:other">not pimctl's</o:note></trans-unit>`,
    );
    expect(read(text, "fr.xlf")).toEqual([
      { id: RED, source: "Red", target: "Rouge", needsReview: false },
      { id: NAME, source: "Colour", target: "Couleur", needsReview: false },
    ]);
    const foreign = xliff12(`<trans-unit id="${xml(RED)}"><source>Red</source><target>Rou<o:b xmlns:o="urn:other">ge</o:b></target></trans-unit>`);
    expect(refusal(foreign, "fr.xlf")).toContain(`unit ${RED}: <target> holds inline markup (<{urn:other}b>)`);
  });
});

describe("a unit found twice, or none", () => {
  it("the same msgctxt twice with different msgstr is an error, as in CSV and XLIFF; the same translation twice is one unit", () => {
    const entry = (target: string) => `msgctxt "${po(RED)}"\nmsgid "Red"\nmsgstr "${target}"\n\n`;
    expect(refusal(entry("Rouge") + entry("Rouge vif"), "fr.po")).toContain(
      `fr.po: unit ${RED} appears twice, with different translations "Rouge" and "Rouge vif"`,
    );
    expect(read(entry("Rouge") + entry("Rouge"), "fr.po")).toEqual([{ id: RED, source: "Red", target: "Rouge", needsReview: false }]);
    const csv = `id,source,target\n"${RED.replace(/"/g, '""')}",Red,Rouge\n"${RED.replace(/"/g, '""')}",Red,Rouge vif\n`;
    expect(refusal(csv, "fr.csv")).toContain(`unit ${RED} appears twice, with different translations`);
  });

  it("a template's empty copy (po2xliff -t) adds nothing; copies with different sources are an error", () => {
    const unit = (source: string, target: string, state = "translated") =>
      `<trans-unit id="${xml(RED)}"><source>${source}</source><target state="${state}">${target}</target></trans-unit>`;
    expect(read(xliff12(unit("Red", "", "new") + unit("Red", "Rouge")), "fr.xlf")).toEqual([{ id: RED, source: "Red", target: "Rouge", needsReview: false }]);
    expect(refusal(xliff12(unit("Red", "Rouge") + unit("Crimson", "")), "fr.xlf")).toContain(
      `unit ${RED} appears twice, with different source texts "Red" and "Crimson"`,
    );
  });

  it("a file in which no unit is found is an error (exit 1), never 'Would write 0 translations' with exit 0", async () => {
    const dir = await mkdtemp(path.join(tmpdir(), "pimctl-tr-none-"));
    try {
      await mkdir(path.join(dir, "catalogue"));
      await writeFile(path.join(dir, "pimctl.yaml"), "dir: catalogue\n");
      await writeFile(path.join(dir, "catalogue", "c.yaml"), "attributes:\n  - name: Colour\n    type: text\n");
      await writeFile(path.join(dir, "fr.xlf"), xliff12(`<o:trans-unit xmlns:o="urn:other" id="${xml(NAME)}"><o:source>Colour</o:source></o:trans-unit>`));
      const io = memoryIo({ cwd: dir, env: {} });
      expect(await run(["translations", "import", "fr.xlf", "--dry-run"], io)).toBe(1);
      expect(io.err.join("")).toContain("fr.xlf: no translation unit found");
    } finally {
      await rm(dir, { recursive: true, force: true });
    }
  });
});

describe("review marks", () => {
  const unit = (attrs: string, state: string) =>
    `<trans-unit id="${xml(RED)}"${attrs}><source>Red</source><target${state ? ` state="${state}"` : ""}>Rouge</target></trans-unit>`;
  it.each([
    ["po2xliff's fuzzy: needs-translation, not approved", true, "", "needs-translation"],
    ["pimctl's outdated: needs-review-translation", true, "", "needs-review-translation"],
    ["approved by translate-toolkit, which leaves the state", false, ` approved="yes"`, "needs-review-translation"],
    ["translated, not approved", false, ` approved="no"`, "translated"],
    ["new with a target typed in (no tool changed the state)", false, "", "new"],
  ])("XLIFF 1.2, %s: still marked for review: %s", (_, needsReview, attrs, state) => {
    expect(read(xliff12(unit(attrs, state)), "fr.xlf")[0]!.needsReview).toBe(needsReview);
  });

  it("XLIFF 2.0: pimctl's subState marks it while the state is initial; a tool that advanced the state cleared it", () => {
    const doc = (segment: string) =>
      `<xliff xmlns="urn:oasis:names:tc:xliff:document:2.0" version="2.0" srcLang="en" trgLang="fr"><file id="f"><unit id="u1" name="${xml(RED)}">` +
      `<segment ${segment}><source>Red</source><target>Rouge</target></segment></unit></file></xliff>`;
    expect(read(doc(`state="initial" subState="pimctl:needs-review"`), "fr.xlf")[0]!.needsReview).toBe(true);
    expect(read(doc(`subState="pimctl:needs-review"`), "fr.xlf")[0]!.needsReview).toBe(true);
    expect(read(doc(`state="translated" subState="pimctl:needs-review"`), "fr.xlf")[0]!.needsReview).toBe(false);
  });
});

let dir: string | undefined;
afterEach(async () => {
  if (dir) await rm(dir, { recursive: true, force: true });
  dir = undefined;
});
async function project(): Promise<string> {
  dir = await mkdtemp(path.join(tmpdir(), "pimctl-tr-tools-"));
  await mkdir(path.join(dir, "catalogue"));
  await writeFile(path.join(dir, "pimctl.yaml"), "dir: catalogue\n");
  await writeFile(
    path.join(dir, "catalogue", "c.yaml"),
    "attributes:\n  - name: Colour\n    type: selectbox\n    values:\n      - value: Red\n      - value: Blue, navy; dark\n",
  );
  return dir;
}
const cli = (...args: string[]) => cliIn(dir!, args);

describe("XML character references name XML characters", () => {
  it.each([
    ["&#x0;", "U+0000"],
    ["&#xD800;", "U+D800"],
    ["&#x110000;", "past U+10FFFF"],
    ["&#xFFFE;", "U+FFFE"],
    ["&#1;", "U+0001"],
  ])("%s in a target is refused with the unit and the code point; nothing is written", async (ref, named) => {
    await project();
    const before = await readFile(path.join(dir!, "catalogue", "c.yaml"), "utf8");
    await writeFile(path.join(dir!, "fr.xlf"), xliff12(`<trans-unit id="${xml(RED)}">\n<source>Red</source>\n<target>Rou${ref}ge</target></trans-unit>`));
    const r = await cli("translations", "import", "fr.xlf");
    expect(r.code).toBe(1);
    expect(r.stderr).toContain(`fr.xlf:5: unit ${RED}: the character reference ${ref}`);
    expect(r.stderr).toContain(named);
    expect(await readFile(path.join(dir!, "catalogue", "c.yaml"), "utf8")).toBe(before);
  });

  it("references to XML characters are read (astral ones too); inside comments and CDATA they are text", () => {
    const text = xliff12(`<!-- &#x0; --><trans-unit id="${xml(RED)}"><source>Red</source><target>&#x1F600;&#9;<![CDATA[&#x0;]]></target></trans-unit>`);
    expect(read(text, "fr.xlf")[0]!.target).toBe("\u{1F600}\t&#x0;");
  });
});

describe("a master text XML cannot carry", () => {
  it("XLIFF export refuses it naming the unit and the code point (it wrote a file no XML parser reads); PO and CSV carry it", async () => {
    await project();
    await writeFile(path.join(dir!, "catalogue", "c.yaml"), 'attributes:\n  - name: Finish\n    type: text\n    note: "a\\u0001b\\uFFFEc"\n');
    const note = 'attribute["Finish"].version["French"].field["note"]';
    for (const format of ["xliff", "xliff2"]) {
      const r = await cli("translations", "export", "--language", "French", "--format", format);
      expect(r.code, format).toBe(1);
      expect(r.stderr).toContain(`unit ${note}: its master text holds U+0001, which XML cannot carry`);
      expect(r.stdout).toBe("");
    }
    for (const format of ["po", "csv"]) expect((await cli("translations", "export", "--language", "French", "--format", format)).code, format).toBe(0);
  });
});

describe("CSV saved by Excel in German or French", () => {
  it("`;` between cells (told from the header), CRLF, cells quoted for a `;` or a comma: imports", async () => {
    await project();
    const q = (s: string) => `"${s.replace(/"/g, '""')}"`;
    const blue = 'attribute["Colour"].value["Blue, navy; dark"].version["French"]';
    await writeFile(
      path.join(dir!, "fr.csv"),
      `\uFEFFid;state;source;target;notes\r\n${q(RED)};new;Red;Rouge;\r\n${q(blue)};new;${q("Blue, navy; dark")};${q("Bleu; marine, foncé")};\r\n`,
    );
    const r = await cli("translations", "import", "fr.csv");
    expect(r.code, r.stderr).toBe(0);
    expect(r.stderr).toContain("Wrote 2 translations");
    const text = await readFile(path.join(dir!, "catalogue", "c.yaml"), "utf8");
    expect(text).toContain("French: Rouge");
    expect(text).toContain("French: Bleu; marine, foncé");
  });

  it("a first line `sep=;` (Excel's hint) names the separator", () => {
    expect(read(`sep=;\r\nid;source;target\r\n"${RED.replace(/"/g, '""')}";Red;Rouge\r\n`, "fr.csv")).toEqual([
      { id: RED, source: "Red", target: "Rouge", needsReview: false },
    ]);
  });
});
