/**
 * The translators' tools on pimctl's exports: the recipe test/translations/interop.test.ts
 * runs live (where translate-toolkit and GNU gettext are installed) and
 * scripts/interop-fixtures.mjs runs to vendor the tools' outputs
 * (test/fixtures/translations/interop/, README.md there).
 *
 * The project (interop/project) has French texts translated, missing and outdated. pimctl
 * exports them; a translator fills each missing text and rewrites the outdated one
 * (fillPo: by master text, clearing `#, fuzzy`, as Poedit does); the tools convert,
 * filter, merge; `translations import` must then find every unit of each output.
 */
import { execFileSync, spawnSync } from "node:child_process";
import { mkdirSync, readFileSync, writeFileSync } from "node:fs";
import path from "node:path";

export const FIXTURES = path.resolve(import.meta.dirname, "../fixtures/translations/interop");
export const PROJECT = path.join(FIXTURES, "project");

/** The translator's French, by master text. */
export const FRENCH: Record<string, string> = {
  Blue: "Bleu",
  'Navy "dark" & <grey>': "Marine « foncé » & <gris>",
  "Finish colour": "Couleur de finition",
  "Shown on the\nproduct page.\n": "Affichée sur la\npage produit.\n",
  Red: "Rouge",
  "Size: EU": "Taille : UE",
  Small: "Petit",
  "Main material.": "Matériau principal",
};

/** Unit ids by what each file holds: every missing and outdated text, or the missing ones only. */
export const MISSING = [
  'attribute["Colour"].value["Blue"].version["French"]',
  'attribute["Colour"].value["Navy \\"dark\\" & <grey>"].version["French"]',
  'attribute["Finish colour"].value["Red"].version["French"]',
  'attribute["Finish colour"].version["French"].field["name"]',
  'attribute["Finish colour"].version["French"].field["note"]',
  'attribute["Size: EU"].value["Small"].version["French"]',
  'attribute["Size: EU"].version["French"].field["name"]',
];
export const OUTDATED = 'attribute["Material"].version["French"].field["note"]';

/** What importing an output must do: the units written (sorted), and that nothing else is left. */
export interface Flow {
  name: string;
  /** The tools it runs (all must be installed for the live check). */
  tools: string[];
  /** The file it leaves in `dir` (from the exports fr.po, fr.xlf, fr-missing.xlf there). */
  output: string;
  run: (dir: string) => void;
  written: string[];
  /** Instead: the import is refused with this message, and nothing is written. */
  refused?: string;
}

const tool = (dir: string, cmd: string, args: string[], input?: string): string =>
  execFileSync(cmd, args, { cwd: dir, encoding: "utf8", stdio: [input === undefined ? "ignore" : "pipe", "pipe", "pipe"], ...(input ? { input } : {}) });
const read = (dir: string, file: string) => readFileSync(path.join(dir, file), "utf8");
const write = (dir: string, file: string, text: string) => writeFileSync(path.join(dir, file), text);
const fill = (dir: string, from: string, to: string) => write(dir, to, fillPo(read(dir, from)));
const TT = ["--progress=none"];

/** The translate-toolkit round trip through PO: xliff2po of the template, translated, po2xliff -t with the template. */
function withTemplate(dir: string, template: string, output: string): void {
  tool(dir, "xliff2po", [...TT, "-i", template, "-o", `${template}.po`]);
  fill(dir, `${template}.po`, `${template}-filled.po`);
  tool(dir, "po2xliff", [...TT, "-t", template, "-i", `${template}-filled.po`, "-o", output]);
}

