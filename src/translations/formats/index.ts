/** The exchange formats by name, and the format of a file being imported. */
import { PimctlError } from "../../errors.js";
import { oneUnitPerId } from "./copies.js";
import { readCsv, writeCsv } from "./csv.js";
import { readPo, writePo } from "./po.js";
import { readXliff } from "./xliff-read.js";
import { writeXliff12, writeXliff2 } from "./xliff-write.js";
import type { ExportFormat, ReadUnit, UnitFile } from "./units.js";

export * from "./units.js";

export function writeUnits(format: ExportFormat, file: UnitFile): string {
  switch (format) {
    case "xliff":
      return writeXliff12(file);
    case "xliff2":
      return writeXliff2(file);
    case "po":
      return writePo(file);
    case "csv":
      return writeCsv(file);
  }
}

/** A charset a file declares that is not UTF-8 (a PO header's, an XML declaration's): its name, else undefined. */
function otherCharset(head: string): string | undefined {
  const declared = /^<\?xml[^>]*\bencoding\s*=\s*["']([^"']+)["']/i.exec(head)?.[1] ?? /^"Content-Type:[^"]*charset=([\w.:-]+)/im.exec(head)?.[1];
  return declared && !/^utf-?8$/i.test(declared) ? declared : undefined;
}

/**
 * PO, CSV or XLIFF (1.2 or 2.0, told apart by the file's version attribute): by extension, else
 * by the first bytes. `text` is already read as UTF-8 (the workflow refuses other bytes); a file
 * that declares another charset is refused too, as its texts would otherwise be read wrong.
 */
export function readUnits(text: string, name: string): ReadUnit[] {
  const head = text.replace(/^\uFEFF/, "").trimStart();
  const charset = otherCharset(head);
  if (charset)
    throw new PimctlError(
      "io",
      `${name} declares the charset ${charset}; pimctl reads UTF-8 only: convert it (msgconv -t UTF-8, iconv -t UTF-8) and change the declaration`,
    );
  return oneUnitPerId(readFormat(text, head, name), name);
}

function readFormat(text: string, head: string, name: string): ReadUnit[] {
  const lower = name.toLowerCase();
  if (/\.(xlf|xliff|xml)$/.test(lower) || head.startsWith("<")) return readXliff(text, name);
  if (/\.(po|pot)$/.test(lower) || /^(#|msgid|msgctxt)/.test(head)) return readPo(text, name);
  if (lower.endsWith(".csv") || /^(sep=.\r?\n)?"?id"?[,;]/.test(head)) return readCsv(text, name);
  throw new PimctlError("usage", `${name}: cannot tell its format; name it .xlf, .po or .csv`);
}
