/**
 * gettext PO through gettext-parser: msgctxt is the unit id (so equal master
 * texts stay separate units), msgid the master text, msgstr the translation;
 * notes are extracted comments (#.), an outdated translation is #, fuzzy.
 * msgfmt --check accepts the files (test/translations/formats.test.ts).
 */
import gettext from "gettext-parser";
import type { PoEntry } from "gettext-parser";
import { PimctlError } from "../../errors.js";
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
        comments: { extracted: u.notes.join("\n"), ...(u.state === "needs-review" ? { flag: "fuzzy" } : {}) },
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

export function readPo(text: string, name: string): ReadUnit[] {
  let data;
  try {
    data = po.parse(text, { defaultCharset: "utf-8" });
  } catch (e) {
    throw new PimctlError("invalid_value", `${name} is not a PO file gettext can read: ${(e as Error).message}`);
  }
  const units: ReadUnit[] = [];
  for (const [ctx, entries] of Object.entries(data.translations)) {
    for (const entry of Object.values(entries)) {
      if (ctx === "" && entry.msgid === "") continue; // the header
      if (!ctx)
        throw new PimctlError(
          "invalid_value",
          `${name}: the entry "${entry.msgid}" has no msgctxt; pimctl's units carry their id there (export the file again)`,
        );
      units.push({ id: ctx, source: entry.msgid, target: entry.msgstr[0] ?? "", needsReview: /\bfuzzy\b/.test(entry.comments?.flag ?? "") });
    }
  }
  return units;
}
