/**
 * CSV (RFC 4180: comma, double quotes, CRLF rows) for spreadsheets: one row a
 * unit, columns id, state, source, target, notes (notes joined with " | ").
 * The state column is for people: spreadsheets do not change it when a cell
 * is edited, so import does not read it. A UTF-8 byte order mark is written so spreadsheet programs read the
 * accents right; the reader drops it. Excel saves CSV with `;` between cells where the
 * locale writes decimals with a comma (German, French, ...): the reader takes the separator
 * that splits the header row into pimctl's columns (or the one a first line "sep=;" names).
 */
import { PimctlError } from "../../errors.js";
import type { ReadUnit, UnitFile } from "./units.js";

const HEADER = ["id", "state", "source", "target", "notes"] as const;

const cell = (s: string): string => (/[",\r\n]/.test(s) || /^\s|\s$/.test(s) ? `"${s.replace(/"/g, '""')}"` : s);

export function writeCsv(file: UnitFile): string {
  const rows = [HEADER.join(","), ...file.units.map((u) => [u.id, u.state, u.source, u.target, u.notes.join(" | ")].map(cell).join(","))];
  return `\uFEFF${rows.join("\r\n")}\r\n`;
}

/** RFC 4180 rows; quoted cells may hold the separator, quotes ("") and line breaks. */
function parseRows(text: string, name: string, separator: string): string[][] {
  const rows: string[][] = [];
  let row: string[] = [];
  let cur = "";
  let quoted = false;
  let line = 1;
  for (let i = 0; i < text.length; i++) {
    const ch = text[i]!;
    if (quoted) {
      if (ch === '"' && text[i + 1] === '"') ((cur += '"'), i++);
      else if (ch === '"') quoted = false;
      else {
        if (ch === "\n") line++;
        cur += ch;
      }
    } else if (ch === '"' && cur === "") quoted = true;
    else if (ch === separator) (row.push(cur), (cur = ""));
    else if (ch === "\n" || ch === "\r") {
      if (ch === "\r" && text[i + 1] === "\n") i++;
      (row.push(cur), rows.push(row), (row = []), (cur = ""), line++);
    } else cur += ch;
  }
  if (quoted) throw new PimctlError("invalid_value", `${name}:${line}: a quoted cell is not closed`);
  if (cur !== "" || row.length) (row.push(cur), rows.push(row));
  return rows.filter((r) => r.length > 1 || r[0] !== "");
}

const SEPARATORS = [",", ";"] as const;

/** The cell separator and the text after an Excel "sep=X" line: the one named there, else the one whose header row has pimctl's columns. */
function separatorOf(text: string, name: string): { separator: string; body: string } {
  const hint = /^sep=([,;])\r?\n/.exec(text);
  if (hint) return { separator: hint[1]!, body: text.slice(hint[0].length) };
  const header = text.slice(0, text.search(/\r?\n|$/));
  const fits = SEPARATORS.find((sep) => {
    const cells = parseRows(header, name, sep)[0] ?? [];
    return ["id", "source", "target"].every((c) => cells.includes(c));
  });
  return { separator: fits ?? ",", body: text };
}

export function readCsv(text: string, name: string): ReadUnit[] {
  const { separator, body } = separatorOf(text.replace(/^\uFEFF/, ""), name);
  const rows = parseRows(body, name, separator);
  const header = rows.shift() ?? [];
  const col = (c: string) => header.indexOf(c);
  for (const c of ["id", "source", "target"])
    if (col(c) === -1)
      throw new PimctlError("invalid_value", `${name}: the header has no "${c}" column (expected ${HEADER.join(",")}, separated by commas or semicolons)`);
  return rows.map((r) => ({ id: r[col("id")] ?? "", source: r[col("source")] ?? "", target: r[col("target")] ?? "", needsReview: false }));
}