export const FLOWS: Flow[] = [
  {
    name: "po2xliff: pimctl's PO, translated, converted to XLIFF 1.1 (ids in po-reference context groups)",
    tools: ["po2xliff"],
    output: "po2xliff.xlf",
    run: (dir) => (fill(dir, "fr.po", "fr-filled.po"), tool(dir, "po2xliff", [...TT, "-i", "fr-filled.po", "-o", "po2xliff.xlf"])),
    written: [...MISSING, OUTDATED].sort(),
  },
  {
    name: "xliff2po: pimctl's XLIFF converted to PO (ids in #: references), translated",
    tools: ["xliff2po"],
    output: "xliff2po.po",
    run: (dir) => (tool(dir, "xliff2po", [...TT, "-i", "fr.xlf", "-o", "xliff2po-empty.po"]), fill(dir, "xliff2po-empty.po", "xliff2po.po")),
    written: [...MISSING, OUTDATED].sort(),
  },
  {
    name: 'xliff2po --duplicates=merge: one entry for the two texts whose master is "Red", both ids in its #: references',
    tools: ["xliff2po"],
    output: "xliff2po-merge.po",
    run: (dir) => (
      tool(dir, "xliff2po", [...TT, "--duplicates=merge", "-i", "fr.xlf", "-o", "xliff2po-merge-empty.po"]),
      fill(dir, "xliff2po-merge-empty.po", "xliff2po-merge.po")
    ),
    // The merged entry keeps the first unit's translation ("Rouge"), which is the second's too.
    written: [...MISSING, OUTDATED].sort(),
  },
  {
    name: "po2xliff -t: the missing texts' XLIFF as template, its xliff2po PO translated (namespace-prefixed copies)",
    tools: ["xliff2po", "po2xliff"],
    output: "po2xliff-t.xlf",
    run: (dir) => withTemplate(dir, "fr-missing.xlf", "po2xliff-t.xlf"),
    written: [...MISSING].sort(),
  },
  {
    name: "po2xliff -t: the whole export as template, the outdated unit retranslated in the PO: two translations of one unit, refused",
    tools: ["xliff2po", "po2xliff"],
    output: "po2xliff-t-changed.xlf",
    run: (dir) => withTemplate(dir, "fr.xlf", "po2xliff-t-changed.xlf"),
    written: [],
    refused: `unit ${OUTDATED} appears twice, with different translations "Tissu principal." and "Matériau principal"; keep one of them`,
  },
  {
    name: "pofilter: the translated PO's units failing endpunc and xmltags checks",
    tools: ["pofilter"],
    output: "pofilter.po",
    run: (dir) => (
      fill(dir, "fr.po", "fr-filled.po"),
      tool(dir, "pofilter", [...TT, "-t", "endpunc", "-t", "xmltags", "-i", "fr-filled.po", "-o", "pofilter.po"])
    ),
    written: [MISSING[1]!, OUTDATED].sort(),
  },
  {
    name: "msgcat: the translated PO sorted by msgid and wrapped at 40 columns",
    tools: ["msgcat"],
    output: "msgcat.po",
    run: (dir) => (fill(dir, "fr.po", "fr-filled.po"), tool(dir, "msgcat", ["--sort-output", "--width=40", "-o", "msgcat.po", "fr-filled.po"])),
    written: [...MISSING, OUTDATED].sort(),
  },
  {
    name: "msgmerge: the translator's PO merged into a fresh export",
    tools: ["msgmerge"],
    output: "msgmerge.po",
    run: (dir) => (fill(dir, "fr.po", "fr-filled.po"), tool(dir, "msgmerge", ["--quiet", "-o", "msgmerge.po", "fr-filled.po", "fr.po"])),
    written: [...MISSING, OUTDATED].sort(),
  },
  {
    name: "msguniq: the translated PO and the translated xliff2po PO concatenated, duplicates unified",
    tools: ["xliff2po", "msguniq"],
    output: "msguniq.po",
    run: (dir) => {
      tool(dir, "xliff2po", [...TT, "-i", "fr.xlf", "-o", "xliff2po-empty.po"]);
      fill(dir, "fr.po", "fr-filled.po");
      fill(dir, "xliff2po-empty.po", "xliff2po-filled.po");
      write(dir, "both.po", `${read(dir, "fr-filled.po")}\n${read(dir, "xliff2po-filled.po").replace(/^#, fuzzy\nmsgid ""\nmsgstr ""\n("[^\n]*\n)+/, "")}`);
      tool(dir, "msguniq", ["-o", "msguniq.po", "both.po"]);
    },
    written: [...MISSING, OUTDATED].sort(),
  },
];

/** Whether a tool is on PATH (each answers --help; pocount has no --version). */
export const installed = (cmd: string): boolean => spawnSync(cmd, ["--help"], { stdio: "ignore" }).status === 0;

/** pocount's string counts of a file: translated, fuzzy, untranslated. */
export function pocount(dir: string, file: string): { translated: number; fuzzy: number; untranslated: number } {
  const out = tool(dir, "pocount", ["--short-strings", file]).replace(/\u001b\[[0-9;]*m/g, "");
  const m = /strings: total: \d+\s*\|\s*(\d+)t\s+(\d+)f\s+(\d+)u/.exec(out);
  if (!m) throw new Error(`pocount printed no counts: ${out}`);
  return { translated: Number(m[1]), fuzzy: Number(m[2]), untranslated: Number(m[3]) };
}

/** A PO string's literal: `"..."` with gettext's escapes. */
const poString = (s: string) => `"${s.replace(/\\/g, "\\\\").replace(/"/g, '\\"').replace(/\n/g, "\\n")}"`;
/** The text of a PO keyword's string lines (`msgid "a"` and the `"b"` lines after it). */
function keywordText(lines: string[], keyword: string): string | undefined {
  const at = lines.findIndex((l) => l.startsWith(`${keyword} "`));
  if (at === -1) return undefined;
  const parts = [lines[at]!.slice(keyword.length + 1)];
  for (let i = at + 1; i < lines.length && lines[i]!.startsWith('"'); i++) parts.push(lines[i]!);
  return parts.map((p) => JSON.parse(p.replace(/\\'/g, "'")) as string).join("");
}

/**
 * The translator: in each entry with an empty msgstr, or marked fuzzy, whose msgid FRENCH
 * knows, the translation is written and the fuzzy flag cleared. Text edits only: every
 * other line of the tool's file stays as the tool wrote it.
 */
export function fillPo(text: string): string {
  return text
    .split(/\n\n/)
    .map((block) => {
      const lines = block.split("\n");
      const msgid = keywordText(lines, "msgid");
      const msgstr = keywordText(lines, "msgstr");
      const fuzzy = lines.some((l) => /^#,.*\bfuzzy\b/.test(l));
      if (!msgid || msgstr === undefined || (msgstr !== "" && !fuzzy) || FRENCH[msgid] === undefined) return block;
      const at = lines.findIndex((l) => l.startsWith("msgstr "));
      let end = at + 1;
      while (end < lines.length && lines[end]!.startsWith('"')) end++;
      lines.splice(at, end - at, `msgstr ${poString(FRENCH[msgid])}`);
      return lines
        .map((l) => (/^#,/.test(l) ? l.replace(/,?\s*\bfuzzy\b/, "") : l))
        .filter((l) => !/^#,?\s*$/.test(l))
        .join("\n");
    })
    .join("\n\n");
}

/** Copies a flow's output, and pimctl's exports it came from, into the fixtures. */
export function vendor(dir: string, flow: Flow): void {
  mkdirSync(path.join(FIXTURES, "outputs"), { recursive: true });
  mkdirSync(path.join(FIXTURES, "exports"), { recursive: true });
  for (const f of ["fr.po", "fr.xlf", "fr-missing.xlf"]) write(path.join(FIXTURES, "exports"), f, read(dir, f));
  write(path.join(FIXTURES, "outputs"), flow.output, read(dir, flow.output));
}
