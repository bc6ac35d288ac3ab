/**
 * gettext PO through gettext-parser: msgctxt is the unit id (so equal master
 * texts stay separate units), msgid the master text, msgstr the translation;
 * notes are extracted comments (#.), an outdated translation is #, fuzzy.
 * The id is also the entry's `#:` reference, where translate-toolkit's
 * converters carry it (unit-ids.ts): an entry without msgctxt (xliff2po's) is
 * read by its references, one unit per id (msguniq merges entries of equal
 * texts into one with several). msgfmt --check accepts the files
 * (test/translations/formats.test.ts).
 */
import gettext from "gettext-parser";
import type { PoEntry } from "gettext-parser";
import { PimctlError, PimctlErrors } from "../../errors.js";
import { isUnitId, poReference, referenceIds } from "./unit-ids.js";
import { sameLineEnd, type ReadUnit, type UnitFile } from "./units.js";

const { po } = gettext as unknown as typeof import("gettext-parser");

export function writePo(file: UnitFile, now: Date = new Date()): string {
  const translations: Record<string, Record<string, PoEntry>> = { "": { "": { msgid: "", msgstr: [""] } } };
  for (const u of file.units) {
    translations[u.id] = {
      [u.source]: {
        msgctxt: u.id,
        msgid: u.source,
        msgstr: [sameLineEnd(u.target, u.source)],
        comments: { extracted: u.notes.join("\n"), reference: poReference(u.id), ...(u.state === "needs-review" ? { flag: "fuzzy" } : {}) },
      },
    };
  }
  const date = now.toISOString().replace(/T(\d\d:\d\d).*$/, " $1+0000");
  const headers = {
    "Project-Id-Version": "pimctl catalogue",
    "PO-Revision-Date": date,
    "Last-Translator": "pimctl translations export",
    "Language-Team": file.version,
    Language: file.targetLanguage,
    "MIME-Version": "1.0",
    "Content-Type": "text/plain; charset=UTF-8",
    "Content-Transfer-Encoding": "8bit",
    "X-Pimctl-Version": file.version,
    "X-Source-Language": file.sourceLanguage,
  };
  return po.compile({ charset: "utf-8", headers, translations }, { foldLength: 0 }).toString("utf8");
}

/** Marks each entry's msgctxt with the entry's ordinal: "\u0001N\u0001". */
const ORDINAL = /^\u0001(\d+)\u0001/;

/**
 * gettext-parser keys entries by msgctxt and msgid, so a second entry with both equal would
 * replace the first unseen (the same unit twice, with another translation). Each entry's
 * msgctxt (one is added where there is none) starts with the entry's ordinal before
 * parsing, which keeps every entry apart; readPo takes it off again.
 */
function numberEntries(text: string): string {
  let n = 0;
  let context = false;
  const lines = text.split("\n").map((line) => {
    if (/^msgctxt\s/.test(line)) {
      context = true;
      return line.replace(/^msgctxt([ \t]+)"/, `msgctxt$1"\u0001${n}\u0001`);
    }
    if (!/^msgid\s/.test(line)) return line;
    const numbered = context ? line : `msgctxt "\u0001${n}\u0001"\n${line}`;
    ((context = false), n++);
    return numbered;
  });
  return lines.join("\n");
}

function parsePo(text: string, name: string): Array<{ context: string; entry: PoEntry }> {
  let data;
  try {
    data = po.parse(numberEntries(text), { defaultCharset: "utf-8" });
  } catch (e) {
    throw new PimctlError("invalid_value", `${name} is not a PO file gettext can read: ${(e as Error).message}`);
  }
  const entries: Array<{ ordinal: number; context: string; entry: PoEntry }> = [];
  for (const [ctx, byId] of Object.entries(data.translations)) {
    const ordinal = ORDINAL.exec(ctx);
    for (const entry of Object.values(byId))
      entries.push({ ordinal: ordinal ? Number(ordinal[1]) : -1, context: ordinal ? ctx.slice(ordinal[0].length) : ctx, entry });
  }
  return entries.sort((a, b) => a.ordinal - b.ordinal);
}

export function readPo(text: string, name: string): ReadUnit[] {
  const units: ReadUnit[] = [];
  const unplaced: PimctlError[] = [];
  for (const { context, entry } of parsePo(text, name)) {
    if (context === "" && entry.msgid === "") continue; // the header
    const ids = isUnitId(context) ? [context] : referenceIds(entry.comments?.reference);
    if (!ids.length)
      unplaced.push(
        new PimctlError(
          "invalid_value",
          `${name}: the entry ${JSON.stringify(entry.msgid)} carries no pimctl unit id (pimctl writes it as the msgctxt and as a #: reference); ` +
            "export the file again, or keep the references when converting it",
        ),
      );
    const needsReview = /\bfuzzy\b/.test(entry.comments?.flag ?? "");
    for (const id of ids) units.push({ id, source: entry.msgid, target: entry.msgstr[0] ?? "", needsReview });
  }
  if (unplaced.length) throw new PimctlErrors(unplaced);
  return units;
}
